"""``BackgroundSummarizer``: summaries taken when a session goes idle or ends, off the request path.

A single asyncio task polls the session store every ``poll_interval`` seconds (and wakes at
once when a session is marked ended). It summarises each session of its app that is idle (no
event for ``idle_after`` seconds) or marked ended, unless the store already holds a summary of
the session at its current length, and puts the outcome in a ``SummaryStore``: the record, or
the failure with its problems, or the error. A failed or crashed session is not tried again
until it has new events, so a poison session cannot make the task loop on it.

A scan reads two lists, not sessions: ``list_sessions`` (each session's version and last
update) and the store's ``latest_versions``; only a session due for a summary is loaded.

Given a ``queue`` (on PostgreSQL, :class:`agentlog.jobs.queue.JobQueue`), the scan only
enqueues: a worker takes the summary, so servers sharing a database never each summarise the
same session.
A process enqueues a session version once; the queue's keys absorb the other processes'.

``mark_ended`` only records the session id and wakes the task; it never waits on a summary.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

from agentlog._tasks import cancel_and_wait
from agentlog.errors import SessionNotFoundError
from agentlog.logs import get_logger
from agentlog.sessions.base import Session, SessionService
from agentlog.summary.record.result import Summarizer
from agentlog.summary.stores.base import StoredSummary, SummaryStore

__all__ = ["BackgroundSummarizer", "SummaryQueue"]

logger = get_logger("agentlog.summary")


class SummaryQueue(Protocol):
    """Where a due summary goes to be taken by another process (a job queue)."""

    async def enqueue_summary(
        self, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> bool:
        """Queue the summary of the session at ``version``; False if one is queued already."""
        ...


class BackgroundSummarizer:
    """Summarise an app's sessions in the background when they go idle or end.

    Args:
        summarizer: a ``SummaryService`` or ``ExtractiveSummarizer`` (any ``Summarizer``);
            None with a ``queue``.
        session_service: where the sessions live.
        store: where the summaries go.
        app_name: the app whose sessions are watched.
        idle_after: seconds without an event after which a session counts as idle.
        poll_interval: seconds between scans of the session store.
        clock: the time source (``time.time``), replaceable in tests.
        queue: hand due sessions to this queue instead of summarising them here.
    """

    def __init__(
        self,
        summarizer: Summarizer | None,
        *,
        session_service: SessionService,
        store: SummaryStore,
        app_name: str,
        idle_after: float = 300.0,
        poll_interval: float = 30.0,
        clock: Callable[[], float] = time.time,
        queue: SummaryQueue | None = None,
    ) -> None:
        if idle_after < 0 or poll_interval <= 0:
            raise ValueError("idle_after must be >= 0 and poll_interval > 0")
        if summarizer is None and queue is None:
            raise ValueError("a BackgroundSummarizer needs a summarizer or a queue")
        self.summarizer = summarizer
        self.session_service = session_service
        self.store = store
        self.app_name = app_name
        self.idle_after = idle_after
        self.poll_interval = poll_interval
        self.clock = clock
        self.queue = queue
        self._ended: dict[tuple[str, str], None] = {}
        self._enqueued: dict[tuple[str, str], int] = {}
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
            await cancel_and_wait(task)

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("background summary scan failed; retrying next interval")
            # ``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` returns the
            # wait's result when a cancellation meets a wake-up, and the loop slept on.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_interval):
                    await self._wake.wait()
            self._wake.clear()

    async def run_once(self) -> list[StoredSummary]:
        """One scan: summarise every due session, store and return the outcomes (with a
        ``queue``: enqueue them, and return nothing)."""
        ended = dict(self._ended)
        now = self.clock()
        summarised = await self.store.latest_versions(app_name=self.app_name)
        due: dict[tuple[str, str], int] = {}
        waiting: dict[tuple[str, str], int] = {}
        for session in await self.session_service.list_sessions(app_name=self.app_name):
            key = (session.user_id, session.id)
            if session.version == 0 or summarised.get(key, -1) >= session.version:
                continue
            if key in self._enqueued:
                waiting[key] = self._enqueued[key]
            if key in ended or now - session.last_update_time >= self.idle_after:
                due[key] = session.version
        self._enqueued = waiting  # summarised or deleted sessions drop out
        stored: list[StoredSummary] = []
        for (user_id, session_id), version in due.items():
            if self.queue is not None:
                await self._enqueue(self.queue, user_id, session_id, version)
            elif self.summarizer is not None:
                outcome = await self._summarize(self.summarizer, user_id, session_id)
                if outcome is not None:
                    stored.append(outcome)
        for key in ended:  # an ended session deleted before the scan is simply dropped
            self._ended.pop(key, None)
        return stored

    async def _enqueue(
        self, queue: SummaryQueue, user_id: str, session_id: str, version: int
    ) -> None:
        if self._enqueued.get((user_id, session_id)) == version:
            return
        await queue.enqueue_summary(
            app_name=self.app_name, user_id=user_id, session_id=session_id, version=version
        )
        self._enqueued[(user_id, session_id)] = version

    async def _summarize(
        self, summarizer: Summarizer, user_id: str, session_id: str
    ) -> StoredSummary | None:
        try:
            session: Session = await self.session_service.get_session(
                app_name=self.app_name, user_id=user_id, session_id=session_id
            )
        except SessionNotFoundError:
            return None
        try:
            result = await summarizer.summarize(session)
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
