"""Requests being admitted go first: a running turn's next step waits for the requests that
arrived before it (a new session, a message, an answer) to be answered or, for a turn, to
store (and stream) its user's message.

asyncio runs whatever is ready in turn, a loop iteration at a time, so in a burst every hop of
a request's way to its answer (its task starting, each store round trip, the hand-over to the
stream) waited for a share of every running turn's steps: with 100 clients, an iteration ran
a hundred of them, and a first event took about ten iterations. Here a running turn, before
each next step, waits until every request *arrived before that moment* has been answered (its
response started) or, for one that starts a turn, until that turn has started (stored its
first event) or ended. The wait is in arrival order: a request arriving later never holds up a
step that was ready first, so a steady stream of requests cannot starve running turns.

A request counts from the moment the app gets it (:class:`AdmitRequests`, before its body is
read, routed and validated). A turn started outside a request counts from its opening
(:meth:`TurnHub.open <agentlog.server.hub.TurnHub.open>`). A turn queued behind another turn of
its session in this process is not waited for (it cannot start before that turn ends), and a
request or turn still not through ``stale_s`` after it arrived (a turn waiting for a session
another process holds, say) stops counting: a step waits at most that long for it, once.
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
from contextvars import ContextVar
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["AdmitRequests", "Admissions", "admitting"]

STALE_S: Final = 0.25
"""How long a request or turn not yet through is waited for."""

_ADMITTED_PATH: Final = re.compile(r"/sessions(/[^/]+/(messages|approvals/[^/]+))?/?$")
"""The requests that count: a new session (``POST /sessions``), a message and an answer."""

_request: ContextVar[object | None] = ContextVar("agentlog_admitted_request", default=None)


def admitting() -> object | None:
    """The request being admitted in this context (the one a turn opened now starts for)."""
    return _request.get()


class Admissions:
    """The requests and turns arrived and not through yet, oldest first, and the steps
    waiting for them.

    Args:
        stale_s: how long after its arrival a request or turn not through is still waited
            for.
    """

    def __init__(self, stale_s: float = STALE_S) -> None:
        self._stale_s = stale_s
        self._pending: dict[object, tuple[int, float]] = {}
        """What arrived to (arrival number, when); insertion order is arrival order."""
        self._arrivals = 0
        self._waiters: deque[tuple[int, asyncio.Future[None]]] = deque()
        """Each waiting step: the newest arrival it waits for, and its wake-up. In the order
        they began to wait, so their arrivals never decrease."""
        self._timer: asyncio.TimerHandle | None = None
        self._timer_for: object = None

    def __len__(self) -> int:
        return len(self._pending)

    def opened(self, arrival: object) -> None:
        """``arrival`` (a request or a turn) came and is not through yet."""
        self._arrivals += 1
        self._pending[arrival] = (self._arrivals, asyncio.get_running_loop().time())

    def settled(self, arrival: object) -> None:
        """``arrival`` is through (answered; a turn started, or ended without starting):
        nobody waits for it any more. Idempotent."""
        if self._pending.pop(arrival, None) is not None and self._waiters:
            self._release()

    async def wait(self) -> None:
        """Wait until everything arrived before now is through or has gone stale."""
        upto = self._arrivals
        front = self._front()
        if front is None or front > upto:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((upto, future))
        self._arm()
        # A cancelled waiter leaves its future behind, done: it is skipped when its turn
        # comes.
        await future

    def _front(self) -> int | None:
        """The arrival number of the oldest arrival still waited for (dropping those gone
        stale), or ``None``."""
        pending = self._pending
        if not pending:
            return None
        now = asyncio.get_running_loop().time()
        while pending:
            arrival, (number, at) = next(iter(pending.items()))
            if now < at + self._stale_s:
                return number
            del pending[arrival]  # waited for long enough
        return None

    def _release(self) -> None:
        """Wake the steps that nothing arrived before them holds up any more (only those:
        one settling does not wake every step to look again)."""
        front = self._front()
        waiters = self._waiters
        while waiters and (front is None or waiters[0][0] < front):
            _, future = waiters.popleft()
            if not future.done():
                future.set_result(None)
        self._arm()

    def _arm(self) -> None:
        """Keep one timer, at the moment the oldest arrival goes stale, while steps wait."""
        oldest = next(iter(self._pending), None) if self._waiters else None
        if oldest is self._timer_for:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_for = oldest
        if oldest is not None:
            stale_at = self._pending[oldest][1] + self._stale_s
            self._timer = asyncio.get_running_loop().call_at(stale_at, self._stale)

    def _stale(self) -> None:
        self._timer, self._timer_for = None, None
        self._release()


class AdmitRequests:
    """ASGI middleware counting each request that starts a conversation's next step (a new
    session, a message, an answer) in ``admissions`` from its arrival until its response
    starts, so running turns' steps let it through first."""

    def __init__(self, app: ASGIApp, admissions: Admissions) -> None:
        self.app = app
        self.admissions = admissions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or _ADMITTED_PATH.search(scope["path"]) is None
        ):
            await self.app(scope, receive, send)
            return
        admissions = self.admissions
        request = object()
        admissions.opened(request)
        token = _request.set(request)

        async def answering(message: Message) -> None:
            if message["type"] == "http.response.start":
                admissions.settled(request)
            await send(message)

        try:
            await self.app(scope, receive, answering)
        finally:
            _request.reset(token)
            admissions.settled(request)
