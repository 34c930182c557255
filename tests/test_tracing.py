"""OpenTelemetry spans of a turn (agentlog.tracing), read back from the SDK's in-memory exporter."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from pydantic import BaseModel

from agentlog import Content, ErrorCode, Event, InMemorySessionService, StaleSessionError
from agentlog.agents import BaseAgent, LlmAgent
from agentlog.context import InvocationContext
from agentlog.models.base import ModelError
from agentlog.models.scripted import ScriptedLlm
from agentlog.run_config import RunConfig, StreamingMode
from agentlog.runner import Runner
from agentlog.sessions.base import Session

ROOT = Path(__file__).resolve().parents[1]
APP = "desk-app"
USER = "ana"


@pytest.fixture(scope="module")
def exporter() -> Iterator[InMemorySpanExporter]:
    # The tracer provider is process-wide and set once; later modules' spans go nowhere once
    # this exporter is shut down.
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield exporter
    exporter.shutdown()


@pytest.fixture
def spans(exporter: InMemorySpanExporter) -> InMemorySpanExporter:
    exporter.clear()
    return exporter


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order."""
    if order_id == "missing":
        raise LookupError(f"no order {order_id}")
    return {"order_id": order_id, "status": "delivered", "span": _current_span_name()}


def _current_span_name() -> str:
    span = trace.get_current_span()
    return getattr(span, "name", "")


def _desk(desk: ScriptedLlm, refunds: ScriptedLlm) -> LlmAgent:
    return LlmAgent(
        name="desk",
        model=desk,
        description="Routes customers.",
        tools=[lookup_order],
        sub_agents=[LlmAgent(name="refunds", model=refunds, description="Does refunds.")],
    )


async def _turn(runner: Runner, session: Session, text: str, **kwargs: Any) -> list[Event]:
    return [
        event
        async for event in runner.run_async(
            user_id=USER, session_id=session.id, new_message=Content.from_text(text), **kwargs
        )
    ]


def _children(spans: list[ReadableSpan], parent: ReadableSpan) -> list[ReadableSpan]:
    found = [
        s
        for s in spans
        if s.parent is not None
        and parent.context is not None
        and s.parent.span_id == parent.context.span_id
    ]
    return sorted(found, key=lambda s: s.start_time or 0)


