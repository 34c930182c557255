"""``AgentlogSessionService``: google-adk's ``BaseSessionService`` over any agentlog store.

An ADK app swaps ``DatabaseSessionService(url)`` for ``AgentlogSessionService.from_url(url)``
(or ``AgentlogSessionService(store)``) and its ``Runner``, ``adk web`` and ``adk api_server``
run unchanged. Each ADK event is stored as an agentlog event (:mod:`agentlog.adk.codec`), by
the store's own atomic ``append_event``: the event and its routed state delta in one
transaction, ``temp:`` keys never stored.

Concurrency follows ``DatabaseSessionService``: a session object remembers the version it was
loaded at (ADK's ``_storage_update_marker``), and an append computed from a session another
writer has moved on raises ADK's ``StaleSessionError`` and stores nothing; reload and retry.

Loads reuse the ADK events converted for earlier loads of the same session (the log is
append-only, so an event id names one event for the life of the session), so a turn converts
only the events stored since the last one. Like ADK's own in-memory store in its light-copy
mode, loaded sessions share those event objects: treat a loaded event as read-only, as ADK's
flows do (they copy an event before changing it).
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Final

try:
    from google.adk.errors import StaleSessionError as AdkStaleSessionError
    from google.adk.errors.already_exists_error import AlreadyExistsError
    from google.adk.errors.session_not_found_error import (
        SessionNotFoundError as AdkSessionNotFoundError,
    )
    from google.adk.events import Event as AdkEvent
    from google.adk.sessions.base_session_service import (
        BaseSessionService,
        ListSessionsResponse,
    )
    from google.adk.sessions.base_session_service import (
        GetSessionConfig as AdkGetSessionConfig,
    )
    from google.adk.sessions.session import Session as AdkSession
    from pydantic_core import to_jsonable_python
except ImportError as exc:  # pragma: no cover - covered by a test that hides the SDK
    raise ImportError("agentlog.adk needs google-adk: pip install 'agentlog[adk]'") from exc

from agentlog._frozen import FrozenDict, thaw
from agentlog.adk.codec import from_adk_event, to_adk_event
from agentlog.compaction.config import EventsCompactionConfig
from agentlog.compaction.hook import CompactionHook
from agentlog.errors import (
    LeaseLostError,
    SessionBusyError,
    SessionExistsError,
    SessionNotFoundError,
    StaleSessionError,
)
from agentlog.events import Event
from agentlog.sessions.base import GetSessionConfig, Session, SessionService, stored_session

__all__ = ["AgentlogSessionService"]

_STALE_MESSAGE: Final = (
    "The session has been modified in storage since it was loaded. "
    "Please reload the session before appending more events."
)
"""google-adk's ``DatabaseSessionService`` says this on a stale append; so do we."""
_MARKER_PREFIX: Final = "agentlog:"
_HEAD_ONLY: Final = GetSessionConfig(num_recent_events=0)


