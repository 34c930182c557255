"""The refund desk from the seeds: a front desk with an order lookup, a policy check that
emits a decision event, and a refund tool that needs a human's approval.

``build_desk(model)`` wires the agents; ``scripted_model()`` is the offline script the demo and
tests replay; ``CUSTOMER_TURNS`` are the customer's messages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Final

from agentlog.agents import BaseAgent, LlmAgent, SequentialAgent
from agentlog.context import CallbackContext, InvocationContext, ToolContext
from agentlog.events import Content, Event, EventActions
from agentlog.models.base import BaseLlm, LlmRequest, LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.tools import FunctionTool

__all__ = ["CUSTOMER_TURNS", "ORDERS", "PolicyCheck", "build_desk", "scripted_model"]

ORDERS: Final[dict[str, dict[str, Any]]] = {
    "A-1001": {
        "order_id": "A-1001",
        "status": "shipped",
        "promised_by": "2026-09-25",
        "shipped_on": "2026-09-28",
        "shipping_fee": 12.50,
        "total": 84.00,
    },
    "B-2040": {
        "order_id": "B-2040",
        "status": "processing",
        "promised_by": "2026-10-12",
        "shipped_on": None,
        "shipping_fee": 6.00,
        "total": 31.00,
    },
}

CUSTOMER_TURNS: Final = (
    "Hi, my order A-1001 still hasn't arrived. What's going on?",
    "That's late. Can you refund the shipping fee?",
)

POLICY_VERSION: Final = "refunds-2026.09"


# The tools are coroutines: a plain function tool runs in a worker thread, and a lookup in a
# dict costs less than the hop to that thread and back.
async def lookup_order(order_id: str, tool_context: ToolContext) -> dict[str, Any]:
    """Look up an order by its id.

    Args:
        order_id: The order id, such as A-1001.
    """
    order = ORDERS.get(order_id.strip().upper())
    if order is None:
        return {"error": f"no order {order_id}"}
    tool_context.state["order"] = order
    return order


async def refund_shipping(
    order_id: str, amount: float, tool_context: ToolContext
) -> dict[str, Any]:
    """Refund an order's shipping fee to the customer's card. Needs an operator's approval.

    Args:
        order_id: The order whose shipping fee is refunded.
        amount: The amount in dollars; at most the order's shipping fee.
    """
    order = ORDERS.get(order_id)
    if order is None:
        return {"error": f"no order {order_id}"}
    if amount > order["shipping_fee"]:
        return {"error": f"{amount:.2f} is more than the shipping fee {order['shipping_fee']:.2f}"}
    refund = {"order_id": order_id, "amount": amount, "status": "refunded", "refund_id": "R-7781"}
    tool_context.state["refunds"] = [*tool_context.state.get("refunds", []), refund]
    return refund


class PolicyCheck(BaseAgent):
    """A deterministic step: is a shipping refund within policy? Emits its decision as an event
    whose content says what was decided and whose actions carry the state change."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        order = ctx.session.state.get("order") or {}
        late = bool(order.get("shipped_on")) and order["shipped_on"] > order["promised_by"]
        text = (
            "Shipping refund is within policy: the order shipped after its promised date."
            if late
            else "Shipping refund needs manual review: the order was not late."
        )
        yield self.new_event(
            ctx,
            content=Content.from_text(text, role="model"),
            actions=EventActions(
                state_delta={"refund_eligible": late, "temp:policy_version": POLICY_VERSION},
                escalate=not late,
            ),
        )


def _skip_unless_eligible(callback_context: CallbackContext) -> Content | None:
    if callback_context.state.get("refund_eligible"):
        return None
    return Content.from_text(
        "This refund needs a manual review; a colleague will follow up.", role="model"
    )


def build_desk(model: BaseLlm) -> LlmAgent:
    """The agent tree: ``desk`` → ``refund_flow`` (``policy_check`` then ``refunds``)."""
    refunds = LlmAgent(
        name="refunds",
        model=model,
        description="Issues refunds that policy allows.",
        instruction=(
            "You issue shipping-fee refunds. The policy check ({temp:policy_version?}) found the "
            "refund eligible: {refund_eligible}. The order: {order}. Call refund_shipping once, "
            "then tell the customer the amount and that it reaches their card within five "
            "working days."
        ),
        tools=[FunctionTool(refund_shipping, require_confirmation=True)],
        before_agent_callback=_skip_unless_eligible,
        disallow_transfer_to_parent=True,
        disallow_transfer_to_peers=True,
    )
    flow = SequentialAgent(
        name="refund_flow",
        description="Checks refund policy, then refunds the shipping fee.",
        sub_agents=[PolicyCheck(name="policy_check"), refunds],
    )
    return LlmAgent(
        name="desk",
        model=model,
        description="The front desk of an online shop.",
        instruction=(
            "You are the front desk of an online shop. Look orders up with lookup_order before "
            "answering about them. When the customer asks for a refund, transfer to refund_flow."
        ),
        tools=[lookup_order],
        sub_agents=[flow],
    )


def _refund_reply(request: LlmRequest) -> LlmResponse:
    """The reply after the refund tool: what the operator's answer let it do."""
    results = [
        p.function_response
        for c in request.contents
        for p in c.parts
        if p.function_response is not None and p.function_response.name == "refund_shipping"
    ]
    if results and results[-1].response.get("declined"):
        return ScriptedLlm.text(
            "I'm sorry: the refund of the $12.50 shipping fee for order A-1001 was declined, "
            "so nothing has been refunded."
        )
    return ScriptedLlm.text(
        "Done: the $12.50 shipping fee for order A-1001 is refunded (refund R-7781). "
        "It will reach your card within five working days."
    )


def scripted_model() -> ScriptedLlm:
    """The model's side of the demo conversation, step by step."""
    return ScriptedLlm(
        [
            ScriptedLlm.call("lookup_order", {"order_id": "A-1001"}),
            ScriptedLlm.text(
                "Order A-1001 shipped on 28 September, three days after the 25 September date "
                "we promised. I'm sorry about the delay; it is on its way to you."
            ),
            ScriptedLlm.call("transfer_to_agent", {"agent_name": "refund_flow"}),
            ScriptedLlm.call("refund_shipping", {"order_id": "A-1001", "amount": 12.50}),
            _refund_reply,
        ],
        model="scripted-refund-desk",
        chunk_size=9,
    )
