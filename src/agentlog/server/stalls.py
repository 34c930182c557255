"""Turns paused on a request to a person for too long.

What is pending is :mod:`agentlog.approvals`' rule. A paused turn is *stalled* once its request
has waited longer than the deadline; the server lists those and logs a warning for each, once
per process.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from agentlog.approvals import PendingRequest, pending_requests
from agentlog.errors import AgentlogError
from agentlog.logs import get_logger
from agentlog.sessions.base import SessionService

__all__ = ["StallWatcher", "find_stalled", "pending_requests"]

logger = get_logger("agentlog.server.stalls")


async def find_stalled(
    store: SessionService,
    app_name: str,
    *,
    deadline_s: float,
    user_id: str | None = None,
    idle_since: float | None = None,
    now: float | None = None,
) -> list[PendingRequest]:
    """Requests of paused turns waiting longer than ``deadline_s``, oldest first.

    Only sessions idle for the deadline are loaded (a paused turn's request is its session's
    latest news; a compaction stored after it only delays the report); ``idle_since`` also
    skips those idle since before it (already reported). ``user_id`` ``None`` means every user
    of the app.
    """
    now = time.time() if now is None else now
    cutoff = now - deadline_s
    stalled: list[PendingRequest] = []
    for summary in await store.list_sessions(app_name=app_name, user_id=user_id):
        if summary.last_update_time > cutoff:
            continue
        if idle_since is not None and summary.last_update_time < idle_since:
            continue
        session = await store.get_session(
            app_name=app_name, user_id=summary.user_id, session_id=summary.id
        )
        stalled.extend(r for r in pending_requests(session, now) if r.requested_at <= cutoff)
    stalled.sort(key=lambda r: r.requested_at)
    return stalled


def warn(requests: Sequence[PendingRequest], deadline_s: float) -> None:
    """Log one warning per stalled request."""
    for r in requests:
        logger.warning(
            "approval stalled: %s request %s of turn %s (session %s, user %s) has waited "
            "%.0fs, over the %.0fs deadline",
            r.kind,
            r.request_id,
            r.invocation_id,
            r.session_id,
            r.user_id,
            r.waiting_s,
            deadline_s,
        )


class StallWatcher:
    """Checks every ``interval_s`` and warns once per stalled request (per process).

    Each check after the first loads only the sessions that crossed the deadline since the
    previous one, so its cost follows the traffic, not the size of the store.
    """

    def __init__(
        self, store: SessionService, app_name: str, deadline_s: float, interval_s: float
    ) -> None:
        self._store = store
        self._app_name = app_name
        self._deadline_s = deadline_s
        self._interval_s = interval_s
        self._checked_until: float | None = None
        self._warned: set[str] = set()

    async def check(self, now: float | None = None) -> list[PendingRequest]:
        """One check; returns the requests newly warned about."""
        now = time.time() if now is None else now
        since = None if self._checked_until is None else self._checked_until - self._interval_s
        stalled = await find_stalled(
            self._store, self._app_name, deadline_s=self._deadline_s, idle_since=since, now=now
        )
        self._checked_until = now - self._deadline_s
        fresh = [r for r in stalled if r.request_id not in self._warned]
        self._warned.update(r.request_id for r in fresh)
        warn(fresh, self._deadline_s)
        return fresh

    async def run(self) -> None:
        """Check forever (until cancelled); a failed check is logged and retried later."""
        while True:
            try:
                await self.check()
            except AgentlogError as exc:
                logger.warning("checking for stalled approvals failed: %s", exc)
            await asyncio.sleep(self._interval_s)
