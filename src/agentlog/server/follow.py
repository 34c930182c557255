"""Following a session live: one stream across its turns, until the client leaves.

``GET /sessions/{id}/stream?follow=true`` starts as the plain stream does (the stored events
after the client's id, the running turns, an ``end``), then waits for what comes next instead
of ending, and streams that the same way:

- A turn started in this process is noticed at once: registering it wakes the reader
  (:meth:`~agentlog.server.hub.TurnHub.wait_for_turn`), which follows it live, drafts and
  ``end`` included.
- Whatever another process stores (servers are stateless, and several may share one
  PostgreSQL store), and a compaction stored after a turn's stream ended, is noticed by reading
  the session's version every ``poll_s`` seconds; the readers of one session in this process
  share those reads (:mod:`agentlog.server.versions`). It arrives as stored frames, then an
  ``end``; this process cannot tell where another's turn ends, so a long one may come in
  several such batches. Its drafts never arrive: partial events are never stored, by design,
  and the store is all that processes share.

Each wake-up takes the registry, then reads the store after the newest event sent (see
:mod:`agentlog.server.streaming`), so every stored event is sent exactly once, in log order,
and ``Last-Event-ID`` resumes a follow stream as it resumes any other. A reader waits on one
hub future at a time, for at most ``poll_s`` seconds; when the client hangs up, the
cancellation drops it. When the session is deleted (or the store fails) the stream sends an
``error`` frame and an ``end``, and ends.
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
from agentlog.server.streaming import Cursor, until_idle
from agentlog.server.versions import VersionReads
from agentlog.sessions.base import SessionService

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
    :func:`~agentlog.server.streaming.session_stream` sends them; then every later turn and
    stored event, each followed by its ``end``, until the client leaves or the session is
    deleted.

    Another process's events are noticed within ``poll_s`` seconds, as stored frames only.
    """
    # Without a shared one (a stream made outside a server), this stream reads on its own.
    versions = versions or VersionReads(store, app_name, max_age=poll_s / 2)
    cursor = Cursor(after)
    first = True
    try:
        while True:
            frames = until_idle(store, app_name, hub, key, cursor, turns, replay)
            async with aclosing(frames):
                async for frame in frames:
                    yield frame
            # The first end says the client is caught up; later ones close what arrived.
            if not cursor.ended and (first or cursor.sent):
                yield end_frame(cursor.invocation, author)
            first = False
            turns, replay = await _next_change(
                store, app_name, hub, key, cursor.last, poll_s, versions
            )
            fresh = Cursor(cursor.last)
            fresh.invocation = cursor.invocation
            cursor = fresh
    except (StoreError, UnknownEventError) as exc:
        # Deleted (a session recreated under the same id no longer holds the client's id),
        # or the store went away: a client that reconnects learns which.
        logger.info("following session %s stopped: %s", key[1], exc)
        gone = isinstance(exc, SessionNotFoundError | UnknownEventError)
        yield (deleted_frame if gone else error_frame)(cursor.invocation, author)
        yield end_frame(cursor.invocation, author)


async def _next_change(
    store: SessionService,
    app_name: str,
    hub: TurnHub,
    key: SessionKey,
    after: str | None,
    poll_s: float,
    versions: VersionReads,
) -> tuple[list[LiveTurn], Replay]:
    """The registry and a read of the store after ``after``, once either holds something."""
    while True:
        turns = hub.turns(key)
        replay = await read_after(store, app_name, key, after, turns)
        if turns or replay.events:
            return turns, replay
        # A turn registered during the read ends the wait at once.
        while not await _turn_within(hub, key, poll_s):
            if await versions.version(key) != replay.version:
                break


async def _turn_within(hub: TurnHub, key: SessionKey, seconds: float) -> bool:
    """Whether a turn is registered on the session within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            await hub.wait_for_turn(key)
    except TimeoutError:
        return False
    return True
