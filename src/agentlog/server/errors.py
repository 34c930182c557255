"""agentlog's errors as HTTP answers: a status and a ``detail`` sentence."""

from __future__ import annotations

from fastapi import FastAPI, Request, status
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
    return JSONResponse({"detail": detail}, status_code=code)


def install_error_handlers(app: FastAPI) -> None:
    """Answer agentlog's errors with their HTTP status."""
    app.add_exception_handler(AgentlogError, _handle)
    app.add_exception_handler(UnknownEventError, _handle)
