"""The server's default agent: the refund desk on an offline model that serves any session.

A ``ScriptedLlm`` replays one conversation once; a server needs a model that answers any
number of sessions, and answers the same after a restart. :class:`RefundDeskModel` keeps no
state: it reads each request (which agent is asking, what the last message was) and picks the
step of the refund-desk script that fits, streamed like ``ScriptedLlm`` streams it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any, Final

from agentlog._frozen import thaw
from agentlog.agents import LlmAgent
from agentlog.demo.refund_desk import ORDERS, build_desk
from agentlog.events import Part
from agentlog.models.base import BaseLlm, LlmRequest, LlmResponse
from agentlog.models.scripted import ScriptedLlm

__all__ = ["RefundDeskModel", "refund_desk"]

GREETING: Final = (
    "Hello! I can look up an order (for example A-1001) and refund the shipping fee of a "
    "late one. What is your order number?"
)
_ORDER_ID: Final = re.compile(r"\b([A-Za-z])-(\d{4})\b")


class RefundDeskModel:
    """A stateless stand-in model for the refund desk's agents (offline, deterministic).

    Args:
        chunk_size: characters per draft when streaming.
        delay_s: pause before each response it streams, like a real model's latency.
    """

    def __init__(self, *, chunk_size: int = 9, delay_s: float = 0.0) -> None:
        self._chunk_size = chunk_size
        self._delay_s = delay_s

    @property
    def model(self) -> str:
        """The name recorded on events."""
        return "scripted-refund-desk"

    def generate(self, request: LlmRequest, *, stream: bool = False) -> AsyncIterator[LlmResponse]:
        """The script's step for this request."""
        script = ScriptedLlm([_reply(request)], model=self.model, chunk_size=self._chunk_size)
        responses = script.generate(request, stream=stream)
        # Without a delay the script's own stream, not one more generator every draft
        # passes through.
        return _delayed(responses, self._delay_s) if self._delay_s else responses


async def _delayed(
    responses: AsyncIterator[LlmResponse], delay_s: float
) -> AsyncIterator[LlmResponse]:
    async for response in responses:
        await asyncio.sleep(delay_s)
        yield response


def refund_desk(model: BaseLlm | None = None) -> LlmAgent:
    """The refund desk agent tree, on ``model`` or on :class:`RefundDeskModel`."""
    return build_desk(model or RefundDeskModel())


def _reply(request: LlmRequest) -> LlmResponse:
    tools = {tool.name for tool in request.tools}
    last = _last_part(request)
    response = last.function_response if last is not None else None
    if "refund_shipping" in tools:
        if response is not None and response.name == "refund_shipping":
            return ScriptedLlm.text(_refund_text(thaw(response.response)))
        order_id = _latest_order_id(request) or "A-1001"
        fee = ORDERS.get(order_id, {}).get("shipping_fee", 0.0)
        return ScriptedLlm.call("refund_shipping", {"order_id": order_id, "amount": fee})
    if "lookup_order" in tools:
        if response is not None and response.name == "lookup_order":
            return ScriptedLlm.text(_order_text(thaw(response.response)))
        said = last.text if last is not None and last.text else ""
        if "refund" in said.lower() and "transfer_to_agent" in tools:
            return ScriptedLlm.call("transfer_to_agent", {"agent_name": "refund_flow"})
        match = _ORDER_ID.search(said)
        if match:
            return ScriptedLlm.call("lookup_order", {"order_id": _order_id(match)})
    return ScriptedLlm.text(GREETING)


def _last_part(request: LlmRequest) -> Part | None:
    for content in reversed(request.contents):
        if content.parts:
            return content.parts[-1]
    return None


def _order_id(match: re.Match[str]) -> str:
    return f"{match.group(1).upper()}-{match.group(2)}"


def _latest_order_id(request: LlmRequest) -> str | None:
    # The instruction names the order looked up; the conversation is only a fallback.
    texts = [p.text for c in request.contents for p in c.parts if p.text]
    for text in [request.system_instruction, *reversed(texts)]:
        matches = list(_ORDER_ID.finditer(text))
        if matches:
            return _order_id(matches[-1])
    return None


def _order_text(order: dict[str, Any]) -> str:
    if "error" in order:
        return f"I couldn't find that order ({order['error']}). Could you check the number?"
    order_id, shipped, promised = order["order_id"], order["shipped_on"], order["promised_by"]
    if not shipped:
        return f"Order {order_id} is still {order['status']}; we promised it by {promised}."
    late = " That is later than we promised, and I'm sorry." if shipped > promised else ""
    return f"Order {order_id} shipped on {shipped}; we promised it by {promised}.{late}"


def _refund_text(result: dict[str, Any]) -> str:
    if result.get("declined"):
        return "Understood: I have not refunded anything. Is there anything else?"
    if "error" in result:
        return f"I couldn't refund that: {result['error']}."
    return (
        f"Done: the ${result['amount']:.2f} shipping fee for order {result['order_id']} is "
        f"refunded (refund {result['refund_id']}). It will reach your card within five "
        "working days."
    )
