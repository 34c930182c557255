"""Turns being admitted go first: a running turn's next step waits for the turns that arrived
before it to store (and stream) their user's message.

asyncio runs whatever is ready in turn, so in a burst every client's first event (its message,
stored and streamed) waited for a share of every running turn's steps: with 100 clients, each
of the few steps before a first event waited for about a hundred others. Here a running turn,
before each next step, waits until every turn *opened before that moment* has started (stored
its first event) or ended. The wait is in arrival order: a turn opened later never holds up a
step that was ready first, so a steady stream of new turns cannot starve running ones.

A turn queued behind another turn of its session in this process is not waited for (it cannot
start before that turn ends), and a turn still not started ``stale_s`` after it was opened
(waiting for a session another process holds, say) stops counting: a step waits at most that
long for it, once.
"""

from __future__ import annotations

import asyncio
from typing import Final

__all__ = ["Admissions"]

STALE_S: Final = 0.25
"""How long a turn not yet started is waited for."""


class Admissions:
    """The turns opened and not started yet, oldest first, and the steps waiting for them.

    Args:
        stale_s: how long after its opening a turn not started is still waited for.
    """

    def __init__(self, stale_s: float = STALE_S) -> None:
        self._stale_s = stale_s
        self._pending: dict[object, tuple[int, float]] = {}
        """Turn to (arrival number, when opened); insertion order is arrival order."""
        self._arrivals = 0
        self._front_moved: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self._pending)

    def opened(self, turn: object) -> None:
        """``turn`` arrived and will start unless refused."""
        self._arrivals += 1
        self._pending[turn] = (self._arrivals, asyncio.get_running_loop().time())

    def settled(self, turn: object) -> None:
        """``turn`` started, or ended without starting: nobody waits for it any more."""
        front = next(iter(self._pending), None)
        if self._pending.pop(turn, None) is not None and turn is front:
            self._wake()

    async def wait(self) -> None:
        """Wait until every turn opened before now has started or gone stale."""
        upto = self._arrivals
        loop = asyncio.get_running_loop()
        while self._pending:
            turn, (arrival, opened_at) = next(iter(self._pending.items()))
            if arrival > upto:
                return
            stale_at = opened_at + self._stale_s
            if loop.time() >= stale_at:
                del self._pending[turn]  # waited for long enough
                continue
            if self._front_moved is None:
                self._front_moved = loop.create_future()
                self._timer = loop.call_at(stale_at, self._wake)
            # Shielded: a waiter cancelled must not cancel the future every waiter shares.
            await asyncio.shield(self._front_moved)

    def _wake(self) -> None:
        """The oldest turn settled or went stale: the waiting steps look again."""
        waiters, self._front_moved = self._front_moved, None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if waiters is not None and not waiters.done():
            waiters.set_result(None)
