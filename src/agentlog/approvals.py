"""Requests to a person, and their answers: the one place that knows what is pending.

A turn asks a person (or the client) for something in one of two ways:

- a long-running call named :data:`REQUEST_CONFIRMATION` or :data:`REQUEST_CREDENTIAL`, whose
  ``args`` name the tool call waiting on it (``function_call_id``), the hint and any payload:
  what ``ToolContext.request_confirmation`` and ``request_credential`` store;
- only ``actions.requested_tool_confirmations`` / ``requested_auth_configs``, keyed by the
  waiting call's id, as a custom agent may write them. The request's id is then that key.

**The pending rule.** A request is pending while no stored event answers it (a function
response with the request's id) and the user has not written a new message after it (which
abandons it). The runner, the server's approval routes and stall watcher, and compaction's
safety cut all ask this module.

**Answers.** A message answering requests holds only function responses named like the request
(``confirmation_answer``, ``credential_answer``). ``resolve_answers`` checks one against the
session, raising before anything is stored; the runner calls it on a session it loaded under
the session's lease and appends the answer under that lease's token, so the decision that a
request is still pending and the answer's append are one atomic step: an answer is stored, and
its tool runs, at most once per request, however many processes race to answer it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from agentlog._frozen import thaw
from agentlog.context import ResumeInfo
from agentlog.errors import (
    InvalidMessageError,
    RequestAbandonedError,
    RequestAlreadyAnsweredError,
    UnknownRequestError,
)
from agentlog.events import Content, Event, Part, ToolConfirmation
from agentlog.sessions.base import Session

__all__ = [
    "REQUEST_CONFIRMATION",
    "REQUEST_CREDENTIAL",
    "WITHHELD",
    "PendingRequest",
    "Request",
    "confirmation_answer",
    "credential_answer",
    "is_human_request",
    "pending_requests",
    "requests_of",
    "resolve_answers",
    "withhold_credentials",
]

REQUEST_CONFIRMATION: Final = "agentlog_request_confirmation"
"""Name of the long-running call that asks a human to approve a tool call."""
REQUEST_CREDENTIAL: Final = "agentlog_request_credential"
"""Name of the long-running call that asks the client for a credential."""
WITHHELD: Final = "[credential withheld from the log]"
"""What the log keeps of a credential answer."""

_HUMAN_REQUESTS: Final = frozenset({REQUEST_CONFIRMATION, REQUEST_CREDENTIAL})


def is_human_request(name: str) -> bool:
    """Whether a function name is one of the framework's requests to a human or client."""
    return name in _HUMAN_REQUESTS


class PendingRequest(BaseModel):
    """A confirmation or credential request that has no answer yet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session_id: str = Field(description="The session.")
    user_id: str = Field(description="The session's owner.")
    invocation_id: str = Field(description="The paused turn.")
    event_id: str = Field(description="The stored event holding the request.")
    request_id: str = Field(description="Answer it at POST /sessions/{id}/approvals/{this}.")
    function_call_id: str = Field(description="The tool call waiting on it.")
    kind: Literal["confirmation", "credential"] = Field(description="What is asked.")
    hint: str = Field(description="What the person is asked.")
    payload: JsonValue = Field(default=None, description="Data shown with a confirmation.")
    requested_at: float = Field(description="When it was stored (seconds since the epoch).")
    waiting_s: float = Field(description="Seconds since then.")


@dataclass(frozen=True, slots=True)
class Request:
    """One request to a person an event makes, answered or not (see :func:`requests_of`)."""

    event: Event
    """The event that makes it."""
    request_id: str
    """What an answer names: the request call's id, or for an action-only request its key."""
    function_call_id: str
    """The tool call waiting on it."""
    kind: Literal["confirmation", "credential"]
    hint: str
    payload: Any
    """Data shown with a confirmation (the stored request's, else the request call's)."""
    auth_type: str | None = None
    """The scheme a credential request asks for."""

    @property
    def answer_name(self) -> str:
        """The function name an answer to it must carry."""
        return REQUEST_CONFIRMATION if self.kind == "confirmation" else REQUEST_CREDENTIAL


def requests_of(event: Event) -> list[Request]:
    """The requests one event makes: its request calls in order, then action-only requests."""
    found: list[Request] = []
    covered: set[str] = set()
    for call in event.function_calls():
        if not is_human_request(call.name):
            continue
        args = thaw(call.args)
        original = str(args.get("function_call_id", ""))
        covered.add(original)
        confirmation = call.name == REQUEST_CONFIRMATION
        stored = event.actions.requested_tool_confirmations.get(original)
        payload = args.get("payload") if confirmation else None
        if confirmation and stored is not None and stored.payload is not None:
            payload = thaw(stored.payload)
        auth_type = None if confirmation else args.get("auth_type")
        found.append(
            Request(
                event=event,
                request_id=call.id,
                function_call_id=original,
                kind="confirmation" if confirmation else "credential",
                hint=str(args.get("hint", "")),
                payload=payload,
                auth_type=None if auth_type is None else str(auth_type),
            )
        )
    actions = event.actions
    for call_id, asked in actions.requested_tool_confirmations.items():
        if call_id not in covered:
            found.append(
                Request(event, call_id, call_id, "confirmation", asked.hint, thaw(asked.payload))
            )
    for call_id, auth in actions.requested_auth_configs.items():
        if call_id not in covered:
            found.append(
                Request(
                    event, call_id, call_id, "credential", auth.hint or "", None, auth.auth_type
                )
            )
    return found


