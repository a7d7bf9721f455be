"""HTTP status codes under the names FastAPI (starlette) gives them."""

from http import HTTPStatus


def _constant_name(status: HTTPStatus) -> str:
    return f"HTTP_{status.value}_{status.name}"


for _status in HTTPStatus:
    globals()[_constant_name(_status)] = _status.value

# starlette's spellings that differ from http.HTTPStatus's names
HTTP_413_REQUEST_ENTITY_TOO_LARGE = 413
HTTP_414_REQUEST_URI_TOO_LONG = 414
HTTP_416_REQUESTED_RANGE_NOT_SATISFIABLE = 416
HTTP_422_UNPROCESSABLE_ENTITY = 422


def phrase(code: int) -> str:
    """The reason phrase of a status ("Not Found"), or "Error" for a code HTTP does not name."""
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return "Error"