def _one(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    matches = [s for s in spans if s.name == name]
    assert len(matches) == 1, [s.name for s in spans]
    return matches[0]


def _attr(span: ReadableSpan, key: str) -> Any:
    assert span.attributes is not None
    return span.attributes.get(key)


async def test_a_turn_with_a_tool_call_and_a_transfer_makes_the_span_tree(
    spans: InMemorySpanExporter,
) -> None:
    desk = ScriptedLlm(
        [
            ScriptedLlm.call("lookup_order", {"order_id": "A-1001"}, call_id="call-1"),
            ScriptedLlm.call("transfer_to_agent", {"agent_name": "refunds"}, call_id="call-2"),
        ]
    )
    refunds = ScriptedLlm([ScriptedLlm.text("Refunded $12.50 for A-1001.")])
    store = InMemorySessionService()
    runner = Runner(agent=_desk(desk, refunds), session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    with desk, refunds:
        events = await _turn(runner, session, "Refund A-1001")
    stored = (await store.get_session(app_name=APP, user_id=USER, session_id=session.id)).events
    finished = list(spans.get_finished_spans())

    invocation = _one(finished, "invocation")
    assert invocation.parent is None
    assert invocation.kind is SpanKind.INTERNAL
    assert _attr(invocation, "agentlog.invocation.id") == events[0].invocation_id
    assert _attr(invocation, "agentlog.app.name") == APP
    assert [s.name for s in _children(finished, invocation)] == [
        "append_event",  # the user's message
        "invoke_agent desk",
        *["append_event"] * (len(stored) - 1),
    ]
    desk_span = _one(finished, "invoke_agent desk")
    assert [s.name for s in _children(finished, desk_span)] == [
        "chat scripted",
        "execute_tool lookup_order",
        "chat scripted",
        "execute_tool transfer_to_agent",
        "invoke_agent refunds",
    ]
    refunds_span = _one(finished, "invoke_agent refunds")
    assert [s.name for s in _children(finished, refunds_span)] == ["chat scripted"]

    # One trace; every span names the session and the invocation; none failed.
    assert {s.context.trace_id for s in finished if s.context} == {
        invocation.context.trace_id if invocation.context else 0
    }
    for span in finished:
        assert _attr(span, "agentlog.session.id") == session.id, span.name
        assert _attr(span, "agentlog.invocation.id") == events[0].invocation_id, span.name
        assert _attr(span, "gen_ai.conversation.id") == session.id, span.name
        assert span.status.status_code is StatusCode.UNSET, span.name
        assert _attr(span, "error.type") is None, span.name

    # Every stored event has its append span, and only those.
    appends = [s for s in finished if s.name == "append_event"]
    assert sorted(_attr(s, "agentlog.event.id") for s in appends) == sorted(e.id for e in stored)
    assert {_attr(s, "agentlog.store") for s in appends} == {"InMemorySessionService"}

    by_id = {e.id: e for e in stored}
    chats = [s for s in finished if s.name == "chat scripted"]
    assert len(chats) == 3
    for chat in chats:
        assert chat.kind is SpanKind.CLIENT
        assert _attr(chat, "gen_ai.operation.name") == "chat"
        assert _attr(chat, "gen_ai.request.model") == "scripted"
        assert _attr(chat, "gen_ai.response.model") == "scripted"
        assert _attr(chat, "gen_ai.provider.name") == "agentlog.scripted"
        # The span names the stored event that holds the answer, with the same usage.
        event = by_id[_attr(chat, "agentlog.event.id")]
        assert event.author == _attr(chat, "gen_ai.agent.name")
        assert event.usage is not None
        assert _attr(chat, "gen_ai.usage.input_tokens") == event.usage.input_tokens
        assert _attr(chat, "gen_ai.usage.output_tokens") == event.usage.output_tokens
    assert [_attr(c, "gen_ai.agent.name") for c in chats] == ["desk", "desk", "refunds"]

    tool = _one(finished, "execute_tool lookup_order")
    assert _attr(tool, "gen_ai.operation.name") == "execute_tool"
    assert _attr(tool, "gen_ai.tool.name") == "lookup_order"
    assert _attr(tool, "gen_ai.tool.call.id") == "call-1"
    assert _attr(tool, "gen_ai.tool.description") == "Look up an order."
    assert _attr(_one(finished, "execute_tool transfer_to_agent"), "gen_ai.tool.call.id") == (
        "call-2"
    )
    # The tool ran with its span current, so spans it makes nest under it.
    responses = [r for e in stored for r in e.function_responses() if r.name == "lookup_order"]
    assert responses[0].response["span"] == "execute_tool lookup_order"

    assert _attr(desk_span, "gen_ai.operation.name") == "invoke_agent"
    assert _attr(desk_span, "gen_ai.agent.name") == "desk"
    assert _attr(desk_span, "gen_ai.agent.description") == "Routes customers."
    assert _attr(refunds_span, "agentlog.agent.branch") == "desk.refunds"


async def test_the_consumer_code_runs_under_its_own_span(spans: InMemorySpanExporter) -> None:
    model = ScriptedLlm([ScriptedLlm.text("Hello there, how can I help you today? " * 3)])
    store = InMemorySessionService()
    runner = Runner(agent=LlmAgent(name="desk", model=model), session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    tracer = trace.get_tracer("test")
    seen: list[str] = []
    with tracer.start_as_current_span("request"), model:
        async for event in runner.run_async(
            user_id=USER,
            session_id=session.id,
            new_message=Content.from_text("hi"),
            run_config=RunConfig(streaming_mode=StreamingMode.SSE),
        ):
            seen.append(_current_span_name())
            assert event.error_code is None
    # Partial events streamed (the chat span was open across them), and between events the
    # consumer's span was current, never one of the turn's.
    assert len(seen) > 3
    assert set(seen) == {"request"}
    finished = list(spans.get_finished_spans())
    request = _one(finished, "request")
    assert [s.name for s in _children(finished, request)] == ["invocation"]
    chat = _one(finished, "chat scripted")
    assert chat.parent is not None
    assert chat.parent.span_id == _one(finished, "invoke_agent desk").context.span_id  # type: ignore[union-attr]


async def test_a_tool_that_raises_marks_its_span(spans: InMemorySpanExporter) -> None:
    model = ScriptedLlm(
        [
            ScriptedLlm.call("lookup_order", {"order_id": "missing"}),
            ScriptedLlm.text("I could not find it."),
        ]
    )
    store = InMemorySessionService()
    agent = LlmAgent(name="desk", model=model, tools=[lookup_order])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    with model:
        events = await _turn(runner, session, "where is it?")
    assert events[-1].text() == "I could not find it."
    finished = list(spans.get_finished_spans())
    tool = _one(finished, "execute_tool lookup_order")
    assert tool.status.status_code is StatusCode.ERROR
    assert _attr(tool, "error.type") == "LookupError"
    assert [e.name for e in tool.events] == ["exception"]
    # The model was told and answered: the turn and the agent did not fail.
    for name in ("invocation", "invoke_agent desk"):
        assert _attr(_one(finished, name), "error.type") is None


async def test_a_model_error_marks_the_call_the_agent_and_the_turn(
    spans: InMemorySpanExporter,
) -> None:
    model = ScriptedLlm([ModelError(ErrorCode.RATE_LIMITED, "slow down")])
    store = InMemorySessionService()
    runner = Runner(agent=LlmAgent(name="desk", model=model), session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    with model:
        events = await _turn(runner, session, "hi")
    assert events[-1].error_code is ErrorCode.RATE_LIMITED
    finished = list(spans.get_finished_spans())
    chat = _one(finished, "chat scripted")
    assert chat.status.status_code is StatusCode.ERROR
    assert _attr(chat, "agentlog.event.id") == events[-1].id
    for name in ("chat scripted", "invoke_agent desk", "invocation"):
        assert _attr(_one(finished, name), "error.type") == "rate_limited", name


async def test_an_agent_that_raises_marks_its_span_with_the_exception(
    spans: InMemorySpanExporter,
) -> None:
    class Broken(BaseAgent):
        async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
            yield self.new_event(ctx, content=Content.from_text("working on it"))
            raise RuntimeError("the agent broke")

    store = InMemorySessionService()
    runner = Runner(agent=Broken(name="broken"), session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    events = await _turn(runner, session, "hi")
    assert events[-1].error_code is ErrorCode.INTERNAL
    finished = list(spans.get_finished_spans())
    agent = _one(finished, "invoke_agent broken")
    assert _attr(agent, "error.type") == "RuntimeError"
    assert agent.status.description == "the agent broke"
    # The runner stored the failure as a typed error event, which ends the turn.
    assert _attr(_one(finished, "invocation"), "error.type") == "internal"


async def test_an_output_the_check_rejects_names_no_event(spans: InMemorySpanExporter) -> None:
    class Answer(BaseModel):
        order_id: str

    model = ScriptedLlm([ScriptedLlm.text("not json"), ScriptedLlm.text('{"order_id": "A-1"}')])
    store = InMemorySessionService()
    agent = LlmAgent(name="desk", model=model, output_schema=Answer)
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    with model:
        events = await _turn(runner, session, "which order?")
    first, second = [s for s in spans.get_finished_spans() if s.name == "chat scripted"]
    assert _attr(first, "agentlog.output.rejected") is True
    assert _attr(first, "error.type") == "malformed_output"
    assert _attr(first, "agentlog.event.id") is None
    assert _attr(second, "agentlog.event.id") == events[-1].id
    assert _attr(second, "error.type") is None


async def test_a_failed_append_marks_its_span_and_the_turn(spans: InMemorySpanExporter) -> None:
    class Moved(InMemorySessionService):
        """Refuses the agent's first event as if another writer had appended first."""

        async def append_event(self, session: Session, event: Event) -> Event:
            if event.author != "user":
                raise StaleSessionError(session.id, session.version, session.version + 1)
            return await super().append_event(session, event)

    model = ScriptedLlm([ScriptedLlm.text("hello")])
    store = Moved()
    runner = Runner(agent=LlmAgent(name="desk", model=model), session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    with pytest.raises(StaleSessionError), model:
        await _turn(runner, session, "hi")
    finished = list(spans.get_finished_spans())
    failed = [s for s in finished if s.name == "append_event" and _attr(s, "error.type")]
    assert [_attr(s, "error.type") for s in failed] == ["StaleSessionError"]
    assert _attr(failed[0], "agentlog.event.author") == "desk"
    assert _attr(_one(finished, "invocation"), "error.type") == "StaleSessionError"


async def test_a_consumer_that_stops_early_ends_every_span(
    spans: InMemorySpanExporter, caplog: pytest.LogCaptureFixture
) -> None:
    model = ScriptedLlm(
        [ScriptedLlm.call("lookup_order", {"order_id": "A-1001"}), ScriptedLlm.text("Done.")]
    )
    store = InMemorySessionService()
    agent = LlmAgent(name="desk", model=model, tools=[lookup_order])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    caplog.set_level(logging.ERROR, logger="opentelemetry.context")
    stream = runner.run_async(
        user_id=USER, session_id=session.id, new_message=Content.from_text("hi")
    )
    async for event in stream:
        if event.function_calls():
            break
    await stream.aclose()  # type: ignore[attr-defined]
    names = sorted(s.name for s in spans.get_finished_spans())
    assert names.count("invocation") == 1
    assert names.count("invoke_agent desk") == 1
    assert all(_attr(s, "error.type") is None for s in spans.get_finished_spans())
    assert not [r for r in caplog.records if "detach" in r.getMessage().lower()]
    assert model.unused_steps == 1


_SCRIPT = """
import asyncio, importlib.abc, sys

class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "opentelemetry" or name.startswith("opentelemetry."):
            raise ImportError(f"No module named {name!r} (hidden by the test)")
        return None

if sys.argv[1] == "absent":
    sys.meta_path.insert(0, Hide())

from agentlog import Content, InMemorySessionService
from agentlog import tracing
from agentlog.agents import LlmAgent
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner

def lookup_order(order_id: str) -> dict:
    \"\"\"Look up an order.\"\"\"
    return {"order_id": order_id}

async def main():
    refunds = ScriptedLlm([ScriptedLlm.text("Refunded.")])
    desk = ScriptedLlm([
        ScriptedLlm.call("lookup_order", {"order_id": "A-1"}),
        ScriptedLlm.call("transfer_to_agent", {"agent_name": "refunds"}),
    ])
    agent = LlmAgent(name="desk", model=desk, tools=[lookup_order],
                     sub_agents=[LlmAgent(name="refunds", model=refunds)])
    store = InMemorySessionService()
    runner = Runner(agent=agent, session_service=store, app_name="a")
    session = await store.create_session(app_name="a", user_id="u")
    with desk, refunds:
        events = [e async for e in runner.run_async(
            user_id="u", session_id=session.id, new_message=Content.from_text("hi"))]
    assert events[-1].text() == "Refunded.", events[-1]
    print(tracing.ENABLED, "opentelemetry" in sys.modules, len(events))

asyncio.run(main())
"""


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("absent", "False False 6"), ("unconfigured", "True True 6")],
)
def test_a_turn_runs_without_opentelemetry_or_without_a_provider(
    mode: str, expected: str, tmp_path: Path
) -> None:
    script = tmp_path / "turn.py"
    script.write_text(textwrap.dedent(_SCRIPT), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), mode],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected
    assert "Traceback" not in done.stderr


def _readme_blocks(section: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", body, re.DOTALL)


def test_the_readme_example_runs(tmp_path: Path) -> None:
    [block] = _readme_blocks("OpenTelemetry")
    script = tmp_path / "traced.py"
    script.write_text(block, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    names = [line.split(" ")[0] for line in done.stdout.splitlines()]
    assert names[0] == "invocation"
    assert "invoke_agent" in names
    assert names.count("chat") == 2
    assert names.count("execute_tool") == 1
    assert names.count("append_event") == 4
