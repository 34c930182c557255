"""Reading a session's stored events after a given one, for replays and timelines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentlog.events import Event
from agentlog.server.hub import LiveTurn, SessionKey
from agentlog.sessions.base import GetSessionConfig, SessionService

__all__ = ["Replay", "UnknownEventError", "events_after", "read_after"]


class UnknownEventError(LookupError):
    """``after`` or ``Last-Event-ID`` names no stored event of the session."""

    def __init__(self, event_id: str) -> None:
        super().__init__(f"no event {event_id!r} in this session")
        self.event_id = event_id


@dataclass(frozen=True, slots=True)
class Replay:
    """A read of the store: the events after an id, and every id the read saw."""

    events: list[Event]
    """The stored events after the id, in order."""
    known: frozenset[str]
    """Ids of every event read, those up to the id included."""
    version: int = 0
    """The session's version (its number of stored events) at the read; 0 if not read."""


async def read_after(
    store: SessionService,
    app_name: str,
    key: SessionKey,
    after: str | None,
    covering: Sequence[LiveTurn] = (),
    *,
    expect: int | None = None,
) -> Replay:
    """The stored events after the one with id ``after`` (all of them for ``None``).

    Reads the tail first and widens it, so a reconnect near the end stays cheap however long
    the session is. The tail also covers every event the ``covering`` turns may have stored
    (their frames and at most one not yet published each), so ``known`` tells which of their
    events the store already held. ``expect``, how many events the caller expects after
    ``after`` (a reader that knows the versions), makes the first tail just long enough.
    Raises ``SessionNotFoundError`` or :class:`UnknownEventError`.
    """
    user_id, session_id = key
    first = 64 if expect is None else max(1, expect) + 1
    wanted: int | None = None if after is None else first
    while True:
        config = GetSessionConfig(num_recent_events=wanted) if wanted is not None else None
        session = await store.get_session(
            app_name=app_name, user_id=user_id, session_id=session_id, config=config
        )
        events = session.events
        # Fewer than asked for is every event too: a quarantined event (agentlog.check) is
        # counted by the version but no longer loaded.
        whole = wanted is None or len(events) < wanted or len(events) >= session.version
        cover = sum(len(turn.frames) + 1 for turn in covering)
        position = _index(events, after)
        if whole or (position is not None and len(events) >= cover):
            if after is not None and position is None:
                raise UnknownEventError(after)
            start = 0 if position is None else position + 1
            known = frozenset(e.id for e in events)
            return Replay(list(events[start:]), known, session.version)
        wanted = max(cover, (wanted or 0) * 8)


def _index(events: Sequence[Event], event_id: str | None) -> int | None:
    if event_id is None:
        return None
    for index in range(len(events) - 1, -1, -1):
        if events[index].id == event_id:
            return index
    return None


async def events_after(
    store: SessionService, app_name: str, key: SessionKey, after: str | None
) -> list[Event]:
    """The stored events after the one with id ``after`` (all of them for ``None``)."""
    return (await read_after(store, app_name, key, after)).events
