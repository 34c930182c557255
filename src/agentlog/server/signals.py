"""Wake-ups for streams waiting on a session: what tells a reader to look again.

A reader waiting on a session (a follow stream between turns, a stream waiting for another
process's turn to end) holds a :class:`Watch` on it. The watch is woken by:

- this process's turns on the session: registered, started, finished (:mod:`.hub`);
- what another process stored or ended there, and its drafts, as the store notifies them
  (PostgreSQL: :mod:`agentlog._stores.pg_listen`, wired by :mod:`.fanout`);
- nothing, for ``poll_s`` seconds: the reader then polls the store, the fallback for a store
  that does not notify and for notifications missed while a listener was down (a listener
  that reconnects wakes every watch).

A wake-up arriving while the reader is busy reading is kept, so nothing that happens between
two waits is missed. The watch records the time of the newest store notification: a read of
the store started after it sees what was notified.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentlog._stores.pg_listen import Draft

__all__ = ["SessionKey", "Signals", "Wake", "Watch"]

SessionKey = tuple[str, str]
"""``(user_id, session_id)``."""


@dataclass(frozen=True, slots=True)
class Wake:
    """What woke a watch since it was last asked."""

    stored_at: float | None
    """Event-loop time of the newest notification that the session's store changed; a read
    started after it sees the change. ``None`` when none came."""
    local: bool
    """A turn of this process on the session was registered, started or finished."""


class Watch:
    """One reader's wake-ups for one session (see :meth:`Signals.watch`)."""

    def __init__(self, signals: Signals, key: SessionKey) -> None:
        self.key = key
        self._signals = signals
        self._flag = asyncio.Event()
        self._stored_at: float | None = None
        self._local = False
        self.draft: Draft | None = None
        """The newest draft another process published for the session."""

    def stored(self, at: float) -> None:
        """The store says the session changed (at event-loop time ``at``)."""
        self._stored_at = at
        self._flag.set()

    def local(self) -> None:
        """A turn of this process on the session changed."""
        self._local = True
        self._flag.set()

    def drafted(self, draft: Draft) -> None:
        """Another process published a draft on the session."""
        self.draft = draft
        self._flag.set()

    async def wait(self, seconds: float) -> bool:
        """Wait for a wake-up (True) or ``seconds`` (False); one that arrived since the last
        wait returns at once."""
        self._signals.waiters[self.key] = self._signals.waiters.get(self.key, 0) + 1
        try:
            async with asyncio.timeout(seconds):
                await self._flag.wait()
        except TimeoutError:
            return False
        finally:
            left = self._signals.waiters[self.key] - 1
            if left:
                self._signals.waiters[self.key] = left
            else:
                del self._signals.waiters[self.key]
        self._flag.clear()
        return True

    @property
    def news(self) -> bool:
        """Whether the store or a turn of this process changed since the last :meth:`take`
        (a draft alone is no news: it needs no read of the store)."""
        return self._stored_at is not None or self._local

    def take(self) -> Wake:
        """What happened since the last call (a draft is read from :attr:`draft`)."""
        wake = Wake(self._stored_at, self._local)
        self._stored_at, self._local = None, False
        return wake


class Signals:
    """The watches of one server process, by session."""

    def __init__(self) -> None:
        self.origin = uuid.uuid4().hex[:16]
        """Names this server in the drafts it publishes, so it can ignore its own."""
        self.waiters: dict[SessionKey, int] = {}
        """Readers waiting now, by session."""
        self._watches: dict[SessionKey, set[Watch]] = {}

    @contextlib.contextmanager
    def watch(self, key: SessionKey) -> Iterator[Watch]:
        """A watch on a session, dropped when the block ends."""
        watch = Watch(self, key)
        watches = self._watches.setdefault(key, set())
        watches.add(watch)
        try:
            yield watch
        finally:
            watches.discard(watch)
            if not watches and self._watches.get(key) is watches:
                del self._watches[key]

    def local(self, key: SessionKey) -> None:
        """A turn of this process on ``key`` was registered, started or finished."""
        for watch in self._watches.get(key, ()):
            watch.local()

    def stored(self, key: SessionKey) -> None:
        """The store says ``key`` changed."""
        now = asyncio.get_running_loop().time()
        for watch in self._watches.get(key, ()):
            watch.stored(now)

    def drafted(self, key: SessionKey, draft: Draft) -> None:
        """Another server published a draft on ``key`` (this server's own are ignored)."""
        if draft.origin == self.origin:
            return
        for watch in self._watches.get(key, ()):
            watch.drafted(draft)

    def wake_all(self) -> None:
        """Every watch looks again: notifications may have been missed."""
        now = asyncio.get_running_loop().time()
        for watches in self._watches.values():
            for watch in watches:
                watch.stored(now)

    def waiting(self, key: SessionKey | None = None) -> int:
        """How many readers wait on a session (on any session for ``None``)."""
        if key is not None:
            return self.waiters.get(key, 0)
        return sum(self.waiters.values())
