"""Agents: custom decision agents, instructions, structured output, history scope, workflow
agents and callbacks (SPEC 2 and 4)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel

from agentlog import Content, ErrorCode, Event, EventActions, ToolConfirmation
from agentlog.agents import (
    BaseAgent,
    CallbackContext,
    InvocationContext,
    LlmAgent,
    LoopAgent,
    SequentialAgent,
)
from agentlog.context import ToolContext
from agentlog.models.base import LlmRequest, LlmResponse
from agentlog.models.scripted import ScriptedLlm

POLICY_VERSION = "refunds-2024-06"


class PolicyCheck(BaseAgent):
    """The seed's policy check: a decision event whose actions carry the state change."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        order = ctx.session.state.get("order")
        eligible = order is not None and order["total"] <= 50
        text = "Refund is within policy." if eligible else "Refund needs manual review."
        yield self.new_event(
            ctx,
            content=Content.from_text(text, role="model"),
            actions=EventActions(
                state_delta={"refund_eligible": eligible, "temp:policy_version": POLICY_VERSION},
                escalate=not eligible,
            ),
        )


def _lookup(total: float) -> Any:
    def lookup_order(order_id: str, tool_context: ToolContext) -> dict[str, Any]:
        """Look up an order.

        Args:
            order_id: The order number.
        """
        tool_context.state["order"] = {"id": order_id, "total": total}
        return {"order_id": order_id, "status": "delivered damaged", "total": total}

    return lookup_order


def _texts(request: LlmRequest) -> list[str]:
    return [p.text for c in request.contents for p in c.parts if p.text is not None]


# --- the policy-check custom agent ---------------------------------------------------------


async def test_policy_decision_is_stored_and_temp_state_lives_for_one_invocation(h: Any) -> None:
    seen_versions: list[Any] = []

    def policy_version(tool_context: ToolContext) -> dict[str, Any]:
        """The policy version in force."""
        seen_versions.append(tool_context.state.get("temp:policy_version"))
        return {"version": tool_context.state.get("temp:policy_version")}

    intake_llm = ScriptedLlm(
        [ScriptedLlm.call("lookup_order", {"order_id": "1182"}), ScriptedLlm.text("Found it.")]
    )
    refund_llm = ScriptedLlm(
        [ScriptedLlm.call("policy_version"), ScriptedLlm.text("Refund approved.")]
    )
    intake = LlmAgent(name="intake", model=intake_llm, tools=[_lookup(12.5)])
    refunder = LlmAgent(
        name="refunder",
        model=refund_llm,
        instruction="Policy {temp:policy_version}. Eligible: {refund_eligible}.",
        tools=[policy_version],
    )
    pipeline = SequentialAgent(
        name="pipeline", sub_agents=[intake, PolicyCheck(name="policy"), refunder]
    )
    with intake_llm, refund_llm:
        runner = h.runner(pipeline)
        sid = await h.session()
        events = await h.run(runner, sid, "Order 1182 arrived broken, refund it.")

    decision = next(e for e in events if e.author == "policy")
    assert decision.text() == "Refund is within policy."
    assert decision.actions.escalate is False
    assert dict(decision.actions.state_delta) == {"refund_eligible": True}
    assert decision.branch == "pipeline.policy"
    assert refund_llm.requests[0].system_instruction == (
        f"Policy {POLICY_VERSION}. Eligible: true."
    )
    assert seen_versions == [POLICY_VERSION]
    assert events[-1].text() == "Refund approved."

    session = await h.load(sid)
    stored_decision = next(e for e in session.events if e.author == "policy")
    assert stored_decision.id == decision.id
    assert "temp:policy_version" not in stored_decision.actions.state_delta
    assert session.state["refund_eligible"] is True
    assert session.state["order"] == {"id": "1182", "total": 12.5}
    assert not any(k.startswith("temp:") for k in session.state)
    if h.kind == "sqlite":
        with sqlite3.connect(h.store.path) as conn:
            rows = conn.execute("SELECT payload FROM events").fetchall()
            state_rows = conn.execute("SELECT key FROM session_state").fetchall()
        assert rows
        assert not any("temp:policy_version" in payload for (payload,) in rows)
        assert ("temp:policy_version",) not in state_rows

    # The next invocation starts without the temp value.
    later_llm = ScriptedLlm([ScriptedLlm.call("policy_version"), ScriptedLlm.text("ok")])
    later = LlmAgent(
        name="later",
        model=later_llm,
        instruction="Version [{temp:policy_version?}] eligible {refund_eligible}",
        tools=[policy_version],
    )
    with later_llm:
        await h.run(h.runner(later), sid, "and now?")
    assert later_llm.requests[0].system_instruction == "Version [] eligible true"
    assert seen_versions == [POLICY_VERSION, None]


