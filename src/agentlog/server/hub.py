"""The live fan-out of running turns: the only state a server process keeps.

Each running turn is a :class:`LiveTurn` holding every frame it has published (its stored
events and any error, then its end) and only its newest draft. Any number of clients follow
it, each at its own pace: a slow client skips drafts that later frames have superseded and
never slows the turn down. A turn is registered before its run starts, so a reader that
snapshots the registry and then reads the store cannot miss a turn whose events it has read.

Readers waiting on a session hold a watch on it (:mod:`.signals`): a turn registering,
starting and finishing wakes them, and so does what other servers on the store store and
draft, when the store notifies (:mod:`.fanout`). The hub also holds what a stream needs to
follow a turn another process runs: the shared reads of the store (:mod:`.versions`), the
interval to poll it at, and the relay publishing this process's drafts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from agentlog.events import Event
from agentlog.server.admissions import Admissions, admitting
from agentlog.server.frames import Frame, draft_frame
from agentlog.server.signals import SessionKey, Signals

if TYPE_CHECKING:
    from agentlog.server.fanout import DraftRelay
    from agentlog.server.versions import VersionReads

__all__ = ["LiveTurn", "SessionKey", "TurnFollower", "TurnHub"]


class LiveTurn:
    """One run of the runner on one session, as it happens.

    Args:
        key: the session.
        on_change: called when the run starts (stores its first event) and when it ends.
    """

    def __init__(self, key: SessionKey, on_change: Callable[[], None] | None = None) -> None:
        self.key = key
        self._on_change = on_change
        self.frames: list[Frame] = []
        """Stored events, unstored errors and the end, in order."""
        self._draft: Frame | None = None
        self._partial: Event | None = None
        """The newest partial event, until a reader asks for its frame (most are superseded
        before anyone does, and a frame costs more to build than the rest of a draft)."""
        self.started = False
        """Whether the run stored anything (a run refused up front never starts)."""
        self.done = False
        self._changed = asyncio.Event()

    def publish(self, frame: Frame) -> None:
        """Add a frame; it supersedes the current draft."""
        starting = not self.started
        self.started = True
        self.frames.append(frame)
        self._draft = self._partial = None
        self._notify()
        if starting and self._on_change is not None:
            self._on_change()

    @property
    def draft(self) -> Frame | None:
        """The newest draft, if no frame has superseded it."""
        if self._draft is None and self._partial is not None:
            self._draft = draft_frame(self._partial)
        return self._draft

    def publish_draft(self, frame: Frame) -> None:
        """Replace the current draft."""
        self._draft, self._partial = frame, None
        self._notify()

    def publish_partial(self, event: Event) -> None:
        """Replace the current draft by ``event``'s, built only if a reader asks for it."""
        self._draft, self._partial = None, event
        self._notify()

    def finish(self) -> None:
        """Mark the run over; followers drain what is left and stop."""
        self.done = True
        self._draft = self._partial = None
        self._notify()
        if self._on_change is not None:
            self._on_change()

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_started(self) -> bool:
        """Wait until the run has stored its first event (True) or ended without (False)."""
        while True:
            changed = self._changed
            if self.started or self.done:
                return self.started
            await changed.wait()

    def follow(self, seen: set[str]) -> TurnFollower:
        """Every frame from the start, then live ones, until the end (an async iterator of
        frames, which also hands out every frame ready at once: ``TurnFollower.batch``).

        Stored events whose id is in ``seen`` are skipped, and the ids of those sent are
        added to it, so a reader that already replayed some from the store gets none twice.
        """
        return TurnFollower(self, seen)


