"""Fan-out across the servers sharing a store that notifies (PostgreSQL LISTEN/NOTIFY).

Two directions, both shortcuts over what the store already holds:

- **In.** :func:`connect_fanout` gives the store's listener (one connection a process, see
  :mod:`agentlog._stores.pg_listen`) to this server's watches (:mod:`.signals`): an append or
  a turn's end on a session wakes the streams waiting on it at once, instead of at their next
  poll, and another server's drafts reach them. A listener that reconnects wakes them all.
- **Out.** :class:`DraftRelay` publishes the drafts of the turns this server runs that
  another server asked for, at most one a turn every ``interval_s`` (the newest; older ones
  are dropped), never stored. A stream following a turn that runs elsewhere asks for its
  drafts once it sees the turn running (:meth:`DraftRelay.ask`); the ask holds until that
  turn ends here. A turn nobody elsewhere follows (most) publishes nothing: each publishing
  round is a statement, and its notification wakes every server's listener. After its
  listener reconnects (asks may have been missed meanwhile) the server publishes the drafts
  of every turn running then. A stored event of the turn drops the draft waiting to be
  sent: the event supersedes it. The publishing runs in one task for every turn, each round
  publishing the drafts waiting in one statement, so a turn never waits for it and a busy
  server sends one notification statement an interval, not one a draft.

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
    from collections.abc import Callable, Iterable, Sequence

    from agentlog._stores.pg_listen import Draft, Notice
    from agentlog.server.hub import LiveTurn, TurnHub
    from agentlog.server.signals import SessionKey

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

    async def publish_drafts(
        self, *, app_name: str, drafts: Sequence[tuple[str, str, Draft]]
    ) -> None:
        """Notify every process of running turns' drafts, each ``(user_id, session_id,
        draft)`` (a draft made after its turn's stored event ``draft.after``, by the server
        ``draft.origin``)."""
        ...

    async def ask_drafts(
        self, *, app_name: str, user_id: str, session_id: str, origin: str
    ) -> None:
        """Ask the process running a session's turn to publish its drafts, for the server
        ``origin``."""
        ...


def connect_fanout(store: SessionService, app_name: str, hub: TurnHub) -> Listener | None:
    """Wire a notifying store to ``hub``: its notifications wake the hub's watches, and the
    hub's relay publishes this server's drafts. ``None`` (nothing wired) for a store that
    does not notify. Start the listener returned, and stop it, with the server."""
    if not isinstance(store, NotifyingStore):
        return None
    relay = hub.relay = DraftRelay(store, app_name, origin=hub.signals.origin)
    signals = hub.signals

    def on_notice(notice: Notice) -> None:
        if notice.kind == "wake":
            signals.wake_all()
        elif notice.app_name == app_name:
            key = (notice.user_id, notice.session_id)
            if notice.draft is not None:
                signals.drafted(key, notice.draft)
            elif notice.kind == "ask":
                if notice.origin != signals.origin:
                    # Its turns registered here (none: the turn runs elsewhere, or is over).
                    relay.asked(hub.turns(key))
            else:
                signals.stored(key)

    def on_gap() -> None:
        signals.wake_all()
        # Asks sent while nobody listened are lost: publish every running turn's drafts.
        relay.asked(hub.every_turn())

    return store.listener(on_notice, on_gap)


class DraftRelay:
    """Publishes the drafts of this server's turns that other servers asked for, coalesced;
    asks other servers for theirs.

    Args:
        store: the notifying store.
        app_name: the app the turns belong to.
        origin: names this server in what it publishes (:attr:`.signals.Signals.origin`).
        interval_s: the shortest time between two rounds of publishing (so between two
            drafts of one turn).
    """

    def __init__(
        self, store: NotifyingStore, app_name: str, *, origin: str, interval_s: float = 0.05
    ) -> None:
        self._store = store
        self._app_name = app_name
        self._origin = origin
        self._interval_s = interval_s
        self._pending: dict[LiveTurn, tuple[Event, str]] = {}
        """Each turn's newest draft not yet published, and the stored event it came after."""
        self._asked: set[LiveTurn] = set()
        """The turns here that another server asked for the drafts of, until they end."""
        self._sent_at = float("-inf")
        self._task: asyncio.Task[None] | None = None
        self.published = 0
        """Drafts published so far."""

    def draft(self, turn: LiveTurn, event: Event, after: str) -> None:
        """A draft of ``turn``, made after its stored event ``after``; published if another
        server asked for the session's."""
        if turn not in self._asked:
            return
        self._pending[turn] = (event, after)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._send())

    def stored(self, turn: LiveTurn) -> None:
        """``turn`` stored an event: the draft waiting is superseded."""
        self._pending.pop(turn, None)

    def done(self, turn: LiveTurn) -> None:
        """``turn`` ended: nothing more of it is published."""
        self._pending.pop(turn, None)
        self._asked.discard(turn)

    def asked(self, turns: Iterable[LiveTurn]) -> None:
        """Another server asked for the drafts of ``turns`` (a session's turns registered
        here: the one running and any queued behind it)."""
        self._asked.update(turns)

    async def ask(self, key: SessionKey) -> None:
        """Ask the server running ``key``'s turn for its drafts (a failure is only logged: a
        draft is disposable)."""
        user_id, session_id = key
        try:
            await self._store.ask_drafts(
                app_name=self._app_name, user_id=user_id, session_id=session_id, origin=self._origin
            )
        except StoreError as exc:
            logger.debug("asking for drafts failed: %s", exc)

    async def close(self) -> None:
        """Stop publishing (at shutdown)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        self._pending.clear()
        self._asked.clear()

    async def _send(self) -> None:
        # Here, not at the top: it needs psycopg, which a store that notifies has.
        from agentlog._stores.pg_listen import Draft

        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                due = self._sent_at + self._interval_s - loop.time()
                if due > 0:
                    await asyncio.sleep(due)
                pending, self._pending = self._pending, {}
                if not pending:
                    break  # superseded by stored events while waiting
                self._sent_at = loop.time()
                drafts = [
                    (
                        *turn.key,
                        Draft(
                            invocation_id=event.invocation_id,
                            author=event.author,
                            after=after,
                            origin=self._origin,
                            text=event.text(),
                        ),
                    )
                    for turn, (event, after) in pending.items()
                ]
                try:
                    await self._store.publish_drafts(app_name=self._app_name, drafts=drafts)
                    self.published += len(drafts)
                except StoreError as exc:
                    # A draft is disposable: the stored answer replaces it anyway.
                    logger.debug("publishing drafts failed: %s", exc)
        finally:
            if self._task is asyncio.current_task():
                self._task = None
