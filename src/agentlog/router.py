"""The event router: what a client needs to show for each event.

A pure function, classifying by payload, never by author (a sub-agent's tool call looks the
same as the root agent's). Drafts carry the turn's id so a client replaces them in place;
everything else carries the stored event's id. The end of a turn is not an event property:
it is marked when the run's stream ends (:func:`turn_end`).

Kinds: ``error`` (a user-facing sentence per error code, never the code), ``draft`` (partial
text; replaces the draft), ``user_message`` (a person's text), ``tool_call``, ``tool_result``,
``handoff``, ``needs_approval`` (a confirmation or credential request to answer),
``approval_answer`` (the answer to one), ``answer`` (final model text; replaces the draft),
``compaction`` (a summary standing in for earlier events) and ``turn_end``.

Two things are never dropped, whatever else the event holds (the seed's "hung approvals" and
silent errors): a confirmation or credential request, also one carried only in ``actions``
(as a custom agent writes it, with no request call; its key is then its request id), and an
error, also one with only an ``error_message`` (it reads as ``internal``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agentlog._frozen import thaw
from agentlog.approvals import (
    REQUEST_CONFIRMATION,
    REQUEST_CREDENTIAL,
    Request,
    is_human_request,
    requests_of,
)
from agentlog.events import ErrorCode, Event

__all__ = ["USER_MESSAGES", "MessageKind", "RoutedMessage", "route", "turn_end", "user_message"]

MessageKind = Literal[
    "error",
    "draft",
    "user_message",
    "tool_call",
    "tool_result",
    "handoff",
    "needs_approval",
    "approval_answer",
    "answer",
    "compaction",
    "turn_end",
]

USER_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.SAFETY: "The assistant stopped because the reply may have broken a safety rule.",
    ErrorCode.RECITATION: "The assistant stopped because the reply repeated protected text.",
    ErrorCode.REFUSAL: "The assistant declined to answer that.",
    ErrorCode.MAX_TOKENS: "The reply was too long and was cut off. Try asking for less at once.",
    ErrorCode.CONTEXT_TOO_LONG: "This conversation is too long for the model. Start a new one.",
    ErrorCode.RATE_LIMITED: "The assistant is busy right now. Please try again in a minute.",
    ErrorCode.TIMEOUT: "The assistant took too long to answer. Please try again.",
    ErrorCode.AUTHENTICATION: "The assistant is not set up correctly (its model key was refused).",
    ErrorCode.PROVIDER_ERROR: "The assistant's model service is unavailable. Please try again.",
    ErrorCode.MALFORMED_OUTPUT: "The assistant produced a reply it could not use. Please rephrase.",
    ErrorCode.MAX_LLM_CALLS: "The assistant took too many steps on this request and stopped.",
    ErrorCode.TOOL_NOT_FOUND: "The assistant tried to use a tool it does not have.",
    ErrorCode.AGENT_NOT_FOUND: "The assistant tried to hand over to an agent that does not exist.",
    ErrorCode.INTERRUPTED: "The assistant was interrupted before it finished. Please try again.",
    ErrorCode.INTERNAL: "Something went wrong on our side. The conversation is saved; try again.",
}


def user_message(code: ErrorCode | None) -> str:
    """The sentence to show a person for an error code (never the code itself)."""
    return USER_MESSAGES.get(code or ErrorCode.INTERNAL, USER_MESSAGES[ErrorCode.INTERNAL])


class RoutedMessage(BaseModel):
    """One thing for a client to show."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: MessageKind = Field(description="What it is.")
    id: str = Field(description="The stored event's id; for a draft, the turn's id.")
    invocation_id: str = Field(description="The turn.")
    author: str = Field(description="Who produced it.")
    text: str = Field(default="", description="What to show.")
    data: dict[str, Any] = Field(default_factory=dict, description="Details (names, args, ids).")


def route(event: Event) -> list[RoutedMessage]:
    """The messages for one event, in the order to show them."""
    inv, author = event.invocation_id, event.author

    def msg(kind: MessageKind, text: str = "", **data: Any) -> RoutedMessage:
        message_id = inv if kind == "draft" else event.id
        return RoutedMessage(
            kind=kind, id=message_id, invocation_id=inv, author=author, text=text, data=data
        )

    if event.error_code is not None or event.error_message:
        # A message without a code is still an error (the seed routes either); it reads as
        # an unexpected failure, since the message itself is for logs, not people.
        code = event.error_code or ErrorCode.INTERNAL
        return [msg("error", user_message(code), error_code=code.value)]
    if event.partial:
        return [msg("draft", event.text())]
    compaction = event.actions.compaction
    if compaction is not None:
        summary = "".join(p.text or "" for p in compaction.summary.parts)
        return [msg("compaction", summary, event_ids=list(compaction.event_ids))]
    spoken_by_user = event.content is not None and event.content.role == "user"
    text = event.text()  # read once: each read walks the parts (a stream routes every event)
    out: list[RoutedMessage] = []
    if spoken_by_user and text:
        out.append(msg("user_message", text))
    # The requests the event makes (agentlog.approvals): one per request call, in call order,
    # routed where the call stands, then those a custom agent writes only in the actions (left
    # unrouted, such a turn would hang unseen).
    requests = iter(requests_of(event))
    for call in event.function_calls():
        if is_human_request(call.name):
            out.append(_approval(next(requests), msg))
        else:
            args = thaw(call.args)
            out.append(msg("tool_call", _call_text(call.name, args), name=call.name, args=args))
    out.extend(_approval(request, msg) for request in requests)
    for response in event.function_responses():
        body = thaw(response.response)
        if response.name == REQUEST_CONFIRMATION:
            confirmed = body.get("confirmed") is True
            text = "Approved" if confirmed else "Declined"
            out.append(msg("approval_answer", text, request_id=response.id, confirmed=confirmed))
            continue
        if response.name == REQUEST_CREDENTIAL:
            out.append(
                msg("approval_answer", "Credential given", request_id=response.id, credential=True)
            )
            continue
        out.append(
            msg("tool_result", _result_text(response.name, body), name=response.name, result=body)
        )
    if event.actions.transfer_to_agent:
        target = event.actions.transfer_to_agent
        out.append(msg("handoff", f"Handing over to {target}", to=target))
    if text and not spoken_by_user and event.is_final_response():
        out.append(msg("answer", text))
    return out


def _approval(request: Request, msg: Callable[..., RoutedMessage]) -> RoutedMessage:
    """The ``needs_approval`` message of one request to a person."""
    if request.kind == "confirmation":
        return msg(
            "needs_approval",
            request.hint,
            request_id=request.request_id,
            function_call_id=request.function_call_id,
            payload=request.payload,
        )
    return msg(
        "needs_approval",
        request.hint,
        request_id=request.request_id,
        function_call_id=request.function_call_id,
        credential=True,
        auth_type=request.auth_type,
    )


def turn_end(invocation_id: str, author: str = "") -> RoutedMessage:
    """The message that marks the end of a turn, sent when the run's stream ends."""
    return RoutedMessage(
        kind="turn_end", id=invocation_id, invocation_id=invocation_id, author=author
    )


def _call_text(name: str, args: dict[str, Any]) -> str:
    return (
        f"{name}({', '.join(f'{k}={json.dumps(v, ensure_ascii=False)}' for k, v in args.items())})"
    )


def _result_text(name: str, body: dict[str, Any]) -> str:
    text = json.dumps(body, ensure_ascii=False)
    return f"{name} → {text if len(text) <= 200 else text[:197] + '...'}"
