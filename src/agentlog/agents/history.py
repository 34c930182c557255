"""The history a model call sees, built from stored events.

Rules: drafts, errors and human-in-the-loop requests are left out; a function call goes in only
with its response and a response only with its call (so a call whose turn failed or was
abandoned never reaches a provider that rejects unanswered calls); other agents' turns are
retold as user-side context, so a model never mistakes another agent's words for its own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Final

from agentlog._frozen import thaw
from agentlog.events import Content, Event, Part

__all__ = [
    "REQUEST_CONFIRMATION",
    "REQUEST_CREDENTIAL",
    "build_contents",
    "current_turn",
    "is_human_request",
    "latest_compaction",
]

REQUEST_CONFIRMATION: Final = "agentlog_request_confirmation"
"""Name of the long-running call that asks a human to approve a tool call."""
REQUEST_CREDENTIAL: Final = "agentlog_request_credential"
"""Name of the long-running call that asks the client for a credential."""

_HUMAN_REQUESTS: Final = frozenset({REQUEST_CONFIRMATION, REQUEST_CREDENTIAL})


def is_human_request(name: str) -> bool:
    """Whether a function name is one of the framework's requests to a human or client."""
    return name in _HUMAN_REQUESTS


def latest_compaction(events: Sequence[Event]) -> Event | None:
    """The newest compaction event: the one whose span ends last (the later one on a tie).

    The greatest end, not the last stored, so a late compaction that reaches less far (written
    by a slower process) never brings back events a newer one already covers; the stores'
    ``GetSessionConfig.from_latest_compaction`` picks the same one.
    """
    found: Event | None = None
    end = -math.inf
    for event in events:
        compaction = event.actions.compaction
        if compaction is not None and compaction.end_timestamp >= end:
            found, end = event, compaction.end_timestamp
    return found


def current_turn(events: Sequence[Event]) -> Sequence[Event]:
    """The events from the latest user text message on."""
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if event.author == "user" and event.text():
            return events[i:]
    return events


def _summary_content(summary: Content) -> Content:
    text = "".join(p.text or "" for p in summary.parts)
    return Content(role="user", parts=(Part(text=f"[Summary of earlier conversation]\n{text}"),))


def build_contents(events: Sequence[Event], agent_name: str) -> list[Content]:
    """The contents for ``agent_name``'s next model call.

    With a compaction among ``events``, the newest one's summary comes first and stands in
    for every event up to its end; later events follow as they are.
    """
    newest = latest_compaction(events)
    compaction = newest.actions.compaction if newest is not None else None
    contents: list[Content] = []
    kept: Sequence[Event] = events
    if compaction is not None:
        contents.append(_summary_content(compaction.summary))
        covered = set(compaction.event_ids)
        kept = [
            e
            for e in events
            if e.actions.compaction is None
            and e.id not in covered
            and e.timestamp > compaction.end_timestamp
        ]

    calls: set[str] = set()
    responses: set[str] = set()
    for event in kept:
        for call in event.function_calls():
            calls.add(call.id)
        for response in event.function_responses():
            responses.add(response.id)
    paired = calls & responses

    for event in kept:
        if (
            event.partial
            or event.error_code is not None
            or event.content is None
            or event.actions.compaction is not None
        ):
            continue
        parts = [p for p in event.content.parts if _keep(p, paired)]
        if not parts:
            continue
        if event.author == "user":
            contents.append(Content(role="user", parts=tuple(parts)))
        elif event.author == agent_name:
            role = "user" if any(p.function_response is not None for p in parts) else "model"
            contents.append(Content(role=role, parts=tuple(parts)))
        else:
            contents.append(_as_context(event.author, parts))
    return contents


def _keep(part: Part, paired: set[str]) -> bool:
    if part.function_call is not None:
        return not is_human_request(part.function_call.name) and part.function_call.id in paired
    if part.function_response is not None:
        return (
            not is_human_request(part.function_response.name)
            and part.function_response.id in paired
        )
    return part.text is not None and part.text != ""


def _as_context(author: str, parts: Sequence[Part]) -> Content:
    lines = ["For context:"]
    for part in parts:
        if part.text is not None:
            lines.append(f"[{author}] said: {part.text}")
        elif part.function_call is not None:
            args = json.dumps(thaw(part.function_call.args), ensure_ascii=False)
            lines.append(f"[{author}] called tool `{part.function_call.name}` with {args}")
        elif part.function_response is not None:
            body = json.dumps(thaw(part.function_response.response), ensure_ascii=False)
            lines.append(f"[{author}] `{part.function_response.name}` returned {body}")
    return Content(role="user", parts=(Part(text="\n".join(lines)),))
