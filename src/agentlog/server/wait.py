"""A turn run to its end and answered as one JSON body: "run and wait".

``POST /sessions/{id}/messages`` (and an answer to a request) streams its turn as server-sent
events unless the client asks for JSON: ``?stream=false``, or an ``Accept`` header preferring
``application/json`` to ``text/event-stream``. The turn then runs as a streamed one does (in
the background, registered with the hub, so other clients following the session see it
live, and a client that leaves does not stop it); the answer comes when it ends, with the
turn's stored events, the requests it left waiting, and the failure that ended it, if one
could not be stored. This is what ADK's ``/run`` and LangGraph's ``/runs/wait`` answer.
"""

from __future__ import annotations

from typing import Final

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

from agentlog.approvals import PendingRequest, pending_requests
from agentlog.events import Event
from agentlog.router import RoutedMessage
from agentlog.server.hub import LiveTurn
from agentlog.server.schemas import StreamFrame

__all__ = ["JSON", "SSE", "TurnOut", "turn_response", "wants_json"]

JSON: Final = "application/json"
SSE: Final = "text/event-stream"


class TurnOut(BaseModel):
    """A turn, run to its end."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    invocation_id: str = Field(description="The turn's id.")
    events: list[Event] = Field(
        description="What the turn stored, in order: the user's message (or answer) first."
    )
    pending: list[PendingRequest] = Field(
        description="The requests the turn asked and is paused on, oldest first: answer them "
        "to resume it."
    )
    error: RoutedMessage | None = Field(
        default=None,
        description="A failure that ended the turn and could not be stored (a bug, the store "
        "gone away), as a stream's `error` frame says it; absent otherwise.",
    )


def wants_json(accept: str | None, stream: bool | None) -> bool:
    """Whether a turn is answered as JSON: ``stream`` if given, else the ``Accept`` header
    (JSON only when it ranks ``application/json`` above ``text/event-stream``)."""
    if stream is not None:
        return not stream
    if not accept:
        return False
    return _quality(accept, JSON) > _quality(accept, SSE)


def _quality(accept: str, media_type: str) -> float:
    """The ``q`` the most specific range of ``accept`` matching ``media_type`` gives it."""
    kind = media_type.split("/")[0]
    best, specificity = 0.0, -1
    for item in accept.split(","):
        range_, *params = (piece.strip() for piece in item.split(";"))
        range_ = range_.lower()
        if range_ == media_type:
            rank = 2
        elif range_ == f"{kind}/*":
            rank = 1
        elif range_ == "*/*":
            rank = 0
        else:
            continue
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(1.0, max(0.0, float(value)))
                except ValueError:
                    q = 0.0
        if rank > specificity:
            best, specificity = q, rank
    return best


async def turn_response(turn: LiveTurn, user_id: str, session_id: str) -> Response:
    """Follow ``turn`` (started and accepted) to its end; answer what it stored as JSON."""
    events: list[Event] = []
    error: RoutedMessage | None = None
    invocation_id = ""
    async for frame in turn.follow(set()):
        invocation_id = invocation_id or frame.invocation_id
        if frame.event is not None:
            events.append(frame.event)
        elif frame.kind == "error":
            error = StreamFrame.model_validate_json(frame.data).messages[0]
    pending = [
        request.model_copy(update={"session_id": session_id, "user_id": user_id})
        for request in pending_requests(events)
    ]
    out = TurnOut(invocation_id=invocation_id, events=events, pending=pending, error=error)
    return Response(out.model_dump_json(exclude_none=True), media_type=JSON)
