"""Reads of sessions' versions shared by every follow stream of one server process.

A follow stream notices what other processes store by reading its session's version every
``poll_s`` seconds. With many readers on one session (an operator's dashboard, several tabs),
those reads would grow with the readers; here they are shared: at most one read of a session
is in flight at a time, and a read younger than ``max_age`` seconds answers every reader that
asks meanwhile. The read runs as a task of its own, so a reader that goes away mid-read does not
cancel it for the others.
"""

from __future__ import annotations

import asyncio

from agentlog.logs import get_logger
from agentlog.server.hub import SessionKey
from agentlog.sessions.base import GetSessionConfig, SessionService

__all__ = ["VersionReads"]

logger = get_logger("agentlog.server")

_VERSION_ONLY = GetSessionConfig(num_recent_events=0)


class VersionReads:
    """Shared reads of session versions from one store.

    Args:
        store: where the sessions live.
        app_name: the app whose sessions are read.
        max_age: seconds a finished read keeps answering.
    """

    def __init__(self, store: SessionService, app_name: str, max_age: float) -> None:
        self.store = store
        self.app_name = app_name
        self.max_age = max_age
        self.reads = 0
        """Reads sent to the store so far."""
        self._recent: dict[SessionKey, tuple[float, asyncio.Task[int]]] = {}

    async def version(self, key: SessionKey) -> int:
        """The session's version as stored, from a read shared with other readers.

        Raises what ``get_session`` raises (``SessionNotFoundError`` once it is deleted).
        """
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._forget_older_than(now - self.max_age)
        recent = self._recent.get(key)
        if recent is None or (recent[1].done() and now - recent[0] >= self.max_age):
            task = loop.create_task(self._read(key))
            task.add_done_callback(_retrieve)
            recent = self._recent[key] = (now, task)
        # Shielded: this reader's cancellation leaves the read to the others.
        return await asyncio.shield(recent[1])

    async def _read(self, key: SessionKey) -> int:
        self.reads += 1
        user_id, session_id = key
        session = await self.store.get_session(
            app_name=self.app_name, user_id=user_id, session_id=session_id, config=_VERSION_ONLY
        )
        return session.version

    def _forget_older_than(self, cutoff: float) -> None:
        # Bounded by the sessions read within max_age: stale entries go on every call.
        for key in [k for k, (at, task) in self._recent.items() if at < cutoff and task.done()]:
            del self._recent[key]


def _retrieve(task: asyncio.Task[int]) -> None:
    # Every reader that awaited it has seen the failure; this keeps an unawaited one quiet.
    if not task.cancelled() and task.exception() is not None:
        logger.debug("a shared version read failed: %s", task.exception())
