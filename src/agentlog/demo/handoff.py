"""The demo's last act: the seed's worked example on the demo's own session.

The customer asks about a second order, B-2040, and the chat closes before the desk answers.
The summary model's first record leaves B-2040 out; the validator says so; the retry adds the
open question; the checked record is shown as a digest. The scripted summary model reads the
transcript it is sent and cites the real event ids of this run, as a model would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agentlog.models.base import LlmRequest, LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.transcript import parse_line

__all__ = ["CLOSING_QUESTION", "scripted_compactor", "scripted_summarizer"]

CLOSING_QUESTION = "Thanks. Is my other order B-2040 affected too?"


def _transcript(request: LlmRequest) -> list[tuple[str, str, str]]:
    """``(event id, author, line)`` for each transcript line in the request."""
    text = "".join(p.text or "" for c in request.contents for p in c.parts)
    lines = []
    for line in text.splitlines():
        parsed = parse_line(line)
        if parsed is not None:
            lines.append((parsed[0], parsed[1], line))
    return lines


def _ids(lines: list[tuple[str, str, str]], *needles: str, author: str | None = None) -> list[str]:
    return [
        event_id
        for event_id, who, line in lines
        if all(n in line for n in needles) and (author is None or who == author)
    ]


def _record(request: LlmRequest, *, with_b2040: bool) -> dict[str, Any]:
    lines = _transcript(request)
    lookup = _ids(lines, "lookup_order")
    refund = _ids(lines, "refund_shipping")
    asked = _ids(lines, "refund the shipping fee", author="user")
    policy = _ids(lines, author="policy_check")
    promise = _ids(lines, "five working days")
    # The record says what the log shows: an operator who declined the refund left none.
    declined = bool(_ids(lines, "refund_shipping", '"declined": true'))
    record: dict[str, Any] = {
        "goal": "Find out why order A-1001 is late and get its shipping fee refunded.",
        "facts": [
            {
                "text": "Order A-1001 (total $84.00) was promised by 2026-09-25 and shipped on "
                "2026-09-28 (28 September), after the 25 September promise.",
                "sources": lookup,
            },
            {
                "text": "The policy check found the shipping refund within policy.",
                "sources": policy,
            },
        ],
        # What the refund's call and result hold, so the validator can label it verified; who
        # approved it is the confirmation's answer, which came from the client and proves no
        # operator (the record would be a user's claim if it said so).
        "decisions": [
            {
                "text": "Refunded the $12.50 shipping fee of A-1001 (refund R-7781).",
                "sources": refund,
            }
        ],
        "commitments": [
            {
                "text": "The $12.50 reaches the customer's card within five working days.",
                "sources": promise,
            }
        ],
        "open_questions": [],
    }
    if declined:
        record["goal"] = "Find out why order A-1001 is late and ask for its shipping fee back."
        record["decisions"] = [
            {
                "text": "The $12.50 shipping fee refund of A-1001 was declined: nothing was "
                "refunded.",
                "sources": asked + refund,
            }
        ]
        record["commitments"] = []
    if with_b2040:
        record["open_questions"] = [
            {"text": "Is B-2040 affected too?", "sources": _ids(lines, "B-2040", author="user")}
        ]
    return record


def _answer(with_b2040: bool) -> Callable[[LlmRequest], LlmResponse]:
    return lambda request: ScriptedLlm.text(json.dumps(_record(request, with_b2040=with_b2040)))


def scripted_summarizer() -> ScriptedLlm:
    """The summary model's two answers: the first drops B-2040, the retry adds it."""
    return ScriptedLlm([_answer(False), _answer(True)], model="scripted-summarizer")


def scripted_compactor() -> ScriptedLlm:
    """The compaction summariser's one answer for the demo session."""
    return ScriptedLlm(
        [
            # The first window is the first turn: the second waits on the approval then, and
            # a window never reaches past a pending request.
            ScriptedLlm.text(
                "The customer asked why order A-1001 is late. The lookup showed it was promised "
                "by 2026-09-25 and shipped on 2026-09-28; the desk apologised for the delay."
            )
        ],
        model="scripted-compactor",
    )
