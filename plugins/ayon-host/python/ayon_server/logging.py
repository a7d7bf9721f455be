"""`logger`, loguru-like, writing one line per entry to stderr (the host's log, which the server copies).

Messages are formatted as loguru does (`"{}"` placeholders from the arguments); newlines are escaped so an entry
stays on one line."""

import os
import sys
import traceback
from typing import Any

__all__ = ["logger", "log_traceback", "critical_error", "log_exception"]

_LEVELS = {"TRACE": 5, "DEBUG": 10, "INFO": 20, "SUCCESS": 25, "WARNING": 30, "ERROR": 40, "CRITICAL": 50}


def _threshold() -> int:
    name = os.environ.get("PIPEWRIGHT_AYON_LOG_LEVEL", "DEBUG").upper()
    return _LEVELS.get(name, _LEVELS["DEBUG"])


def _one_line(text: str) -> str:
    return text.rstrip("\n").replace("\r", "").replace("\n", "\\n")


def _format(message: Any, args: tuple, kwargs: dict) -> str:
    text = str(message)
    if args or kwargs:
        try:
            return text.format(*args, **kwargs)
        except (IndexError, KeyError, ValueError):
            # AYON's own code passes extra arguments without placeholders; show them rather than fail
            return " ".join([text, *map(str, args)])
    return text


class Logger:
    """debug/info/warning/error/critical/trace/success/exception, `bind(**extra)`, `opt(...)`, `log(level, ...)`."""

    def __init__(self, extra: dict[str, Any] | None = None) -> None:
        self._extra = extra or {}
        self._threshold = _threshold()

    def bind(self, **extra: Any) -> "Logger":
        return Logger({**self._extra, **extra})

    def opt(self, *args: Any, **kwargs: Any) -> "Logger":
        return self

    def log(self, level: str | int, message: Any, *args: Any, **kwargs: Any) -> None:
        name = level if isinstance(level, str) else _level_name(level)
        self._write(name.upper(), _format(message, args, kwargs))

    def _write(self, level: str, text: str) -> None:
        if _LEVELS.get(level, 0) < self._threshold:
            return
        context = " ".join(f"{key}={value}" for key, value in self._extra.items())
        prefix = f"{level:<8} {context}: " if context else f"{level:<8} "
        try:
            sys.__stderr__.write(_one_line(prefix + text) + "\n")
            sys.__stderr__.flush()
        except (OSError, ValueError):  # stderr gone: nothing left to tell
            pass

    def trace(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("TRACE", message, *args, **kwargs)

    def debug(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("DEBUG", message, *args, **kwargs)

    def info(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("INFO", message, *args, **kwargs)

    def success(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("SUCCESS", message, *args, **kwargs)

    def warning(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("WARNING", message, *args, **kwargs)

    warn = warning

    def error(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("ERROR", message, *args, **kwargs)

    def critical(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.log("CRITICAL", message, *args, **kwargs)

    def exception(self, message: Any, *args: Any, **kwargs: Any) -> None:
        """An error with the traceback of the exception being handled."""
        self.log("ERROR", f"{_format(message, args, kwargs)}\n{traceback.format_exc()}")

    def add(self, *args: Any, **kwargs: Any) -> int:
        return 0  # sinks are the host's business

    def remove(self, *args: Any, **kwargs: Any) -> None:
        pass


def _level_name(number: int) -> str:
    for name, value in sorted(_LEVELS.items(), key=lambda item: -item[1]):
        if number >= value:
            return name
    return "TRACE"


logger = Logger()


def log_exception(exception: BaseException, message: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """Log an exception with its traceback; return what AYON's ExceptionInfo holds."""
    trace = "".join(traceback.format_exception(type(exception), exception, exception.__traceback__))
    description = message or f"{type(exception).__name__}: {exception}"
    logger.error(f"{description}\n{trace}")
    return {"message": description, "traceback": trace}


def log_traceback(message: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """Log the exception being handled."""
    error = sys.exc_info()[1]
    if error is None:
        logger.error(message or "log_traceback called outside an exception handler")
        return {"message": message or "", "traceback": ""}
    return log_exception(error, message)


def critical_error(message: str = "Critical Error!", **kwargs: Any) -> None:
    """AYON stops the server here; the host logs and carries on (one addon must not stop the others)."""
    logger.critical(message)
