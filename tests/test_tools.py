"""Tools: schemas from functions, how results and failures reach the model and the log,
tool callbacks, artifacts, oversized results and redaction."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agentlog import Content, ErrorCode, SqliteSessionService
from agentlog.agents import LlmAgent
from agentlog.context import ToolContext
from agentlog.models.base import LlmRequest
from agentlog.models.scripted import ScriptedLlm
from agentlog.redaction import PatternRedactor
from agentlog.runner import Runner
from agentlog.tools import BaseTool, FunctionTool


def refund_order(
    order_id: str,
    amount: float,
    tool_context: ToolContext,
    reason: str = "damaged",
    notify: bool = True,
    tags: list[str] | None = None,
    attempts: int = 1,
) -> dict[str, Any]:
    """Refund an order to the customer's card.

    Args:
        order_id: The order number,
            e.g. 1182.
        amount: Amount in dollars.
        reason: Why the refund is given.

    Returns:
        The refund record.
    """
    return {"order_id": order_id, "refunded": amount}


def _responses(request: LlmRequest) -> list[dict[str, Any]]:
    return [
        dict(p.function_response.response)
        for c in request.contents
        for p in c.parts
        if p.function_response is not None
    ]


# --- schema --------------------------------------------------------------------------------


def test_function_tool_schema_from_signature_and_docstring() -> None:
    declaration = FunctionTool(refund_order).declaration()
    assert declaration.name == "refund_order"
    assert declaration.description == "Refund an order to the customer's card."
    params = declaration.parameters
    assert params["type"] == "object"
    props = params["properties"]
    assert set(props) == {"order_id", "amount", "reason", "notify", "tags", "attempts"}
    assert "tool_context" not in json.dumps(params)
    assert props["order_id"]["type"] == "string"
    assert props["order_id"]["description"] == "The order number, e.g. 1182."
    assert props["amount"]["type"] == "number"
    assert props["amount"]["description"] == "Amount in dollars."
    assert props["reason"]["default"] == "damaged"
    assert props["reason"]["description"] == "Why the refund is given."
    assert props["notify"]["type"] == "boolean"
    assert props["notify"]["default"] is True
    assert props["attempts"]["type"] == "integer"
    assert props["attempts"]["default"] == 1
    assert {"type": "array", "items": {"type": "string"}} in props["tags"]["anyOf"]
    assert props["tags"]["default"] is None
    assert sorted(params["required"]) == ["amount", "order_id"]
    assert params.get("additionalProperties") is False


def test_names_descriptions_and_confirmation_can_be_overridden() -> None:
    tool = FunctionTool(
        refund_order, name="issue_refund", description="Give money back.", require_confirmation=True
    )
    assert tool.declaration().name == "issue_refund"
    assert tool.declaration().description == "Give money back."
    assert tool.needs_confirmation({}) is True
    by_amount = FunctionTool(refund_order, require_confirmation=lambda a: a["amount"] > 100)
    assert by_amount.needs_confirmation({"amount": 500}) is True
    assert by_amount.needs_confirmation({"amount": 5}) is False


def test_varargs_cannot_be_declared() -> None:
    def loose(*items: str) -> None:
        """Loose."""

    with pytest.raises(TypeError):
        FunctionTool(loose)


# --- running -------------------------------------------------------------------------------


async def test_an_async_tool_is_awaited(mh: Any) -> None:
    async def lookup_order(order_id: str) -> dict[str, Any]:
        """Look up an order."""
        await asyncio.sleep(0)
        return {"order_id": order_id, "status": "shipped"}

    llm = ScriptedLlm(
        [ScriptedLlm.call("lookup_order", {"order_id": "1182"}), ScriptedLlm.text("Shipped.")]
    )
    with llm:
        sid = await mh.session()
        await mh.run(mh.runner(LlmAgent(name="desk", model=llm, tools=[lookup_order])), sid, "?")
    assert _responses(llm.requests[1]) == [{"order_id": "1182", "status": "shipped"}]


async def test_a_non_dict_result_is_wrapped(mh: Any) -> None:
    def count() -> int:
        """Count."""
        return 3

    llm = ScriptedLlm([ScriptedLlm.call("count"), ScriptedLlm.text("3")])
    with llm:
        sid = await mh.session()
        await mh.run(mh.runner(LlmAgent(name="desk", model=llm, tools=[count])), sid, "?")
    assert _responses(llm.requests[1]) == [{"result": 3}]


async def test_a_raising_tool_reports_the_error_to_the_model_and_the_turn_goes_on(h: Any) -> None:
    def lookup_order(order_id: str) -> dict[str, Any]:
        """Look up an order."""
        raise LookupError(f"order {order_id} not in the warehouse system")

    llm = ScriptedLlm(
        [
            ScriptedLlm.call("lookup_order", {"order_id": "1182"}),
            ScriptedLlm.text("I could not find that order."),
        ]
    )
    with llm:
        sid = await h.session()
        events = await h.run(
            h.runner(LlmAgent(name="desk", model=llm, tools=[lookup_order])), sid, "1182?"
        )
    expected = {"error": "LookupError: order 1182 not in the warehouse system"}
    assert _responses(llm.requests[1]) == [expected]
    assert events[-1].text() == "I could not find that order."
    assert not any(e.error_code for e in events)
    stored = [r for e in await h.events(sid) for r in e.function_responses()]
    assert [dict(r.response) for r in stored] == [expected]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ({"order_id": "1182", "amount": "lots"}, "amount"),
        ({"order_id": "1182", "amount": 5, "coupon": "FREE"}, "coupon"),
        ({"amount": 5}, "order_id"),
    ],
    ids=["wrong-type", "unknown-key", "missing"],
)
async def test_malformed_arguments_go_back_to_the_model(
    mh: Any, args: dict[str, Any], problem: str
) -> None:
    calls: list[Any] = []

    def refund(order_id: str, amount: float) -> str:
        """Refund."""
        calls.append(order_id)
        return "ok"

    llm = ScriptedLlm([ScriptedLlm.call("refund", args), ScriptedLlm.text("Let me retry.")])
    with llm:
        sid = await mh.session()
        await mh.run(mh.runner(LlmAgent(name="desk", model=llm, tools=[refund])), sid, "go")
    assert calls == []
    [response] = _responses(llm.requests[1])
    assert response["error"].startswith("invalid arguments for refund:")
    assert problem in response["error"]


async def test_an_unknown_tool_gets_an_error_listing_the_tools(mh: Any) -> None:
    def lookup_order(order_id: str) -> str:
        """Look up."""
        return "ok"

    llm = ScriptedLlm([ScriptedLlm.call("cancel_order", {"id": "1"}), ScriptedLlm.text("Sorry.")])
    with llm:
        agent = LlmAgent(name="desk", model=llm, tools=[lookup_order, refund_order])
        sid = await mh.session()
        events = await mh.run(mh.runner(agent), sid, "cancel")
    [response] = _responses(llm.requests[1])
    assert "cancel_order" in response["error"]
    assert "lookup_order, refund_order" in response["error"]
    assert events[-1].text() == "Sorry."


async def test_malformed_tool_call_json_is_retried_once_with_the_error(mh: Any) -> None:
    def refund(order_id: str) -> str:
        """Refund."""
        return "ok"

    llm = ScriptedLlm(
        [
            ScriptedLlm.error(ErrorCode.MALFORMED_OUTPUT, "arguments of refund are not JSON"),
            ScriptedLlm.call("refund", {"order_id": "1182"}),
            ScriptedLlm.text("Refunded."),
        ]
    )
    with llm:
        sid = await mh.session()
        events = await mh.run(mh.runner(LlmAgent(name="desk", model=llm, tools=[refund])), sid, "r")
    last = llm.requests[1].contents[-1]
    assert last.role == "user"
    assert "arguments of refund are not JSON" in (last.parts[0].text or "")
    assert events[-1].text() == "Refunded."
    assert not any(e.error_code for e in await mh.events(sid))


async def test_malformed_tool_call_json_twice_is_a_malformed_output_error(h: Any) -> None:
    bad = ScriptedLlm.error(ErrorCode.MALFORMED_OUTPUT, "arguments are not JSON")
    with ScriptedLlm([bad, bad]) as llm:
        sid = await h.session()
        events = await h.run(h.runner(LlmAgent(name="desk", model=llm)), sid, "r")
    assert events[-1].error_code is ErrorCode.MALFORMED_OUTPUT
    assert (await h.events(sid))[-1].error_code is ErrorCode.MALFORMED_OUTPUT
    assert len(llm.requests) == 2


# --- what tools change ---------------------------------------------------------------------


async def test_tool_state_writes_land_on_the_function_response_event(h: Any) -> None:
    def lookup_order(order_id: str, tool_context: ToolContext) -> str:
        """Look up."""
        tool_context.state["order"] = {"id": order_id}
        tool_context.state["user:last_order"] = order_id
        return "found"

    llm = ScriptedLlm(
        [ScriptedLlm.call("lookup_order", {"order_id": "1182"}), ScriptedLlm.text(".")]
    )
    with llm:
        sid = await h.session()
        events = await h.run(
            h.runner(LlmAgent(name="desk", model=llm, tools=[lookup_order])), sid, "?"
        )
    call_event, response_event = events[1], events[2]
    assert call_event.function_calls()
    assert call_event.actions.state_delta == {}
    assert response_event.function_responses()
    assert dict(response_event.actions.state_delta) == {
        "order": {"id": "1182"},
        "user:last_order": "1182",
    }
    state = (await h.load(sid)).state
    assert state["order"] == {"id": "1182"}
    assert state["user:last_order"] == "1182"
    assert await h.store.get_user_state(app_name=h.app, user_id=h.user) == {"last_order": "1182"}


async def test_tool_artifact_saves_land_in_the_artifact_delta(mh: Any) -> None:
    async def write_label(order_id: str, tool_context: ToolContext) -> str:
        """Write a return label."""
        version = await tool_context.save_artifact(
            "label.txt", f"RETURN {order_id}".encode(), "text/plain"
        )
        return f"label v{version}"

    llm = ScriptedLlm(
        [ScriptedLlm.call("write_label", {"order_id": "1182"}), ScriptedLlm.text(".")]
    )
    with llm:
        runner = mh.runner(LlmAgent(name="desk", model=llm, tools=[write_label]))
        sid = await mh.session()
        events = await mh.run(runner, sid, "label")
    assert dict(events[2].actions.artifact_delta) == {"label.txt": 0}
    artifact = await runner.artifact_service.load_artifact(
        app_name=mh.app, user_id=mh.user, session_id=sid, filename="label.txt"
    )
    assert artifact.data == b"RETURN 1182"


async def test_an_oversized_result_is_stored_as_an_artifact(h: Any) -> None:
    rows = [{"line": i, "text": "x" * 40} for i in range(50)]

    def export_orders() -> dict[str, Any]:
        """Export every order."""
        return {"rows": rows}

    llm = ScriptedLlm([ScriptedLlm.call("export_orders"), ScriptedLlm.text("Exported 50 rows.")])
    with llm:
        agent = LlmAgent(name="desk", model=llm, tools=[export_orders])
        runner = h.runner(agent, max_tool_result_chars=500)
        sid = await h.session()
        events = await h.run(runner, sid, "export")
    full = json.dumps({"rows": rows})
    stored = (await h.events(sid))[2]
    assert stored.id == events[2].id
    [name] = list(stored.actions.artifact_delta)
    version = stored.actions.artifact_delta[name]
    response = dict(stored.function_responses()[0].response)
    assert response["truncated"] is True
    assert response["artifact"] == {"name": name, "version": version, "chars": len(full)}
    assert full.startswith(response["head"])
    assert 0 < len(response["head"]) <= 500
    assert len(json.dumps(response)) < len(full)

    artifact = await runner.artifact_service.load_artifact(
        app_name=h.app, user_id=h.user, session_id=sid, filename=name, version=version
    )
    assert json.loads(artifact.data) == {"rows": rows}
    # The model sees the reference, not the bulk.
    assert _responses(llm.requests[1]) == [response]


async def test_a_redactor_keeps_a_card_number_out_of_the_store(tmp_path: Path) -> None:
    card = "4111 1111 1111 1111"  # Luhn-valid

    def charge_card(order_id: str, tool_context: ToolContext) -> dict[str, Any]:
        """Charge the card on file."""
        tool_context.state["last_card"] = card
        return {"order_id": order_id, "card": card, "status": "charged"}

    store = SqliteSessionService(tmp_path / "redact.db")
    llm = ScriptedLlm(
        [ScriptedLlm.call("charge_card", {"order_id": "1182"}), ScriptedLlm.text("ok")]
    )
    with llm:
        agent = LlmAgent(name="desk", model=llm, tools=[charge_card])
        runner = Runner(
            agent=agent, session_service=store, app_name="shop", redactor=PatternRedactor()
        )
        session = await store.create_session(app_name="shop", user_id="ana")
        events = [
            e
            async for e in runner.run_async(
                user_id="ana",
                session_id=session.id,
                new_message=Content.from_text(f"charge my card {card} for 1182"),
            )
        ]
    await store.close()
    assert dict(events[2].function_responses()[0].response) == {
        "order_id": "1182",
        "card": "[REDACTED:card]",
        "status": "charged",
    }
    assert events[0].text() == "charge my card [REDACTED:card] for 1182"
    assert card not in json.dumps([e.model_dump(mode="json") for e in events])
    assert card not in json.dumps([r.model_dump(mode="json") for r in llm.requests])
    with sqlite3.connect(tmp_path / "redact.db") as conn:
        dump = "\n".join(conn.iterdump())
    assert "[REDACTED:card]" in dump
    assert card not in dump
    assert card.replace(" ", "") not in dump


async def test_tool_callbacks_skip_and_replace_results(h: Any) -> None:
    ran: list[str] = []

    def lookup_order(order_id: str) -> dict[str, Any]:
        """Look up."""
        ran.append(order_id)
        return {"order_id": order_id, "email": "ana@example.com"}

    def before(tool: BaseTool, args: dict[str, Any], ctx: ToolContext) -> dict[str, Any] | None:
        if args["order_id"] == "cached":
            ctx.state["cache_hit"] = True
            return {"order_id": "cached", "from": "cache"}
        return None

    async def after(
        tool: BaseTool, args: dict[str, Any], ctx: ToolContext, result: dict[str, Any]
    ) -> dict[str, Any]:
        ctx.state["masked"] = True
        return {**result, "email": "***"}

    llm = ScriptedLlm(
        [
            ScriptedLlm.calls([("lookup_order", {"order_id": "cached"})]),
            ScriptedLlm.call("lookup_order", {"order_id": "1182"}),
            ScriptedLlm.text("done"),
        ]
    )
    with llm:
        agent = LlmAgent(
            name="desk",
            model=llm,
            tools=[lookup_order],
            before_tool_callback=before,
            after_tool_callback=after,
        )
        sid = await h.session()
        events = await h.run(h.runner(agent), sid, "?")
    assert ran == ["1182"]
    first, second = events[2], events[4]
    assert dict(first.function_responses()[0].response) == {
        "order_id": "cached",
        "from": "cache",
        "email": "***",
    }
    assert dict(first.actions.state_delta) == {"cache_hit": True, "masked": True}
    assert dict(second.function_responses()[0].response) == {
        "order_id": "1182",
        "email": "***",
    }
    assert "ana@example.com" not in json.dumps([e.model_dump(mode="json") for e in events])