async def test_an_ineligible_refund_escalates_and_stops_the_loop(h: Any) -> None:
    intake_llm = ScriptedLlm(
        [ScriptedLlm.call("lookup_order", {"order_id": "77"}), ScriptedLlm.text("Found it.")]
    )
    refund_llm = ScriptedLlm([])
    loop = LoopAgent(
        name="review",
        max_iterations=3,
        sub_agents=[
            LlmAgent(name="intake", model=intake_llm, tools=[_lookup(500.0)]),
            PolicyCheck(name="policy"),
            LlmAgent(name="refunder", model=refund_llm),
        ],
    )
    with intake_llm, refund_llm:
        runner = h.runner(loop)
        sid = await h.session()
        events = await h.run(runner, sid, "Refund order 77.")
    assert events[-1].author == "policy"
    assert events[-1].text() == "Refund needs manual review."
    assert events[-1].actions.escalate is True
    assert refund_llm.requests == []
    session = await h.load(sid)
    assert session.state["refund_eligible"] is False
    assert session.events[-1].actions.escalate is True


# --- instructions --------------------------------------------------------------------------


async def test_instruction_placeholders_read_state(mh: Any) -> None:
    with ScriptedLlm([ScriptedLlm.text("hi")]) as llm:
        agent = LlmAgent(
            name="desk",
            model=llm,
            instruction=(
                'Customer {user:name} ({tier}). Order {order}. Note: [{note?}]. Keep {"a": 1}.'
            ),
        )
        sid = await mh.session({"user:name": "Ana", "tier": "gold", "order": {"id": "1182"}})
        await mh.run(mh.runner(agent), sid, "hello")
    assert llm.requests[0].system_instruction == (
        'Customer Ana (gold). Order {"id": "1182"}. Note: []. Keep {"a": 1}.'
    )


async def test_a_missing_required_placeholder_fails_the_turn(mh: Any) -> None:
    with ScriptedLlm([]) as llm:
        agent = LlmAgent(name="desk", model=llm, instruction="Order {order}.")
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "hello")
    assert events[-1].error_code is ErrorCode.INTERNAL
    assert "order" in (events[-1].error_message or "")
    assert llm.requests == []


# --- structured output ---------------------------------------------------------------------


class Verdict(BaseModel):
    eligible: bool
    amount: float


async def test_valid_structured_output_is_parsed_into_the_output_key(h: Any) -> None:
    with ScriptedLlm([ScriptedLlm.json({"eligible": True, "amount": 12.5})]) as llm:
        agent = LlmAgent(name="judge", model=llm, output_schema=Verdict, output_key="verdict")
        sid = await h.session()
        events = await h.run(h.runner(agent), sid, "decide")
    assert llm.requests[0].output_schema is not None
    assert set(llm.requests[0].output_schema["properties"]) == {"eligible", "amount"}
    assert dict(events[-1].actions.state_delta) == {"verdict": {"eligible": True, "amount": 12.5}}
    assert (await h.load(sid)).state["verdict"] == {"eligible": True, "amount": 12.5}


