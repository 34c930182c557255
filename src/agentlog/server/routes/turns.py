"""Turns as server-sent events: send a message, answer a request, (re)attach to a stream, or
follow a session live across its turns. Sending a message or an answer can also wait for the
turn's end and answer JSON instead (:mod:`agentlog.server.wait`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, get_args

from fastapi import Header, Query, Request, Response
from sse_starlette import EventSourceResponse

from agentlog.events import Content
from agentlog.runner import confirmation_answer, credential_answer
from agentlog.server.auth import Caller
from agentlog.server.deps import CallerDep, Server, ServerDep, SessionId, server_of
from agentlog.server.follow import follow_session
from agentlog.server.frames import FrameKind
from agentlog.server.parts import MessageBody, NewAnswers, NewParts, Uploads, message_of
from agentlog.server.replay import Replay, read_after
from agentlog.server.routes.resource import resource_router
from agentlog.server.schemas import Answer
from agentlog.server.streaming import session_stream, sse_response, turn_stream
from agentlog.server.turns import start_turn
from agentlog.server.wait import JSON, SSE, TurnOut, turn_response, wants_json

__all__ = ["router"]

router = resource_router("/sessions", ["turns"])

LastEventId = Annotated[
    str | None,
    Header(
        description="The id of the last stored event the client holds: the stream starts "
        "with every stored event after it (a reconnecting EventSource sets it)."
    ),
]

SSE_FRAME: dict[str, Any] = {
    "title": "SseFrame",
    "description": "One server-sent event, as an EventSource client reads it.",
    "type": "object",
    "properties": {
        "event": {
            "enum": list(get_args(FrameKind)),
            "description": "`event`: a stored event; `draft`: partial text keyed by the turn's "
            "id (replace, never append); `error`: a failure that could not be stored; `end`: "
            "the turn ended (on whichever server ran it; once per turn, after its last event).",
        },
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/StreamFrame"},
            "description": "A StreamFrame, as JSON.",
        },
        "id": {
            "type": "string",
            "description": "On an `event` frame, the stored event's id (what `Last-Event-ID` "
            "names); a client keeps the last one for the frames that carry none.",
        },
    },
    "required": ["event", "data"],
    "additionalProperties": False,
}
"""The schema of one frame. In OpenAPI 3.1 an event stream's ``schema`` describes one event."""

STREAM: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events, each an SseFrame whose `data` is a StreamFrame.",
        "content": {"text/event-stream": {"schema": SSE_FRAME}},
    },
    404: {"description": "No such session (or request) for this user."},
}
"""The answers of a stream route."""

BUSY: dict[int | str, dict[str, Any]] = {
    409: {"description": "Another turn is running on the session."}
}

TURN: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The turn: streamed as server-sent events (each an SseFrame whose "
        "`data` is a StreamFrame), or, with `stream=false` or an `Accept` header preferring "
        f"`{JSON}`, run to its end and answered as one TurnOut.",
        "content": {SSE: {"schema": SSE_FRAME}},
    },
    404: STREAM[404],
}
"""The answers of a route that starts a turn: a stream, or the whole turn as JSON."""

Stream = Annotated[
    bool,
    Query(
        description="false: wait for the turn's end and answer JSON (a TurnOut); true: "
        f"stream it. Without it, the `Accept` header decides (`{SSE}` unless it prefers "
        f"`{JSON}`)."
    ),
]


def _as_json(request: Request, stream: bool) -> bool:
    given = stream if "stream" in request.query_params else None
    return wants_json(request.headers.get("accept"), given)


@router.post(
    "/{session_id}/messages",
    response_model=TurnOut,
    responses={**TURN, **BUSY, 422: {"description": "The message cannot be taken."}},
)
async def send_message(
    session_id: SessionId,
    body: MessageBody,
    caller: CallerDep,
    request: Request,
    stream: Stream = True,
    last_event_id: LastEventId = None,
) -> Response:
    """Send the user's message (text, or parts: text with files, or answers to requests) and
    stream the turn it starts to its end, or answer the whole turn as JSON."""
    server = server_of(request)
    uploads: Uploads | None = None
    if isinstance(body, NewParts | NewAnswers):
        message, uploads = await message_of(
            body,
            server.store,
            server.artifacts,
            app_name=server.app_name,
            user_id=caller.user_id,
            session_id=session_id,
        )
    else:
        message = Content.from_text(body.text)
    as_json = _as_json(request, stream)
    return await _run(
        server, caller, session_id, message, body.state_delta, last_event_id, as_json, uploads
    )


@router.post(
    "/{session_id}/approvals/{request_id}",
    response_model=TurnOut,
    responses={**TURN, 409: {"description": "Already answered, or another turn is running."}},
)
async def answer_request(
    session_id: SessionId,
    request_id: str,
    body: Answer,
    server: ServerDep,
    caller: CallerDep,
    request: Request,
    stream: Stream = True,
    last_event_id: LastEventId = None,
) -> Response:
    """Answer a confirmation or credential request and stream the resumed turn, or answer
    the whole turn as JSON."""
    if body.kind == "confirmation":
        message = confirmation_answer(request_id, body.confirmed, body.payload)
    else:
        message = credential_answer(request_id, body.credential)
    as_json = _as_json(request, stream)
    return await _run(server, caller, session_id, message, None, last_event_id, as_json)


async def _run(
    server: Server,
    caller: Caller,
    session_id: str,
    message: Content,
    state_delta: Mapping[str, Any] | None,
    last_event_id: str | None,
    as_json: bool,
    uploads: Uploads | None = None,
) -> Response:
    key = server.key(caller, session_id)
    # A JSON answer holds the turn's own events, so what a client missed before is not sent.
    last_event_id = None if as_json else last_event_id or None
    try:
        if last_event_id is not None:
            await read_after(server.store, server.app_name, key, last_event_id)  # 404 if unknown
        turn = await start_turn(server.runner, server.hub, key, message, state_delta)
    except Exception:
        if uploads is not None:
            await uploads.discard()  # saved for a turn that never started
        raise
    if as_json:
        return await turn_response(turn, *key)
    if last_event_id is None:
        return turn_stream(turn.follow(set()))
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
    return turn_stream(frames)


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
            "starts it, until the client leaves or the session is deleted. On PostgreSQL, "
            "turns another server runs arrive as they are stored, drafts included; on SQLite, "
            "within the server's poll interval, as stored events."
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
