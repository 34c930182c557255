"""Turns paused on a request for longer than the deadline."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from agentlog.server.deps import CallerDep, ServerDep
from agentlog.server.routes.resource import resource_router
from agentlog.server.schemas import StalledApprovals
from agentlog.server.stalls import find_stalled, warn

__all__ = ["router"]

router = resource_router("/approvals", ["approvals"])


@router.get("/stalled")
async def stalled_approvals(
    server: ServerDep,
    caller: CallerDep,
    older_than_s: Annotated[
        float | None,
        Query(ge=0, le=10**9, description="Deadline in seconds (default: the server's)."),
    ] = None,
) -> StalledApprovals:
    """Requests of paused turns waiting longer than the deadline, oldest first (logged as
    warnings). An admin sees every user's; anyone else their own."""
    deadline = server.approval_deadline_s if older_than_s is None else older_than_s
    stalled = await find_stalled(
        server.store,
        server.app_name,
        deadline_s=deadline,
        user_id=None if caller.admin else caller.user_id,
    )
    warn(stalled, deadline)
    return StalledApprovals(deadline_s=deadline, approvals=stalled)