async def test_invalid_output_gets_one_retry_with_the_validation_error(mh: Any) -> None:
    llm = ScriptedLlm(
        [
            ScriptedLlm.json({"eligible": "perhaps"}),
            ScriptedLlm.json({"eligible": False, "amount": 0}),
        ]
    )
    with llm:
        agent = LlmAgent(name="judge", model=llm, output_schema=Verdict, output_key="verdict")
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "decide")
    assert len(llm.requests) == 2
    retry = llm.requests[1]
    assert retry.contents[-2].role == "model"
    assert retry.contents[-2].parts[0].text == '{"eligible": "perhaps"}'
    correction = retry.contents[-1]
    assert correction.role == "user"
    text = correction.parts[0].text or ""
    assert "eligible" in text
    assert "amount" in text
    assert not any(e.error_code for e in events)
    stored = await mh.events(sid)
    assert [e.author for e in stored] == ["user", "judge"]  # the rejected reply is not stored
    assert (await mh.load(sid)).state["verdict"] == {"eligible": False, "amount": 0.0}


async def test_invalid_output_twice_ends_with_malformed_output(h: Any) -> None:
    llm = ScriptedLlm([ScriptedLlm.text("not json"), ScriptedLlm.text("still not json")])
    with llm:
        agent = LlmAgent(name="judge", model=llm, output_schema=Verdict, output_key="verdict")
        sid = await h.session()
        events = await h.run(h.runner(agent), sid, "decide")
    assert events[-1].error_code is ErrorCode.MALFORMED_OUTPUT
    assert len(llm.requests) == 2
    session = await h.load(sid)
    assert session.events[-1].error_code is ErrorCode.MALFORMED_OUTPUT
    assert "verdict" not in session.state


async def test_output_key_without_schema_stores_the_text(mh: Any) -> None:
    with ScriptedLlm([ScriptedLlm.text("Refund approved.")]) as llm:
        agent = LlmAgent(name="desk", model=llm, output_key="last_answer")
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "hi")
    assert dict(events[-1].actions.state_delta) == {"last_answer": "Refund approved."}
    assert (await mh.load(sid)).state["last_answer"] == "Refund approved."


# --- provider metadata ---------------------------------------------------------------------


async def test_provider_metadata_is_stored_and_sent_back_in_history(h: Any) -> None:
    # A Gemini thought signature rides on the model's parts; it must reach the log and come
    # back on the same parts in every later request, within the turn and in the next one.
    signed = {"gemini_thought_signature": "c2lnbmF0dXJl+/8="}
    call_step = ScriptedLlm.call("lookup_order", {"order_id": "7"}, call_id="c1", text="Looking.")
    assert call_step.content is not None
    text_part, call_part = call_step.content.parts
    call_step = LlmResponse(
        content=Content(
            role="model",
            parts=(
                text_part.model_copy(update={"provider_metadata": {"k": "text-sig"}}),
                call_part.model_copy(update={"provider_metadata": signed}),
            ),
        )
    )
    llm = ScriptedLlm([call_step, ScriptedLlm.text("Found it."), ScriptedLlm.text("Again.")])
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[_lookup(9.0)]))
        sid = await h.session()
        await h.run(runner, sid, "Find order 7.")
        await h.run(runner, sid, "And again?")

    stored = next(e for e in await h.events(sid) if e.function_calls())
    assert stored.content is not None
    assert [p.provider_metadata for p in stored.content.parts] == [{"k": "text-sig"}, signed]
    for request in llm.requests[1:]:
        [model_turn] = [c for c in request.contents if any(p.function_call for p in c.parts)]
        assert [p.provider_metadata for p in model_turn.parts] == [{"k": "text-sig"}, signed]


# --- include_contents ----------------------------------------------------------------------


@pytest.mark.parametrize("include", ["default", "none"])
async def test_include_contents(mh: Any, include: Any) -> None:
    llm = ScriptedLlm([ScriptedLlm.text("first answer"), ScriptedLlm.text("second answer")])
    with llm:
        agent = LlmAgent(name="desk", model=llm, instruction="Be brief.", include_contents=include)
        runner = mh.runner(agent)
        sid = await mh.session()
        await mh.run(runner, sid, "first question")
        await mh.run(runner, sid, "second question")
    second = llm.requests[1]
    assert second.system_instruction == "Be brief."
    if include == "none":
        assert _texts(second) == ["second question"]
    else:
        assert _texts(second) == ["first question", "first answer", "second question"]


