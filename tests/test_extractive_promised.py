"""The fuller commitments and open questions of the extractive record (issue 13, handoff
quality): what a write makes happen later said in the present tense, a condition's main clause
with a deadline, a change made to a day, a reply we promise, and a wait a commitment runs
beside."""

from __future__ import annotations

from typing import Any

from agentlog import Event, Part
from agentlog.summary import SummaryRecord
from test_extractive_open import ev, exchange, record_of

_MOVED: dict[str, Any] = {"status": "rescheduled"}


def looked_up(reply: str) -> list[Event]:
    """A customer's question, one read and the agent's reply: nothing was written."""
    return [
        ev("e1", "user", Part(text="When is the invoice for TRK-5521 checked?")),
        ev("e2", "agent", Part.from_function_call("get_invoice", {"tracking": "TRK-5521"}, "c1")),
        ev("e3", "get_invoice", Part.from_function_response("get_invoice", {"state": "in"}, "c1")),
        ev("e4", "agent", Part(text=reply)),
    ]


def promised(record: SummaryRecord) -> list[str]:
    return [c.text for c in record.commitments]


def asked(record: SummaryRecord) -> list[str]:
    return [q.text for q in record.open_questions]


def test_a_present_tense_with_a_time_after_a_write_is_a_commitment() -> None:
    said = "Moved. The driver now comes on Friday 2031-05-02."
    assert promised(record_of(exchange(said, _MOVED))) == [
        "The driver now comes on Friday 2031-05-02 (TRK-5521)."
    ]
    # Without a write it more often says what a thing is than what will happen.
    assert promised(record_of(looked_up("The driver now comes on Friday 2031-05-02."))) == []


def test_a_conditions_main_clause_with_a_deadline_is_a_commitment() -> None:
    said = "Once the invoice is in, billing reviews it within 2 business days."
    assert promised(record_of(looked_up(said))) == [said]
    # A condition trailing the main clause says no state ("it's in order").
    more = f"{said[:-1]} and the $50.00 is released if it's in order."
    assert promised(record_of(looked_up(more))) == [more]
    # A time that is no deadline explains a rule.
    rule = "When your data limit is reached, speed drops until your next billing cycle."
    assert promised(record_of(looked_up(rule))) == []


def test_a_change_made_to_a_day_is_a_commitment() -> None:
    assert promised(record_of(exchange("I've moved the delivery to 2031-05-02.", _MOVED))) == [
        "I've moved the delivery to 2031-05-02 (TRK-5521)."
    ]
    # To a month is no day that something happens on.
    assert promised(record_of(exchange("I've added the fee to July.", _MOVED))) == []


def test_a_reply_we_promise_is_a_commitment() -> None:
    said = "Done. I'll ask the depot to trace the parcel and come back to you."
    assert promised(record_of(exchange(said, _MOVED))) == [
        "I'll ask the depot to trace the parcel and come back to you (TRK-5521)."
    ]
    # Our own act in the conversation itself is no promise.
    assert promised(record_of(exchange("Done. I'll walk you through the label.", _MOVED))) == []


def test_a_waiting_status_stays_open_beside_a_commitment_that_runs_while_it_waits() -> None:
    waiting = {"status": "waitlisted", "request_id": "UPG-5518"}
    said = "We'll email you about UPG-5518 by 2031-05-02 while it is waitlisted."
    assert asked(record_of(exchange(said, waiting))) == ["UPG-5518: status waitlisted"]
