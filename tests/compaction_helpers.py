"""Hand-built events and fake summarisers shared by the compaction tests."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from typing import Any

from agentlog import Content, Event, EventActions, Part, ToolConfirmation, Usage
from agentlog.agents import LlmAgent
from agentlog.agents.history import REQUEST_CONFIRMATION
from agentlog.compaction import EventsCompactionConfig, compaction_event
from agentlog.models.base import LlmRequest
from agentlog.models.scripted import ScriptedLlm

_clock = itertools.count(1)


def stamp() -> float:
    return 1_000.0 + next(_clock)


def ev(invocation: str, author: str, *parts: Part, **fields: Any) -> Event:
    """An event stamped after every event made before it."""
    fields.setdefault("timestamp", stamp())
    role = "user" if author == "user" or any(p.function_response for p in parts) else "model"
    return Event(
        invocation_id=invocation,
        author=author,
        content=Content(role=role, parts=parts) if parts else None,
        **fields,
    )


def text(value: str) -> Part:
    return Part(text=value)


def call(name: str, call_id: str, **args: Any) -> Part:
    return Part.from_function_call(name, args, call_id)


def response(name: str, call_id: str, **body: Any) -> Part:
    return Part.from_function_response(name, body, call_id)


def turn(
    n: int, *, tool: bool = True, agent: str = "desk", usage: int | None = None
) -> list[Event]:
    """One finished invocation ``inv-<n>``: a question, a tool call and its result, an answer."""
    inv = f"inv-{n:02d}"
    events = [ev(inv, "user", text(f"question {n}"))]
    if tool:
        events += [
            ev(inv, agent, call("lookup", f"c{n}", n=n), model="scripted"),
            ev(inv, agent, response("lookup", f"c{n}", found=n)),
        ]
    model_usage = Usage(input_tokens=usage) if usage is not None else None
    events.append(ev(inv, agent, text(f"answer {n}"), model="scripted", usage=model_usage))
    return events


def confirmation_turn(n: int) -> list[Event]:
    """Invocation ``inv-<n>`` paused on a confirmation: the tool call, then the request."""
    inv = f"inv-{n:02d}"
    return [
        ev(inv, "user", text(f"refund {n}")),
        ev(inv, "desk", call("refund", f"r{n}", n=n), model="scripted"),
        ev(
            inv,
            "desk",
            call(REQUEST_CONFIRMATION, f"confirm-{n}", function_call_id=f"r{n}", hint="ok?"),
            long_running_tool_ids=frozenset({f"confirm-{n}"}),
            actions=EventActions(
                requested_tool_confirmations={f"r{n}": ToolConfirmation(hint="ok?")}
            ),
        ),
    ]


def answer_confirmation(n: int) -> list[Event]:
    """The approval of ``confirmation_turn(n)`` and the rest of its invocation."""
    inv = f"inv-{n:02d}"
    return [
        ev(inv, "user", response(REQUEST_CONFIRMATION, f"confirm-{n}", confirmed=True)),
        ev(inv, "desk", response("refund", f"r{n}", refunded=True)),
        ev(inv, "desk", text(f"refunded {n}"), model="scripted"),
    ]


def invocations(events: Sequence[Event]) -> list[int]:
    """The invocation numbers of ``events``, each once, in order."""
    seen: list[int] = []
    for event in events:
        n = int(event.invocation_id.removeprefix("inv-"))
        if n not in seen:
            seen.append(n)
    return seen


class FakeSummarizer:
    """Records what it was given; answers ``summary <label><n>`` for its n-th call, unless
    ``fail_next`` says otherwise."""

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.calls: list[list[Event]] = []
        self.fail_next: list[str] = []
        """Queue of failures for the next calls: 'raise', 'none', 'hang', 'junk'."""
        self.released = asyncio.Event()

    async def summarize_events(self, events: Sequence[Event]) -> Event | None:
        self.calls.append(list(events))
        failure = self.fail_next.pop(0) if self.fail_next else None
        if failure == "raise":
            raise RuntimeError("summariser exploded")
        if failure == "none":
            return None
        if failure == "hang":
            await asyncio.sleep(3600)
        if failure == "junk":
            return events[-1]
        if failure == "gate":
            await self.released.wait()
        return compaction_event(events, f"summary {self.label}{len(self.calls)}")


# --- runner tests ---------------------------------------------------------------------------

SUMMARY = "[Summary of earlier conversation]\n"


def lookup(n: int) -> dict[str, Any]:
    """Look up record n."""
    return {"found": n}


def desk(llm: ScriptedLlm, **kwargs: Any) -> LlmAgent:
    return LlmAgent(name="desk", model=llm, tools=[lookup], **kwargs)


def tool_turn(n: int) -> list[Any]:
    """The model's two steps for question n: call lookup, then answer."""
    return [ScriptedLlm.call("lookup", {"n": n}, call_id=f"c{n}"), ScriptedLlm.text(f"answer {n}")]


def compaction_config(
    summarizer: Any, interval: int = 3, overlap: int = 1, **kwargs: Any
) -> EventsCompactionConfig:
    return EventsCompactionConfig(interval, overlap, summarizer, **kwargs)


def texts(request: LlmRequest) -> list[tuple[str, str]]:
    """(role, text / call / result) of every part of a request's history."""
    out = []
    for content in request.contents:
        for part in content.parts:
            if part.text is not None:
                out.append((content.role, part.text))
            elif part.function_call is not None:
                out.append((content.role, f"call {part.function_call.id}"))
            elif part.function_response is not None:
                out.append((content.role, f"result {part.function_response.id}"))
    return out
