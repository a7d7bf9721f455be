"""AYON's handler parameter types (`user: CurrentUser`, `project_name: ProjectName`, ...).

Each is `Annotated[type, Depends(function)]` as in AYON; the host's endpoint binder calls the function with its
own parameters bound from the request (path, query, headers) and from `request.state` (the calling user, the
addon). Checks AYON makes in its database are made against what the server sends instead."""

import re
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Request

from ayon_server.entities import UserEntity
from ayon_server.exceptions import AyonException, NotFoundException, UnauthorizedException
from ayon_server.types import NAME_REGEX, PROJECT_NAME_REGEX, USER_NAME_REGEX


class UnprocessableEntityException(AyonException, status=422, detail="Unprocessable entity"):
    """What FastAPI answers for a path or query value that fails validation."""


def _matching(value: str, regex: str, what: str) -> str:
    if re.match(regex, value) is None:
        raise UnprocessableEntityException(f"Invalid {what}: {value!r}")
    return value


# --- the caller ---------------------------------------------------------------------------------------------------


async def dep_current_user(request: Request) -> UserEntity:
    if request.state.user is None:
        raise UnauthorizedException()
    return request.state.user


async def dep_current_user_optional(request: Request) -> UserEntity | None:
    return request.state.user


async def dep_current_addon(request: Request) -> Any:
    return getattr(request.state, "addon", None)


CurrentUser = Annotated[UserEntity, Depends(dep_current_user)]
CurrentUserOptional = Annotated[UserEntity | None, Depends(dep_current_user_optional)]
CurrentAddon = Annotated[Any, Depends(dep_current_addon)]


async def dep_access_token(authorization: str | None = Header(None), token: str | None = Query(None)) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token


AccessToken = Annotated[str | None, Depends(dep_access_token)]


async def dep_sender(x_sender: str | None = Header(None)) -> str | None:
    return x_sender


async def dep_sender_type(x_sender_type: str | None = Header(None)) -> str | None:
    return x_sender_type


Sender = Annotated[str | None, Depends(dep_sender)]
SenderType = Annotated[str | None, Depends(dep_sender_type)]

# --- projects -----------------------------------------------------------------------------------------------------


async def dep_project_name(current_user: CurrentUser, project_name: str = Path(...)) -> str:
    """An existing project the caller may open, spelled as the server stores it."""
    from ayon_server.helpers.project_list import get_project_list

    _matching(project_name, PROJECT_NAME_REGEX, "project name")
    await current_user.ensure_project_access(project_name)
    for project in await get_project_list():
        if project.name.lower() == project_name.lower():
            return project.name
    raise NotFoundException(f"Project {project_name} not found")


async def dep_project_name_or_underscore(current_user: CurrentUser, project_name: str = Path(...)) -> str:
    if project_name == "_":
        return project_name
    return await dep_project_name(current_user, project_name)


async def dep_new_project_name(project_name: str = Path(...)) -> str:
    return _matching(project_name, PROJECT_NAME_REGEX, "project name")


ProjectName = Annotated[str, Depends(dep_project_name)]
ProjectNameOrUnderscore = Annotated[str, Depends(dep_project_name_or_underscore)]
NewProjectName = Annotated[str, Depends(dep_new_project_name)]

# --- names in paths -----------------------------------------------------------------------------------------------


async def dep_user_name(user_name: str = Path(...)) -> str:
    return _matching(user_name, USER_NAME_REGEX, "user name")


async def dep_access_group_name(access_group_name: str = Path(...)) -> str:
    return _matching(access_group_name, NAME_REGEX, "access group name")


async def dep_secret_name(secret_name: str = Path(...)) -> str:
    return _matching(secret_name, NAME_REGEX, "secret name")


UserName = Annotated[str, Depends(dep_user_name)]
AccessGroupName = Annotated[str, Depends(dep_access_group_name)]
SecretName = Annotated[str, Depends(dep_secret_name)]

# --- entity ids in paths: 32 hex digits ------------------------------------------------------------------------------

_ENTITY_ID = r"^[0-9a-f]{32}$"


def _entity_id(parameter: str) -> Any:
    """The parameter type reading the path value named `parameter` and checking it is an entity id."""

    async def dependency(request: Request) -> str:
        value = request.path_params.get(parameter)
        if value is None:
            raise UnprocessableEntityException(f"Missing path parameter {parameter}")
        return _matching(value, _ENTITY_ID, parameter.replace("_", " "))

    dependency.__name__ = f"dep_{parameter}"
    return Annotated[str, Depends(dependency)]


PathEntityID = _entity_id("entity_id")
FolderID = _entity_id("folder_id")
ProductID = _entity_id("product_id")
VersionID = _entity_id("version_id")
RepresentationID = _entity_id("representation_id")
TaskID = _entity_id("task_id")
WorkfileID = _entity_id("workfile_id")
ThumbnailID = _entity_id("thumbnail_id")
EventID = _entity_id("event_id")
LinkID = _entity_id("link_id")
ActivityID = _entity_id("activity_id")
FileID = _entity_id("file_id")

# --- sites --------------------------------------------------------------------------------------------------------

_SITE_ID = r"^[a-z0-9-]+$"


async def dep_site_id(request: Request) -> str | None:
    """`site_id` or its alias `site` in the query."""
    query = request.query_params
    site_id = query.get("site_id") or query.get("site")
    return _matching(site_id, _SITE_ID, "site id") if site_id else None


async def dep_client_site_id(request: Request) -> str | None:
    """The query's `site_id`/`site`, or the x-ayon-site-id header."""
    site_id = await dep_site_id(request) or request.headers.get("x-ayon-site-id")
    return _matching(site_id, _SITE_ID, "site id") if site_id else None


SiteID = Annotated[str | None, Depends(dep_site_id)]
ClientSiteID = Annotated[str | None, Depends(dep_client_site_id)]
