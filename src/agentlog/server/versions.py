"""Reads of sessions' turn states shared by every stream of one server process.

A stream that waits on what other processes do reads its session's version and running turn
(``read_turn``: both in one read) when woken, and every ``poll_s`` seconds. With many readers
on one session (an operator's dashboard, several tabs), those reads would grow with the
readers; here they are shared: a read started at or after the time a reader names (the
newest notification it got, or ``max_age`` seconds ago when it only polls) answers every
reader that asks meanwhile, in flight or done. The read runs as a task of its own, so a
reader that goes away mid-read does not cancel it for the others.
"""

from __future__ import annotations

import asyncio

from agentlog.logs import get_logger
from agentlog.server.signals import SessionKey
from agentlog.sessions.base import GetSessionConfig, SessionService
from agentlog.sessions.leases import SessionLeases, TurnState

__all__ = ["VersionReads"]

logger = get_logger("agentlog.server")

_VERSION_ONLY = GetSessionConfig(num_recent_events=0)


class VersionReads:
    """Shared reads of session versions and running turns from one store.

    On a store without leases, only the version is known: ``running`` is always ``None``.

    Args:
        store: where the sessions live.
        app_name: the app whose sessions are read.
        max_age: seconds a read keeps answering readers that only poll.
    """

    def __init__(self, store: SessionService, app_name: str, max_age: float) -> None:
        self.store = store
        self.app_name = app_name
        self.max_age = max_age
        self.reads = 0
        """Reads sent to the store so far."""
        self._recent: dict[SessionKey, tuple[float, asyncio.Task[TurnState]]] = {}

    async def turn(self, key: SessionKey, fresh_since: float | None = None) -> TurnState:
        """The session's version and running turn, from a read started at or after
        ``fresh_since`` (event-loop time; ``max_age`` seconds ago for ``None``), shared with
        other readers.

        Raises what the store raises (``SessionNotFoundError`` once it is deleted).
        """
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._forget_older_than(now - self.max_age)
        since = now - self.max_age if fresh_since is None else fresh_since
        recent = self._recent.get(key)
        if recent is None or recent[0] < since:
            task = loop.create_task(self._read(key))
            task.add_done_callback(_retrieve)
            recent = self._recent[key] = (now, task)
        # Shielded: this reader's cancellation leaves the read to the others.
        return await asyncio.shield(recent[1])

    async def _read(self, key: SessionKey) -> TurnState:
        self.reads += 1
        user_id, session_id = key
        if isinstance(self.store, SessionLeases):
            return await self.store.read_turn(
                app_name=self.app_name, user_id=user_id, session_id=session_id
            )
        session = await self.store.get_session(
            app_name=self.app_name, user_id=user_id, session_id=session_id, config=_VERSION_ONLY
        )
        return TurnState(version=session.version)

    def _forget_older_than(self, cutoff: float) -> None:
        # Bounded by the sessions read within max_age: stale entries go on every call.
        for key in [k for k, (at, task) in self._recent.items() if at < cutoff and task.done()]:
            del self._recent[key]


def _retrieve(task: asyncio.Task[TurnState]) -> None:
    # Every reader that awaited it has seen the failure; this keeps an unawaited one quiet.
    if not task.cancelled() and task.exception() is not None:
        logger.debug("a shared turn read failed: %s", task.exception())
