"""Human in the loop: confirmations and credentials pause a turn; answers resume it."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agentlog import Content, CredentialRequest, ErrorCode, Event, Part, SqliteSessionService
from agentlog.agents import BaseAgent, InvocationContext, LlmAgent, SequentialAgent
from agentlog.context import ToolContext
from agentlog.errors import (
    InvalidMessageError,
    RequestAbandonedError,
    RequestAlreadyAnsweredError,
    UnknownRequestError,
)
from agentlog.models.base import LlmRequest
from agentlog.models.scripted import ScriptedLlm
from agentlog.run_config import RunConfig
from agentlog.runner import Runner, confirmation_answer, credential_answer
from agentlog.tools import FunctionTool

CONFIRM = "agentlog_request_confirmation"
CREDENTIAL = "agentlog_request_credential"


def refund_tool(calls: list[str]) -> FunctionTool:
    def refund_order(order_id: str, amount: float) -> dict[str, Any]:
        """Refund an order."""
        calls.append(order_id)
        return {"refunded": amount, "order_id": order_id}

    return FunctionTool(refund_order, require_confirmation=True)


def _request_id(events: list[Event], name: str = CONFIRM, index: int = 0) -> str:
    ids = [c.id for e in events for c in e.function_calls() if c.name == name]
    return ids[index]


def _responses(request: LlmRequest) -> dict[str, dict[str, Any]]:
    return {
        p.function_response.id: dict(p.function_response.response)
        for c in request.contents
        for p in c.parts
        if p.function_response is not None
    }


def _names(request: LlmRequest) -> set[str]:
    names = set()
    for content in request.contents:
        for part in content.parts:
            if part.function_call is not None:
                names.add(part.function_call.name)
            if part.function_response is not None:
                names.add(part.function_response.name)
    return names


async def _answer(h: Any, runner: Runner, sid: str, message: Content) -> list[Event]:
    return list(await h.run(runner, sid, message))


async def test_a_tool_needing_confirmation_pauses_the_turn(h: Any) -> None:
    calls: list[str] = []
    args = {"order_id": "1182", "amount": 12.5}
    with ScriptedLlm([ScriptedLlm.call("refund_order", args, call_id="call-refund")]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        events = await h.run(runner, sid, "refund 1182")
    assert calls == []
    assert [e.author for e in events] == ["user", "desk", "desk"]
    request = events[-1]
    [ask] = request.function_calls()
    assert ask.name == CONFIRM
    assert ask.args["function_call_id"] == "call-refund"
    assert request.long_running_tool_ids == frozenset({ask.id})
    assert list(request.actions.requested_tool_confirmations) == ["call-refund"]
    confirmation = request.actions.requested_tool_confirmations["call-refund"]
    assert confirmation.confirmed is None
    assert confirmation.payload == args
    assert "refund_order" in confirmation.hint
    assert request.is_final_response()

    stored = await h.events(sid)
    assert [e.id for e in stored] == [e.id for e in events]
    assert not any(r.id == "call-refund" for e in stored for r in e.function_responses())


async def test_approval_resumes_the_same_invocation_and_runs_the_tool_once(h: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5}),
            ScriptedLlm.text("Refund of $12.50 issued."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        paused = await h.run(runner, sid, "refund 1182")
        resumed = await _answer(h, runner, sid, confirmation_answer(_request_id(paused), True))
    assert calls == ["1182"]
    invocation = paused[0].invocation_id
    assert {e.invocation_id for e in resumed} == {invocation}
    assert [e.author for e in resumed] == ["user", "desk", "desk"]
    assert dict(resumed[1].function_responses()[0].response) == {
        "refunded": 12.5,
        "order_id": "1182",
    }
    assert resumed[-1].text() == "Refund of $12.50 issued."
    final_request = llm.requests[-1]
    assert list(_responses(final_request).values()) == [{"refunded": 12.5, "order_id": "1182"}]
    assert CONFIRM not in _names(final_request)
    stored = await h.events(sid)
    assert len(stored) == len(paused) + len(resumed)


@pytest.mark.parametrize(("limit", "answered"), [(1, False), (2, True)])
async def test_model_calls_before_a_pause_count_against_max_llm_calls(
    h: Any, limit: int, answered: bool
) -> None:
    # The turn calls the model once before pausing; resumed, it is the same invocation, so a
    # limit of one is already spent and a limit of two allows the answer.
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5}),
            ScriptedLlm.text("Refund of $12.50 issued."),
        ]
    )
    config = RunConfig(max_llm_calls=limit)
    runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
    sid = await h.session()
    paused = await h.run(runner, sid, "refund 1182", run_config=config)
    answer = confirmation_answer(_request_id(paused), True)
    resumed = await h.run(runner, sid, answer, run_config=config)
    assert calls == ["1182"]  # the approved tool runs either way
    assert len(llm.requests) == (2 if answered else 1)
    if answered:
        assert resumed[-1].text() == "Refund of $12.50 issued."
    else:
        assert resumed[-1].error_code is ErrorCode.MAX_LLM_CALLS


async def test_decline_never_runs_the_tool_and_the_model_sees_why(h: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5}, call_id="c1"),
            ScriptedLlm.text("Understood, no refund."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        paused = await h.run(runner, sid, "refund 1182")
        resumed = await _answer(h, runner, sid, confirmation_answer(_request_id(paused), False))
    assert calls == []
    response = _responses(llm.requests[-1])["c1"]
    assert response["declined"] is True
    assert "declined" in response["error"]
    assert resumed[-1].text() == "Understood, no refund."


def dynamic_refund(runs: list[Any]) -> Any:
    def refund_order(order_id: str, amount: float, tool_context: ToolContext) -> dict[str, Any]:
        """Refund an order; large amounts need a supervisor."""
        confirmation = tool_context.tool_confirmation
        if confirmation is None:
            if amount > 100:
                tool_context.request_confirmation(
                    hint=f"Refund {amount} for {order_id}?", payload={"amount": amount}
                )
                return {"status": "waiting for approval"}
            runs.append(("direct", amount))
            return {"refunded": amount}
        runs.append((confirmation.confirmed, confirmation.payload))
        return {"refunded": confirmation.payload["amount"]}

    return refund_order


async def test_dynamic_confirmation_runs_the_tool_again_with_the_answer(h: Any) -> None:
    runs: list[Any] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 150.0}, call_id="c1"),
            ScriptedLlm.text("Refunded 80."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[dynamic_refund(runs)]))
        sid = await h.session()
        paused = await h.run(runner, sid, "refund 1182")
        asked = paused[-1].actions.requested_tool_confirmations["c1"]
        assert asked.hint == "Refund 150.0 for 1182?"
        assert asked.payload == {"amount": 150.0}
        assert runs == []
        assert not any(e.function_responses() for e in paused)
        answer = confirmation_answer(_request_id(paused), True, payload={"amount": 80.0})
        await _answer(h, runner, sid, answer)
    assert runs == [(True, {"amount": 80.0})]
    assert _responses(llm.requests[-1])["c1"] == {"refunded": 80.0}


async def test_dynamic_confirmation_declined_does_not_run_again(mh: Any) -> None:
    runs: list[Any] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 150.0}, call_id="c1"),
            ScriptedLlm.text("No refund."),
        ]
    )
    with llm:
        runner = mh.runner(LlmAgent(name="desk", model=llm, tools=[dynamic_refund(runs)]))
        sid = await mh.session()
        paused = await mh.run(runner, sid, "refund 1182")
        await _answer(mh, runner, sid, confirmation_answer(_request_id(paused), False))
    assert runs == []
    assert _responses(llm.requests[-1])["c1"]["declined"] is True


@pytest.mark.parametrize("bad_id", ["confirm-nope", "call-refund"])
async def test_an_answer_to_an_unknown_request_stores_nothing(h: Any, bad_id: str) -> None:
    calls: list[str] = []
    args = {"order_id": "1182", "amount": 12.5}
    with ScriptedLlm([ScriptedLlm.call("refund_order", args, call_id="call-refund")]) as llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        await h.run(runner, sid, "refund 1182")
        before = await h.load(sid)
        with pytest.raises(UnknownRequestError):
            await _answer(h, runner, sid, confirmation_answer(bad_id, True))
    after = await h.load(sid)
    assert after.version == before.version
    assert calls == []


async def test_answering_twice_is_refused(h: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5}),
            ScriptedLlm.text("Done."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        paused = await h.run(runner, sid, "refund 1182")
        request_id = _request_id(paused)
        await _answer(h, runner, sid, confirmation_answer(request_id, True))
        version = (await h.load(sid)).version
        with pytest.raises(RequestAlreadyAnsweredError):
            await _answer(h, runner, sid, confirmation_answer(request_id, True))
    assert calls == ["1182"]
    assert (await h.load(sid)).version == version


async def test_a_pending_confirmation_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    calls: list[str] = []

    def build(store: SqliteSessionService, llm: ScriptedLlm) -> Runner:
        agent = LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)])
        return Runner(agent=agent, session_service=store, app_name="shop")

    first_store = SqliteSessionService(path)
    first_llm = ScriptedLlm([ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 5})])
    with first_llm:
        session = await first_store.create_session(app_name="shop", user_id="ana")
        paused = [
            e
            async for e in build(first_store, first_llm).run_async(
                user_id="ana", session_id=session.id, new_message=Content.from_text("refund")
            )
        ]
    await first_store.close()

    second_store = SqliteSessionService(path)
    second_llm = ScriptedLlm([ScriptedLlm.text("Refund issued.")])
    with second_llm:
        resumed = [
            e
            async for e in build(second_store, second_llm).run_async(
                user_id="ana",
                session_id=session.id,
                new_message=confirmation_answer(_request_id(paused), True),
            )
        ]
    assert calls == ["1182"]
    assert resumed[-1].text() == "Refund issued."
    assert {e.invocation_id for e in resumed} == {paused[0].invocation_id}
    assert list(_responses(second_llm.requests[0]).values()) == [
        {"refunded": 5.0, "order_id": "1182"}
    ]
    loaded = await second_store.get_session(app_name="shop", user_id="ana", session_id=session.id)
    assert [e.id for e in loaded.events] == [e.id for e in paused + resumed]
    await second_store.close()


async def test_two_parallel_confirmations_answered_one_at_a_time(h: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.calls(
                [
                    ("refund_order", {"order_id": "1182", "amount": 5}),
                    ("refund_order", {"order_id": "1183", "amount": 7}),
                ],
                ids=["c1", "c2"],
            ),
            ScriptedLlm.text("Both refunded."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        paused = await h.run(runner, sid, "refund both")
        request = paused[-1]
        assert set(request.actions.requested_tool_confirmations) == {"c1", "c2"}
        assert len(request.long_running_tool_ids) == 2
        by_call = {c.args["function_call_id"]: c.id for c in request.function_calls()}

        first = await _answer(h, runner, sid, confirmation_answer(by_call["c2"], True))
        assert calls == ["1183"]
        assert len(llm.requests) == 1  # still paused: the model waits for both answers
        assert [e.author for e in first] == ["user", "desk"]
        assert not any(e.text() for e in first)

        second = await _answer(h, runner, sid, confirmation_answer(by_call["c1"], True))
    assert calls == ["1183", "1182"]
    assert len(llm.requests) == 2
    assert set(_responses(llm.requests[-1])) == {"c1", "c2"}
    assert second[-1].text() == "Both refunded."
    assert {e.invocation_id for e in first + second} == {paused[0].invocation_id}


async def test_a_call_without_confirmation_runs_at_once_beside_one_that_waits(h: Any) -> None:
    calls: list[str] = []
    looked: list[str] = []

    def lookup_order(order_id: str) -> dict[str, Any]:
        """Look up an order."""
        looked.append(order_id)
        return {"order_id": order_id, "total": 5}

    llm = ScriptedLlm(
        [
            ScriptedLlm.calls(
                [
                    ("lookup_order", {"order_id": "1182"}),
                    ("refund_order", {"order_id": "1182", "amount": 5}),
                ],
                ids=["look", "pay"],
            ),
            ScriptedLlm.text("Refunded 5."),
        ]
    )
    with llm:
        agent = LlmAgent(name="desk", model=llm, tools=[lookup_order, refund_tool(calls)])
        runner = h.runner(agent)
        sid = await h.session()
        paused = await h.run(runner, sid, "refund 1182")
        assert looked == ["1182"]
        assert calls == []
        assert [r.id for r in paused[2].function_responses()] == ["look"]
        assert list(paused[3].actions.requested_tool_confirmations) == ["pay"]
        resumed = await _answer(h, runner, sid, confirmation_answer(_request_id(paused), True))
    assert looked == ["1182"]
    assert calls == ["1182"]
    assert set(_responses(llm.requests[-1])) == {"look", "pay"}
    assert resumed[-1].text() == "Refunded 5."


async def test_two_confirmations_answered_in_one_message(mh: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.calls(
                [
                    ("refund_order", {"order_id": "1182", "amount": 5}),
                    ("refund_order", {"order_id": "1183", "amount": 7}),
                ],
                ids=["c1", "c2"],
            ),
            ScriptedLlm.text("One refunded."),
        ]
    )
    with llm:
        runner = mh.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await mh.session()
        paused = await mh.run(runner, sid, "refund both")
        by_call = {c.args["function_call_id"]: c.id for c in paused[-1].function_calls()}
        parts = (
            *confirmation_answer(by_call["c1"], True).parts,
            *confirmation_answer(by_call["c2"], False).parts,
        )
        await _answer(mh, runner, sid, Content(role="user", parts=parts))
    assert calls == ["1182"]
    responses = _responses(llm.requests[-1])
    assert responses["c1"] == {"refunded": 5.0, "order_id": "1182"}
    assert responses["c2"]["declined"] is True


async def test_a_credential_request_and_answer_keep_the_secret_out_of_the_log(h: Any) -> None:
    secret = "sk-live-0123456789abcdef"
    seen: list[Any] = []

    def fetch_invoice(invoice_id: str, tool_context: ToolContext) -> dict[str, Any]:
        """Fetch an invoice from the billing API."""
        if tool_context.credential is None:
            tool_context.request_credential(
                CredentialRequest(auth_type="api_key", hint="Billing API key")
            )
            return {"status": "needs a key"}
        seen.append(tool_context.credential)
        return {"invoice": invoice_id, "paid": True}

    llm = ScriptedLlm(
        [
            ScriptedLlm.call("fetch_invoice", {"invoice_id": "9"}, call_id="c1"),
            ScriptedLlm.text("Invoice 9 is paid."),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[fetch_invoice]))
        sid = await h.session()
        paused = await h.run(runner, sid, "is invoice 9 paid?")
        request = paused[-1]
        assert request.actions.requested_auth_configs["c1"].auth_type == "api_key"
        assert request.long_running_tool_ids == frozenset({_request_id(paused, CREDENTIAL)})
        answer = credential_answer(_request_id(paused, CREDENTIAL), {"api_key": secret})
        resumed = await _answer(h, runner, sid, answer)
    assert seen == [{"api_key": secret}]
    assert resumed[-1].text() == "Invoice 9 is paid."
    assert _responses(llm.requests[-1])["c1"] == {"invoice": "9", "paid": True}

    stored = await h.events(sid)
    dumped = json.dumps([e.model_dump(mode="json") for e in stored])
    assert secret not in dumped
    assert secret not in json.dumps([e.model_dump(mode="json") for e in resumed])
    assert secret not in json.dumps([r.model_dump(mode="json") for r in llm.requests])
    if h.kind == "sqlite":
        with sqlite3.connect(h.store.path) as conn:
            assert secret not in "\n".join(conn.iterdump())


async def test_a_confirmation_after_a_transfer_resumes_in_the_agent_that_asked(h: Any) -> None:
    calls: list[str] = []
    desk = ScriptedLlm([ScriptedLlm.call("transfer_to_agent", {"agent_name": "refunds"})])
    refunds = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 5}),
            ScriptedLlm.text("Refunds here: done."),
        ]
    )
    tree = LlmAgent(
        name="desk",
        model=desk,
        sub_agents=[LlmAgent(name="refunds", model=refunds, tools=[refund_tool(calls)])],
    )
    with desk, refunds:
        runner = h.runner(tree)
        sid = await h.session()
        paused = await h.run(runner, sid, "refund 1182")
        assert paused[-1].author == "refunds"
        resumed = await _answer(h, runner, sid, confirmation_answer(_request_id(paused), True))
    assert calls == ["1182"]
    assert [e.author for e in resumed] == ["user", "refunds", "refunds"]
    assert resumed[-1].text() == "Refunds here: done."
    assert len(desk.requests) == 1


class Closer(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> Any:
        yield self.new_event(ctx, content=Content(role="model", parts=(Part(text="closed"),)))


async def test_a_confirmation_inside_a_sequence_resumes_and_finishes_the_sequence(
    mh: Any,
) -> None:
    calls: list[str] = []
    intake = ScriptedLlm([ScriptedLlm.text("Order 1182 found.")])
    refunder = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 5}),
            ScriptedLlm.text("Refunded."),
        ]
    )
    seq = SequentialAgent(
        name="flow",
        sub_agents=[
            LlmAgent(name="intake", model=intake),
            LlmAgent(name="refunder", model=refunder, tools=[refund_tool(calls)]),
            Closer(name="closer"),
        ],
    )
    with intake, refunder:
        runner = mh.runner(seq)
        sid = await mh.session()
        paused = await mh.run(runner, sid, "refund 1182")
        assert [e.author for e in paused] == ["user", "intake", "refunder", "refunder"]
        resumed = await _answer(mh, runner, sid, confirmation_answer(_request_id(paused), True))
    assert calls == ["1182"]
    assert [e.author for e in resumed] == ["user", "refunder", "refunder", "closer"]
    assert len(intake.requests) == 1


async def test_a_request_left_behind_by_a_new_message_cannot_be_answered(h: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5}),
            ScriptedLlm.text("Sure, what else can I do?"),
        ]
    )
    with llm:
        runner = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        request_id = _request_id(await h.run(runner, sid, "refund 1182"))
        await h.run(runner, sid, "Actually, never mind the refund.")
        version = (await h.load(sid)).version
        with pytest.raises(RequestAbandonedError):
            await _answer(h, runner, sid, confirmation_answer(request_id, True))
        # The model never saw the abandoned call: it has no response.
        assert "refund_order" not in _names(llm.requests[-1])
    assert calls == []
    assert (await h.load(sid)).version == version


async def test_before_agent_callback_runs_once_per_turn_even_across_a_pause(h: Any) -> None:
    starts: list[str] = []

    def before(ctx: Any) -> None:
        starts.append(ctx.invocation_id)

    calls: list[str] = []
    llm = ScriptedLlm(
        [
            ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5}),
            ScriptedLlm.text("Done."),
        ]
    )
    with llm:
        desk = LlmAgent(
            name="desk", model=llm, tools=[refund_tool(calls)], before_agent_callback=before
        )
        runner = h.runner(desk)
        sid = await h.session()
        request_id = _request_id(await h.run(runner, sid, "refund 1182"))
        await _answer(h, runner, sid, confirmation_answer(request_id, True))
    assert len(starts) == 1
    assert calls == ["1182"]


async def test_two_runners_on_one_store_serialise_runs_on_a_session(h: Any) -> None:
    import asyncio

    def slow_agent(name: str) -> BaseAgent:
        class Slow(BaseAgent):
            async def _run_async_impl(self, ctx: InvocationContext) -> Any:
                for i in range(3):
                    await asyncio.sleep(0.01)
                    yield self.new_event(ctx, content=Content.from_text(f"{name}{i}", role="model"))

        return Slow(name=name)

    sid = await h.session()
    first, second = h.runner(slow_agent("a")), h.runner(slow_agent("b"))
    await asyncio.gather(h.run(first, sid, "one"), h.run(second, sid, "two"))
    invocations = [e.invocation_id for e in await h.events(sid)]
    changes = sum(1 for x, y in itertools.pairwise(invocations) if x != y)
    assert changes == 1  # two whole turns, one after the other


async def test_an_answer_for_an_agent_this_runner_lacks_stores_nothing(h: Any) -> None:
    calls: list[str] = []
    llm = ScriptedLlm([ScriptedLlm.call("refund_order", {"order_id": "1182", "amount": 12.5})])
    with llm:
        first = h.runner(LlmAgent(name="desk", model=llm, tools=[refund_tool(calls)]))
        sid = await h.session()
        request_id = _request_id(await h.run(first, sid, "refund 1182"))
    version = (await h.load(sid)).version
    other = h.runner(LlmAgent(name="elsewhere", model=ScriptedLlm([])))
    with pytest.raises(InvalidMessageError, match="desk"):
        await _answer(h, other, sid, confirmation_answer(request_id, True))
    assert (await h.load(sid)).version == version
    assert calls == []
