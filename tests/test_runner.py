"""The runner: what it stores, when, and how a turn ends (SPEC 4)."""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from agentlog import Content, ErrorCode, Event, EventActions, Part, SessionNotFoundError
from agentlog.agents import BaseAgent, InvocationContext, LlmAgent
from agentlog.context import ToolContext
from agentlog.errors import InvalidMessageError, ModelError
from agentlog.models.base import LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.run_config import RunConfig, StreamingMode

ANSWER = "Refund of $12.50 issued for order 1182."


class TwoSteps(BaseAgent):
    """Yields two events and records, between them, what it can see of the first."""

    def __init__(self, name: str = "steps") -> None:
        super().__init__(name=name)
        self.seen: dict[str, Any] = {}

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        first = self.new_event(
            ctx,
            content=Content.from_text("step one", role="model"),
            actions=EventActions(state_delta={"step": 1}),
        )
        yield first
        stored = await ctx.session_service.get_session(
            app_name=ctx.app_name, user_id=ctx.user_id, session_id=ctx.session.id
        )
        self.seen = {
            "first_id": first.id,
            "ctx_last_id": ctx.session.events[-1].id,
            "ctx_step": ctx.session.state.get("step"),
            "store_ids": [e.id for e in stored.events],
            "store_step": stored.state.get("step"),
        }
        yield self.new_event(ctx, content=Content.from_text("step two", role="model"))


