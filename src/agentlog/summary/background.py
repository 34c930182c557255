"""``BackgroundSummarizer``: summaries taken when a session goes idle or ends, off the request path.

A single asyncio task polls the session store every ``poll_interval`` seconds (and wakes at
once when a session is marked ended). It summarises each session of its app that is idle (no
event for ``idle_after`` seconds) or marked ended, unless the store already holds a summary of
the session at its current length, and puts the outcome in a ``SummaryStore``: the record, or
the failure with its problems, or the error. A failed or crashed session is not tried again
until it has new events, so a poison session cannot make the task loop on it.

``mark_ended`` only records the session id and wakes the task; it never waits on a summary.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from agentlog.errors import SessionNotFoundError
from agentlog.logs import get_logger
from agentlog.sessions.base import Session, SessionService
from agentlog.summary.result import Summarizer
from agentlog.summary.store import StoredSummary, SummaryStore

__all__ = ["BackgroundSummarizer"]

logger = get_logger("agentlog.summary")


class BackgroundSummarizer:
    """Summarise an app's sessions in the background when they go idle or end.

    Args:
        summarizer: a ``SummaryService`` or ``ExtractiveSummarizer`` (any ``Summarizer``).
        session_service: where the sessions live.
        store: where the summaries go.
        app_name: the app whose sessions are watched.
        idle_after: seconds without an event after which a session counts as idle.
        poll_interval: seconds between scans of the session store.
        clock: the time source (``time.time``), replaceable in tests.
    """

    def __init__(
        self,
        summarizer: Summarizer,
        *,
        session_service: SessionService,
        store: SummaryStore,
        app_name: str,
        idle_after: float = 300.0,
        poll_interval: float = 30.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if idle_after < 0 or poll_interval <= 0:
            raise ValueError("idle_after must be >= 0 and poll_interval > 0")
        self.summarizer = summarizer
        self.session_service = session_service
        self.store = store
        self.app_name = app_name
        self.idle_after = idle_after
        self.poll_interval = poll_interval
        self.clock = clock
        self._ended: dict[tuple[str, str], None] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the background task is running."""
        return self._task is not None and not self._task.done()

    def mark_ended(self, *, user_id: str, session_id: str) -> None:
        """Queue a finished session for summarising now, whatever its idle time. Never waits."""
        self._ended[(user_id, session_id)] = None
        self._wake.set()

    async def start(self) -> None:
        """Start the background task (a no-op if it runs already)."""
        if not self.running:
            self._task = asyncio.create_task(self._loop(), name="agentlog-summaries")

    async def stop(self) -> None:
        """Stop the task, cancelling a summary in flight (it is taken again on the next start)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("background summary scan failed; retrying next interval")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll_interval)
            self._wake.clear()

    async def run_once(self) -> list[StoredSummary]:
        """One scan: summarise every due session, store and return the outcomes."""
        due: dict[tuple[str, str], None] = dict(self._ended)
        now = self.clock()
        for session in await self.session_service.list_sessions(app_name=self.app_name):
            if now - session.last_update_time >= self.idle_after:
                due[(session.user_id, session.id)] = None
        stored: list[StoredSummary] = []
        for user_id, session_id in due:
            outcome = await self._summarize(user_id, session_id)
            self._ended.pop((user_id, session_id), None)
            if outcome is not None:
                stored.append(outcome)
        return stored

    async def _summarize(self, user_id: str, session_id: str) -> StoredSummary | None:
        try:
            session: Session = await self.session_service.get_session(
                app_name=self.app_name, user_id=user_id, session_id=session_id
            )
        except SessionNotFoundError:
            return None
        previous = await self.store.get(
            app_name=self.app_name, user_id=user_id, session_id=session_id
        )
        if session.version == 0 or (
            previous is not None and previous.session_version >= session.version
        ):
            return None
        try:
            result = await self.summarizer.summarize(session)
            outcome = StoredSummary.from_result(
                result,
                app_name=self.app_name,
                user_id=user_id,
                session_id=session_id,
                version=session.version,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logger.exception("summary of session %s failed", session_id)
            outcome = StoredSummary(
                app_name=self.app_name,
                user_id=user_id,
                session_id=session_id,
                session_version=session.version,
                status="error",
                error=f"{type(exc).__name__}: {exc}"[:2000],
            )
        await self.store.put(outcome)
        return outcome
