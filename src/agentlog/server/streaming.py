"""Resumable streams: stored events after a given id, exactly once, in log order, then live.

The handoff from replay to live: take the registry's turns *first*, then read the store. Every
turn started later registers before it stores anything, so the read holds everything older
than the turns taken. Before following a taken turn, wait until it has stored its first event
(it then holds the session's lock, so nothing else, such as a compaction, can be stored until
it ends) and read the store again: that read holds every event up to the turn's, and the
turn's buffer holds the rest of its own. Which buffered events the client already has is
decided by id: the read covers every event the turn had stored (a buffer lags the store by at
most the one event being handed over). When no turn is left, the registry is checked once
more (a turn that registered during the read may have stored its first event in it); then the
stream ends, or, when it follows the session, waits for the next turn
(:mod:`agentlog.server.follow`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing

from sse_starlette import EventSourceResponse, ServerSentEvent

from agentlog.errors import SessionNotFoundError, StoreError
from agentlog.events import Event
from agentlog.logs import get_logger
from agentlog.server.frames import Frame, deleted_frame, end_frame, error_frame, stored_frame
from agentlog.server.hub import LiveTurn, SessionKey, TurnHub
from agentlog.server.replay import Replay, read_after
from agentlog.sessions.base import SessionService

__all__ = ["Cursor", "session_stream", "sse_response", "until_idle"]

logger = get_logger("agentlog.server")

PING_S = 15


class Cursor:
    """What one client has been sent: the ids it holds, and the newest one."""

    def __init__(self, after: str | None) -> None:
        self.seen: set[str] = set()
        self.last = after
        self.invocation = ""
        self.ended = False
        self.sent = False
        """Whether any frame was sent."""

    def unseen(self, replay: Replay) -> list[Event]:
        """The replayed events to send; afterwards every id the read saw counts as held
        (those up to the client's id it had already)."""
        fresh = [e for e in replay.events if e.id not in self.seen]
        self.seen |= replay.known
        if fresh:
            self.last, self.invocation = fresh[-1].id, fresh[-1].invocation_id
            self.sent = True
        return fresh

    def note(self, frame: Frame) -> None:
        """Record a frame sent from a live turn."""
        if frame.event_id is not None:
            self.last = frame.event_id
        if frame.invocation_id:
            self.invocation = frame.invocation_id
        self.ended = self.ended or frame.kind == "end"
        self.sent = True


async def until_idle(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    cursor: Cursor,
    turns: Sequence[LiveTurn],
    replay: Replay,
    *,
    follow_new: bool = True,
) -> AsyncGenerator[Frame, None]:
    """The ``replay`` (read after taking ``turns``), then each of ``turns`` to its end, then
    (with ``follow_new``) any turn started meanwhile, until the session is idle.

    Records what it sends in ``cursor``; sends no closing ``end`` of its own. Raises
    ``StoreError`` when the session is deleted or the store goes away.
    """
    followed: list[LiveTurn] = []
    while True:
        for event in cursor.unseen(replay):
            yield stored_frame(event)
        fresh = [t for t in turns if t not in followed]
        if not fresh:
            turns = hub.turns(key) if follow_new else []
            if all(t in followed for t in turns):
                return
        for turn in fresh:
            followed.append(turn)
            if not await turn.wait_started():
                continue  # refused before storing anything
            replay = await read_after(store, app_name, key, cursor.last, [turn])
            for event in cursor.unseen(replay):
                yield stored_frame(event)
            async for frame in turn.follow(cursor.seen):
                cursor.note(frame)
                yield frame
        if fresh and follow_new:
            turns = hub.turns(key)
        replay = await read_after(store, app_name, key, cursor.last, turns)


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
    (with ``follow_new``) any turn started meanwhile, until the session is idle.

    Ends with an ``end`` frame: one per turn followed, or one for the latest turn when none
    was running.
    """
    cursor = Cursor(after)
    try:
        frames = until_idle(store, app_name, hub, key, cursor, turns, replay, follow_new=follow_new)
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


async def _encode(frames: AsyncIterator[Frame]) -> AsyncIterator[ServerSentEvent]:
    async for frame in frames:
        yield frame.sse()


def sse_response(frames: AsyncIterator[Frame]) -> EventSourceResponse:
    """A server-sent event stream of ``frames``."""
    return EventSourceResponse(_encode(frames), ping=PING_S)
