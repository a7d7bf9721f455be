"""AYON's exception family: each carries the HTTP status and the sentence the server answers with."""


class AyonException(Exception):
    """Any error an addon raises on purpose; the server answers {"code": status, "detail": detail}."""

    status: int = 500
    detail: str = "Error"

    def __init__(self, detail: str | None = None, log: bool | str = False, **extra):
        if detail is not None:
            self.detail = detail
        self.log = log
        self.extra = extra
        super().__init__(self.detail)

    def __init_subclass__(cls, *, status: int | None = None, detail: str | None = None, **kwargs) -> None:
        """`class X(AyonException, status=404, detail="Not found")` sets the class defaults; subclasses that assign
        `status`/`detail` in their body (as addons do) work as well."""
        super().__init_subclass__(**kwargs)
        if status is not None:
            cls.status = status
        if detail is not None:
            cls.detail = detail


# The family differs only by status and sentence, so each member is declared on one line (see __init_subclass__).
# fmt: off
class BadRequestException(AyonException, status=400, detail="Bad request"): ...
class UnauthorizedException(AyonException, status=401, detail="Not logged in"): ...
class ForbiddenException(AyonException, status=403, detail="Forbidden"): ...
class NotFoundException(AyonException, status=404, detail="Not found"): ...
class ConflictException(AyonException, status=409, detail="Conflict"): ...
class RangeNotSatisfiableException(AyonException, status=416, detail="Range not satisfiable"): ...
class UnsupportedMediaException(AyonException, status=415, detail="Unsupported media type"): ...
class LowPasswordComplexityException(BadRequestException, detail="Password does not meet complexity requirements"): ...
class NotImplementedException(AyonException, status=501, detail="Not implemented"): ...
class ServiceUnavailableException(AyonException, status=503, detail="Service unavailable"): ...
# fmt: on


class InvalidSettingsException(AyonException, status=500, detail="Invalid settings"):
    """Settings that cannot be used as they are (AYON answers 500 for them)."""


_BY_STATUS = {
    cls.status: cls
    for cls in (
        BadRequestException,
        UnauthorizedException,
        ForbiddenException,
        NotFoundException,
        ConflictException,
        UnsupportedMediaException,
        RangeNotSatisfiableException,
        NotImplementedException,
        ServiceUnavailableException,
    )
}


def exception_for(status: int, detail: str) -> AyonException:
    """The exception an error answer of the server becomes in addon code."""
    cls = _BY_STATUS.get(status, AyonException)
    error = cls(detail)
    error.status = status
    return error
