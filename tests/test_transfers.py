"""Handing the conversation between LlmAgents with ``transfer_to_agent``."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import ErrorCode, Event
from agentlog.agents import LlmAgent
from agentlog.context import ToolContext
from agentlog.models.base import LlmRequest
from agentlog.models.scripted import ScriptedLlm
from agentlog.router import route


def _transfer(name: str) -> Any:
    return ScriptedLlm.call("transfer_to_agent", {"agent_name": name})


def _targets(request: LlmRequest) -> list[str] | None:
    for tool in request.tools:
        if tool.name == "transfer_to_agent":
            return list(tool.parameters["properties"]["agent_name"]["enum"])
    return None


def _tree(
    desk: ScriptedLlm,
    refunds: ScriptedLlm,
    billing: ScriptedLlm,
    **refund_flags: bool,
) -> LlmAgent:
    return LlmAgent(
        name="desk",
        model=desk,
        instruction="Route the customer.",
        sub_agents=[
            LlmAgent(
                name="refunds",
                model=refunds,
                description="Handles refunds.",
                instruction="You do refunds.",
                **refund_flags,
            ),
            LlmAgent(name="billing", model=billing, description="Handles invoices."),
        ],
    )


async def test_transfer_to_a_sub_agent(h: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds")])
    refunds = ScriptedLlm([ScriptedLlm.text("I will refund order 1182.")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        sid = await h.session()
        events = await h.run(h.runner(_tree(desk, refunds, billing)), sid, "refund 1182")
    assert [e.author for e in events] == ["user", "desk", "desk", "refunds"]
    assert events[2].actions.transfer_to_agent == "refunds"
    assert events[3].branch == "desk.refunds"
    assert len({e.invocation_id for e in events}) == 1

    assert _targets(desk.requests[0]) == ["refunds", "billing"]
    assert "- refunds: Handles refunds." in desk.requests[0].system_instruction
    assert "- billing: Handles invoices." in desk.requests[0].system_instruction

    request = refunds.requests[0]
    assert request.system_instruction.startswith("You do refunds.")
    assert _targets(request) == ["desk", "billing"]
    # The desk's hand-off is retold as context, never as the refunds agent's own words.
    assert [c.role for c in request.contents] == ["user", "user", "user"]
    told = "\n".join(p.text or "" for c in request.contents for p in c.parts)
    assert "For context:" in told
    assert "[desk] called tool `transfer_to_agent`" in told

    stored = await h.events(sid)
    assert [e.id for e in stored] == [e.id for e in events]


async def test_transfer_back_to_the_parent(mh: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds"), ScriptedLlm.text("Desk here, how can I help?")])
    refunds = ScriptedLlm([_transfer("desk")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        sid = await mh.session()
        events = await mh.run(mh.runner(_tree(desk, refunds, billing)), sid, "an invoice question")
    assert [e.author for e in events] == ["user", "desk", "desk", "refunds", "refunds", "desk"]
    assert events[4].actions.transfer_to_agent == "desk"
    assert events[-1].text() == "Desk here, how can I help?"


async def test_transfer_to_a_peer(mh: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds")])
    refunds = ScriptedLlm([_transfer("billing")])
    billing = ScriptedLlm([ScriptedLlm.text("Invoice 9 is paid.")])
    with desk, refunds, billing:
        sid = await mh.session()
        events = await mh.run(mh.runner(_tree(desk, refunds, billing)), sid, "invoice 9?")
    assert [e.author for e in events][-3:] == ["refunds", "refunds", "billing"]
    assert events[-1].text() == "Invoice 9 is paid."
    assert events[-1].branch == "desk.billing"


async def test_disallowing_parent_removes_it_from_the_enum_and_instruction(mh: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds")])
    refunds = ScriptedLlm([ScriptedLlm.text("ok")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        agent = _tree(desk, refunds, billing, disallow_transfer_to_parent=True)
        sid = await mh.session()
        await mh.run(mh.runner(agent), sid, "refund")
    request = refunds.requests[0]
    assert _targets(request) == ["billing"]
    assert "- billing:" in request.system_instruction
    assert "- desk:" not in request.system_instruction


async def test_disallowing_parent_and_peers_removes_the_transfer_tool(mh: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds")])
    refunds = ScriptedLlm([ScriptedLlm.text("ok")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        agent = _tree(
            desk,
            refunds,
            billing,
            disallow_transfer_to_parent=True,
            disallow_transfer_to_peers=True,
        )
        sid = await mh.session()
        await mh.run(mh.runner(agent), sid, "refund")
    request = refunds.requests[0]
    assert _targets(request) is None
    assert "transfer_to_agent" not in request.system_instruction
    assert request.system_instruction == "You do refunds."


async def test_a_transfer_to_a_disallowed_agent_is_an_error_for_the_model(mh: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds")])
    refunds = ScriptedLlm([_transfer("desk"), ScriptedLlm.text("I'll keep helping.")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        agent = _tree(desk, refunds, billing, disallow_transfer_to_parent=True)
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "refund")
    response = events[4].function_responses()[0]
    assert "error" in response.response
    assert "billing" in response.response["error"]
    assert events[4].actions.transfer_to_agent is None
    assert (events[5].error_code, events[5].author) == (ErrorCode.AGENT_NOT_FOUND, "refunds")
    assert events[-1].author == "refunds"
    assert len(desk.requests) == 1


async def test_the_next_turn_starts_with_the_agent_that_last_spoke(h: Any) -> None:
    desk = ScriptedLlm([_transfer("refunds")])
    refunds = ScriptedLlm([ScriptedLlm.text("Which order?"), ScriptedLlm.text("Refunded 1182.")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        runner = h.runner(_tree(desk, refunds, billing))
        sid = await h.session()
        await h.run(runner, sid, "refund please")
        events = await h.run(runner, sid, "order 1182")
    assert [e.author for e in events] == ["user", "refunds"]
    assert len(desk.requests) == 1
    assert len(refunds.requests) == 2


async def test_the_next_turn_starts_at_the_root_when_the_speaker_cannot_hand_back(
    mh: Any,
) -> None:
    desk = ScriptedLlm([_transfer("refunds"), ScriptedLlm.text("Desk again.")])
    refunds = ScriptedLlm([ScriptedLlm.text("Which order?")])
    billing = ScriptedLlm([])
    with desk, refunds, billing:
        runner = mh.runner(_tree(desk, refunds, billing, disallow_transfer_to_parent=True))
        sid = await mh.session()
        await mh.run(runner, sid, "refund please")
        events = await mh.run(runner, sid, "order 1182")
    assert [e.author for e in events] == ["user", "desk"]
    assert len(refunds.requests) == 1


def _hand_to(target: str) -> Any:
    def escalate_case(case_id: str, tool_context: ToolContext) -> dict[str, Any]:
        """Escalate a case to the team that owns it.

        Args:
            case_id: The case.
        """
        tool_context.transfer_to_agent = target
        return {"escalated": case_id}

    return escalate_case


def _kinds(events: list[Event]) -> list[str]:
    return [m.kind for e in events for m in route(e)]


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("ghost", id="no-such-agent"),
        # Exists in the tree, but under billing: not a sub-agent, parent or peer of the desk.
        pytest.param("invoices", id="not-reachable"),
    ],
)
async def test_a_tool_transfer_to_an_agent_out_of_reach_is_an_error_not_a_handoff(
    mh: Any, target: str
) -> None:
    desk = ScriptedLlm(
        [
            ScriptedLlm.call("escalate_case", {"case_id": "C-7"}),
            ScriptedLlm.text("I could not hand this over; I will help you here."),
        ]
    )
    agent = LlmAgent(
        name="desk",
        model=desk,
        tools=[_hand_to(target)],
        sub_agents=[
            LlmAgent(
                name="billing",
                model=ScriptedLlm([]),
                sub_agents=[LlmAgent(name="invoices", model=ScriptedLlm([]))],
            )
        ],
    )
    with desk:
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "escalate C-7")
    assert [e.author for e in events] == ["user", "desk", "desk", "desk", "desk"]
    response, error = events[2], events[3]
    assert response.actions.transfer_to_agent is None
    [result] = response.function_responses()
    assert result.response["error"] == f"cannot transfer to {target!r}; choose one of: billing"
    assert error.error_code is ErrorCode.AGENT_NOT_FOUND
    assert error.error_message is not None
    assert repr(target) in error.error_message
    assert "handoff" not in _kinds(events)
    assert _kinds(events)[-2:] == ["error", "answer"]
    # The model saw why, and carried on.
    told = [p.function_response for c in desk.requests[1].contents for p in c.parts]
    assert any(r is not None and "cannot transfer" in r.response["error"] for r in told)
    assert [e.id for e in await mh.events(sid)] == [e.id for e in events]
