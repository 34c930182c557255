"""agentlog's errors as HTTP answers: a status and a ``detail`` sentence.

An answer never carries what it cannot encode: a request that failed validation because of a
lone surrogate, NaN or an infinity would otherwise fail again while its error was written,
as a plain-text 500. Strings are sent with such characters escaped (``\\ud800``), and the
offending input is echoed only when it encodes, and is small.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from fastapi import FastAPI, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from agentlog.errors import (
    AgentlogError,
    CorruptRecordError,
    InvalidEventError,
    InvalidMemoryEntryError,
    LeaseLostError,
    RequestAbandonedError,
    RequestAlreadyAnsweredError,
    SessionBusyError,
    SessionExistsError,
    SessionNotFoundError,
    StaleSessionError,
    StoreUnavailableError,
    UnknownRequestError,
)
from agentlog.limits import VALUE_ENCODER, sendable
from agentlog.logs import get_logger
from agentlog.server.replay import UnknownEventError

__all__ = ["install_error_handlers"]

logger = get_logger("agentlog.server")


def _status_and_detail(exc: Exception) -> tuple[int, str]:
    if isinstance(exc, SessionNotFoundError):
        # Never says whose: another user's session is simply not there.
        return status.HTTP_404_NOT_FOUND, f"no session {exc.session_id!r}"
    if isinstance(exc, UnknownRequestError | UnknownEventError):
        return status.HTTP_404_NOT_FOUND, str(exc)
    if isinstance(exc, RequestAlreadyAnsweredError | RequestAbandonedError):
        return status.HTTP_409_CONFLICT, str(exc)
    if isinstance(exc, SessionExistsError):
        return status.HTTP_409_CONFLICT, f"session {exc.session_id!r} already exists"
    if isinstance(exc, SessionBusyError):
        return status.HTTP_409_CONFLICT, (
            f"session {exc.session_id!r} is busy: another turn is running on it; try again"
        )
    if isinstance(exc, LeaseLostError):
        return status.HTTP_409_CONFLICT, "the turn lost its hold on the session; try again"
    if isinstance(exc, StaleSessionError):
        return status.HTTP_409_CONFLICT, "the session changed meanwhile; try again"
    if isinstance(exc, InvalidEventError | InvalidMemoryEntryError):
        return status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)
    if isinstance(exc, StoreUnavailableError):
        return status.HTTP_503_SERVICE_UNAVAILABLE, "the session store is unavailable"
    if isinstance(exc, CorruptRecordError):
        logger.error("%s", exc)
        return status.HTTP_500_INTERNAL_SERVER_ERROR, "a stored record is corrupt"
    logger.error("unexpected %s: %s", type(exc).__name__, exc)
    return status.HTTP_500_INTERNAL_SERVER_ERROR, "internal error"


async def _handle(request: Request, exc: Exception) -> JSONResponse:
    code, detail = _status_and_detail(exc)
    return JSONResponse({"detail": sendable(detail)}, status_code=code)


async def _invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 for a request that fails its schema, in FastAPI's shape, always sendable."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse(
        {"detail": [_error(error) for error in errors]},
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
    )


MAX_ECHO_BYTES: Final = 1_000
"""The largest input a validation error repeats back; a longer one is left out."""
MAX_LOC_STEPS: Final = 32
"""The most steps of an error's ``loc`` sent; a deeper place (in a value nested hundreds deep)
ends with ``"..."``."""


def _error(error: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": sendable(str(error.get("type", ""))),
        "loc": _loc(error.get("loc", ())),
        "msg": sendable(str(error.get("msg", ""))),
    }
    if "input" in error:
        echoed = _echo(error["input"])
        if echoed is not None:
            out["input"] = echoed
    ctx = error.get("ctx")
    if isinstance(ctx, Mapping):
        out["ctx"] = {sendable(str(k)): _plain(v) for k, v in ctx.items()}
    return out


def _loc(loc: Sequence[Any]) -> list[int | str]:
    steps: list[int | str] = [
        step if isinstance(step, int) else sendable(str(step)) for step in loc[:MAX_LOC_STEPS]
    ]
    return [*steps, "..."] if len(loc) > MAX_LOC_STEPS else steps


def _echo(value: Any) -> Any:
    """``value`` if it is JSON that encodes as UTF-8 within :data:`MAX_ECHO_BYTES`, else None."""
    try:
        encoded = VALUE_ENCODER.encode(value).encode()
    except (TypeError, ValueError):  # not JSON, NaN or an infinity, a lone surrogate
        return None
    return value if len(encoded) <= MAX_ECHO_BYTES else None


def _plain(value: Any) -> Any:
    if isinstance(value, bool | int | str) or value is None:
        return sendable(value) if isinstance(value, str) else value
    if isinstance(value, float) and value - value == 0.0:
        return value
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [_plain(v) for v in value]
    return sendable(str(value))


def install_error_handlers(app: FastAPI) -> None:
    """Answer agentlog's errors with their HTTP status, and requests that fail their schema
    with a 422 that never repeats what cannot be sent."""
    app.add_exception_handler(AgentlogError, _handle)
    app.add_exception_handler(UnknownEventError, _handle)
    app.add_exception_handler(RequestValidationError, _invalid_request)
