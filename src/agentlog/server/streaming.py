"""Resumable streams: stored events after a given id, exactly once, in log order, then live.

The handoff from replay to live: take the registry's turns *first*, then read the store. Every
turn started later registers before it stores anything, so the read holds everything older
than the turns taken. Before following a taken turn, wait until it has stored its first event
(it then holds the session's lease, so nothing else, such as a compaction, can be stored until
it ends) and read the store again: that read holds every event up to the turn's, and the
turn's buffer holds the rest of its own. Which buffered events the client already has is
decided by id: the read covers every event the turn had stored (a buffer lags the store by at
most the one event being handed over).

**Turns another process runs.** When no turn of this process is left to follow and the hub
has reads of the store (:mod:`.versions`), the stream asks the store whether a turn runs
elsewhere (``read_turn``: version and running turn in one read) and, while one does, sends
what it stores as it is stored (woken by the store's notifications, :mod:`.signals`, or every
``poll_s`` seconds) and its drafts when that process publishes them (it does once asked,
:mod:`.fanout`). Where a turn ends is decided from the store, never from what one poll
happened to find:

- a stored user message begins a turn, and a compaction or the ``interrupted`` error closing a
  dead process's turn is stored between turns: the turn sent before either has ended, so its
  ``end`` goes first;
- a turn whose events were sent before a read of the store that no longer shows it running
  (another turn's lease, or none) has stored all it will: its ``end`` follows them. The
  store is read for the turn's state *before* its events, so the events read after hold the
  turn's last one.

A turn therefore gets exactly one ``end``, after its last event, whichever process ran it.
(The one case these rules cannot tell apart: a turn paused on a request, answered through
another server and resumed under the same invocation before this stream read the store
again, all without this stream having sent any of its events; its two parts then share one
``end``.) When nothing runs anywhere and nothing is left to close, the stream ends, or, when
it follows the session, waits for what comes next (:mod:`.follow`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Iterator, Sequence
from contextlib import aclosing
from typing import TYPE_CHECKING

from sse_starlette import EventSourceResponse

from agentlog.errors import SessionNotFoundError, StoreError
from agentlog.events import Event
from agentlog.logs import get_logger
from agentlog.server.frames import (
    Frame,
    deleted_frame,
    end_frame,
    error_frame,
    stored_frame,
    text_draft_frame,
)
from agentlog.server.hub import LiveTurn, SessionKey, TurnFollower, TurnHub
from agentlog.server.replay import Replay, read_after
from agentlog.server.signals import Watch
from agentlog.server.sse import EventStream
from agentlog.server.versions import VersionReads
from agentlog.sessions.base import SessionService
from agentlog.sessions.leases import TurnState
from agentlog.turn_lease import COMPACTION_LEASE

if TYPE_CHECKING:
    from agentlog._stores.pg_listen import Draft

__all__ = [
    "COMPACTION_LEASE",
    "Cursor",
    "session_stream",
    "sse_response",
    "turn_stream",
    "turn_running",
    "until_idle",
]

logger = get_logger("agentlog.server")

PING_S = 15


class Cursor:
    """What one client has been sent: the ids it holds, the newest one, and the turn whose
    events it has been sent without that turn's end."""

    def __init__(self, after: str | None) -> None:
        self.seen: set[str] = set()
        self.last = after
        self.invocation = ""
        self.ended = False
        """Whether an ``end`` was sent."""
        self.ends = 0
        self.sent = False
        """Whether any frame was sent."""
        self.version = 0
        """The session's version at the newest read of the store."""
        self.open: str | None = None
        """The turn whose events were sent since the stream began but not its end."""
        self.open_token = 0
        """The lease token seen running that turn (0: not seen)."""
        self.live = False
        """Whether turns are being tracked: in a stream that follows whatever runs, once the
        history it starts with (which opens no turn) is sent."""
        self.last_kind = ""

    def unseen(self, replay: Replay) -> list[Event]:
        """The replayed events to send; afterwards every id the read saw counts as held
        (those up to the client's id it had already)."""
        fresh = [e for e in replay.events if e.id not in self.seen]
        self.seen |= replay.known
        self.version = max(self.version, replay.version)
        return fresh

    def frames(self, events: Iterable[Event], author: str) -> Iterator[Frame]:
        """The frames of stored events, each turn's ``end`` before what begins after it."""
        for event in events:
            yield from self.emit(stored_frame(event), author)

    def emit(self, frame: Frame, author: str) -> Iterator[Frame]:
        """``frame``, preceded by the open turn's ``end`` when the frame comes after that
        turn ended (a user's message, a compaction)."""
        if (frame.starts_turn or frame.between_turns) and self.open is not None and self.live:
            yield self.close(author)
        self.note(frame)
        yield frame

    def close(self, author: str) -> Frame:
        """The ``end`` of the open turn (noted)."""
        frame = end_frame(self.open or self.invocation, author)
        self.note(frame)
        return frame

    def note(self, frame: Frame) -> None:
        """Record a frame sent."""
        if frame.event_id is not None:
            self.last = frame.event_id
            self.seen.add(frame.event_id)
        if frame.invocation_id:
            self.invocation = frame.invocation_id
        if frame.kind == "end":
            self.ended = True
            self.ends += 1
            self.open, self.open_token = None, 0
        elif (
            frame.kind == "event"
            and self.live
            and not frame.between_turns
            and frame.invocation_id != self.open
        ):
            self.open, self.open_token = frame.invocation_id, 0
        self.last_kind = frame.kind
        self.sent = True


