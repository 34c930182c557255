"""``InMemorySessionService``: the store for tests and throwaway sessions."""

from __future__ import annotations

import bisect
import math
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentlog.errors import (
    DuplicateEventError,
    LeaseLostError,
    SessionExistsError,
    SessionNotFoundError,
    StaleSessionError,
    StoreUnavailableError,
)
from agentlog.events import Event
from agentlog.ids import new_session_id
from agentlog.sessions._first_append import at_version, plan_first
from agentlog.sessions._plan import (
    AppendPlan,
    StoredHead,
    check_ids,
    initial_delta,
    plan_append,
    refused_append,
    session_after,
)
from agentlog.sessions.base import GetSessionConfig, Session, stored_session
from agentlog.sessions.leases import Lease, LeasedAppend, TurnState
from agentlog.state import apply_delta, merged_view

__all__ = ["InMemorySessionService"]


@dataclass(slots=True)
class _Record:
    state: dict[str, Any]
    last_update_time: float
    create_time: float
    events: list[Event] = field(default_factory=list)
    event_ids: set[str] = field(default_factory=set)
    timestamps: list[float] = field(default_factory=list)
    """The events' timestamps, strictly increasing, for bisecting."""
    compaction_end: float | None = None
    """The greatest ``end_timestamp`` of a stored compaction."""
    lease_token: int = 0
    lease_owner: str | None = None
    """The lease's holder; ``None`` once released (the turn's stored end)."""
    lease_invocation: str | None = None
    lease_expires: float = 0.0

    def lease_live(self, now: float) -> bool:
        """Whether a lease is held and unexpired at ``now``."""
        return self.lease_owner is not None and self.lease_expires >= now