# --- workflow agents -----------------------------------------------------------------------


async def test_sequential_runs_in_order_and_shares_the_turn(mh: Any) -> None:
    llms = [ScriptedLlm([ScriptedLlm.text(f"{n} done")]) for n in ("a", "b", "c")]
    agents = [LlmAgent(name=n, model=llm) for n, llm in zip("abc", llms, strict=True)]
    with llms[0], llms[1], llms[2]:
        sid = await mh.session()
        events = await mh.run(mh.runner(SequentialAgent(name="seq", sub_agents=agents)), sid, "go")
    assert [e.author for e in events] == ["user", "a", "b", "c"]
    assert len({e.invocation_id for e in events}) == 1
    assert any("[a] said: a done" in t for t in _texts(llms[1].requests[0]))


async def test_sequential_stops_on_error(mh: Any) -> None:
    a = ScriptedLlm([ScriptedLlm.text("a done")])
    b = ScriptedLlm([ScriptedLlm.error(ErrorCode.SAFETY)])
    c = ScriptedLlm([])
    seq = SequentialAgent(
        name="seq",
        sub_agents=[
            LlmAgent(name="a", model=a),
            LlmAgent(name="b", model=b),
            LlmAgent(name="c", model=c),
        ],
    )
    with a, b, c:
        sid = await mh.session()
        events = await mh.run(mh.runner(seq), sid, "go")
    assert [e.author for e in events] == ["user", "a", "b"]
    assert events[-1].error_code is ErrorCode.SAFETY
    assert c.requests == []


class Counter(BaseAgent):
    def __init__(self, name: str, escalate_at: int | None) -> None:
        super().__init__(name=name)
        self.escalate_at = escalate_at

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        count = int(ctx.session.state.get("count", 0)) + 1
        yield self.new_event(
            ctx,
            content=Content.from_text(f"count {count}", role="model"),
            actions=EventActions(state_delta={"count": count}, escalate=count == self.escalate_at),
        )


class Note(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        yield self.new_event(ctx, content=Content.from_text("noted", role="model"))


async def test_loop_stops_on_escalate(h: Any) -> None:
    loop = LoopAgent(
        name="loop", max_iterations=10, sub_agents=[Counter("counter", 3), Note(name="note")]
    )
    sid = await h.session()
    events = await h.run(h.runner(loop), sid, "go")
    assert [e.text() for e in events[1:]] == [
        "count 1",
        "noted",
        "count 2",
        "noted",
        "count 3",
    ]
    assert (await h.load(sid)).state["count"] == 3


async def test_loop_stops_at_max_iterations(mh: Any) -> None:
    loop = LoopAgent(
        name="loop", max_iterations=2, sub_agents=[Counter("counter", None), Note(name="note")]
    )
    sid = await mh.session()
    events = await mh.run(mh.runner(loop), sid, "go")
    assert [e.text() for e in events[1:]] == ["count 1", "noted", "count 2", "noted"]


async def test_a_tool_escalation_stops_the_loop(mh: Any) -> None:
    def done(tool_context: ToolContext) -> str:
        """Finish the loop."""
        tool_context.escalate = True
        return "finished"

    llm = ScriptedLlm([ScriptedLlm.text("working"), ScriptedLlm.call("done")])
    loop = LoopAgent(
        name="loop", max_iterations=5, sub_agents=[LlmAgent(name="w", model=llm, tools=[done])]
    )
    with llm:
        sid = await mh.session()
        events = await mh.run(mh.runner(loop), sid, "go")
    assert events[-1].actions.escalate is True
    assert events[-1].function_responses()[0].name == "done"


# --- callbacks -----------------------------------------------------------------------------


async def test_before_agent_content_skips_the_agent(mh: Any) -> None:
    def closed(ctx: CallbackContext) -> Content:
        ctx.state["closed_notice"] = True
        return Content.from_text("The desk is closed.", role="model")

    with ScriptedLlm([]) as llm:
        agent = LlmAgent(name="desk", model=llm, before_agent_callback=closed)
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "hi")
    assert [e.author for e in events] == ["user", "desk"]
    assert events[-1].text() == "The desk is closed."
    assert dict(events[-1].actions.state_delta) == {"closed_notice": True}
    assert llm.requests == []