@dataclass(frozen=True, slots=True)
class _Index:
    requests: dict[str, Request]
    """Every request made, by request id."""
    answered: set[str]
    pending: list[Request]
    """Unanswered and not abandoned, oldest first."""


def _index(events: Sequence[Event]) -> _Index:
    answered = {r.id for e in events for r in e.function_responses()}
    requests: dict[str, Request] = {}
    pending: list[Request] = []
    for event in events:
        if event.author == "user" and event.text():
            pending.clear()  # a new message abandons every request before it
            continue
        for request in requests_of(event):
            requests.setdefault(request.request_id, request)
            if request.request_id not in answered:
                pending.append(request)
    return _Index(requests, answered, pending)


def pending_requests(
    source: Session | Sequence[Event] | Event, now: float | None = None
) -> list[PendingRequest]:
    """The confirmation and credential requests that can still be answered, oldest first.

    ``source`` is a loaded session, its events, or one event (its own requests, as a stream
    shows them). ``user_id`` and ``session_id`` are empty when no session is given.
    """
    now = time.time() if now is None else now
    if isinstance(source, Event):
        events: Sequence[Event] = (source,)
    elif isinstance(source, Session):
        events = source.events
    else:
        events = source
    session_id = source.id if isinstance(source, Session) else ""
    user_id = source.user_id if isinstance(source, Session) else ""
    return [
        PendingRequest(
            session_id=session_id,
            user_id=user_id,
            invocation_id=r.event.invocation_id,
            event_id=r.event.id,
            request_id=r.request_id,
            function_call_id=r.function_call_id,
            kind=r.kind,
            hint=r.hint,
            payload=r.payload if r.kind == "confirmation" else None,
            requested_at=r.event.timestamp,
            waiting_s=max(0.0, now - r.event.timestamp),
        )
        for r in _index(events).pending
    ]


def confirmation_answer(request_id: str, confirmed: bool, payload: Any = None) -> Content:
    """The message that answers a confirmation request (``PendingRequest.request_id``)."""
    response = {"confirmed": confirmed, "payload": payload}
    return Content(
        role="user",
        parts=(Part.from_function_response(REQUEST_CONFIRMATION, response, request_id),),
    )


def credential_answer(request_id: str, credential: Mapping[str, Any]) -> Content:
    """The message that answers a credential request."""
    response = {"credential": dict(credential)}
    return Content(
        role="user", parts=(Part.from_function_response(REQUEST_CREDENTIAL, response, request_id),)
    )


def resolve_answers(session: Session, message: Content) -> tuple[str, ResumeInfo] | None:
    """The paused invocation a message answers and what it resumes with; ``None`` for a
    message that answers nothing.

    Raises ``UnknownRequestError``, ``RequestAlreadyAnsweredError``,
    ``RequestAbandonedError`` or ``InvalidMessageError`` (a malformed answer, or answers to
    more than one paused turn).
    """
    responses = [p.function_response for p in message.parts if p.function_response is not None]
    if not responses:
        return None
    index = _index(session.events)
    pending = {r.request_id for r in index.pending}
    invocation: str | None = None
    resume: ResumeInfo | None = None
    for response in responses:
        request = index.requests.get(response.id)
        if request is None:
            raise UnknownRequestError(response.id)
        if response.id in index.answered:
            raise RequestAlreadyAnsweredError(response.id)
        if response.id not in pending:
            raise RequestAbandonedError(response.id)
        if response.name != request.answer_name:
            raise InvalidMessageError(
                f"request {response.id!r} is a {request.answer_name}, answered as {response.name}"
            )
        event = request.event
        if invocation is not None and (event.invocation_id, event.author) != (
            invocation,
            resume.agent_name if resume else None,
        ):
            raise InvalidMessageError("one message answers requests of one paused turn only")
        invocation = event.invocation_id
        resume = resume or ResumeInfo(agent_name=event.author)
        body = response.response
        if request.kind == "confirmation":
            confirmed = body.get("confirmed")
            if not isinstance(confirmed, bool):
                raise InvalidMessageError(
                    f"the answer to {response.id!r} needs 'confirmed': true or false"
                )
            resume.confirmations[request.function_call_id] = ToolConfirmation(
                hint=request.hint, payload=body.get("payload"), confirmed=confirmed
            )
        else:
            credential = body.get("credential")
            if not isinstance(credential, Mapping):
                raise InvalidMessageError(
                    f"the answer to {response.id!r} needs a 'credential' object"
                )
            resume.credentials[request.function_call_id] = thaw(credential)
    if invocation is None or resume is None:
        return None
    return invocation, resume


def withhold_credentials(message: Content) -> Content:
    """``message`` as the log keeps it: each credential answer replaced by :data:`WITHHELD`."""
    parts = []
    changed = False
    for part in message.parts:
        response = part.function_response
        if response is not None and response.name == REQUEST_CREDENTIAL:
            part = Part.from_function_response(response.name, {"credential": WITHHELD}, response.id)
            changed = True
        parts.append(part)
    return Content(role=message.role, parts=tuple(parts)) if changed else message
