"""`SimpleForm`: a list of form fields (plain dicts), built by chained calls, that AYON's web UI and launcher
render for action configuration and form responses."""

from typing import Any, Literal

FormSelectOption = dict[str, Any]  # {"value", "label", optional "icon", "color", "badges"}
SimpleFormField = dict[str, Any]  # {"type", "name", optional "label", "value", "placeholder", ...}
Highlight = Literal["info", "warning", "error"]


def normalize_options(options: list[str] | list[FormSelectOption]) -> list[FormSelectOption]:
    """Strings become {"value": s, "label": s}; dicts must carry value and label, and keep icon/color/badges."""
    normalized: list[FormSelectOption] = []
    for option in options or []:
        if isinstance(option, str):
            normalized.append({"value": option, "label": option})
            continue
        if not isinstance(option, dict):
            raise ValueError("Option must be a string or a dictionary.")
        if "value" not in option or "label" not in option:
            raise ValueError("Option must contain 'value' and 'label' keys.")
        if "badges" in option and not isinstance(option["badges"], list):
            raise ValueError("Badges must be a list.")
        normalized.append({key: option[key] for key in ("value", "label", "icon", "color", "badges") if key in option})
    return normalized


def _field(kind: str, name: str, **optional: Any) -> SimpleFormField:
    """A field dict with the optional keys that were given (None means not given)."""
    return {"type": kind, "name": name, **{key: value for key, value in optional.items() if value is not None}}


class SimpleForm(list):
    def label(self, text: str, *, highlight: Highlight | None = None) -> "SimpleForm":
        """Read-only text between the fields."""
        self.append(_field("label", f"label-{len(self)}", value=text, highlight=highlight))
        return self

    def text(
        self,
        name: str,
        label: str | None = None,
        value: str | None = None,
        *,
        placeholder: str | None = None,
        regex: str | None = None,
        multiline: bool = False,
        syntax: str | None = None,
    ) -> "SimpleForm":
        field = _field("text", name, label=label, placeholder=placeholder, value=value, regex=regex, syntax=syntax)
        if multiline:
            field["multiline"] = True
        self.append(field)
        return self

    def boolean(self, name: str, label: str | None = None, value: bool = False) -> "SimpleForm":
        self.append(_field("boolean", name, value=value, label=label))
        return self

    def select(
        self,
        name: str,
        options: list[str] | list[FormSelectOption],
        label: str | None = None,
        value: str | None = None,
    ) -> "SimpleForm":
        self.append(_field("select", name, options=normalize_options(options), label=label, value=value))
        return self

    def multiselect(
        self,
        name: str,
        options: list[str] | list[FormSelectOption],
        label: str | None = None,
        value: list[str] | None = None,
    ) -> "SimpleForm":
        self.append(_field("multiselect", name, options=normalize_options(options), label=label, value=value))
        return self

    def hidden(self, name: str, value: Any = None) -> "SimpleForm":
        """A value carried along with the form, not shown."""
        self.append(_field("hidden", name, value=value))
        return self

    def integer(
        self,
        name: str,
        label: str | None = None,
        value: int | None = None,
        *,
        placeholder: str | None = None,
        min: int | None = None,  # noqa: A002 - AYON's keyword
        max: int | None = None,  # noqa: A002
    ) -> "SimpleForm":
        self.append(_field("integer", name, label=label, placeholder=placeholder, value=value, min=min, max=max))
        return self

    def float(
        self,
        name: str,
        label: str | None = None,
        value: float | None = None,
        *,
        placeholder: str | None = None,
        min: float | None = None,  # noqa: A002
        max: float | None = None,  # noqa: A002
    ) -> "SimpleForm":
        self.append(_field("float", name, label=label, placeholder=placeholder, value=value, min=min, max=max))
        return self
