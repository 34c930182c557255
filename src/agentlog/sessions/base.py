"""The session-store contract: ``Session``, ``GetSessionConfig`` and ``SessionService``.

Every backend passes one conformance suite, :mod:`agentlog.testing.sessions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from agentlog._frozen import FrozenDict, FrozenJsonDict
from agentlog.events import REMOVED, Event

__all__ = ["GetSessionConfig", "Session", "SessionService", "stored_session"]


class Session(BaseModel):
    """A loaded session: its id, the merged state view and the events asked for.

    Read-only. A session changes only by ``SessionService.append_event``, which returns the new
    ``Session``; ``version`` counts the events stored so far and is what appends are checked
    against.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, description="Unique within the app and user.")
    app_name: str = Field(min_length=1, description="The application it belongs to.")
    user_id: str = Field(min_length=1, description="The user it belongs to.")
    state: FrozenJsonDict = Field(
        default_factory=lambda: FrozenDict(),
        description="app:, user: and session state, keys with their prefixes.",
    )
    events: tuple[Event, ...] = Field(default=(), description="Stored events loaded, in order.")
    version: int = Field(
        default=0,
        ge=0,
        description="Number of events stored in the session (one moved to quarantine by "
        "``agentlog check --quarantine`` still counts, so a full load may hold fewer).",
    )
    last_update_time: float = Field(description="Timestamp of the last stored event or creation.")
    create_time: float | None = Field(
        default=None,
        description="When the session was made, as the store recorded it: it tells this session "
        "from one made again under the same id after a deletion, so an append from this one "
        "cannot land in that one. Set by the stores; None skips the check.",
    )
    lease_token: int | None = Field(
        default=None,
        description="The fencing token of the session lease this object appends under "
        "(``agentlog.sessions.leases``); None appends only while no live lease is held.",
    )

    def under_lease(self, token: int | None) -> Session:
        """This session, appending under the lease ``token`` (``None``: under none)."""
        return self.model_copy(update={"lease_token": token})


_SESSION_FIELDS: frozenset[str] = frozenset(Session.model_fields)
_new_session = Session.__new__
# The setters of the slots every pydantic model has: calling a slot's own setter skips the
# attribute lookup ``object.__setattr__`` makes, on every append and load.
_set_dict = vars(BaseModel)["__dict__"].__set__
_set_fields_set = vars(BaseModel)["__pydantic_fields_set__"].__set__
_set_extra = vars(BaseModel)["__pydantic_extra__"].__set__
_set_private = vars(BaseModel)["__pydantic_private__"].__set__


def stored_session(
    *,
    id: str,
    app_name: str,
    user_id: str,
    state: FrozenJsonDict,
    events: tuple[Event, ...],
    version: int,
    last_update_time: float,
    create_time: float | None = None,
    lease_token: int | None = None,
) -> Session:
    """A ``Session`` from values a store has already checked, without validating them again.

    ``state`` must already be a ``FrozenDict`` of frozen values.

    What ``Session.model_construct`` does when every field is given, minus its per-field alias
    and default lookups: stores build one on every append and load, where that generic path
    cost more than the rest of the bookkeeping together.
    """
    return _session_of(
        {
            "id": id,
            "app_name": app_name,
            "user_id": user_id,
            "state": state,
            "events": events,
            "version": version,
            "last_update_time": last_update_time,
            "create_time": create_time,
            "lease_token": lease_token,
        }
    )


def _session_of(fields: dict[str, Any]) -> Session:
    """The ``Session`` whose ``__dict__`` is ``fields`` (every field, already checked)."""
    session = _new_session(Session)
    _set_dict(session, fields)
    _set_fields_set(session, set(_SESSION_FIELDS))
    _set_extra(session, None)
    _set_private(session, None)
    return session


def grown_session(
    session: Session, event: Event, version: int, changes: Mapping[str, Any] | None = None
) -> Session:
    """``session`` with ``event`` stored after its events, at ``version``, and the delta
    ``changes`` applied to its state (``REMOVED`` deletes; ``None``: state unchanged), without
    validating anything again.

    The append's fast path: the other fields are ``session``'s own, copied whole rather than
    read one by one (a pydantic model's attribute costs several times a dict's item).
    """
    fields = session.__dict__.copy()
    fields["events"] = fields["events"] + (event,)
    fields["version"] = version
    fields["last_update_time"] = event.__dict__["timestamp"]
    if changes is not None:
        # ``dict``'s own methods, not the FrozenDict's refusals: the new mapping is not
        # shared yet. Every change set, then the deletions' keys dropped.
        state: FrozenDict[str, Any] = FrozenDict(fields["state"])
        dict.update(state, changes)
        if REMOVED in changes.values():
            for key, value in changes.items():
                if value is REMOVED:
                    dict.pop(state, key)
        fields["state"] = state
    return _session_of(fields)


class GetSessionConfig(BaseModel):
    """Which events ``get_session`` loads. Filters combine: the last N of those at or after the
    timestamp (and, with ``from_latest_compaction``, after the newest compaction's end).

    The newest compaction is the compaction event whose ``end_timestamp`` is greatest. With
    ``from_latest_compaction`` the events loaded are that event and every event stored after
    its end, whether stored before or after the compaction event itself: exactly what a model
    call's history needs (``agentlog.agents.history.build_contents``). With no compaction
    stored, every event is loaded.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    num_recent_events: int | None = Field(default=None, ge=0, description="Only the last N.")
    after_timestamp: float | None = Field(default=None, description="Only those at or after it.")
    from_latest_compaction: bool = Field(
        default=False, description="Only the newest compaction and the events after its end."
    )


@runtime_checkable
class SessionService(Protocol):
    """Where sessions and their events live. Every method may raise ``StoreUnavailableError``."""

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: Mapping[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session:
        """Create a session. ``state`` is applied like a delta (``app:``/``user:`` routed,
        ``temp:`` dropped). Raises ``SessionExistsError`` if the id is taken."""
        ...

    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: GetSessionConfig | None = None,
    ) -> Session:
        """Load a session with its state and the events ``config`` selects (all by default).
        Raises ``SessionNotFoundError``."""
        ...

    async def list_sessions(self, *, app_name: str, user_id: str | None = None) -> list[Session]:
        """The sessions of an app (of one user, if given), without events, oldest first. A
        state row that cannot be decoded is left out of the listing (and logged), so one bad
        record never hides every session; loading that session names it."""
        ...

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """Delete a session's events and session state; app and user state stay.
        Raises ``SessionNotFoundError``."""
        ...

    async def append_event(self, session: Session, event: Event) -> Session:
        """Store ``event`` and its routed delta atomically; return the session after it.

        A partial event is returned untouched (``session`` is returned as is). Otherwise the
        event, without ``temp:`` keys, is written in one transaction with its delta; if the
        stored session has moved past ``session.version``, nothing is written and
        ``StaleSessionError`` is raised. A stored timestamp not after the previous event's is
        moved just after it, so timestamps strictly increase; the returned session's last event
        is the event as stored.
        """
        ...

    async def get_app_state(self, *, app_name: str) -> dict[str, Any]:
        """The app's state, keys without the ``app:`` prefix."""
        ...

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        """The user's state, keys without the ``user:`` prefix."""
        ...

    async def close(self) -> None:
        """Release connections; later calls raise ``StoreUnavailableError``."""
        ...
