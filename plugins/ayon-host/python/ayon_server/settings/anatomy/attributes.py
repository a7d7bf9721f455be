"""The project attributes of an anatomy, with their defaults.

AYON builds this model at start from its attribute table; Pipewright's sidecar has no such table, so the model
declares AYON's built-in project attributes (those `setup/attributes.py` deploys, in their order, with their
titles, defaults and checks) and keeps any other attribute the server sends (extra = allow)."""

from datetime import datetime

from pydantic import Extra, Field

from ayon_server.settings.common import BaseSettingsModel

_PRIORITIES = [
    {"value": "urgent", "label": "Urgent"},
    {"value": "high", "label": "High"},
    {"value": "normal", "label": "Normal"},
    {"value": "low", "label": "Low"},
]
_DATE_EXAMPLE = "2021-01-01T00:00:00+00:00"


class ProjectAttribModel(BaseSettingsModel):
    # Plain pydantic fields, as AYON's generated model has: no SettingsField extras (scope, disabled).
    # AYON skips a falsy check (gt=0), so only the non-zero bounds are kept.
    priority: str | None = Field("normal", title="Priority", enum=_PRIORITIES)
    fps: float | None = Field(25, title="FPS", description="Frame rate", example=25)
    resolutionWidth: int | None = Field(
        1920, title="Width", description="Horizontal resolution", example=1920, lt=50000
    )
    resolutionHeight: int | None = Field(
        1080, title="Height", description="Vertical resolution", example=1080, lt=50000
    )
    pixelAspect: float | None = Field(1.0, title="Pixel aspect", example=1.0)
    clipIn: int | None = Field(1, title="Clip In", example=1)
    clipOut: int | None = Field(1, title="Clip Out", example=1)
    frameStart: int | None = Field(1001, title="Start frame", example=1001)
    frameEnd: int | None = Field(1001, title="End frame")
    handleStart: int | None = Field(0, title="Handle start")
    handleEnd: int | None = Field(0, title="Handle end")
    startDate: datetime | None = Field(
        None,
        title="Start date",
        description="Date and time when the project or task or asset was started",
        example=_DATE_EXAMPLE,
    )
    endDate: datetime | None = Field(
        None, title="End date", description="Deadline date and time", example=_DATE_EXAMPLE
    )
    description: str | None = Field(
        None, title="Description", description="Textual description of the entity", example="A very nice entity"
    )

    class Config:
        extra = Extra.allow
