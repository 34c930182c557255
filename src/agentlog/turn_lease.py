"""``TurnLease``: a turn's hold on its session's lease, from the wait for it to the release.

The lease itself is the store's (:mod:`agentlog.sessions.leases`); this is how a turn uses it:

1. **Wait.** A session busy with another process's turn is polled with a growing pause (5 ms
   doubling to 250 ms) until the lease is free or ``wait_s`` has passed (``SessionBusyError``).
   Turns of one process queue on an ``asyncio.Lock`` first (the runner's), so they never poll
   each other.
2. **Renew.** The lease is renewed every third of its ``ttl_s`` while the turn works: a timer
   first, then a task from the first beat on, so a turn shorter than a beat (most turns)
   creates, cancels and waits for no task. While
   the turn waits on its reader (the runner is suspended at a ``yield``), renewal goes on for at
   most ``ttl_s``: a caller that stops reading a stream without closing it lets the lease lapse
   instead of blocking the session for good.
3. **Release.** The turn's end, stored: any process then knows the turn is over. A turn whose
   process dies never releases; its lease expires and the next taker closes it.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Final, TypedDict, TypeGuard, TypeVar

from agentlog import tracing
from agentlog.errors import LeaseLostError, SessionBusyError, StoreError
from agentlog.events import Event
from agentlog.logs import get_logger
from agentlog.sessions.base import SessionService
from agentlog.sessions.leases import Lease, LeaseAppends, LeasedAppend, SessionLeases

__all__ = ["COMPACTION_LEASE", "TurnLease", "hold_session", "lease_for"]

logger = get_logger("agentlog.runner")

T = TypeVar("T")

COMPACTION_LEASE: Final = "compaction"
"""The invocation a compaction's lease names: work between turns, not a turn (a stream does
not wait for it to end; its event arrives as stored, between turns)."""

_FIRST_PAUSE: Final = 0.005
_LONGEST_PAUSE: Final = 0.25
_OWNER: Final = f"{socket.gethostname()}:{os.getpid()}"
"""Who holds a lease, for an operator reading the session row."""


class _LeaseRequest(TypedDict):
    """The keyword arguments of ``acquire_lease`` and ``acquire_lease_and_append``."""

    app_name: str
    user_id: str
    session_id: str
    owner: str
    invocation_id: str
    ttl_s: float


_IMPLEMENTS: dict[tuple[type, type], bool] = {}


def _implements(store: object, protocol: type[Any]) -> bool:
    """``isinstance(store, protocol)`` for a runtime-checkable protocol, decided once per
    store class: the protocol's check looks up each of its methods, twice a turn otherwise
    (a store's methods are its class's)."""
    key = (type(store), protocol)
    known = _IMPLEMENTS.get(key)
    if known is None:
        known = _IMPLEMENTS[key] = isinstance(store, protocol)
    return known


def _has_leases(store: object) -> TypeGuard[SessionLeases]:
    return _implements(store, SessionLeases)


def _appends(store: object) -> TypeGuard[LeaseAppends]:
    return _implements(store, LeaseAppends)


class TurnLease:
    """One turn's hold on a session lease.

    Args:
        leases: the store.
        app_name, user_id, session_id: the session.
        invocation_id: the turn the lease names.
        ttl_s: how long the lease lives without renewal; a dead process's turn blocks the
            session this long at most.
        wait_s: how long to wait for a busy session before ``SessionBusyError``.
    """

    def __init__(
        self,
        leases: SessionLeases,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        invocation_id: str,
        ttl_s: float,
        wait_s: float,
    ) -> None:
        self._leases = leases
        self._app_name = app_name
        self._user_id = user_id
        self._session_id = session_id
        self._invocation_id = invocation_id
        self._ttl_s = ttl_s
        self._wait_s = wait_s
        self._lease: Lease | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._first_beat: asyncio.TimerHandle | None = None
        self._waiting_since: float | None = None

    @property
    def lease(self) -> Lease:
        """The lease held (after ``acquire``)."""
        if self._lease is None:
            raise RuntimeError("the lease is not held")
        return self._lease

    def _request(self) -> _LeaseRequest:
        """What this turn asks a store for when it takes the lease, alone or with its event."""
        return {
            "app_name": self._app_name,
            "user_id": self._user_id,
            "session_id": self._session_id,
            "owner": f"{_OWNER}:{self._invocation_id}",
            "invocation_id": self._invocation_id,
            "ttl_s": self._ttl_s,
        }

    async def acquire(self) -> Lease:
        """Take the lease, waiting while another turn holds it; start renewing it."""
        lease = await self._wait_for(lambda: self._leases.acquire_lease(**self._request()))
        self._held(lease)
        return lease

    async def acquire_appending(self, first_event: Callable[[], Event]) -> LeasedAppend:
        """``acquire``, storing the turn's first event in the same write when the store can
        (``LeaseAppends``): waits as ``acquire`` does, with a fresh ``first_event()`` each
        try (made then, its timestamp is after whatever the turn it waited for stored)."""
        leases = self._leases
        if not _appends(leases):
            return LeasedAppend(await self.acquire(), None)

        async def attempt() -> LeasedAppend | None:
            event = first_event()
            # The message's append, as the store's ``append_event`` of it would be traced.
            with tracing.store_append_to(leases, self._session_id, event):
                return await leases.acquire_lease_and_append(event, **self._request())

        taken = await self._wait_for(attempt)
        self._held(taken.lease)
        return taken

    async def _wait_for(self, take: Callable[[], Awaitable[T | None]]) -> T:
        """``take()`` again, after a growing pause, until it takes the lease (not ``None``)
        or ``wait_s`` has passed (``SessionBusyError``)."""
        start = time.monotonic()
        pause = _FIRST_PAUSE
        while True:
            taken = await take()
            if taken is not None:
                return taken
            waited = time.monotonic() - start
            if waited >= self._wait_s:
                raise SessionBusyError(self._session_id, waited)
            await asyncio.sleep(min(pause, self._wait_s - waited))
            pause = min(pause * 2, _LONGEST_PAUSE)

    def _held(self, lease: Lease) -> None:
        self._lease = lease
        loop = asyncio.get_running_loop()
        self._first_beat = loop.call_later(self._ttl_s / 3, self._start_renewing)

    def _start_renewing(self) -> None:
        self._first_beat = None
        self._renewer = asyncio.create_task(
            self._renew(), name=f"agentlog-lease-{self._session_id}"
        )

    def reader_waits(self) -> None:
        """The turn hands an event to its reader and waits for it to ask for the next."""
        self._waiting_since = time.monotonic()

    def reader_returned(self) -> None:
        """The reader asked for the next event."""
        self._waiting_since = None

    async def _renew(self) -> None:
        """Renew now (a third of the lease's life after it was taken) and every third after."""
        while True:
            since = self._waiting_since
            if since is not None and time.monotonic() - since > self._ttl_s:
                logger.warning(
                    "session %s: the turn's reader has not asked for an event in %.0fs; its "
                    "lease is left to expire",
                    self._session_id,
                    self._ttl_s,
                )
                return
            try:
                self._lease = await self._leases.renew_lease(self.lease, self._ttl_s)
            except LeaseLostError:
                logger.error(
                    "session %s: the turn's lease was taken by another turn; its next write "
                    "will fail",
                    self._session_id,
                )
                return
            except StoreError as exc:
                # Try again at the next beat; the lease outlives two missed renewals.
                logger.warning("session %s: renewing the lease failed: %s", self._session_id, exc)
            await asyncio.sleep(self._ttl_s / 3)

    async def release(self) -> None:
        """Stop renewing and give the lease back (the stored end of the turn). A failure is
        logged: the lease then expires by itself."""
        if self._first_beat is not None:
            self._first_beat.cancel()
            self._first_beat = None
        if self._renewer is not None:
            self._renewer.cancel()
            # Waits for a renewal in flight, so it cannot land after the release; unlike
            # awaiting the task, a cancellation of this task still propagates.
            await asyncio.wait([self._renewer])
            self._renewer = None
        lease, self._lease = self._lease, None
        if lease is None:
            return
        try:
            await self._leases.release_lease(lease)
        except StoreError as exc:
            logger.warning(
                "session %s: releasing the lease failed (it expires in %.0fs): %s",
                self._session_id,
                self._ttl_s,
                exc,
            )


def lease_for(
    store: SessionService,
    *,
    app_name: str,
    user_id: str,
    session_id: str,
    invocation_id: str,
    ttl_s: float,
    wait_s: float,
) -> TurnLease | None:
    """A hold on the session's lease for ``invocation_id`` (not yet taken); ``None`` for a
    store without leases, whose writers are then serialised within one process only."""
    if not _has_leases(store):
        return None
    return TurnLease(
        store,
        app_name=app_name,
        user_id=user_id,
        session_id=session_id,
        invocation_id=invocation_id,
        ttl_s=ttl_s,
        wait_s=wait_s,
    )


@asynccontextmanager
async def hold_session(
    store: SessionService,
    *,
    app_name: str,
    user_id: str,
    session_id: str,
    invocation_id: str,
    ttl_s: float,
    wait_s: float,
) -> AsyncIterator[int | None]:
    """Hold the session's lease for work outside a turn (a compaction, in any process); yield
    its fencing token to append under, or ``None`` for a store without leases."""
    hold = lease_for(
        store,
        app_name=app_name,
        user_id=user_id,
        session_id=session_id,
        invocation_id=invocation_id,
        ttl_s=ttl_s,
        wait_s=wait_s,
    )
    if hold is None:
        yield None
        return
    lease = await hold.acquire()
    try:
        yield lease.token
    finally:
        await asyncio.shield(hold.release())
