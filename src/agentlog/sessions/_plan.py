"""What an append writes, computed once for every backend.

Backends hold only storage code; the rules of SPEC 3 (partials untouched, ``temp:`` stripped,
scopes routed, timestamps strictly increasing, version advanced) and the input contract of
SPEC 9 (:mod:`agentlog.limits`, checked before a backend sees anything) live here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from agentlog._frozen import FrozenDict
from agentlog.errors import (
    InvalidEventError,
    InvalidUnicodeError,
    LeaseLostError,
    SessionBusyError,
    SessionNotFoundError,
    StaleSessionError,
    StoreError,
    ValueTooLargeError,
)
from agentlog.events import CheckedDelta, Event, StateDelta
from agentlog.limits import (
    MAX_EVENT_BYTES,
    MAX_ID_BYTES,
    check_identifier,
    check_state,
    contract_error,
)
from agentlog.sessions.base import Session, grown_session
from agentlog.sessions.codec import encode_event
from agentlog.state import (
    APP_PREFIX,
    TEMP_PREFIX,
    USER_PREFIX,
    ScopedDelta,
    split_delta,
    strip_temp,
)

__all__ = [
    "AppendPlan",
    "StoredHead",
    "check_ids",
    "initial_delta",
    "plan_append",
    "refused_append",
    "session_after",
]

_SCOPE_MARK: Final = ":"
"""What every scope prefix ends with: a key without it is a session key."""
assert all(p.endswith(_SCOPE_MARK) for p in (APP_PREFIX, USER_PREFIX, TEMP_PREFIX))

_delta_adapter: TypeAdapter[dict[str, Any]] = TypeAdapter(StateDelta)


@dataclass(slots=True)
class AppendPlan:
    """One append, ready to write. Read-only by convention: not ``frozen``, whose
    ``__init__`` (an ``object.__setattr__`` per field) cost five times a plain one's, on every
    append."""

    event: Event
    """The event as stored: ``temp:`` keys gone, timestamp after the previous event's."""
    delta: ScopedDelta
    """Its delta, routed by scope."""
    expected_version: int
    """The version the append was computed from."""
    payload: str
    """The event as stored, as JSON (``agentlog.sessions.codec.encode_event``)."""

    @property
    def new_version(self) -> int:
        """The session's version once the append is stored; also the event's sequence number."""
        return self.expected_version + 1

    @property
    def compaction_end(self) -> float | None:
        """The end of the span a compaction event covers; ``None`` for any other event."""
        compaction = self.event.actions.compaction
        return compaction.end_timestamp if compaction is not None else None


def plan_append(session: Session, event: Event) -> AppendPlan | None:
    """Check the arguments and compute what the append writes; ``None`` for a partial event."""
    if not isinstance(session, Session):
        raise InvalidEventError(f"append_event takes a Session, not {type(session).__name__}")
    if not isinstance(event, Event):
        raise InvalidEventError(f"append_event takes an Event, not {type(event).__name__}")
    # Each model's fields read from its __dict__: a pydantic model's attribute costs several
    # times a dict's item, and an append reads a dozen.
    held, given = session.__dict__, event.__dict__
    if given["partial"]:
        return None
    state_delta = given["actions"].__dict__["state_delta"]
    # One search of the keys joined (by a character no prefix holds) instead of one per key.
    session_only = _SCOPE_MARK not in "\n".join(state_delta)
    stored = event if session_only else strip_temp(event)
    last_update_time = held["last_update_time"]
    fields = stored.__dict__
    if fields["timestamp"] <= last_update_time:
        # The store is the clock of the log: it keeps timestamps strictly increasing.
        stored = stored.model_copy(update={"timestamp": math.nextafter(last_update_time, math.inf)})
        fields = stored.__dict__
    # Checked again here, not only when the event was made: ``model_copy`` skips validation,
    # and what reaches a store must be what every store accepts and reads back.
    _check_append_ids(
        held["app_name"],
        held["user_id"],
        held["id"],
        fields["id"],
        fields["invocation_id"],
        fields["author"],
    )
    if not session_only:
        state_delta = fields["actions"].__dict__["state_delta"]
    if state_delta.__class__ is not CheckedDelta:  # checked when validated, and frozen since
        check_state(state_delta, "state_delta")
    # The payload, here rather than in a function of its own: every append makes one.
    try:
        payload = encode_event(stored)
    except PydanticSerializationError as exc:
        # Only a string that is not valid Unicode fails to encode, and events are checked for
        # those when made: this one was changed without validation (``model_copy``).
        raise InvalidUnicodeError("the event", "cannot be written as UTF-8 JSON") from exc
    # A character is at most 4 bytes of UTF-8: only a long payload needs measuring.
    if len(payload) * 4 > MAX_EVENT_BYTES and (size := len(payload.encode())) > MAX_EVENT_BYTES:
        raise ValueTooLargeError("the event", size, MAX_EVENT_BYTES)
    return AppendPlan(
        stored,
        # Most deltas hold session keys only: no scope to strip or route. A validated delta
        # is a FrozenDict already, and the unused scopes share one empty (read-only) mapping.
        ScopedDelta(
            _NO_KEYS,
            _NO_KEYS,
            state_delta if state_delta.__class__ in _FROZEN_DELTAS else dict(state_delta),
            _NO_KEYS,
        )  # app, user, session, temp
        if session_only
        else split_delta(state_delta),
        held["version"],
        payload,
    )


