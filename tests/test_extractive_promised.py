"""The fuller commitments and open questions of the extractive record (issue 13, handoff
quality): what a write makes happen later said in the present tense, a condition's main clause
with a deadline, a change made to a day, a reply we promise, a wait a commitment runs beside,
and what the conversation leaves unresolved (a question no one could answer, what the last
message asks the customer to hand over)."""

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


def _then(events: list[Event], *lines: tuple[str, str]) -> list[Event]:
    more = [
        ev(f"e{len(events) + k + 1}", author, Part(text=t)) for k, (author, t) in enumerate(lines)
    ]
    return events + more


def test_a_customer_question_the_reply_could_not_answer_stays_open() -> None:
    question = "Will the refund include the shipping fee?"
    events = _then(
        exchange("Moved to Friday.", _MOVED),
        ("user", question),
        ("agent", "I can't tell from here, the billing team decides that."),
        ("user", "OK, thanks."),
    )
    (item,) = record_of(events).open_questions
    assert item.text == f"Customer asked: {question}"
    assert item.sources == ("e5", "e6")
    # A reply that answers it closes it.
    answered = _then(
        exchange("Moved to Friday.", _MOVED),
        ("user", question),
        ("agent", "Yes, the fee is part of it."),
        ("user", "OK, thanks."),
    )
    assert asked(record_of(answered)) == []


def test_an_agents_question_neither_side_could_answer_stays_open() -> None:
    events = _then(
        exchange("Moved to Friday.", _MOVED),
        ("agent", "The label names TRK-5521. Which address did you order from?"),
        ("user", "I don't remember, sorry."),
        ("agent", "No problem, I'll check with the store."),
        ("user", "Thanks."),
    )
    assert asked(record_of(events)) == [
        "Agent asked: The label names TRK-5521. Which address did you order from?"
    ]
    # An answer the customer knows closes it.
    known = _then(
        exchange("Moved to Friday.", _MOVED),
        ("agent", "The label names TRK-5521. Which address did you order from?"),
        ("user", "The one on Elm Street."),
        ("agent", "Thanks, I'll check with the store."),
        ("user", "Thanks."),
    )
    assert asked(record_of(known)) == []
    # Doubt the reply offers the customer help with is not ours ("If you're not sure, ...").
    helped = _then(
        exchange("Moved to Friday.", _MOVED),
        ("agent", "The label names TRK-5521. Which address did you order from?"),
        ("user", "I don't remember, sorry."),
        ("agent", "If you're not sure, I can read out the addresses on file."),
        ("user", "Thanks."),
    )
    assert asked(record_of(helped)) == []


def test_what_the_last_message_asks_the_customer_to_hand_over_stays_open() -> None:
    said = "Moved to Friday. Please upload your delivery photo by 2031-05-02."
    (item,) = record_of(exchange(said, _MOVED)).open_questions
    assert item.text == "Customer to upload their delivery photo by 2031-05-02."
    assert item.sources == ("e4",)
    # Once the customer has spoken after it, the request is no longer the last word.
    answered = _then(exchange(said, _MOVED), ("user", "Here it is."))
    assert asked(record_of(answered)) == []