class InMemorySessionService:
    """Sessions in a dict, guarded by a lock so threads and tasks may share it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[tuple[str, str, str], _Record] = {}
        self._app_state: dict[str, dict[str, Any]] = {}
        self._user_state: dict[tuple[str, str], dict[str, Any]] = {}
        self._closed = False
        self._last_create = 0.0

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError("InMemorySessionService is closed")

    def _record(self, app_name: str, user_id: str, session_id: str) -> _Record:
        record = self._sessions.get((app_name, user_id, session_id))
        if record is None:
            raise SessionNotFoundError(app_name, user_id, session_id)
        return record

    def _session(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        record: _Record,
        events: tuple[Event, ...],
    ) -> Session:
        return stored_session(
            id=session_id,
            app_name=app_name,
            user_id=user_id,
            state=merged_view(
                self._app_state.get(app_name, {}),
                self._user_state.get((app_name, user_id), {}),
                record.state,
            ),
            events=events,
            version=len(record.events),
            last_update_time=record.last_update_time,
            create_time=record.create_time,
        )

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: Mapping[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session:
        """See ``SessionService.create_session``."""
        check_ids(app_name, user_id, session_id)
        delta = initial_delta(state)
        sid = session_id or new_session_id()
        with self._lock:
            self._check_open()
            key = (app_name, user_id, sid)
            if key in self._sessions:
                raise SessionExistsError(app_name, user_id, sid)
            # Strictly increasing, so a session made again at once still tells itself apart.
            now = self._last_create = max(time.time(), math.nextafter(self._last_create, math.inf))
            record = _Record(
                state=apply_delta({}, delta.session), last_update_time=now, create_time=now
            )
            self._sessions[key] = record
            self._apply_shared(app_name, user_id, delta.app, delta.user)
            return self._session(app_name, user_id, sid, record, ())

    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: GetSessionConfig | None = None,
    ) -> Session:
        """See ``SessionService.get_session``."""
        check_ids(app_name, user_id, session_id)
        with self._lock:
            self._check_open()
            record = self._record(app_name, user_id, session_id)
            events = record.events
            if config is not None and config.from_latest_compaction:
                end = record.compaction_end
                if end is not None:
                    events = events[bisect.bisect_right(record.timestamps, end) :]
            if config is not None and config.after_timestamp is not None:
                cutoff = config.after_timestamp
                events = [e for e in events if e.timestamp >= cutoff]
            if config is not None and config.num_recent_events is not None:
                n = config.num_recent_events
                events = events[-n:] if n else []
            return self._session(app_name, user_id, session_id, record, tuple(events))

    async def list_sessions(self, *, app_name: str, user_id: str | None = None) -> list[Session]:
        """See ``SessionService.list_sessions``."""
        check_ids(app_name, user_id)
        with self._lock:
            self._check_open()
            return [
                self._session(app, user, sid, record, ())
                for (app, user, sid), record in self._sessions.items()
                if app == app_name and (user_id is None or user == user_id)
            ]

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SessionService.delete_session``."""
        check_ids(app_name, user_id, session_id)
        with self._lock:
            self._check_open()
            self._record(app_name, user_id, session_id)
            del self._sessions[(app_name, user_id, session_id)]

    async def append_event(self, session: Session, event: Event) -> Session:
        """See ``SessionService.append_event``."""
        plan = plan_append(session, event)
        if plan is None:
            return session
        with self._lock:
            self._check_open()
            record = self._record(session.app_name, session.user_id, session.id)
            now = time.time()
            if (
                session.create_time not in (None, record.create_time)
                or len(record.events) != plan.expected_version
                or (
                    record.lease_token != session.lease_token
                    if session.lease_token is not None
                    else record.lease_live(now)
                )
            ):
                head = StoredHead(
                    version=len(record.events),
                    create_time=record.create_time,
                    lease_token=record.lease_token,
                    lease_live=record.lease_live(now),
                )
                raise refused_append(session, plan.expected_version, head)
            if plan.event.id in record.event_ids:
                raise DuplicateEventError(session.id, plan.event.id)
            self._store(record, session.app_name, session.user_id, plan)
        return session_after(session, plan)

    def _store(self, record: _Record, app_name: str, user_id: str, plan: AppendPlan) -> None:
        """Write a checked append into ``record`` (under the lock)."""
        record.events.append(plan.event)
        record.event_ids.add(plan.event.id)
        record.timestamps.append(plan.event.timestamp)
        compaction = plan.event.actions.compaction
        if compaction is not None and (
            record.compaction_end is None or compaction.end_timestamp > record.compaction_end
        ):
            record.compaction_end = compaction.end_timestamp
        record.state = apply_delta(record.state, plan.delta.session)
        record.last_update_time = plan.event.timestamp
        self._apply_shared(app_name, user_id, plan.delta.app, plan.delta.user)

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
        """See ``SessionLeases.acquire_lease``."""
        check_ids(app_name, user_id, session_id)
        with self._lock:
            self._check_open()
            record = self._record(app_name, user_id, session_id)
            now = time.time()
            if record.lease_live(now):
                return None
            interrupted = record.lease_invocation if record.lease_owner is not None else None
            record.lease_token += 1
            record.lease_owner = owner
            record.lease_invocation = invocation_id
            record.lease_expires = now + ttl_s
            return Lease(
                app_name=app_name,
                user_id=user_id,
                session_id=session_id,
                token=record.lease_token,
                owner=owner,
                invocation_id=invocation_id,
                expires_at=record.lease_expires,
                interrupted=interrupted,
                version=len(record.events),
                create_time=record.create_time,
            )

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
        """See ``LeaseAppends.acquire_lease_and_append``."""
        check_ids(app_name, user_id, session_id)
        first = plan_first(event, app_name=app_name, user_id=user_id, session_id=session_id)
        with self._lock:
            self._check_open()
            record = self._record(app_name, user_id, session_id)
            version = len(record.events)
            if expected_version is not None and version != expected_version:
                raise StaleSessionError(session_id, expected_version, version)
            now = time.time()
            if record.lease_live(now):
                return None
            interrupted = record.lease_invocation if record.lease_owner is not None else None
            plan = None
            if interrupted is None:
                plan = at_version(first, version, record.last_update_time)
            if plan is not None and plan.event.id in record.event_ids:
                raise DuplicateEventError(session_id, plan.event.id)
            record.lease_token += 1
            record.lease_owner = owner
            record.lease_invocation = invocation_id
            record.lease_expires = now + ttl_s
            if plan is not None:
                self._store(record, app_name, user_id, plan)
            lease = Lease(
                app_name=app_name,
                user_id=user_id,
                session_id=session_id,
                token=record.lease_token,
                owner=owner,
                invocation_id=invocation_id,
                expires_at=record.lease_expires,
                interrupted=interrupted,
                version=version,
                create_time=record.create_time,
            )
            return LeasedAppend(lease, plan)

    async def renew_lease(self, lease: Lease, ttl_s: float) -> Lease:
        """See ``SessionLeases.renew_lease``."""
        with self._lock:
            self._check_open()
            record = self._sessions.get((lease.app_name, lease.user_id, lease.session_id))
            if record is None or record.lease_token != lease.token or record.lease_owner is None:
                raise LeaseLostError(lease.session_id, lease.token)
            record.lease_expires = time.time() + ttl_s
            return lease.model_copy(update={"expires_at": record.lease_expires})

    async def release_lease(self, lease: Lease) -> None:
        """See ``SessionLeases.release_lease``."""
        with self._lock:
            self._check_open()
            record = self._sessions.get((lease.app_name, lease.user_id, lease.session_id))
            if record is not None and record.lease_token == lease.token:
                record.lease_owner = None
                record.lease_invocation = None

    async def read_turn(self, *, app_name: str, user_id: str, session_id: str) -> TurnState:
        """See ``SessionLeases.read_turn``."""
        check_ids(app_name, user_id, session_id)
        with self._lock:
            self._check_open()
            record = self._record(app_name, user_id, session_id)
            live = record.lease_live(time.time())
            return TurnState(
                version=len(record.events),
                running=record.lease_invocation if live else None,
                token=record.lease_token,
            )

    async def get_app_state(self, *, app_name: str) -> dict[str, Any]:
        """See ``SessionService.get_app_state``."""
        check_ids(app_name)
        with self._lock:
            self._check_open()
            return dict(self._app_state.get(app_name, {}))

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        """See ``SessionService.get_user_state``."""
        check_ids(app_name, user_id)
        with self._lock:
            self._check_open()
            return dict(self._user_state.get((app_name, user_id), {}))

    async def close(self) -> None:
        """See ``SessionService.close``."""
        with self._lock:
            self._closed = True

    def _apply_shared(
        self, app_name: str, user_id: str, app: Mapping[str, Any], user: Mapping[str, Any]
    ) -> None:
        if app:
            self._app_state[app_name] = apply_delta(self._app_state.get(app_name, {}), app)
        if user:
            key = (app_name, user_id)
            self._user_state[key] = apply_delta(self._user_state.get(key, {}), user)