_NO_KEYS: Final[FrozenDict[str, Any]] = FrozenDict()

_FROZEN_DELTAS: Final = (FrozenDict, CheckedDelta)
"""The classes of a delta that may be kept as is (read-only) rather than copied."""


def _check_append_ids(
    app_name: str, user_id: str, session_id: str, event_id: str, invocation_id: str, author: str
) -> None:
    """The identifiers of an append, as :func:`check_ids` and
    :func:`agentlog.limits.check_identifier` check them: the usual short ASCII ones in one
    pass over them joined, any other one by one (which names the one refused)."""
    joined: str | None
    try:
        joined = app_name + user_id + session_id + event_id + invocation_id + author
    except TypeError:  # not all strings (``model_copy`` skips validation)
        joined = None
    if (
        joined.__class__ is str
        and app_name
        and user_id
        and session_id
        and event_id
        and invocation_id
        and author
        # ASCII, so a character is a byte: all six together within one identifier's limit.
        and len(joined) <= MAX_ID_BYTES
        and joined.isascii()
        and "\x00" not in joined
    ):
        return
    check_ids(app_name, user_id, session_id)
    check_identifier(event_id, "id")
    check_identifier(invocation_id, "invocation_id")
    check_identifier(author, "author")


def check_ids(app_name: str, user_id: str | None = None, session_id: str | None = None) -> None:
    """Refuse identifiers no store can hold (:func:`agentlog.limits.check_identifier`), before
    a backend sees them, so every store answers alike, on reads as on writes. An empty or
    missing ``session_id`` is left to the caller (``create_session`` makes one up)."""
    check_identifier(app_name, "app_name")
    if user_id is not None:
        check_identifier(user_id, "user_id")
    if session_id:
        check_identifier(session_id, "session_id")


def session_after(session: Session, plan: AppendPlan) -> Session:
    """The session the caller holds once ``plan`` is stored."""
    delta, event = plan.delta, plan.event
    changes = None
    if delta.app or delta.user or delta.session:  # what the stored event's delta holds
        changes = event.__dict__["actions"].__dict__["state_delta"]
    return grown_session(session, event, plan.expected_version + 1, changes)


def initial_delta(state: Mapping[str, Any] | None) -> ScopedDelta:
    """``create_session``'s ``state``, validated and routed like a delta."""
    if not state:
        return ScopedDelta()
    if isinstance(state, Mapping):
        check_state(state, "state")
    try:
        delta = _delta_adapter.validate_python(dict(state))
    except ValidationError as exc:
        typed = contract_error(exc)
        if typed is not None:
            raise typed from None
        raise InvalidEventError(f"initial state is not a valid delta: {exc}") from exc
    return split_delta(delta)


@dataclass(frozen=True, slots=True)
class StoredHead:
    """What a store reads of a session row to explain a refused append."""

    version: int
    create_time: float
    lease_token: int
    """The newest lease's fencing token (0 before any)."""
    lease_live: bool
    """Whether that lease is held and unexpired, by the store's clock."""


def refused_append(
    session: Session, expected_version: int, stored: StoredHead | None
) -> StoreError:
    """Why a store refused an append computed from ``session`` at ``expected_version``, given
    the stored session's head (``None`` when there is none)."""
    if stored is None or session.create_time not in (None, stored.create_time):
        # Gone, or deleted and made again under its id: another session, whatever its version.
        return SessionNotFoundError(session.app_name, session.user_id, session.id)
    if session.lease_token is not None and session.lease_token != stored.lease_token:
        return LeaseLostError(session.id, session.lease_token)
    if session.lease_token is None and stored.lease_live:
        return SessionBusyError(session.id, 0.0)
    return StaleSessionError(session.id, expected_version, stored.version)