class Ticker(BaseAgent):
    """Yields three events, giving the loop a chance to switch tasks before each."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        for i in range(3):
            await asyncio.sleep(0)
            yield self.new_event(ctx, content=Content.from_text(f"tick {i}", role="model"))
            await asyncio.sleep(0)


class Crashes(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        yield self.new_event(
            ctx,
            content=Content.from_text("looked it up", role="model"),
            actions=EventActions(state_delta={"looked_up": True}),
        )
        raise RuntimeError("policy service exploded")


# --- storing -------------------------------------------------------------------------------


async def test_user_message_is_stored_first_with_its_state_delta(h: Any) -> None:
    with ScriptedLlm([ScriptedLlm.text(ANSWER)]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        sid = await h.session()
        events = await h.run(
            runner,
            sid,
            "Order 1182 arrived broken, refund it.",
            state_delta={"channel": "chat", "user:tier": "gold"},
        )
    stored = await h.events(sid)
    assert [e.author for e in stored] == ["user", "desk"]
    first = stored[0]
    assert first.id == events[0].id
    assert first.text() == "Order 1182 arrived broken, refund it."
    assert dict(first.actions.state_delta) == {"channel": "chat", "user:tier": "gold"}
    assert first.invocation_id == stored[1].invocation_id
    session = await h.load(sid)
    assert session.state["channel"] == "chat"
    assert session.state["user:tier"] == "gold"
    # The model saw the stored message.
    assert llm.requests[0].contents[-1].parts[0].text == "Order 1182 arrived broken, refund it."


async def test_a_temp_key_in_the_message_delta_lives_for_the_invocation_only(h: Any) -> None:
    with ScriptedLlm([ScriptedLlm.text("ok"), ScriptedLlm.text("ok")]) as llm:
        agent = LlmAgent(name="desk", model=llm, instruction="Channel: [{temp:channel?}]")
        runner = h.runner(agent)
        sid = await h.session()
        await h.run(runner, sid, "hi", state_delta={"temp:channel": "voice", "seen": True})
        await h.run(runner, sid, "hi again")
    assert llm.requests[0].system_instruction == "Channel: [voice]"
    assert llm.requests[1].system_instruction == "Channel: []"
    session = await h.load(sid)
    assert dict(session.events[0].actions.state_delta) == {"seen": True}
    assert dict(session.state) == {"seen": True}


async def test_each_event_is_stored_before_the_agent_takes_its_next_step(h: Any) -> None:
    agent = TwoSteps()
    runner = h.runner(agent)
    sid = await h.session()
    events = await h.run(runner, sid, "go")
    seen = agent.seen
    assert seen["ctx_last_id"] == seen["first_id"]
    assert seen["ctx_step"] == 1
    assert seen["first_id"] in seen["store_ids"]
    assert seen["store_step"] == 1
    assert [e.id for e in events] == [e.id for e in await h.events(sid)]


async def test_a_tool_reads_state_written_by_the_previous_event(h: Any) -> None:
    seen: dict[str, Any] = {}

    def set_order(order_id: str, tool_context: ToolContext) -> dict[str, Any]:
        """Remember the order."""
        tool_context.state["order"] = {"id": order_id, "total": 12.5}
        return {"ok": True}

    def read_order(tool_context: ToolContext) -> dict[str, Any]:
        """Read the remembered order."""
        last = tool_context.session.events[-1]
        seen["last_calls"] = [c.name for c in last.function_calls()]
        return {"order": tool_context.state.get("order")}

    llm = ScriptedLlm(
        [
            ScriptedLlm.call("set_order", {"order_id": "1182"}),
            ScriptedLlm.call("read_order"),
            ScriptedLlm.text("Order 1182 totals 12.5."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[set_order, read_order]))
        sid = await h.session()
        await h.run(runner, sid, "check 1182")
    stored = await h.events(sid)
    read = [r for e in stored for r in e.function_responses() if r.name == "read_order"]
    assert read[0].response["order"] == {"id": "1182", "total": 12.5}
    # The model event holding the call was stored before the tool ran.
    assert seen["last_calls"] == ["read_order"]


# --- streaming -----------------------------------------------------------------------------


async def test_sse_partials_carry_the_text_so_far_and_only_the_final_is_stored(h: Any) -> None:
    with ScriptedLlm([ScriptedLlm.text(ANSWER)], chunk_size=5) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        sid = await h.session()
        events = await h.run(
            runner, sid, "refund 1182", run_config=RunConfig(streaming_mode=StreamingMode.SSE)
        )
    partials = [e for e in events if e.partial]
    finals = [e for e in events if not e.partial]
    assert len(partials) >= 3
    texts = [p.text() for p in partials]
    for shorter, longer in itertools.pairwise(texts):
        assert longer.startswith(shorter)
        assert len(longer) > len(shorter)
    assert all(ANSWER.startswith(t) and t != ANSWER for t in texts)
    assert [e.author for e in finals] == ["user", "desk"]
    assert finals[-1].text() == ANSWER
    assert events[-1] is finals[-1]  # the aggregated event comes after its drafts

    stored = await h.events(sid)
    assert [e.id for e in stored] == [e.id for e in finals]
    assert not any(e.partial for e in stored)
    assert stored[-1].text() == ANSWER
    assert {p.id for p in partials}.isdisjoint({e.id for e in stored})


async def test_none_mode_yields_whole_events_only(h: Any) -> None:
    with ScriptedLlm([ScriptedLlm.text(ANSWER)], chunk_size=5) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        sid = await h.session()
        events = await h.run(
            runner, sid, "refund 1182", run_config=RunConfig(streaming_mode=StreamingMode.NONE)
        )
    assert not any(e.partial for e in events)
    assert [e.id for e in events] == [e.id for e in await h.events(sid)]
    assert events[-1].text() == ANSWER


# --- serialising ---------------------------------------------------------------------------


async def test_concurrent_runs_on_one_session_never_interleave(h: Any) -> None:
    runner = h.runner(Ticker(name="ticker"))
    sid = await h.session()
    first, second = await asyncio.gather(h.run(runner, sid, "first"), h.run(runner, sid, "second"))
    for turn in (first, second):
        assert len({e.invocation_id for e in turn}) == 1
        assert [e.author for e in turn] == ["user", "ticker", "ticker", "ticker"]
    assert first[0].invocation_id != second[0].invocation_id

    stored = await h.events(sid)
    assert len(stored) == 8
    runs = [stored[0].invocation_id]
    for event in stored[1:]:
        if event.invocation_id != runs[-1]:
            runs.append(event.invocation_id)
    assert len(runs) == 2, "the two turns' events interleave in the store"
    assert [e.author for e in stored[:4]] == ["user", "ticker", "ticker", "ticker"]


# --- how turns end -------------------------------------------------------------------------


async def test_an_agent_that_raises_ends_with_an_internal_error_event(h: Any) -> None:
    runner = h.runner(Crashes(name="policy"))
    sid = await h.session()
    events = await h.run(runner, sid, "check")
    last = events[-1]
    assert last.error_code is ErrorCode.INTERNAL
    assert "policy service exploded" in (last.error_message or "")
    assert not last.partial

    session = await h.load(sid)  # the log loads and its state is what was stored
    assert [e.id for e in session.events] == [e.id for e in events]
    assert session.events[-1].error_code is ErrorCode.INTERNAL
    assert session.state["looked_up"] is True
    assert len({e.invocation_id for e in session.events}) == 1

    # The session stays usable.
    again = await h.run(h.runner(TwoSteps(name="policy")), sid, "again")
    assert again[-1].text() == "step two"


async def test_a_raising_callback_ends_with_an_internal_error_event(mh: Any) -> None:
    def before_model(ctx: Any, request: Any) -> None:
        raise ValueError("bad callback")

    with ScriptedLlm([]) as llm:
        agent = LlmAgent(name="desk", model=llm, before_model_callback=before_model)
        runner = mh.runner(agent)
        sid = await mh.session()
        events = await mh.run(runner, sid, "hi")
    assert events[-1].error_code is ErrorCode.INTERNAL
    assert "ValueError: bad callback" in (events[-1].error_message or "")
    assert llm.requests == []


@pytest.mark.parametrize("code", [ErrorCode.RATE_LIMITED, ErrorCode.AUTHENTICATION])
async def test_a_model_error_becomes_an_error_event_with_its_code(h: Any, code: ErrorCode) -> None:
    with ScriptedLlm([ModelError(code, "provider said no", retryable=True)]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        sid = await h.session()
        events = await h.run(runner, sid, "hi")
    assert [e.author for e in events] == ["user", "desk"]
    assert events[-1].error_code is code
    assert "provider said no" in (events[-1].error_message or "")
    stored = await h.events(sid)
    assert stored[-1].error_code is code


@pytest.mark.parametrize("code", [ErrorCode.SAFETY, ErrorCode.MAX_TOKENS])
async def test_a_stop_reason_ends_the_turn_with_that_code(h: Any, code: ErrorCode) -> None:
    calls: list[str] = []

    def refund_order(order_id: str) -> dict[str, Any]:
        """Refund an order."""
        calls.append(order_id)
        return {"ok": True}

    truncated = LlmResponse(
        content=Content.from_text("Refund of $12", role="model"),
        error_code=code,
        error_message="stopped",
    )
    with ScriptedLlm([truncated]) as llm:
        agent = LlmAgent(name="desk", model=llm, tools=[refund_order], output_key="answer")
        runner = h.runner(agent)
        sid = await h.session()
        events = await h.run(runner, sid, "refund 1182")
    assert events[-1].error_code is code
    assert events[-1].text() == "Refund of $12"
    assert len(llm.requests) == 1
    assert calls == []
    session = await h.load(sid)
    assert session.events[-1].error_code is code
    assert "answer" not in session.state

    # The next turn's model does not see the stopped output as something it said.
    with ScriptedLlm([ScriptedLlm.text("ok")]) as llm2:
        agent2 = LlmAgent(name="desk", model=llm2)
        await h.run(h.runner(agent2), sid, "try again")
    texts = [p.text for c in llm2.requests[0].contents for p in c.parts]
    assert "Refund of $12" not in texts


async def test_max_llm_calls_ends_with_an_error_event(mh: Any) -> None:
    pings: list[int] = []

    def ping() -> str:
        """Ping."""
        pings.append(1)
        return "pong"

    llm = ScriptedLlm([ScriptedLlm.call("ping"), ScriptedLlm.call("ping")])
    with llm:
        runner = mh.runner(LlmAgent(name="desk", model=llm, tools=[ping]))
        sid = await mh.session()
        events = await mh.run(runner, sid, "loop", run_config=RunConfig(max_llm_calls=2))
    assert events[-1].error_code is ErrorCode.MAX_LLM_CALLS
    assert len(llm.requests) == 2
    assert len(pings) == 2
    assert (await mh.events(sid))[-1].error_code is ErrorCode.MAX_LLM_CALLS


# --- refusing before anything is stored ----------------------------------------------------


async def test_unknown_session_raises_and_stores_nothing(h: Any) -> None:
    with ScriptedLlm([]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        with pytest.raises(SessionNotFoundError):
            await h.run(runner, "no-such-session", "hi")
    assert llm.requests == []
    assert await h.store.list_sessions(app_name=h.app) == []


def _call_part() -> Part:
    return Part.from_function_call("refund_order", {"order_id": "1182"}, "call-1")


def _response_part() -> Part:
    return Part.from_function_response("refund_order", {"ok": True}, "call-1")


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(Content(role="user", parts=(_call_part(),)), id="function-call"),
        pytest.param(
            Content(role="user", parts=(Part(text="approve"), _response_part())), id="mixed"
        ),
        pytest.param(Content.from_text("hello", role="model"), id="role-model"),
        pytest.param(Content.from_text(""), id="empty-text"),
        pytest.param(Content.from_text("  \n "), id="blank-text"),
        pytest.param("just a string", id="not-content"),
    ],
)
async def test_an_invalid_message_is_refused_before_anything_is_stored(
    h: Any, message: Any
) -> None:
    with ScriptedLlm([]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        sid = await h.session()
        with pytest.raises(InvalidMessageError):
            async for _ in runner.run_async(user_id=h.user, session_id=sid, new_message=message):
                pass
    session = await h.load(sid)
    assert session.events == ()
    assert session.version == 0
    assert llm.requests == []


# --- logging -------------------------------------------------------------------------------


async def test_log_lines_carry_invocation_author_and_event(
    mh: Any, caplog: pytest.LogCaptureFixture
) -> None:
    def flaky() -> str:
        """Always fails."""
        raise ConnectionError("upstream down")

    llm = ScriptedLlm([ScriptedLlm.call("flaky"), ScriptedLlm.text("Sorry, try later.")])
    with llm, caplog.at_level(logging.WARNING, logger="agentlog"):
        runner = mh.runner(LlmAgent(name="desk", model=llm, tools=[flaky]))
        sid = await mh.session()
        events = await mh.run(runner, sid, "hi")
    records = [r for r in caplog.records if r.name == "agentlog.tools"]
    assert records, "the tool failure was not logged"
    record = records[0]
    assert record.levelno == logging.WARNING
    message = record.getMessage()
    invocation = events[0].invocation_id
    call_event = next(e for e in events if e.function_calls())
    assert f"inv={invocation}" in message
    assert "author=desk" in message
    assert f"event={call_event.id}" in message
    assert "upstream down" in message
    assert record.invocation_id == invocation  # type: ignore[attr-defined]
    assert record.author == "desk"  # type: ignore[attr-defined]
    assert record.event_id == call_event.id  # type: ignore[attr-defined]


async def test_a_consumer_that_stops_reading_leaves_the_session_usable(
    h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with ScriptedLlm([ScriptedLlm.text("Hello again.")]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm))
        sid = await h.session()
        async for event in runner.run_async(
            user_id=h.user, session_id=sid, new_message=Content.from_text("hi")
        ):
            assert event.author == "user"
            break  # the client went away; the loop closes the stream in a task of its own
        events = await h.run(runner, sid, "are you there?")
    gc.collect()
    await asyncio.sleep(0)
    assert events[-1].text() == "Hello again."
    stored = await h.events(sid)
    assert [(e.author, e.text()) for e in stored] == [
        ("user", "hi"),
        ("user", "are you there?"),
        ("desk", "Hello again."),
    ]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
