"""Following a session live: one stream across its turns, until the client leaves.

``GET /sessions/{id}/stream?follow=true`` starts as the plain stream does (the stored events
after the client's id, the running turn to its end, wherever it runs, an ``end``), then waits
for what comes next instead of ending, and streams that the same way:

- A turn started in this process is noticed at once (registering it wakes the stream's watch,
  :mod:`agentlog.server.signals`) and followed live, drafts and ``end`` included.
- What another process stores (servers are stateless, and several may share one store) is
  noticed when the store notifies it (PostgreSQL: within milliseconds) or, failing that, by
  reading the session's version and running turn every ``poll_s`` seconds; the readers of
  one session in this process share those reads (:mod:`agentlog.server.versions`). A turn
  running elsewhere is then followed to its end as :mod:`agentlog.server.streaming` says:
  its stored events as they are stored, its drafts when that process publishes them, and
  one ``end`` after its last event. Anything stored outside a turn (a compaction) arrives
  as stored, followed by an ``end``.

Each wake-up takes the registry, then reads the store after the newest event sent, so every
stored event is sent exactly once, in log order, and ``Last-Event-ID`` resumes a follow stream
on any server as it resumes any other stream. When the client hangs up, the cancellation
drops the stream's watch. When the session is deleted (or the store fails) the stream sends
an ``error`` frame and an ``end``, and ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import aclosing

from agentlog.errors import SessionNotFoundError, StoreError
from agentlog.logs import get_logger
from agentlog.server.frames import Frame, deleted_frame, end_frame, error_frame
from agentlog.server.hub import LiveTurn, SessionKey, TurnHub
from agentlog.server.replay import Replay, UnknownEventError, read_after
from agentlog.server.signals import Watch
from agentlog.server.streaming import Cursor, turn_running, until_idle
from agentlog.server.versions import VersionReads
from agentlog.sessions.base import SessionService
from agentlog.sessions.leases import TurnState

__all__ = ["follow_session"]

logger = get_logger("agentlog.server")


async def follow_session(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    after: str | None,
    turns: Sequence[LiveTurn],
    replay: Replay,
    author: str,
    *,
    poll_s: float,
    versions: VersionReads | None = None,
) -> AsyncIterator[Frame]:
    """The ``replay`` (read after taking ``turns``) and the running turns, then an ``end``, as
    :func:`~agentlog.server.streaming.session_stream` sends them; then every later turn
    (each with its ``end``) and stored event, until the client leaves or the session is
    deleted.

    What another process stores is noticed when the store notifies it, or within ``poll_s``
    seconds.
    """
    # Without shared ones (a stream made outside a server), this stream reads on its own.
    reads = versions or hub.reads or VersionReads(store, app_name, max_age=poll_s / 2)
    cursor = Cursor(after)
    first = True
    with hub.signals.watch(key) as watch:
        try:
            while True:
                ends = cursor.ends
                frames = until_idle(
                    store,
                    app_name,
                    hub,
                    key,
                    cursor,
                    turns,
                    replay,
                    author,
                    reads=reads,
                    poll_s=poll_s,
                    watch=watch,
                )
                async with aclosing(frames):
                    async for frame in frames:
                        yield frame
                if first and cursor.ends == ends:
                    # The client is caught up, and no turn was running.
                    yield cursor.close(author)
                first = False
                turns, replay = await _next_change(
                    store, app_name, hub, key, cursor, reads, watch, poll_s
                )
        except (StoreError, UnknownEventError) as exc:
            # Deleted (a session recreated under the same id no longer holds the client's
            # id), or the store went away: a client that reconnects learns which.
            logger.info("following session %s stopped: %s", key[1], exc)
            gone = isinstance(exc, SessionNotFoundError | UnknownEventError)
            yield (deleted_frame if gone else error_frame)(cursor.invocation, author)
            yield end_frame(cursor.invocation, author)


async def _next_change(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    cursor: Cursor,
    reads: VersionReads,
    watch: Watch,
    poll_s: float,
) -> tuple[list[LiveTurn], Replay]:
    """The registry and a read of the store after the cursor, once a turn of this process
    registers, a turn runs elsewhere, or something was stored."""
    state: TurnState | None = None
    while not hub.turns(key):
        state = await _state_after_wait(reads, watch, key, poll_s)
        if _changed(cursor, state):
            break
    turns = hub.turns(key)
    news = state.version - cursor.version if state is not None and not turns else None
    return turns, await read_after(store, app_name, key, cursor.last, turns, expect=news)


async def _state_after_wait(
    reads: VersionReads, watch: Watch, key: SessionKey, poll_s: float
) -> TurnState | None:
    """Wait for a wake-up or ``poll_s``; then the session's state, unless the wake-up needs
    no read (a draft alone: ``None``)."""
    woke = await watch.wait(poll_s)
    if woke and not watch.news:
        return None
    wake = watch.take()
    # After a turn of this process changed, a read from before may miss what it stored.
    fresh = asyncio.get_running_loop().time() if wake.local else wake.stored_at
    return await reads.turn(key, fresh_since=fresh)


def _changed(cursor: Cursor, state: TurnState | None) -> bool:
    """Whether ``state`` holds what the cursor has not seen: events, or a turn running."""
    return state is not None and (turn_running(state) or state.version != cursor.version)
