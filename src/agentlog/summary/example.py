"""The seed's worked example: a refund handoff whose first summary drops order B-2040.

The session: the customer asks about late order A-1001; a lookup shows it shipped on 28
September; the customer asks for the shipping fee back; $12.50 is refunded and the agent
promises it within five working days; the customer asks whether B-2040 is affected, and the
session ends unanswered. ``FIRST_OUTPUT`` is a model's first record, which leaves B-2040 out;
``FIXED_OUTPUT`` is the retry, which adds the open question. Tests and the demo replay them
with ``ScriptedLlm``.
"""

from __future__ import annotations

import json
from typing import Any, Final

from agentlog.events import Content, Event, Part

__all__ = ["FIRST_OUTPUT", "FIXED_OUTPUT", "refund_session_events"]

_T0: Final = 1_790_000_000.0


def refund_session_events() -> tuple[Event, ...]:
    """The worked example's eight events, ``e01`` to ``e08``."""

    def event(n: int, author: str, part: Part, inv: str) -> Event:
        role = "user" if author == "user" or part.function_response else "model"
        return Event(
            id=f"e{n:02d}",
            invocation_id=inv,
            author=author,
            timestamp=_T0 + n,
            content=Content(role=role, parts=(part,)),
        )

    lookup: dict[str, Any] = {
        "order_id": "A-1001",
        "status": "shipped",
        "shipped_on": "2026-09-28",
        "shipping_fee": 12.5,
    }
    refund: dict[str, Any] = {"order_id": "A-1001", "refunded": 12.5, "status": "ok"}
    return (
        event(1, "user", Part(text="My order A-1001 still hasn't arrived. What's going on?"), "i1"),
        event(
            2, "desk", Part.from_function_call("lookup_order", {"order_id": "A-1001"}, "c1"), "i1"
        ),
        event(3, "desk", Part.from_function_response("lookup_order", lookup, "c1"), "i1"),
        event(4, "user", Part(text="That's late. Can you refund the shipping fee?"), "i2"),
        event(
            5,
            "desk",
            Part.from_function_call(
                "refund_shipping", {"order_id": "A-1001", "amount": 12.5}, "c2"
            ),
            "i2",
        ),
        event(6, "desk", Part.from_function_response("refund_shipping", refund, "c2"), "i2"),
        event(
            7,
            "desk",
            Part(
                text="I've refunded the $12.50 shipping fee of A-1001. It will reach your card "
                "within five working days."
            ),
            "i2",
        ),
        event(8, "user", Part(text="Thanks. Is my other order B-2040 affected too?"), "i3"),
    )


_FIRST: Final[dict[str, Any]] = {
    "goal": "Get the shipping fee of the late order A-1001 refunded.",
    "facts": [
        {"text": "Order A-1001 shipped on 28 September 2026.", "sources": ["e02", "e03"]},
        {"text": "The $12.50 shipping fee of A-1001 was refunded.", "sources": ["e05", "e06"]},
    ],
    "decisions": [
        {"text": "Refund the $12.50 shipping fee of A-1001.", "sources": ["e04", "e05", "e06"]}
    ],
    "commitments": [
        {"text": "The $12.50 refund reaches the card within five working days.", "sources": ["e07"]}
    ],
    "open_questions": [],
}

FIRST_OUTPUT: Final = json.dumps(_FIRST)
"""The first record: correct, cited, and missing B-2040."""

FIXED_OUTPUT: Final = json.dumps(
    {**_FIRST, "open_questions": [{"text": "Is B-2040 affected too?", "sources": ["e08"]}]}
)
"""The retry's record: the open question about B-2040 added, citing the customer's message."""
