"""Folder access lists. AYON computes them from access groups in its database; the host only knows whether the
caller is a manager (no limit), so for anyone else the call is refused rather than guessed."""

from typing import TYPE_CHECKING

from ayon_server.exceptions import NotImplementedException

if TYPE_CHECKING:
    from ayon_server.entities import UserEntity


async def folder_access_list(user: "UserEntity", project_name: str, access_type: str = "read") -> list[str] | None:
    """None (no limit) for managers, as AYON answers them."""
    if user.is_manager:
        return None
    raise NotImplementedException(
        f"Folder access lists of users with limited access ({user.name} in {project_name})"
        " are not available to addon code on Pipewright"
    )
