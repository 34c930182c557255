"""Sessions: create, list, read (with events, or the events after one), delete."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import HTTPException, Query, Request, Response, status

from agentlog._frozen import thaw
from agentlog.router import route
from agentlog.server.deps import CallerDep, ServerDep, SessionId, server_of
from agentlog.server.replay import events_after
from agentlog.server.routes.resource import resource_router
from agentlog.server.schemas import (
    CreateSession,
    EventsPage,
    SessionDetail,
    SessionList,
    SessionOut,
    StateOut,
    StreamFrame,
)
from agentlog.server.stalls import pending_requests
from agentlog.sessions.base import GetSessionConfig

__all__ = ["router"]

router = resource_router("/sessions", ["sessions"])

NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such session for this user."}
}


@router.post("", status_code=status.HTTP_201_CREATED, responses={409: {}})
async def create_session(body: CreateSession, caller: CallerDep, request: Request) -> SessionOut:
    """Create a session for the caller."""
    server = server_of(request)
    session = await server.store.create_session(
        app_name=server.app_name,
        user_id=caller.user_id,
        state=body.state,
        session_id=body.session_id,
    )
    return SessionOut.of(session)


@router.get("")
async def list_sessions(server: ServerDep, caller: CallerDep) -> SessionList:
    """The caller's sessions, oldest first, without events."""
    sessions = await server.store.list_sessions(app_name=server.app_name, user_id=caller.user_id)
    return SessionList(sessions=[SessionOut.of(s) for s in sessions])


@router.get("/{session_id}", responses=NOT_FOUND)
async def get_session(session_id: SessionId, server: ServerDep, caller: CallerDep) -> SessionDetail:
    """A session with its stored events and its unanswered requests."""
    session = await server.store.get_session(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    return SessionDetail(
        **SessionOut.of(session).model_dump(),
        events=list(session.events),
        pending=pending_requests(session),
    )


@router.delete(
    "/{session_id}", status_code=status.HTTP_204_NO_CONTENT, responses={**NOT_FOUND, 409: {}}
)
async def delete_session(session_id: SessionId, server: ServerDep, caller: CallerDep) -> Response:
    """Delete a session, its events, and its summaries and memory entries (app and user state
    stay)."""
    if server.hub.busy(server.key(caller, session_id)):
        raise HTTPException(status.HTTP_409_CONFLICT, "a turn is running on this session")
    await server.store.delete_session(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    await server.forget(caller, session_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{session_id}/state", responses=NOT_FOUND)
async def get_session_state(
    session_id: SessionId, server: ServerDep, caller: CallerDep
) -> StateOut:
    """The session's state view: ``app:``, ``user:`` and session keys."""
    session = await server.store.get_session(
        app_name=server.app_name,
        user_id=caller.user_id,
        session_id=session_id,
        config=GetSessionConfig(num_recent_events=0),
    )
    return StateOut(state=thaw(session.state))


@router.get("/{session_id}/events", responses=NOT_FOUND)
async def get_events(
    session_id: SessionId,
    server: ServerDep,
    caller: CallerDep,
    after: Annotated[
        str | None, Query(description="An event id: only the events stored after it.")
    ] = None,
    limit: Annotated[int | None, Query(ge=1, le=10_000, description="At most this many.")] = None,
) -> EventsPage:
    """The stored events after ``after`` (all without it), each with its routed messages."""
    events = await events_after(
        server.store, server.app_name, server.key(caller, session_id), after
    )
    page = events if limit is None else events[:limit]
    return EventsPage(
        items=[StreamFrame(event=e, messages=route(e)) for e in page],
        has_more=len(page) < len(events),
    )
