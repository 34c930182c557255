"""Commitments and awaited outcomes in the extractive record (issue 13, the reader who cannot
ask): clauses by grammar, the id each concerns, finished actions left to decisions."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import Content, Event, Part
from agentlog.summary import ExtractiveSummarizer, SummaryRecord
from agentlog.summary.summarisers._pending import Clause, clauses, commits, pending_status


def ev(eid: str, author: str, part: Part) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    # A clock of 1970, as the evaluation sets have: no deadline here is past by the wall clock.
    return Event(
        id=eid,
        invocation_id="i",
        author=author,
        timestamp=1.0,
        content=Content(role=role, parts=(part,)),
    )


def call(eid: str, name: str, args: dict[str, Any], cid: str) -> Event:
    return ev(eid, "agent", Part.from_function_call(name, args, cid))


def answer(eid: str, name: str, response: Any, cid: str) -> Event:
    return ev(eid, name, Part.from_function_response(name, response, cid))


def record_of(events: list[Event]) -> SummaryRecord:
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None, result.problems
    return result.record


def said(text: str) -> Clause:
    return clauses(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "HR will reply within 5 working days.",
        "That'll be taken from your deposit when the checkout inspection is done.",
        "I've put your balance on hold until 2026-07-06 while the insurer processes it.",
        "The courier will call 30 minutes before arriving on 21 May.",
    ],
)
def test_a_future_with_its_time_commits(text: str) -> None:
    assert commits(said(text), acted=True)


@pytest.mark.parametrize(
    "text",
    [
        "I've filed waiver request WVR-2026-0088 on accessibility grounds.",
        "Rebooked on XQ 9033 on May 21, 2026.",
        "Duplicate disputes usually close within 10 working days.",
        "The change would take effect on 1 July 2026.",
        "This will reset your phone's connection to the network.",
        "Both orders are within 14 days.",
        "The merchant has until 9 July to respond.",
    ],
)
def test_a_finished_act_a_habit_a_mood_or_a_state_does_not(text: str) -> None:
    assert not commits(said(text), acted=True)


def test_a_status_that_waits_is_pending() -> None:
    assert all(map(pending_status, ["pending_manager", "under_review", "queued", "requested"]))
    assert not any(map(pending_status, ["open", "approved", "paid", "cancelled"]))


def test_the_promise_is_its_clause_with_the_id_its_message_names() -> None:
    text = (
        "Dispute DSP-2026-004502 is open and £184.60 is back in your account today. "
        "Duplicate disputes usually close within 10 working days; we'll text you when it's final."
    )
    events = [
        ev("e1", "user", Part(text="I was charged twice.")),
        call("e2", "open_dispute", {"transaction_ref": "TX7H2W91C"}, "c1"),
        answer("e3", "open_dispute", {"dispute_id": "DSP-2026-004502", "status": "open"}, "c1"),
        ev("e4", "agent", Part(text=text)),
    ]
    (promise,) = record_of(events).commitments
    assert promise.text == "We'll text you when it's final (DSP-2026-004502)."
    assert promise.sources == ("e4",)


def test_a_promise_naming_nothing_concerns_what_the_write_before_it_acted_on() -> None:
    events = [
        ev("e1", "user", Part(text="Please note the invoice for payment INC-2026-3381-HK.")),
        call("e2", "add_compliance_note", {"payment_id": "INC-2026-3381-HK", "note": "x"}, "c1"),
        answer("e3", "add_compliance_note", {"status": "noted"}, "c1"),
        ev("e4", "agent", Part(text="Noted. Compliance will review it within 2 business days.")),
    ]
    (promise,) = record_of(events).commitments
    assert promise.text == "Compliance will review it within 2 business days (INC-2026-3381-HK)."
    assert promise.sources == ("e4", "e2", "e3")  # the id is the write's: it is cited


def test_someone_elses_deadline_and_a_waiting_status_are_open_questions() -> None:
    events = [
        ev("e1", "user", Part(text="Can the shipper pay the VAT on HBL-ZRH-03?")),
        call("e2", "request_shipper_acceptance", {"house_bill": "HBL-ZRH-03"}, "c1"),
        answer(
            "e3",
            "request_shipper_acceptance",
            {"request_id": "DBC-7741", "status": "awaiting_shipper"},
            "c1",
        ),
        ev(
            "e4",
            "agent",
            Part(
                text="I've sent request DBC-7741 to the shipper. "
                "They have until 2026-05-25 to accept."
            ),
        ),
    ]
    record = record_of(events)
    assert record.commitments == ()  # the request sent is the decision's
    assert [q.text for q in record.open_questions] == [
        "DBC-7741: status awaiting_shipper",
        "They have until 2026-05-25 to accept (DBC-7741).",
    ]


def test_an_awaited_outcome_a_commitment_says_goes_and_a_field_told_again_is_said_once() -> None:
    events = [
        ev("e1", "user", Part(text="I want someone senior to review claim DMG-2291.")),
        call("e2", "escalate_claim", {"claim_id": "DMG-2291"}, "c1"),
        answer(
            "e3",
            "escalate_claim",
            {"escalation_id": "ESC-30218", "status": "queued", "decision_by": "May 26, 2026"},
            "c1",
        ),
        ev(
            "e4",
            "agent",
            Part(text="Reference ESC-30218: you'll have a decision by May 26, 2026, by email."),
        ),
    ]
    record = record_of(events)
    assert [c.text for c in record.commitments] == [
        "You'll have a decision by May 26, 2026, by email (ESC-30218)."
    ]
    assert record.open_questions == ()  # "ESC-30218: decision by May 26, 2026" says no more
    (decision,) = record.decisions
    assert "May 26" not in decision.text


def test_a_waiting_status_names_what_waits_though_no_key_says_it_identifies() -> None:
    events = [
        ev("e1", "user", Part(text="Please waive the fee on BP/2026/00502.")),
        call("e2", "request_fee_waiver", {"application": "BP/2026/00502"}, "c1"),
        answer(
            "e3",
            "request_fee_waiver",
            {"waiver_request": "WVR-2026-0088", "status": "under_review"},
            "c1",
        ),
        ev("e4", "agent", Part(text="Filed as WVR-2026-0088.")),
    ]
    (question,) = record_of(events).open_questions
    assert question.text == "WVR-2026-0088: status under_review"


def test_a_deadline_a_result_says_on_the_same_day_is_said_once() -> None:
    events = [
        ev("e1", "user", Part(text="The sofa never came; dispute TX9F3K22Q please.")),
        call("e2", "open_dispute", {"transaction_ref": "TX9F3K22Q"}, "c1"),
        answer(
            "e3",
            "open_dispute",
            {"dispute_id": "DSP-2026-004417", "merchant_response_due": "2026-07-09"},
            "c1",
        ),
        ev("e4", "agent", Part(text="The merchant has until 9 July to respond.")),
    ]
    (question,) = record_of(events).open_questions
    assert question.text == "DSP-2026-004417: merchant response due 2026-07-09"
    assert question.sources == ("e2", "e3")


def test_a_colon_inside_brackets_ends_no_clause() -> None:
    sentence = (
        "The Wireless Earbud (item ID: 2757705742) will be exchanged for the blue one"
        " (item ID: 1646531091) from order #W3470184."
    )
    assert [c.text for c in clauses(sentence)] == [sentence]
    assert [c.text for c in clauses("Booked: seat 14C (row: 14); you'll get an email.")] == [
        "Booked",
        "seat 14C (row: 14)",
        "you'll get an email.",
    ]


def test_a_state_a_later_promise_repeats_stays_in_its_fact() -> None:
    events = [
        ev("e1", "user", Part(text="Where is the refund for order #W3220203?")),
        call("e2", "get_order_details", {"order_id": "#W3220203"}, "c1"),
        answer("e3", "get_order_details", {"order_id": "#W3220203", "status": "processed"}, "c1"),
        ev("e4", "agent", Part(text="The refund will be processed to your card in 5 days.")),
    ]
    record = record_of(events)
    assert any("processed" in f.text and "#W3220203" in f.text for f in record.facts)


def test_a_thing_read_again_while_it_waits_is_one_open_question() -> None:
    events = [
        ev("e1", "user", Part(text="Is my leave request LR-2026-0931 approved yet?")),
        call("e2", "get_leave_request", {"request_id": "LR-2026-0931"}, "c1"),
        answer(
            "e3", "get_leave_request", {"request_id": "LR-2026-0931", "status": "pending"}, "c1"
        ),
        call("e4", "get_leave_request", {"request_id": "LR-2026-0931"}, "c2"),
        answer(
            "e5", "get_leave_request", {"request_id": "LR-2026-0931", "status": "pending"}, "c2"
        ),
    ]
    questions = [q for q in record_of(events).open_questions if "status pending" in q.text]
    assert len(questions) == 1
    assert {"e3", "e5"} <= set(questions[0].sources)


def test_a_thing_read_again_no_longer_waiting_leaves_no_open_question() -> None:
    request = {"request_id": "LR-2026-0931"}
    events = [
        ev("e1", "user", Part(text="Is my leave request LR-2026-0931 approved yet?")),
        call("e2", "get_leave_request", request, "c1"),
        answer("e3", "get_leave_request", {**request, "status": "pending_manager"}, "c1"),
        call("e4", "get_leave_request", request, "c2"),
        answer("e5", "get_leave_request", {**request, "status": "approved"}, "c2"),
    ]
    record = record_of(events)
    assert not [q for q in record.open_questions if "pending" in q.text]
    # Still waiting when last read: the question stays.
    events[4] = answer("e5", "get_leave_request", {**request, "status": "pending_hr"}, "c2")
    assert [q for q in record_of(events).open_questions if "pending_hr" in q.text]


def test_a_write_or_another_tool_does_not_end_the_wait() -> None:
    pa = {"pa_number": "PA-2026-0047781"}
    events = [
        ev("e1", "user", Part(text="Is prior auth PA-2026-0047781 approved?")),
        call("e2", "get_prior_auth", pa, "c1"),
        answer("e3", "get_prior_auth", {**pa, "status": "pending_information"}, "c1"),
        call("e4", "attach_pa_documents", {**pa, "documents": ["chart_notes"]}, "c2"),
        answer("e5", "attach_pa_documents", {**pa, "status": "sent_to_insurer"}, "c2"),
    ]
    assert [q for q in record_of(events).open_questions if "pending_information" in q.text]
