"""Decoded events of recently loaded sessions, so a load reads and decodes only what is new.

A durable store decodes every stored event on every full load: at 4,000 events that is most of
a turn's time when no compaction bounds the history. Stored events never change (a session only
grows, or is deleted whole), so a store may keep the events it decoded and, on the next load,
read only those stored after them. The store stays the source of truth: every load reads the
session row in the same snapshot as the new events and uses the cached events only when the
row is the same session (its ``token``: primary key and creation time, which differ once a
session is deleted and made again under the same id) and has not fewer events than are cached.
So several processes sharing one database each keep their own cache and see each other's
appends; nothing is shared but the database.

Entries are evicted least recently used first, beyond a total number of events. A session
larger than the whole budget is not kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from agentlog.events import Event

__all__ = ["CachedEvents", "EventCache", "SessionKey"]

SessionKey = tuple[str, str, str]
"""``(app_name, user_id, session_id)``."""


@dataclass(frozen=True, slots=True)
class CachedEvents:
    """The first ``len(events)`` stored events of one incarnation of a session."""

    token: Hashable
    """What tells this incarnation from a session made again under the same id."""
    events: tuple[Event, ...]

    @property
    def version(self) -> int:
        """How many stored events this holds (the session's version when it was cached)."""
        return len(self.events)


class EventCache:
    """A bounded, thread-safe map of session to the events a store decoded for it.

    Args:
        max_events: the most events kept, over all sessions.
    """

    def __init__(self, max_events: int) -> None:
        if max_events < 1:
            raise ValueError("max_events must be at least 1")
        self.max_events = max_events
        self._entries: OrderedDict[SessionKey, CachedEvents] = OrderedDict()
        self.keys = self._entries.keys()
        """The sessions held, a live view: a test of membership here takes no lock and no
        call, and like :meth:`extend`'s own first test, may miss an entry being put."""
        self._total = 0
        self._lock = threading.Lock()  # loads run on a worker thread, appends on the caller's

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def total_events(self) -> int:
        """Events held, over all sessions."""
        return self._total

    def peek(self, key: SessionKey) -> CachedEvents | None:
        """The entry of ``key`` as it is, unchecked (to know which events to read)."""
        with self._lock:
            return self._entries.get(key)

    def get(self, key: SessionKey, token: Hashable, version: int) -> CachedEvents | None:
        """The cached events of ``key`` if they belong to the incarnation ``token`` and are
        not more than the ``version`` the store now holds; otherwise ``None`` (and a stale
        entry is dropped)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry.token != token or entry.version > version:
                self._remove(key)
                return None
            self._entries.move_to_end(key)
            return entry

    def put(self, key: SessionKey, token: Hashable, events: tuple[Event, ...]) -> None:
        """Keep ``events``, the first stored events of ``key``'s incarnation ``token``."""
        with self._lock:
            self._remove(key)
            if len(events) > self.max_events:
                return
            self._entries[key] = CachedEvents(token, events)
            self._total += len(events)
            while self._total > self.max_events:
                oldest = next(iter(self._entries))
                self._remove(oldest)

    def grow(
        self,
        key: SessionKey,
        token: Hashable,
        version: int,
        cached: CachedEvents | None,
        fresh: tuple[Event, ...],
    ) -> tuple[Event, ...]:
        """The ``cached`` events then ``fresh``, those a load read after them; kept when they
        are the ``version`` events the store says it holds (else the rows were not what the
        version says, and nothing is kept)."""
        events = fresh if cached is None else (*cached.events, *fresh)
        if len(events) == version:
            self.put(key, token, events)
        return events

    def extend(
        self,
        key: SessionKey,
        token: Hashable,
        version: int,
        event: Event,
        *,
        grown: tuple[tuple[Event, ...], tuple[Event, ...]] | None = None,
    ) -> None:
        """Add ``event``, just stored as event ``version + 1``, if the entry holds exactly the
        ``version`` events before it (else leave the entry to the next load to correct).

        ``grown``: the caller's events before the append and after it (the same with
        ``event`` added): when the first are the entry's own tuple (the caller loaded them
        from here), the entry keeps the second instead of a copy of its own, so a session
        appended to again and again shares one tuple with its caller rather than copying
        the whole history on every append.
        """
        if key not in self._entries:
            # Most appends are to sessions not cached: no lock to take. An entry put by a
            # load meanwhile is one the next load corrects, as any other it finds behind.
            return
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.token != token or entry.version != version:
                return
            if grown is not None and grown[0] is entry.events:
                events = grown[1]
            else:
                events = (*entry.events, event)
            self._entries[key] = CachedEvents(token, events)
            self._entries.move_to_end(key)
            self._total += 1
            while self._total > self.max_events:
                self._remove(next(iter(self._entries)))

    def drop(self, key: SessionKey) -> None:
        """Forget ``key`` (the session was deleted)."""
        with self._lock:
            self._remove(key)

    def _remove(self, key: SessionKey) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._total -= entry.version