def turn_running(state: TurnState) -> bool:
    """Whether a turn (not a compaction) holds the session."""
    return state.running is not None and state.running != COMPACTION_LEASE


def _still_running(state: TurnState, cursor: Cursor) -> bool:
    """Whether ``state`` shows the cursor's open turn running (the same lease once seen)."""
    if not turn_running(state) or state.running != cursor.open:
        return False
    return cursor.open_token in (0, state.token)


async def until_idle(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    cursor: Cursor,
    turns: Sequence[LiveTurn],
    replay: Replay,
    author: str = "",
    *,
    follow_new: bool = True,
    reads: VersionReads | None = None,
    poll_s: float = 1.0,
    watch: Watch | None = None,
) -> AsyncGenerator[Frame, None]:
    """The ``replay`` (read after taking ``turns``), then each of ``turns`` to its end, then
    (with ``follow_new``) any turn started meanwhile, until the session is idle; with
    ``reads`` (and ``follow_new``), a turn another process runs too, to its end.

    Records what it sends in ``cursor``; sends no closing ``end`` of its own when nothing
    was running. Raises ``StoreError`` when the session is deleted or the store goes away.
    """
    with contextlib.ExitStack() as stack:
        elsewhere = None
        if reads is not None and follow_new:
            if watch is None:
                watch = stack.enter_context(hub.signals.watch(key))
            elsewhere = _Elsewhere(reads, watch, poll_s)
        frames = _until_idle(
            store, app_name, hub, key, cursor, list(turns), replay, author, follow_new, elsewhere
        )
        async with aclosing(frames):
            async for frame in frames:
                yield frame


class _Elsewhere:
    """What a stream needs to follow a turn another process runs."""

    def __init__(self, reads: VersionReads, watch: Watch, poll_s: float) -> None:
        self.reads = reads
        self.watch = watch
        self.poll_s = poll_s

    async def state(self, cursor: Cursor) -> TurnState:
        """The session's turn state, read after the newest notification and no older than
        what the cursor has read (a state behind the events sent says nothing of the turn
        they may have begun)."""
        wake = self.watch.take()
        loop = asyncio.get_running_loop()
        # After a turn of this process came and went, a read from before misses its events.
        fresh = loop.time() if wake.local else wake.stored_at
        state = await self.reads.turn(self.watch.key, fresh_since=fresh)
        if state.version < cursor.version:
            state = await self.reads.turn(self.watch.key, fresh_since=loop.time())
        return state


