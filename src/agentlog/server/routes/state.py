"""``app:`` state (readable by all, writable with an admin key) and the caller's ``user:`` state.

State is a fold of stored deltas, so an admin's write is an event too: it lands in an audit
session of the reserved user :data:`ADMIN_USER`, naming who changed which keys.
"""

from __future__ import annotations

import contextlib
from typing import Any, Final

from agentlog.errors import SessionExistsError, SessionNotFoundError, StaleSessionError
from agentlog.events import Content, Event, EventActions
from agentlog.ids import new_invocation_id
from agentlog.server.auth import Caller
from agentlog.server.deps import AdminCaller, CallerDep, Server, ServerDep
from agentlog.server.routes.resource import resource_router
from agentlog.server.schemas import AppStatePatch, AppStateReplace, StateOut
from agentlog.sessions.base import GetSessionConfig, Session
from agentlog.state import APP_PREFIX

__all__ = ["ADMIN_USER", "STATE_SESSION", "router"]

router = resource_router("/state", ["state"])

ADMIN_USER: Final = "agentlog:admin"
"""Owner of the audit session of app-state writes (no API key can name it)."""
STATE_SESSION: Final = "app-state"
"""The audit session's id."""

FORBIDDEN: dict[int | str, dict[str, Any]] = {403: {"description": "Needs an admin key."}}


@router.get("/app")
async def get_app_state(server: ServerDep, caller: CallerDep) -> StateOut:
    """The app's state, keys without the ``app:`` prefix."""
    return StateOut(state=await server.store.get_app_state(app_name=server.app_name))


@router.patch("/app", responses=FORBIDDEN)
async def patch_app_state(body: AppStatePatch, server: ServerDep, caller: AdminCaller) -> StateOut:
    """Change some ``app:`` keys (null deletes). Admin only."""
    return StateOut(state=await write_app_state(server, caller, body.delta))


@router.put("/app", responses=FORBIDDEN)
async def put_app_state(body: AppStateReplace, server: ServerDep, caller: AdminCaller) -> StateOut:
    """Replace the whole ``app:`` state (keys left out are deleted). Admin only."""
    current = await server.store.get_app_state(app_name=server.app_name)
    delta: dict[str, Any] = {key: None for key in current if key not in body.state}
    delta.update(body.state)
    return StateOut(state=await write_app_state(server, caller, delta))


@router.get("/user")
async def get_user_state(server: ServerDep, caller: CallerDep) -> StateOut:
    """The caller's ``user:`` state, keys without the prefix."""
    state = await server.store.get_user_state(app_name=server.app_name, user_id=caller.user_id)
    return StateOut(state=state)


async def write_app_state(server: Server, caller: Caller, delta: dict[str, Any]) -> dict[str, Any]:
    """Store an event carrying ``delta`` as ``app:`` keys; return the app state after it."""
    if delta:
        event = Event(
            invocation_id=new_invocation_id(),
            author="admin",
            content=Content.from_text(
                f"{caller.user_id} set app state: {', '.join(sorted(delta))}"
            ),
            actions=EventActions(state_delta={APP_PREFIX + k: v for k, v in delta.items()}),
        )
        for attempt in range(5):
            session = await _audit_session(server)
            try:
                await server.store.append_event(session, event)
                break
            except StaleSessionError:
                if attempt == 4:
                    raise
    return await server.store.get_app_state(app_name=server.app_name)


async def _audit_session(server: Server) -> Session:
    store, app_name = server.store, server.app_name
    for _ in range(2):
        try:
            return await store.get_session(
                app_name=app_name,
                user_id=ADMIN_USER,
                session_id=STATE_SESSION,
                config=GetSessionConfig(num_recent_events=0),
            )
        except SessionNotFoundError:
            with contextlib.suppress(SessionExistsError):
                return await store.create_session(
                    app_name=app_name, user_id=ADMIN_USER, session_id=STATE_SESSION
                )
    raise SessionNotFoundError(app_name, ADMIN_USER, STATE_SESSION)
