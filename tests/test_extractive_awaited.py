"""An outcome a tool result says is still to come is an open question of the extractive record
(issue 13: a reader handed the session must see what it waits on)."""

from __future__ import annotations

from typing import Any

from agentlog import Event, Part
from agentlog.summary import ExtractiveSummarizer
from test_summary_shapes import event


def session(tool: str, args: dict[str, Any], answer: dict[str, Any]) -> list[Event]:
    return [
        event(1, "user", Part(text="Can the landlord fix the lift in block C?")),
        event(2, "agent", Part.from_function_call(tool, args, "c1")),
        event(3, tool, Part.from_function_response(tool, answer, "c1")),
        event(4, "agent", Part(text="I've logged it with the landlord.")),
    ]


def test_a_result_naming_when_an_outcome_is_due_opens_a_question() -> None:
    answer = {"ticket_ref": "LFT-3301", "status": "awaiting_landlord", "reply_by": "2031-03-09"}
    events = session("raise_ticket", {"block": "C"}, answer)
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    (item,) = result.record.open_questions
    assert item.text == "LFT-3301: status awaiting_landlord, reply by 2031-03-09"
    assert item.sources == ("e02", "e03")
    assert item.provenance == "verified"


def test_a_deadline_key_without_a_date_or_a_failed_result_opens_nothing() -> None:
    no_date = {"ticket_ref": "LFT-3302", "payable_by": "tenant"}
    failed = {"error": "block not found", "reply_by": "2031-03-09"}
    for answer in (no_date, failed):
        result = ExtractiveSummarizer().summarize_now(session("raise_ticket", {}, answer))
        assert result.record is not None
        assert result.record.open_questions == ()
