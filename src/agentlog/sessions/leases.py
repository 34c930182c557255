"""Session leases: one turn at a time per session, across every process sharing a store.

A turn takes its session's lease before it reads the session, and gives it back when its
stream ends. The lease is a row of the store (PostgreSQL and SQLite: columns of the session row;
in memory: the record), never process memory, so two servers on one database exclude each
other exactly as two tasks of one process do.

- **Fencing.** Every acquire increases the session's ``token``. A turn appends through a
  ``Session`` carrying its token (``Session.lease_token``); an append whose token is no longer
  the session's writes nothing and raises ``LeaseLostError``, so a turn whose lease expired
  (its process stalled) cannot write after the turn that took over. An append without a token
  is refused with ``SessionBusyError`` while a live lease is held by someone else.
- **Expiry.** A lease lives ``ttl_s`` seconds unless renewed (the holder renews it while it
  works). Once expired, the next acquire takes it.
- **Turn boundaries.** The lease names the invocation it runs (``invocation_id``); a release is
  the stored end of that turn. A lease that expired without a release is a turn whose process
  died: the next acquire reports its invocation in ``Lease.interrupted``, and the taker closes
  it with a stored ``interrupted`` error event.
- **Taking the lease with the turn's first event.** ``LeaseAppends.acquire_lease_and_append``
  takes the lease and stores an event (a turn's user message, which depends on the version the
  lease finds, not on the history) in one write: one round trip before a turn's first event
  instead of two. Both happen or neither does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from agentlog.events import Event
    from agentlog.sessions._plan import AppendPlan
    from agentlog.sessions.base import Session

__all__ = ["Lease", "LeaseAppends", "LeasedAppend", "SessionLeases", "TurnState"]


class Lease(BaseModel):
    """A held lease on one session."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    app_name: str = Field(description="The session's app.")
    user_id: str = Field(description="The session's user.")
    session_id: str = Field(description="The session.")
    token: int = Field(ge=1, description="The fencing token: appends carry it.")
    owner: str = Field(description="Who holds it (a process and task, for operators).")
    invocation_id: str = Field(description="The turn it runs.")
    expires_at: float = Field(description="When it lapses unless renewed, by the store's clock.")
    interrupted: str | None = Field(
        default=None,
        description="The invocation of a previous turn whose lease expired without its end "
        "(its process died), for the taker to close; None when the last turn ended.",
    )
    version: int | None = Field(
        default=None,
        ge=0,
        description="The session's version when the lease was taken, with ``create_time``: "
        "a load made beside the acquire that shows both is the session as the lease found it "
        "(None: the store does not say, so load after the acquire).",
    )
    create_time: float | None = Field(
        default=None, description="The session's creation time, as the store recorded it."
    )


class TurnState(BaseModel):
    """Whether a turn is running on a session, as the store knows it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = Field(ge=0, description="Events stored in the session.")
    running: str | None = Field(
        default=None, description="The invocation holding a live lease; None when idle."
    )
    token: int = Field(default=0, ge=0, description="The newest lease's fencing token.")


@runtime_checkable
class SessionLeases(Protocol):
    """The lease half of a session store; every store agentlog ships implements it."""

    async def acquire_lease(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        owner: str,
        invocation_id: str,
        ttl_s: float,
    ) -> Lease | None:
        """Take the session's lease if it is free or expired; ``None`` if another holds it.
        Raises ``SessionNotFoundError``."""
        ...

    async def renew_lease(self, lease: Lease, ttl_s: float) -> Lease:
        """Extend a held lease; raises ``LeaseLostError`` once another has taken it."""
        ...

    async def release_lease(self, lease: Lease) -> None:
        """Give the lease back: the stored end of its turn. A lease already taken by another
        (or a session deleted meanwhile) is left as it is."""
        ...

    async def read_turn(self, *, app_name: str, user_id: str, session_id: str) -> TurnState:
        """The session's version and running turn, in one read. Raises
        ``SessionNotFoundError``."""
        ...


@dataclass(frozen=True, slots=True)
class LeasedAppend:
    """What ``acquire_lease_and_append`` did: the lease taken and, unless the store declined
    to (``appended`` is ``None``), the event stored under it at the lease's version."""

    lease: Lease
    appended: AppendPlan | None
    """The append as stored (its ``expected_version`` is ``lease.version``), or ``None`` when
    the lease found a turn to close first (``lease.interrupted``) or the event's timestamp not
    after the session's last: the lease is then held, nothing is stored, and the caller
    appends under it as usual."""

    @property
    def event(self) -> Event | None:
        """The event as stored, or ``None``."""
        return None if self.appended is None else self.appended.event

    def session_after(self, session: Session) -> Session | None:
        """The session under the lease once the event is stored, from a load of ``session``
        made beside the write: one that found the session as the lease did (its ``version``
        and ``create_time`` those of ``lease``), or just after the write (the event its last).
        ``None`` for any other load, or when nothing was appended: load it again."""
        from agentlog.sessions._plan import session_after

        lease, plan = self.lease, self.appended
        if plan is None or session.create_time != lease.create_time:
            return None
        if session.version == plan.new_version and session.events[-1].id == plan.event.id:
            return session.under_lease(lease.token)
        if session.version != lease.version:
            return None
        return session_after(session.under_lease(lease.token), plan)


@runtime_checkable
class LeaseAppends(SessionLeases, Protocol):
    """Leases that can be taken together with the turn's first event; every store agentlog
    ships implements it (a store with plain ``SessionLeases`` still runs turns, with one more
    round trip each)."""

    async def acquire_lease_and_append(
        self,
        event: Event,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        owner: str,
        invocation_id: str,
        ttl_s: float,
        expected_version: int | None = None,
    ) -> LeasedAppend | None:
        """Take the session's lease and append ``event`` at the version it finds, in one
        transaction. ``None`` if another holds the lease: nothing is stored. With
        ``expected_version``, a session at another version raises ``StaleSessionError``, with
        no lease taken and nothing stored; a refused append (``DuplicateEventError``, an
        invalid event) takes no lease either. Raises ``SessionNotFoundError``."""
        ...
