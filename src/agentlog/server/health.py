"""``/healthz`` and ``/readyz``: is the process up, and can it serve.

Liveness answers from the process alone, so a restart is only ever asked for a process that
is stuck, never for a database that is down. Readiness reads the store (the app's state: one
small read on every backend) within a bound, so a load balancer stops sending requests that
would each be a 503, and a probe never hangs on a database that does not answer. Neither needs
an API key, and neither says more than whether the store answered.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from fastapi import APIRouter, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from agentlog.errors import AgentlogError, StoreUnavailableError
from agentlog.logs import get_logger
from agentlog.server.deps import ServerDep
from agentlog.server.schemas import ErrorOut

__all__ = ["READINESS_TIMEOUT_S", "Health", "router"]

logger = get_logger("agentlog.server")

router = APIRouter(tags=["health"])

READINESS_TIMEOUT_S: Final = 5.0
"""How long ``/readyz`` waits for the store before it answers 503."""


class Health(BaseModel):
    """The process's state."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: str = Field(description="'ok' (alive) or 'ready' (the store answered).")
    app: str = Field(description="The app the sessions belong to.")


@router.get("/healthz")
async def health(server: ServerDep) -> Health:
    """Liveness: the process answers. No key needed; the store is not read."""
    return Health(status="ok", app=server.app_name)


@router.get(
    "/readyz",
    response_model=Health,
    responses={503: {"model": ErrorOut, "description": "The session store did not answer."}},
)
async def ready(server: ServerDep) -> Any:
    """Readiness: the session store answered a read. No key needed."""
    try:
        await asyncio.wait_for(
            server.store.get_app_state(app_name=server.app_name), READINESS_TIMEOUT_S
        )
    except TimeoutError:
        detail = f"the session store did not answer within {READINESS_TIMEOUT_S:g} s"
    except StoreUnavailableError as exc:
        logger.warning("not ready: %s", exc)
        detail = "the session store is unavailable (closed, unreachable or locked); see the log"
    except AgentlogError as exc:
        logger.warning("not ready: %s", exc)
        detail = f"reading the session store failed ({type(exc).__name__}); see the log"
    else:
        return Health(status="ready", app=server.app_name)
    return JSONResponse(
        ErrorOut(detail=detail).model_dump(), status_code=status.HTTP_503_SERVICE_UNAVAILABLE
    )
