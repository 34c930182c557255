"""The runner's compaction hook: after a turn's stream has ended, compact in the background.

At the end of a turn the runner hands the hook the session as the turn left it. Choosing the
window there is cheap (a pure function of the events the turn loaded and stored); when a
trigger fires, the rest runs in a task of its own, so the stream ends at once and the next
reply never waits for a summariser: load the overlap if it was not loaded, summarise with a
timeout, validate, store. Any failure is a logged warning and stores nothing. One compaction
per session runs at a time.

A summariser that failed (raised, timed out, returned no compaction event) or returned ``None``
(a deliberate skip, logged at info) is not asked again at the very next turn with a window one
invocation longer: the session waits for ``compaction_interval`` more invocations after the
attempt, twice as many after each further failure in a row (up to :data:`_MAX_BACKOFF` times),
as though the attempt had compacted. A compaction stored, by any path, ends the wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Final, Protocol

from agentlog.compaction.config import EventsCompactionConfig
from agentlog.compaction.summarizer import COMPACTOR_AUTHOR
from agentlog.compaction.window import CompactionWindow, select_window
from agentlog.errors import StaleSessionError
from agentlog.events import Event
from agentlog.logs import get_logger, log_context
from agentlog.sessions.base import GetSessionConfig, Session, SessionService

__all__ = ["CompactionHook", "CompactionQueue", "SessionLock"]

logger = get_logger("agentlog.compaction")

SessionLock = Callable[[tuple[str, str]], AbstractAsyncContextManager[int | None]]
"""The runner's hold on a session, by ``(user_id, session_id)``: its lock in this process and
the session lease, whose fencing token it yields (``None`` for a store without leases)."""


class CompactionQueue(Protocol):
    """Where compactions are deferred to run outside the process that ran the turn
    (``agentlog.jobs.queue.JobQueue``)."""

    async def enqueue_compaction(
        self, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> bool:
        """Defer the compaction the session at ``version`` triggered; False if one was
        already deferred for it."""
        ...


_APPEND_ATTEMPTS: Final = 3
_BACKGROUND: set[asyncio.Task[Event | None]] = set()
"""Every running compaction task: the event loop keeps only weak references to tasks, and a
runner dropped mid-compaction must not take its task with it."""
_VERSION_ONLY: Final = GetSessionConfig(num_recent_events=0)
_MAX_BACKOFF: Final = 16
"""The most intervals a session waits after failures in a row."""
_MAX_HELD: Final = 10_000
"""Sessions waiting after a failure that one hook remembers (the oldest are forgotten)."""


@dataclass(frozen=True, slots=True)
class _Held:
    """A session's wait after an unsuccessful attempt: the newest event timestamp the attempt
    saw, the invocations after it that must come first, and the failures in a row."""

    seen: float
    wait: int
    failures: int


class CompactionHook:
    """Compacts sessions after their turns, as ``config`` says.

    Args:
        config: when and how to compact.
        session_service: where the compaction events go.
        session_lock: the runner's hold on a session, taken only while the compaction event is
            appended, so it never lands in the middle of a turn, in any process.
        queue: defer each due compaction as a job (run by a worker) instead of running it in
            a task of this process.
    """

    def __init__(
        self,
        config: EventsCompactionConfig,
        session_service: SessionService,
        *,
        session_lock: SessionLock | None = None,
        queue: CompactionQueue | None = None,
    ) -> None:
        self.config = config
        self.session_service = session_service
        self._session_lock = session_lock
        self._queue = queue
        self._running: dict[tuple[str, str, str], asyncio.Task[Event | None]] = {}
        self._held: dict[tuple[str, str, str], _Held] = {}

    def after_turn(self, session: Session, invocation_id: str) -> asyncio.Task[Event | None] | None:
        """Start compacting ``session`` (as its turn left it) if a trigger fires; the task, or
        ``None`` when nothing is due or a compaction of this session is still running."""
        key = (session.app_name, session.user_id, session.id)
        if key in self._running:
            return None
        try:
            window = select_window(session.events, self.config)
        except Exception as exc:
            # The stream is ending under the caller: a failure here must not reach it.
            logger.warning(
                "compaction of session %s: choosing the window failed: %s: %s",
                session.id,
                type(exc).__name__,
                exc,
                exc_info=True,
            )
            return None
        if window is None or self._waiting(key, window):
            return None
        work = (
            self._run(session, window, invocation_id)
            if self._queue is None
            else self._defer(self._queue, session)
        )
        task = asyncio.create_task(work, name=f"agentlog-compaction-{session.id}")
        self._running[key] = task
        _BACKGROUND.add(task)
        task.add_done_callback(lambda _: self._running.pop(key, None))
        task.add_done_callback(_BACKGROUND.discard)
        return task

    async def _defer(self, queue: CompactionQueue, session: Session) -> Event | None:
        """Defer the compaction; nothing is stored here, so ``None``."""
        try:
            await queue.enqueue_compaction(
                app_name=session.app_name,
                user_id=session.user_id,
                session_id=session.id,
                version=session.version,
            )
        except Exception as exc:
            logger.warning(
                "compaction of session %s: deferring the job failed; the next turn tries "
                "again: %s: %s",
                session.id,
                type(exc).__name__,
                exc,
            )
        return None

    def _waiting(self, key: tuple[str, str, str], window: CompactionWindow) -> bool:
        """Whether the session still waits after an unsuccessful attempt."""
        held = self._held.get(key)
        if held is None:
            return False
        newer = {e.invocation_id for e in window.events if e.timestamp > held.seen}
        return len(newer) < held.wait

    def _hold(self, session: Session, window: CompactionWindow) -> None:
        """Make the session wait after an unsuccessful attempt on ``window``."""
        key = (session.app_name, session.user_id, session.id)
        before = self._held.pop(key, None)
        failures = 1 if before is None else before.failures + 1
        factor = min(2 ** (failures - 1), _MAX_BACKOFF)
        seen = max((e.timestamp for e in window.events), default=0.0)
        self._held[key] = _Held(seen, self.config.compaction_interval * factor, failures)
        while len(self._held) > _MAX_HELD:
            del self._held[next(iter(self._held))]

    async def wait(self) -> None:
        """Wait for every compaction started so far (and any they are waiting on) to end."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def compact(self, session: Session) -> Event | None:
        """Compact ``session`` now if a trigger fires; the stored compaction event, or ``None``
        (nothing due, or a failure, logged as a warning)."""
        window = select_window(session.events, self.config)
        if window is None:
            return None
        return await self._run(session, window, "-")

    async def _run(
        self, session: Session, window: CompactionWindow, invocation_id: str
    ) -> Event | None:
        with log_context(invocation_id, author=COMPACTOR_AUTHOR):
            try:
                return await self._compact(session, window)
            except Exception as exc:
                logger.warning(
                    "compaction of session %s failed; nothing stored, tried again after "
                    "more turns: %s: %s",
                    session.id,
                    type(exc).__name__,
                    exc,
                    exc_info=True,
                )
                return None

    async def _compact(self, session: Session, window: CompactionWindow) -> Event | None:
        previous = window.previous
        if window.missing_overlap and previous is not None and previous.actions.compaction:
            # The turn loaded only what history needs; the overlap lies in the previous window.
            wider = await self.session_service.get_session(
                app_name=session.app_name,
                user_id=session.user_id,
                session_id=session.id,
                config=GetSessionConfig(
                    after_timestamp=previous.actions.compaction.start_timestamp
                ),
            )
            found = select_window(wider.events, self.config)
            if found is None:
                return None
            window = found
        summarizer = self.config.summarizer
        timeout = self.config.summarizer_timeout
        try:
            event = await asyncio.wait_for(
                summarizer.summarize_events(window.summarizer_input()), timeout
            )
        except TimeoutError:
            self._hold(session, window)
            logger.warning(
                "compaction of session %s: the summariser took over %g s; nothing stored, "
                "tried again after more turns",
                session.id,
                timeout,
            )
            return None
        except Exception:
            self._hold(session, window)
            raise
        if event is None:
            self._hold(session, window)  # a deliberate skip: not now, nor at the next turn
            logger.info(
                "compaction of session %s: the summariser skipped this window; nothing stored, "
                "asked again after more turns",
                session.id,
            )
            return None
        if not isinstance(event, Event) or event.actions.compaction is None:
            self._hold(session, window)
            logger.warning(
                "compaction of session %s: the summariser returned %s, not a compaction event; "
                "nothing stored, tried again after more turns",
                session.id,
                type(event).__name__,
            )
            return None
        problems = self._problems(event, window.events)
        if problems:
            logger.warning(
                "compaction of session %s rejected by its validator; nothing stored: %s",
                session.id,
                "; ".join(problems),
            )
            return None
        if event.branch is None:
            event = event.model_copy(update={"branch": _last_branch(window.events)})
        stored = await self._store(session, event)
        self._held.pop((session.app_name, session.user_id, session.id), None)
        return stored

    def _problems(self, event: Event, window: Sequence[Event]) -> list[str]:
        validator = self.config.validator
        return [] if validator is None else [str(p) for p in validator(event, window)]

    async def _store(self, session: Session, event: Event) -> Event:
        key = (session.user_id, session.id)
        if self._session_lock is None:
            return await self._append(session, event)
        async with self._session_lock(key) as token:
            return await self._append(session.under_lease(token), event)

    async def _append(self, session: Session, event: Event) -> Event:
        current = session
        for _ in range(_APPEND_ATTEMPTS - 1):
            try:
                return await self._append_once(current, event)
            except StaleSessionError:
                # Turns went on while the summariser ran. The window is still right (it covers
                # only finished events), so append after them.
                current = (
                    await self.session_service.get_session(
                        app_name=session.app_name,
                        user_id=session.user_id,
                        session_id=session.id,
                        config=_VERSION_ONLY,
                    )
                ).under_lease(session.lease_token)
        return await self._append_once(current, event)

    async def _append_once(self, session: Session, event: Event) -> Event:
        stored = (await self.session_service.append_event(session, event)).events[-1]
        logger.info(
            "stored compaction %s of session %s, standing in for %d events",
            stored.id,
            session.id,
            len(event.actions.compaction.event_ids) if event.actions.compaction else 0,
        )
        return stored


def _last_branch(events: Sequence[Event]) -> str | None:
    """The agent that spoke last in the window, so the runner can hand the next turn back to
    it when nothing after the compaction names one."""
    for event in reversed(events):
        if event.author != "user":
            return event.branch or event.author
    return None
