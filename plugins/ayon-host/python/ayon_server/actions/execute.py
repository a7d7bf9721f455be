"""`ActionExecutor`: what `execute_action` receives (who, where, which action) and the builders of its answer.
A launcher answer goes through the server (`launcher` callback), which records the `action.launcher` event and
gives the URI the AYON launcher opens."""

from typing import Any, Literal

from ayon_server._bridge import server_call
from ayon_server.actions.context import ActionContext
from ayon_server.forms import SimpleForm
from ayon_server.logging import logger
from ayon_server.types import OPModel

ResponseType = Literal["form", "launcher", "navigate", "query", "redirect", "simple"]


class ExecuteResponseModel(OPModel):
    type: ResponseType = "simple"
    success: bool = True
    message: str | None = None
    payload: dict[str, Any] | None = None


def _response(
    kind: ResponseType,
    success: bool,
    message: str | None,
    payload: dict[str, Any],
    clipboard: str | None,
    download: str | None,
) -> ExecuteResponseModel:
    """The answer every builder gives, with the sub-actions any answer may carry: text to copy, a file to download."""
    if clipboard:
        payload["extra_clipboard"] = clipboard
    if download:
        payload["extra_download"] = download
    return ExecuteResponseModel(type=kind, success=success, message=message, payload=payload)


class ActionExecutor:
    user: Any  # UserEntity
    sender: str | None = None
    sender_type: str | None = None
    server_url: str = ""
    access_token: str | None = None
    addon_name: str
    addon_version: str
    variant: str
    identifier: str
    context: ActionContext

    async def get_action_config(self) -> dict[str, Any]:
        from ayon_server.addons.library import AddonLibrary

        addon = AddonLibrary.addon(self.addon_name, self.addon_version)
        return await addon.get_action_config(
            identifier=self.identifier, context=self.context, user=self.user, variant=self.variant
        )

    async def get_launcher_response(self, args: list[str], message: str | None = None) -> ExecuteResponseModel:
        """Open the AYON launcher with `args` (it fetches them from the server with the token in the URI)."""
        answer = await server_call("launcher", {"args": list(args), "message": message})
        return ExecuteResponseModel(**answer)

    async def get_launcher_action_response(self, args: list[str], message: str | None = None) -> ExecuteResponseModel:
        """Deprecated spelling of get_launcher_response, still called by core and traypublisher."""
        logger.debug("get_launcher_action_response is deprecated, use get_launcher_response")
        return await self.get_launcher_response(args=args, message=message)

    async def get_simple_response(
        self,
        message: str | None = "Action executed successfully",
        success: bool = True,
        extra_clipboard: str | None = None,
        extra_download: str | None = None,
        **payload: Any,
    ) -> ExecuteResponseModel:
        return _response("simple", success, message, payload, extra_clipboard, extra_download)

    async def get_navigate_response(
        self,
        uri: str,
        message: str | None = None,
        success: bool = True,
        extra_clipboard: str | None = None,
        extra_download: str | None = None,
        **payload: Any,
    ) -> ExecuteResponseModel:
        """Move the web UI to a path within it."""
        return _response("navigate", success, message, {"uri": uri, **payload}, extra_clipboard, extra_download)

    async def get_redirect_response(
        self,
        uri: str,
        new_tab: bool = False,
        message: str | None = None,
        success: bool = True,
        extra_clipboard: str | None = None,
        extra_download: str | None = None,
        **payload: Any,
    ) -> ExecuteResponseModel:
        """Send the browser to a URL, in this tab or a new one."""
        payload = {"uri": uri, "new_tab": new_tab, **payload}
        return _response("redirect", success, message, payload, extra_clipboard, extra_download)

    async def get_query_response(
        self,
        query: dict[str, str | int | float | bool],
        message: str | None = None,
        success: bool = True,
        extra_clipboard: str | None = None,
        extra_download: str | None = None,
        **payload: Any,
    ) -> ExecuteResponseModel:
        """Change the query parameters of the web UI's current page."""
        return _response("query", success, message, {"query": query, **payload}, extra_clipboard, extra_download)

    async def get_form_response(
        self,
        title: str,
        fields: SimpleForm,
        submit_label: str | None = "Submit",
        submit_icon: str = "check",
        cancel_label: str | None = "Cancel",
        cancel_icon: str = "close",
        message: str | None = None,
        success: bool = True,
        extra_clipboard: str | None = None,
        extra_download: str | None = None,
        **payload: Any,
    ) -> ExecuteResponseModel:
        """Ask the user to fill a form; its values come back as the next call's `form_data`."""
        form = {
            "title": title,
            "fields": list(fields),
            "submit_label": submit_label,
            "submit_icon": submit_icon,
            "cancel_label": cancel_label,
            "cancel_icon": cancel_icon,
            **payload,
        }
        return _response("form", success, message, form, extra_clipboard, extra_download)

    async def get_server_action_response(
        self,
        success: bool = True,
        message: str | None = None,
        *,
        query_params: dict[str, Any] | None = None,
        navigate: str | None = None,
        download: str | None = None,
        copy: str | None = None,
        form: SimpleForm | None = None,
        **payload: Any,
    ) -> ExecuteResponseModel:
        """The oldest answer builder, kept by AYON for old addons: one call, the kind chosen by the argument given."""
        message = message if message is not None else f"Action {self.identifier} executed successfully"
        kind = "simple"
        if query_params:
            kind, payload["query"] = "query", query_params
        elif navigate:
            kind, payload["uri"] = "redirect", navigate
        elif form:
            kind = "form"
            payload.update(fields=list(form), title=message, submit_label="Submit", submit_icon="check",
                           cancel_label="Cancel", cancel_icon="close")  # fmt: skip
        return _response(kind, success, message, payload, copy, download)