async def test_agent_callbacks_state_writes_and_after_content(h: Any) -> None:
    async def before(ctx: CallbackContext) -> None:
        ctx.state["started"] = True

    def after(ctx: CallbackContext) -> Content:
        ctx.state["finished"] = True
        return Content.from_text("Anything else?", role="model")

    with ScriptedLlm([ScriptedLlm.text("Done.")]) as llm:
        agent = LlmAgent(
            name="desk", model=llm, before_agent_callback=before, after_agent_callback=after
        )
        sid = await h.session()
        events = await h.run(h.runner(agent), sid, "hi")
    assert [e.text() for e in events] == ["hi", "", "Done.", "Anything else?"]
    assert dict(events[1].actions.state_delta) == {"started": True}
    assert dict(events[3].actions.state_delta) == {"finished": True}
    # The model's request was built after the before-agent event was stored.
    state = (await h.load(sid)).state
    assert state["started"] is True
    assert state["finished"] is True


async def test_before_model_response_skips_the_model(h: Any) -> None:
    def cached(ctx: CallbackContext, request: LlmRequest) -> LlmResponse:
        ctx.state["cache_hits"] = 1
        return ScriptedLlm.text("From cache.")

    with ScriptedLlm([]) as llm:
        agent = LlmAgent(name="desk", model=llm, before_model_callback=cached)
        sid = await h.session()
        events = await h.run(h.runner(agent), sid, "hi")
    assert llm.requests == []
    assert events[-1].text() == "From cache."
    assert dict(events[-1].actions.state_delta) == {"cache_hits": 1}
    assert (await h.load(sid)).state["cache_hits"] == 1


async def test_after_model_replaces_the_response_and_writes_state(mh: Any) -> None:
    seen: list[str] = []

    async def polish(ctx: CallbackContext, response: LlmResponse) -> LlmResponse:
        seen.append(response.content.parts[0].text or "" if response.content else "")
        ctx.state["polished"] = True
        return ScriptedLlm.text("Your refund is on its way.")

    with ScriptedLlm([ScriptedLlm.text("refund ok")]) as llm:
        agent = LlmAgent(name="desk", model=llm, after_model_callback=polish)
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "hi")
    assert seen == ["refund ok"]
    assert events[-1].text() == "Your refund is on its way."
    assert dict(events[-1].actions.state_delta) == {"polished": True}


# --- calls the flow cannot honour ----------------------------------------------------------


async def test_a_call_to_a_tool_that_does_not_exist_is_told_to_the_model_and_the_client(
    h: Any,
) -> None:
    from agentlog.router import route

    model = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "A-1001"}),
            ScriptedLlm.call("lookup_order", {"order_id": "A-1001"}),
            ScriptedLlm.text("Order A-1001 is delivered damaged."),
        ]
    )
    agent = LlmAgent(name="desk", model=model, tools=[_lookup(12.5)])
    with model:
        sid = await h.session()
        events = await h.run(h.runner(agent), sid, "refund A-1001")
    response, error = events[2], events[3]
    [result] = response.function_responses()
    assert result.name == "refund_order"
    assert result.response["error"] == (
        "There is no tool named 'refund_order'. Available tools: lookup_order."
    )
    assert error.error_code is ErrorCode.TOOL_NOT_FOUND
    assert error.error_message is not None
    assert "'refund_order'" in error.error_message
    # The model read the refusal and recovered with a tool it has.
    seen = [p.function_response for c in model.requests[1].contents for p in c.parts]
    assert any(r is not None and r.name == "refund_order" for r in seen)
    assert events[-1].text() == "Order A-1001 is delivered damaged."
    kinds = [m.kind for e in events for m in route(e)]
    assert kinds == [
        "user_message",
        "tool_call",
        "tool_result",
        "error",
        "tool_call",
        "tool_result",
        "answer",
    ]
    assert [e.error_code for e in await h.events(sid)][3] is ErrorCode.TOOL_NOT_FOUND


