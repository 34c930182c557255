"""Turns as server-sent events: send a message, answer a request, (re)attach to a stream, or
follow a session live across its turns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from sse_starlette import EventSourceResponse

from agentlog.events import Content
from agentlog.runner import confirmation_answer, credential_answer
from agentlog.server.auth import Caller
from agentlog.server.deps import CallerDep, Server, ServerDep, SessionId
from agentlog.server.follow import follow_session
from agentlog.server.replay import Replay, read_after
from agentlog.server.schemas import Answer, NewMessage
from agentlog.server.streaming import session_stream, sse_response
from agentlog.server.turns import start_turn

__all__ = ["router"]

router = APIRouter(prefix="/sessions", tags=["turns"])

LastEventId = Annotated[
    str | None,
    Header(
        description="The id of the last stored event the client holds: the stream starts "
        "with every stored event after it (a reconnecting EventSource sets it)."
    ),
]

STREAM: dict[int | str, dict[str, Any]] = {
    200: {
        "description": (
            "Server-sent events. Each `data` is a StreamFrame. SSE event names: `event` (a "
            "stored event; its SSE `id` is the event's id), `draft` (partial text keyed by "
            "the turn's id: replace, never append), `error` (a failure that could not be "
            "stored), `end` (the turn's stream ended; in a follow stream, also the end of a "
            "batch of events another process stored)."
        ),
        "content": {"text/event-stream": {"schema": {"$ref": "#/components/schemas/StreamFrame"}}},
    },
    404: {"description": "No such session (or request) for this user."},
}


@router.post(
    "/{session_id}/messages",
    response_class=EventSourceResponse,
    responses={**STREAM, 422: {"description": "The message cannot be taken."}},
)
async def send_message(
    session_id: SessionId,
    body: NewMessage,
    server: ServerDep,
    caller: CallerDep,
    last_event_id: LastEventId = None,
) -> EventSourceResponse:
    """Send the user's message and stream the turn it starts, to its end."""
    message = Content.from_text(body.text)
    return await _run(server, caller, session_id, message, body.state_delta, last_event_id)


@router.post(
    "/{session_id}/approvals/{request_id}",
    response_class=EventSourceResponse,
    responses={**STREAM, 409: {"description": "Already answered."}},
)
async def answer_request(
    session_id: SessionId,
    request_id: str,
    body: Answer,
    server: ServerDep,
    caller: CallerDep,
    last_event_id: LastEventId = None,
) -> EventSourceResponse:
    """Answer a confirmation or credential request and stream the resumed turn."""
    if body.kind == "confirmation":
        message = confirmation_answer(request_id, body.confirmed, body.payload)
    else:
        message = credential_answer(request_id, body.credential)
    return await _run(server, caller, session_id, message, None, last_event_id)


async def _run(
    server: Server,
    caller: Caller,
    session_id: str,
    message: Content,
    state_delta: Mapping[str, Any] | None,
    last_event_id: str | None,
) -> EventSourceResponse:
    key = server.key(caller, session_id)
    last_event_id = last_event_id or None
    if last_event_id is not None:
        await read_after(server.store, server.app_name, key, last_event_id)  # 404 if unknown
    turn = await start_turn(server.runner, server.hub, key, message, state_delta)
    if last_event_id is None:
        return sse_response(turn.follow(set()))
    # What was stored after the client's id before this turn (e.g. a compaction), then it.
    frames = session_stream(
        server.store,
        server.app_name,
        server.hub,
        key,
        last_event_id,
        [turn],
        Replay([], frozenset()),
        server.runner.agent.name,
        follow_new=False,
    )
    return sse_response(frames)


@router.get("/{session_id}/stream", response_class=EventSourceResponse, responses=STREAM)
async def stream(
    session_id: SessionId,
    server: ServerDep,
    caller: CallerDep,
    after: Annotated[
        str | None, Query(description="Replay the stored events after this event id.")
    ] = None,
    follow: Annotated[
        bool,
        Query(
            description="Keep the stream open once the session is idle: every later turn "
            "follows (its stored events, drafts and `end`), whichever client or process "
            "starts it, until the client leaves or the session is deleted. Turns another "
            "process runs arrive as stored events only, within the server's poll interval."
        ),
    ] = False,
    last_event_id: LastEventId = None,
) -> EventSourceResponse:
    """(Re)attach to a session: stored events after an id (`Last-Event-ID` wins over
    `after`), exactly once, then the running turn (if any) to its end; without an id, every
    stored event first. With `follow`, the stream then goes on with each later turn."""
    key = server.key(caller, session_id)
    resume_from = last_event_id or after
    # Registry first, then the store: see agentlog.server.streaming.
    turns = server.hub.turns(key)
    replay = await read_after(server.store, server.app_name, key, resume_from, turns)
    parts = (server.store, server.app_name, server.hub, key, resume_from, turns, replay)
    author = server.runner.agent.name
    if follow:
        frames = follow_session(
            *parts, author, poll_s=server.follow_poll_s, versions=server.versions
        )
        return sse_response(frames)
    return sse_response(session_stream(*parts, author))
