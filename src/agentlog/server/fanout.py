"""Fan-out across the servers sharing a store that notifies (PostgreSQL LISTEN/NOTIFY).

Two directions, both shortcuts over what the store already holds:

- **In.** :func:`connect_fanout` gives the store's listener (one connection a process, see
  :mod:`agentlog._stores.pg_listen`) to this server's watches (:mod:`.signals`): an append or
  a turn's end on a session wakes the streams waiting on it at once, instead of at their next
  poll, and another server's drafts reach them. A listener that reconnects wakes them all.
- **Out.** :class:`DraftRelay` publishes the drafts of the turns this server runs, at most
  one a turn every ``interval_s`` (the newest; older ones are dropped), never stored. A
  stored event of the turn drops the draft waiting to be sent: the event supersedes it. The
  publishing runs in a task, so a turn never waits for it.

A store that does not notify (SQLite, in memory) gets neither; streams then poll.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from agentlog.errors import StoreError
from agentlog.events import Event
from agentlog.logs import get_logger
from agentlog.sessions.base import SessionService

if TYPE_CHECKING:
    from collections.abc import Callable

    from agentlog._stores.pg_listen import Notice
    from agentlog.server.hub import LiveTurn, TurnHub

__all__ = ["DraftRelay", "Listener", "NotifyingStore", "connect_fanout"]

logger = get_logger("agentlog.server")


class Listener(Protocol):
    """A store's listener: started and stopped with the server."""

    async def start(self) -> None:
        """Start listening (waits a little for the first connect)."""
        ...

    async def stop(self) -> None:
        """Stop listening."""
        ...


@runtime_checkable
class NotifyingStore(Protocol):
    """A session store whose appends and turn ends notify every process (PostgreSQL)."""

    def listener(self, on_notice: Callable[[Notice], None], on_gap: Callable[[], None]) -> Listener:
        """A listener calling ``on_notice`` with each notification, ``on_gap`` after each
        connect."""
        ...

    async def publish_draft(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        invocation_id: str,
        author: str,
        after: str,
        origin: str,
        text: str,
    ) -> None:
        """Notify every process of a running turn's draft (made after its stored event
        ``after``, by the server ``origin``)."""
        ...


def connect_fanout(store: SessionService, app_name: str, hub: TurnHub) -> Listener | None:
    """Wire a notifying store to ``hub``: its notifications wake the hub's watches, and the
    hub's relay publishes this server's drafts. ``None`` (nothing wired) for a store that
    does not notify. Start the listener returned, and stop it, with the server."""
    if not isinstance(store, NotifyingStore):
        return None
    hub.relay = DraftRelay(store, app_name, origin=hub.signals.origin)
    signals = hub.signals

    def on_notice(notice: Notice) -> None:
        if notice.kind == "wake":
            signals.wake_all()
        elif notice.app_name == app_name:
            key = (notice.user_id, notice.session_id)
            if notice.draft is not None:
                signals.drafted(key, notice.draft)
            else:
                signals.stored(key)

    return store.listener(on_notice, signals.wake_all)


class _Slot:
    """One turn's draft waiting to be published: the partial event and the stored event it
    came after."""

    def __init__(self) -> None:
        self.pending: tuple[Event, str] | None = None
        self.sent_at = float("-inf")
        self.task: asyncio.Task[None] | None = None


class DraftRelay:
    """Publishes the drafts of this server's turns to the others, coalesced.

    Args:
        store: the notifying store.
        app_name: the app the turns belong to.
        origin: names this server in what it publishes (:attr:`.signals.Signals.origin`).
        interval_s: the shortest time between two drafts of one turn.
    """

    def __init__(
        self, store: NotifyingStore, app_name: str, *, origin: str, interval_s: float = 0.05
    ) -> None:
        self._store = store
        self._app_name = app_name
        self._origin = origin
        self._interval_s = interval_s
        self._slots: dict[LiveTurn, _Slot] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.published = 0
        """Drafts published so far."""

    def draft(self, turn: LiveTurn, event: Event, after: str) -> None:
        """A draft of ``turn``, made after its stored event ``after``."""
        slot = self._slots.setdefault(turn, _Slot())
        slot.pending = (event, after)
        if slot.task is None:
            slot.task = asyncio.get_running_loop().create_task(self._send(turn, slot))
            self._tasks.add(slot.task)
            slot.task.add_done_callback(self._tasks.discard)

    def stored(self, turn: LiveTurn) -> None:
        """``turn`` stored an event: the draft waiting is superseded."""
        slot = self._slots.get(turn)
        if slot is not None:
            slot.pending = None

    def done(self, turn: LiveTurn) -> None:
        """``turn`` ended: nothing more of it is published."""
        slot = self._slots.pop(turn, None)
        if slot is not None:
            slot.pending = None

    async def close(self) -> None:
        """Stop publishing (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._slots.clear()

    async def _send(self, turn: LiveTurn, slot: _Slot) -> None:
        loop = asyncio.get_running_loop()
        try:
            while slot.pending is not None:
                due = slot.sent_at + self._interval_s - loop.time()
                if due > 0:
                    await asyncio.sleep(due)
                pending, slot.pending = slot.pending, None
                if pending is None:
                    break  # superseded by a stored event while waiting
                event, after = pending
                slot.sent_at = loop.time()
                user_id, session_id = turn.key
                try:
                    await self._store.publish_draft(
                        app_name=self._app_name,
                        user_id=user_id,
                        session_id=session_id,
                        invocation_id=event.invocation_id,
                        author=event.author,
                        after=after,
                        origin=self._origin,
                        text=event.text(),
                    )
                    self.published += 1
                except StoreError as exc:
                    # A draft is disposable: the stored answer replaces it anyway.
                    logger.debug("publishing a draft failed: %s", exc)
        finally:
            slot.task = None