class AgentlogSessionService(BaseSessionService):
    """google-adk sessions kept in an agentlog ``SessionService`` (memory, SQLite, PostgreSQL).

    Args:
        store: where the sessions live; agentlog's stores, their migrations and their
            concurrency rules apply. Readable by agentlog too: summaries, compaction and
            ``agentlog serve`` see the same sessions.
        cache_sessions: how many sessions keep their converted ADK events between loads
            (least recently loaded dropped first); 0 converts every event on every load.
    """

    def __init__(self, store: SessionService, *, cache_sessions: int = 64) -> None:
        if cache_sessions < 0:
            raise ValueError("cache_sessions must be 0 or more")
        self._store = store
        self._cache_size = cache_sessions
        self._converted: OrderedDict[tuple[str, str, str], _Converted] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[tuple[str, str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    @classmethod
    def from_url(cls, url: str, **options: Any) -> AgentlogSessionService:
        """A service over the store a URL names: ``memory://``, ``sqlite:///relative.db``,
        ``sqlite:////absolute.db``, ``postgresql://...`` (SQLAlchemy's driver suffixes, as in
        ``sqlite+aiosqlite://`` or ``postgresql+asyncpg://``, are accepted and ignored).
        ``options`` go to the store's constructor (:func:`agentlog.adk.urls.store_from_url`)."""
        from agentlog.adk.urls import store_from_url

        return cls(store_from_url(url, **options))

    @property
    def store(self) -> SessionService:
        """The agentlog store underneath."""
        return self._store

    # --- sessions -----------------------------------------------------------------------------

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> AdkSession:
        """Create a session; ``state`` is routed by scope (``temp:`` keys are not stored).
        Raises ADK's ``AlreadyExistsError`` if the id is taken."""
        try:
            created = await self._store.create_session(
                app_name=app_name,
                user_id=user_id,
                state=_json_safe(state) if state else None,
                session_id=session_id or None,
            )
        except SessionExistsError as exc:
            raise AlreadyExistsError(f"Session with id {session_id} already exists.") from exc
        return _adk_session(created, [])

    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: AdkGetSessionConfig | None = None,
    ) -> AdkSession | None:
        """The session with the events ``config`` selects (the last N, those at or after a
        timestamp), or None if there is none."""
        ours = None
        if config is not None:
            ours = GetSessionConfig(
                num_recent_events=config.num_recent_events,
                after_timestamp=config.after_timestamp,
            )
        try:
            loaded = await self._store.get_session(
                app_name=app_name, user_id=user_id, session_id=session_id, config=ours
            )
        except SessionNotFoundError:
            self._converted.pop((app_name, user_id, session_id), None)
            return None
        return _adk_session(loaded, self._adk_events(loaded))

    async def list_sessions(
        self, *, app_name: str, user_id: str | None = None
    ) -> ListSessionsResponse:
        """The sessions of an app (of one user, if given) with their state and no events,
        least recently updated first."""
        sessions = await self._store.list_sessions(app_name=app_name, user_id=user_id)
        sessions.sort(key=lambda s: (s.last_update_time, s.user_id, s.id))
        return ListSessionsResponse(sessions=[_adk_session(s, []) for s in sessions])

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """Delete a session and its events; app and user state stay. No error if it is gone."""
        self._converted.pop((app_name, user_id, session_id), None)
        try:
            await self._store.delete_session(
                app_name=app_name, user_id=user_id, session_id=session_id
            )
        except SessionNotFoundError:
            return

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        """The user's state, keys without the ``user:`` prefix."""
        return dict(await self._store.get_user_state(app_name=app_name, user_id=user_id))

    # --- events -------------------------------------------------------------------------------

    async def append_event(self, session: AdkSession, event: AdkEvent) -> AdkEvent:
        """Store ``event`` atomically with its state delta and add it to ``session``.

        A partial event is returned untouched. Raises ADK's ``StaleSessionError`` (nothing
        stored) when the stored session moved on since ``session`` was loaded, and ADK's
        ``SessionNotFoundError`` when it is gone.
        """
        if event.partial:
            return event
        # As ADK's own stores: temp: values reach the session in memory for the rest of the
        # invocation, and never the store.
        self._apply_temp_state(session, event)
        event = self._trim_temp_delta_state(event)
        key = (session.app_name, session.user_id, session.id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        # As DatabaseSessionService: appends through one session object (parallel branches of
        # an invocation share it) wait for each other, so each sees the version the last left.
        async with lock:
            head = await self._head(session)
            covered = None
            if event.actions.compaction is not None:
                covered = _covered_ids(session)
            ours = from_adk_event(event, covered=covered)
            try:
                after = await self._store.append_event(head, ours)
            except (StaleSessionError, SessionBusyError, LeaseLostError) as exc:
                raise AdkStaleSessionError(_STALE_MESSAGE) from exc
            except SessionNotFoundError as exc:
                raise AdkSessionNotFoundError(f"Session {session.id} not found.") from exc
            stored = after.events[-1]
            # The store keeps timestamps strictly increasing and may have moved this one.
            event.timestamp = stored.timestamp
            session.last_update_time = after.last_update_time
            session._storage_update_marker = _marker(after)
            return self._commit_event_to_session(session, event)

    async def _head(self, session: AdkSession) -> Session:
        """The agentlog session an append from ``session`` is computed from."""
        marker = session._storage_update_marker
        if isinstance(marker, str) and marker.startswith(_MARKER_PREFIX):
            version, last_update, created = marker.removeprefix(_MARKER_PREFIX).split(":")
            return stored_session(
                id=session.id,
                app_name=session.app_name,
                user_id=session.user_id,
                state=FrozenDict(),
                events=(),
                version=int(version),
                last_update_time=float(last_update),
                create_time=float(created) if created != "None" else None,
            )
        # A session this service did not load (made by hand, or by another service): it is
        # current only if it holds exactly the events stored, as DatabaseSessionService checks.
        try:
            stored = await self._store.get_session(
                app_name=session.app_name,
                user_id=session.user_id,
                session_id=session.id,
                config=GetSessionConfig(num_recent_events=1),
            )
        except SessionNotFoundError as exc:
            raise AdkSessionNotFoundError(f"Session {session.id} not found.") from exc
        last = stored.events[-1].id if stored.events else None
        mine = session.events[-1].id if session.events else None
        if stored.version != len(session.events) or last != mine:
            raise AdkStaleSessionError(_STALE_MESSAGE)
        return stored.model_copy(update={"events": (), "state": FrozenDict()})

    def _adk_events(self, loaded: Session) -> list[AdkEvent]:
        """ADK events for a loaded session, reusing those converted for earlier loads."""
        if not self._cache_size:
            return [to_adk_event(e) for e in loaded.events]
        key = (loaded.app_name, loaded.user_id, loaded.id)
        converted = self._converted.pop(key, None)
        if converted is None or converted.create_time != loaded.create_time:
            converted = _Converted(loaded.create_time)
        self._converted[key] = converted
        while len(self._converted) > self._cache_size:
            self._converted.popitem(last=False)
        return converted.events_for(loaded.events)

    # --- agentlog on ADK sessions ------------------------------------------------------------

    async def compact(
        self, *, app_name: str, user_id: str, session_id: str, config: EventsCompactionConfig
    ) -> AdkEvent | None:
        """Compact an ADK session with agentlog's compaction, if ``config``'s trigger fires.

        Call it between turns (after a ``Runner.run_async`` stream has ended), never during
        one. The compaction is stored as any event; ADK's ``Runner`` then sends its summary in
        place of the events it covers, as it does for its own compactions. Returns the stored
        compaction as ADK sees it, or None (nothing due, or a failure, logged as a warning).
        """
        session = await self._store.get_session(
            app_name=app_name, user_id=user_id, session_id=session_id
        )
        stored = await CompactionHook(config, self._store).compact(session)
        return None if stored is None else to_adk_event(stored)

    # --- lifetime -----------------------------------------------------------------------------

    async def close(self) -> None:
        """Close the store."""
        self._converted.clear()
        await self._store.close()

    async def __aenter__(self) -> AgentlogSessionService:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


class _Converted:
    """The ADK events converted for one session, by event id."""

    __slots__ = ("by_id", "create_time")

    def __init__(self, create_time: float | None) -> None:
        self.create_time = create_time
        self.by_id: dict[str, AdkEvent] = {}

    def events_for(self, events: tuple[Event, ...]) -> list[AdkEvent]:
        by_id = self.by_id
        out = []
        for event in events:
            adk = by_id.get(event.id)
            if adk is None:
                adk = by_id[event.id] = to_adk_event(event)
            out.append(adk)
        return out


def _marker(session: Session) -> str:
    return f"{_MARKER_PREFIX}{session.version}:{session.last_update_time!r}:{session.create_time!r}"


def _adk_session(session: Session, events: list[AdkEvent]) -> AdkSession:
    adk = AdkSession(
        id=session.id,
        app_name=session.app_name,
        user_id=session.user_id,
        state=thaw(session.state),
        events=events,
        last_update_time=session.last_update_time,
    )
    adk._storage_update_marker = _marker(session)
    return adk


def _covered_ids(session: AdkSession) -> Any:
    def covered(start: float, end: float) -> tuple[str, ...]:
        return tuple(
            e.id
            for e in session.events
            if start <= e.timestamp <= end and e.actions.compaction is None
        )

    return covered


def _json_safe(state: Mapping[str, Any]) -> dict[str, Any]:
    # As ADK's database store: rich values (datetimes, models) stored as their JSON form.
    return dict(to_jsonable_python(dict(state)))