# --- a model named by a string ---------------------------------------------------------------


async def test_a_model_string_is_resolved_when_the_agent_is_built(
    mh: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentlog.models.openai import OpenAIChatLlm
    from providers.openai_server import completion, running_server

    with running_server() as server:
        # The SDK's own variables, as a user of the string form would set them.
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test-key")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        agent = LlmAgent(name="desk", model="openai:gpt-4o-mini")
        assert isinstance(agent.model, OpenAIChatLlm)
        assert agent.model.model == "gpt-4o-mini"
        server.reply(completion("Hello from the wire."))
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "hi")
        assert server.requests[0].body["model"] == "gpt-4o-mini"
    assert events[-1].text() == "Hello from the wire."


@pytest.mark.parametrize(
    ("model", "says"),
    [
        ("bogus:foo", "unknown model provider 'bogus'"),
        ("gpt-4o-mini", "is not 'provider:model'; write for example 'openai:gpt-4o-mini'"),
        ("openai:", "names no model"),
        ("scripted", "pass ScriptedLlm([...])"),
        ("openai:gpt-4o-mini", "needs an API key: set OPENAI_API_KEY"),
        ("anthropic:claude-sonnet-4-5", "needs an API key: set ANTHROPIC_API_KEY"),
        ("gemini:gemini-2.5-flash", "needs an API key: set GEMINI_API_KEY"),
        (42, "model must be a BaseLlm or a 'provider:model' string"),
    ],
)
def test_a_model_that_cannot_work_is_refused_when_the_agent_is_built(
    model: Any, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentlog.errors import InvalidConfigError

    for variable in (
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
    ):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(InvalidConfigError) as raised:
        LlmAgent(name="desk", model=model)
    assert says in str(raised.value)


# --- a custom agent that asks a person -----------------------------------------------------


class ApprovalGate(BaseAgent):
    """Asks for approval only in its actions (no request call), as a custom agent may."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        if ctx.resume is not None:
            answer = ctx.resume.confirmations.get("refund-A-1001")
            ctx.resume = None
            verdict = "approved" if answer is not None and answer.confirmed else "declined"
            yield self.new_event(ctx, content=Content.from_text(f"Refund {verdict}.", role="model"))
            return
        yield self.new_event(
            ctx,
            content=Content.from_text("The refund needs a manager.", role="model"),
            actions=EventActions(
                requested_tool_confirmations={
                    "refund-A-1001": ToolConfirmation(hint="Refund $12.50 for A-1001?")
                }
            ),
        )


async def test_an_action_only_confirmation_is_routed_pending_answered_and_resumed(h: Any) -> None:
    from agentlog.approvals import confirmation_answer, pending_requests
    from agentlog.router import route

    runner = h.runner(ApprovalGate(name="gate"))
    sid = await h.session()
    asked = await h.run(runner, sid, "refund A-1001")
    [ask] = [m for m in route(asked[-1]) if m.kind == "needs_approval"]
    assert (ask.text, ask.data["request_id"]) == ("Refund $12.50 for A-1001?", "refund-A-1001")
    [pending] = pending_requests(await h.load(sid))
    assert (pending.request_id, pending.kind) == ("refund-A-1001", "confirmation")

    resumed = await h.run(runner, sid, confirmation_answer("refund-A-1001", True))
    assert resumed[-1].text() == "Refund approved."
    assert {e.invocation_id for e in resumed} == {asked[0].invocation_id}
    assert pending_requests(await h.load(sid)) == []