class TurnFollower:
    """One reader's place in a turn's frames: an async iterator of them, or of batches of
    every frame ready at once (``batch``), so a reader that fell behind catches up in one
    write. A draft superseded before the reader got to it is skipped."""

    def __init__(self, turn: LiveTurn, seen: set[str]) -> None:
        self._turn = turn
        self._seen = seen
        self._cursor = 0
        self._sent_draft: Frame | None = None
        self._buffer: list[Frame] = []

    def __aiter__(self) -> TurnFollower:
        return self

    async def __anext__(self) -> Frame:
        if not self._buffer:
            batch = await self.batch()
            if not batch:
                raise StopAsyncIteration
            self._buffer = batch
            self._buffer.reverse()
        return self._buffer.pop()

    async def batch(self) -> list[Frame]:
        """The frames ready now, in order (waiting for one if none is); empty at the end."""
        turn = self._turn
        while True:
            # Taken before reading: a publish after the read below sets this one, so the wait
            # returns at once and nothing is missed.
            changed = turn._changed
            ready: list[Frame] = []
            frames, seen = turn.frames, self._seen
            while self._cursor < len(frames):
                frame = frames[self._cursor]
                self._cursor += 1
                if frame.event_id is not None:
                    if frame.event_id in seen:
                        continue
                    seen.add(frame.event_id)
                ready.append(frame)
            # No await since the last length check, so this draft is newer than every frame
            # taken (a new frame clears it).
            draft = turn.draft
            if draft is not None and draft is not self._sent_draft:
                self._sent_draft = draft
                ready.append(draft)
            if ready or turn.done:
                return ready
            await changed.wait()
            # Woken by a publish: one turn of the event loop first lets the run go on to its
            # next step, so a draft it supersedes at once is never sent and what it stores
            # goes out in the same write.
            await asyncio.sleep(0)


class TurnHub:
    """Running turns by session, in the order they were started, and their tasks.

    Args:
        reads: shared reads of the store's sessions; with them, a stream also follows a turn
            another process runs on its session to its end (:mod:`.streaming`).
        poll_s: how often a stream waiting on another process's turn reads the store when
            nothing wakes it sooner.
    """

    def __init__(self, *, reads: VersionReads | None = None, poll_s: float = 1.0) -> None:
        self.reads = reads
        self.poll_s = poll_s
        self.signals = Signals()
        self.relay: DraftRelay | None = None
        """Publishes this process's drafts to the other servers (a store that notifies)."""
        self._turns: dict[SessionKey, list[LiveTurn]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.admissions = Admissions()
        """The requests and turns arrived and not through: running turns' next steps wait
        for them (:mod:`.admissions`)."""

    def open(self, key: SessionKey) -> LiveTurn:
        """Register a turn about to run on a session, waking whoever waits on it."""

        def changed() -> None:
            self.admissions.settled(arrival)
            self.signals.local(key)

        turn = LiveTurn(key, changed)
        # What the turn is waited for as (:mod:`.admissions`): the request it starts for,
        # counted since that arrived, or else the turn itself, from now.
        arrival = admitting() or turn
        queued = self._turns.setdefault(key, [])
        if queued:  # one queued behind a turn of its session cannot start before it ends
            self.admissions.settled(arrival)
        elif arrival is turn:
            self.admissions.opened(turn)
        queued.append(turn)
        self.signals.local(key)
        return turn

    def close(self, turn: LiveTurn) -> None:
        """Unregister a finished turn."""
        turns = self._turns.get(turn.key, [])
        if turn in turns:
            turns.remove(turn)
        if not turns:
            self._turns.pop(turn.key, None)

    def turns(self, key: SessionKey) -> list[LiveTurn]:
        """The turns registered on a session now, oldest first."""
        return list(self._turns.get(key, ()))

    def every_turn(self) -> list[LiveTurn]:
        """Every turn registered now, on any session."""
        return [turn for turns in self._turns.values() for turn in turns]

    def busy(self, key: SessionKey) -> bool:
        """Whether a turn is running (or waiting to run) on a session."""
        return bool(self._turns.get(key))

    def waiting(self, key: SessionKey | None = None) -> int:
        """How many readers wait on a session (on any session for ``None``)."""
        return self.signals.waiting(key)

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a turn's driver in the background, holding a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def shutdown(self, grace_s: float = 0.0) -> None:
        """Give running turns ``grace_s`` seconds to finish, then cancel the rest (what they
        stored stays; a client that reconnects to another process gets it)."""
        tasks = list(self._tasks)
        if tasks and grace_s > 0:
            await asyncio.wait(tasks, timeout=grace_s)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.relay is not None:
            await self.relay.close()