async def _until_idle(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    cursor: Cursor,
    turns: list[LiveTurn],
    replay: Replay,
    author: str,
    follow_new: bool,
    elsewhere: _Elsewhere | None = None,
) -> AsyncGenerator[Frame, None]:
    followed: list[LiveTurn] = []
    sent_draft: Draft | None = None
    asked: tuple[str, int] | None = None
    """The turn elsewhere (invocation, lease token) whose drafts were asked for."""
    while True:
        for frame in cursor.frames(cursor.unseen(replay), author):
            yield frame
        cursor.live = follow_new
        pending = [t for t in turns if t not in followed]
        if not pending and follow_new:
            turns = hub.turns(key)
            pending = [t for t in turns if t not in followed]
        # A turn of this process that started (or ended without): follow it. Without reads
        # of the store, wait for the oldest to start; with them, a turn registered but not
        # started may be queued behind another process's, which is followed meanwhile.
        ready = next((t for t in pending if t.started or t.done), None)
        if ready is None and pending and elsewhere is None:
            ready = pending[0]
        if ready is not None:
            followed.append(ready)
            if await ready.wait_started():
                replay = await read_after(store, app_name, key, cursor.last, [ready])
                for frame in cursor.frames(cursor.unseen(replay), author):
                    yield frame
                async for frame in ready.follow(cursor.seen):
                    for out in cursor.emit(frame, author):
                        yield out
            if follow_new:
                turns = hub.turns(key)
            replay = await read_after(store, app_name, key, cursor.last, turns)
            continue
        if elsewhere is None:
            return
        # Nothing of this process's to follow now: does a turn run elsewhere?
        watch = elsewhere.watch
        state = await elsewhere.state(cursor)
        if (
            cursor.open is None
            and cursor.last_kind == "event"
            and turn_running(state)
            and state.running == cursor.invocation
        ):
            # The history sent ends in the turn running now: it is this stream's to close.
            cursor.open = state.running
        opened = cursor.open
        if state.version != cursor.version:
            news = state.version - cursor.version
            replay = await read_after(store, app_name, key, cursor.last, pending, expect=news)
            for frame in cursor.frames(cursor.unseen(replay), author):
                yield frame
        if cursor.open != opened:
            # A turn began in what was just read, after the state read: judge it by a later
            # one.
            replay = Replay([], frozenset(), cursor.version)
            continue
        if opened is not None:
            if _still_running(state, cursor):
                cursor.open_token = state.token
            else:
                yield cursor.close(author)
        if not pending and cursor.open is None and not turn_running(state):
            return
        # Wait for news, sending the running turn's drafts as they come: the server running
        # it publishes them once asked (:mod:`.fanout`).
        relay = hub.relay
        if relay is not None and turn_running(state):
            running = (state.running or "", state.token)
            if running != asked:
                asked = running
                await relay.ask(key)
        while True:
            draft = watch.draft
            if (
                draft is not None
                and draft is not sent_draft
                and draft.after == cursor.last
                and draft.invocation_id == state.running
            ):
                sent_draft = draft
                frame = text_draft_frame(draft.invocation_id, draft.author, draft.text)
                cursor.note(frame)
                yield frame
            woke = await watch.wait(elsewhere.poll_s)
            if not woke or watch.news:
                break
        replay = Replay([], frozenset(), cursor.version)


async def session_stream(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    after: str | None,
    turns: Sequence[LiveTurn],
    replay: Replay,
    author: str,
    *,
    follow_new: bool = True,
) -> AsyncIterator[Frame]:
    """The ``replay`` (read after taking ``turns``), then each of ``turns`` to its end, then
    (with ``follow_new``) any turn started meanwhile, in this process or (when the hub has
    reads of the store) another, until the session is idle.

    Ends with an ``end`` frame: one per turn followed, or one for the latest turn when none
    was running.
    """
    cursor = Cursor(after)
    try:
        frames = until_idle(
            store,
            app_name,
            hub,
            key,
            cursor,
            turns,
            replay,
            author,
            follow_new=follow_new,
            reads=hub.reads,
            poll_s=hub.poll_s,
        )
        async with aclosing(frames):
            async for frame in frames:
                yield frame
    except StoreError as exc:
        # The session was deleted or the store went away mid-stream.
        logger.warning("stream of session %s stopped: %s", key[1], exc)
        gone = isinstance(exc, SessionNotFoundError)
        yield (deleted_frame if gone else error_frame)(cursor.invocation, author)
        cursor.ended = False
    if not cursor.ended:
        yield end_frame(cursor.invocation, author)


async def _encode(frames: AsyncIterator[Frame]) -> AsyncIterator[bytes]:
    if isinstance(frames, TurnFollower):
        # A client behind its turn gets every frame ready in one write: each write is a
        # system call and a wake-up of the client, more than the rest of sending a frame.
        while batch := await frames.batch():
            yield b"".join(frame.wire for frame in batch)
        return
    async for frame in frames:
        yield frame.wire


def sse_response(frames: AsyncIterator[Frame]) -> EventSourceResponse:
    """A server-sent event stream of ``frames`` (those a ``TurnFollower`` has ready at once
    sent together), closed when the server shuts down: for streams that may stay open."""
    return EventSourceResponse(_encode(frames), ping=PING_S)


def turn_stream(frames: AsyncIterator[Frame]) -> EventStream:
    """``sse_response`` for a stream that ends with its turn, sent from the request's own
    task (:mod:`agentlog.server.sse`)."""
    return EventStream(_encode(frames), ping_s=PING_S)
