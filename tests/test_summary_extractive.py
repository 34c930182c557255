"""``ExtractiveSummarizer``: model-free records that pass the same validator."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentlog import Content, Event, Part
from agentlog.events import EventActions
from agentlog.summary import (
    EntityPatterns,
    ExtractiveSummarizer,
    Summarizer,
    is_state_changing,
    load_jsonl_sessions,
    render_transcript,
    validate_output,
)
from agentlog.summary.example import refund_session_events
from agentlog.summary.record._sentences import _PROMISE, goal_text, is_promise, sentences

TAU2 = Path(__file__).parent / "data" / "tau2"
"""A sample of tau2-bench sessions (every fifth of the development set; see its README)."""


def test_the_worked_example() -> None:
    events = refund_session_events()
    summarizer = ExtractiveSummarizer()
    assert isinstance(summarizer, Summarizer)
    result = summarizer.summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    assert record.goal == "My order A-1001 still hasn't arrived. What's going on?"
    assert [i.sources for i in record.facts] == [("e02", "e03")]
    # One item per thing read: what it is, its identifier and key fields, not the raw result.
    assert record.facts[0].text.startswith("Order A-1001: shipped 2026-09-28")
    (decision,) = record.decisions
    assert decision.sources == ("e05", "e06")
    # What it did to which object, then what changed: a verb phrase, not the tool's name.
    assert decision.text.startswith("Refunded shipping A-1001: amount 12.5")
    # "It will reach your card" names nothing: it keeps the identifier the sentence before
    # names; the refund made is the decision's, not a promise.
    assert [i.text for i in record.commitments] == [
        "It will reach your card within five working days (A-1001)."
    ]
    (question,) = record.open_questions
    assert (question.text, question.sources, question.provenance) == (
        "Is my other order B-2040 affected too?",
        ("e08",),
        "user_claim",
    )
    assert result.attempts == 1
    assert result.cost == 0.0
    assert result.summarizer == "extractive"
    # Deterministic.
    assert summarizer.summarize_now(events).record == record


def test_state_changing_tools() -> None:
    writes = [
        "cancel_pending_order",
        "refund_shipping",
        "modifyOrder",
        "make_payment",
        "transfer_to_human_agents",
        "toggle_airplane_mode",
        "reboot_device",
    ]
    reads = [
        "get_order_details",
        "find_user_id_by_email",
        "check_status_bar",
        "run_speed_test",
        "calculate",
        "lookup_order",
        "list_all_product_types",
    ]
    assert [n for n in writes if not is_state_changing(n)] == []
    assert [n for n in reads if is_state_changing(n)] == []


def ev(eid: str, author: str, part: Part, **fields: object) -> Event:
    role = "user" if author == "user" else "model"
    return Event(
        id=eid,
        invocation_id="i",
        author=author,
        content=Content(role=role, parts=(part,)),
        **fields,
    )  # type: ignore[arg-type]


def test_a_result_that_changed_state_is_a_decision_and_pending_calls_are_open() -> None:
    events = [
        ev("e1", "user", Part(text="Please hold my parcel.")),
        ev("e2", "desk", Part.from_function_call("parcel", {"id": "A-2001"}, "c1")),
        ev(
            "e3",
            "desk",
            Part.from_function_response("parcel", {"held": True}, "c1"),
            actions=EventActions(state_delta={"held": "A-2001"}),
        ),
        ev("e4", "desk", Part.from_function_call("notify_courier", {"id": "A-2001"}, "c2")),
        ev("e5", "desk", Part.from_function_call("lookup", {"id": "A-2001"}, "c3")),
        ev("e6", "desk", Part.from_function_response("lookup", {"error": "timeout"}, "c3")),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    assert [d.sources for d in record.decisions] == [("e2", "e3")]
    assert [f.text for f in record.facts] == ["Lookup A-2001 failed: timeout"]
    assert [q.text for q in record.open_questions] == ["Notify courier A-2001; no result yet"]


@pytest.mark.parametrize(
    "sentence",
    [
        "I'll cancel ORD-61877.",
        "The engineer will call 30 minutes before arriving.",
        "Refund RFD-11839 is processing and should reach your card by 23 February 2026.",
        "A replacement ships by 27 March 2026 at no cost.",
        "Scheduled: line (206) 555-0188 closes on 30 April 2026.",
        "Your switch to Plus 55 is scheduled for 1 July 2026.",
        "Your ticket TCK-2026-0412 stays open until the fault is fixed.",
        "Added 2 GB for $5.00, billed on your next statement.",
        "A confirmation is on its way to jordan.pike@example.com.",
        "Please keep the charger in its box; a return label follows by email.",
        "Once we receive the red jacket, we'll ship the olive one and refund $12.00.",
        "If you'd like to return the stand, you can do so until 25 March 2026.",
        "You'll also get a cancellation email.",
        "The $63.90 goes back to your original payment method.",
    ],
)
def test_promises(sentence: str) -> None:
    assert is_promise(sentence)


def test_the_promise_pattern_reads_lower_case_as_an_ignorecase_search_reads_any() -> None:
    ignorecase = re.compile(_PROMISE.pattern, re.IGNORECASE)
    said = [
        s
        for session in load_jsonl_sessions(
            Path(__file__).parent.parent / "evals" / "agentlog-eval.jsonl"
        )
        for e in session.events
        if e.content is not None
        for p in e.content.parts
        if p.text
        for s in sentences(p.text)
    ]
    assert len(said) > 400
    for sentence in said:
        for case in (sentence, sentence.upper(), sentence.swapcase()):
            found = _PROMISE.search(case.lower()) is not None
            assert found == (ignorecase.search(case) is not None), case


@pytest.mark.parametrize(
    "sentence",
    [
        "Price adjustments are available within 14 days of purchase.",
        "Both orders are within 14 days.",
        "The line test on account ACC-771204 shows 212 errors on 11 March.",
        "Would you like me to cancel it?",
        "Let me check the order.",
        "Let me know if there's anything else.",
        "If they approve a refund, it would be $96.95.",
        "Once you confirm, I'll proceed with the exchange.",
        "Please confirm the address, and I'll update the order.",
    ],
)
def test_not_promises(sentence: str) -> None:
    assert not is_promise(sentence)


def test_a_promise_that_names_nothing_keeps_the_id_the_sentence_before_names() -> None:
    events = [
        ev("e1", "user", Part(text="Where is my refund for A-1001?")),
        ev(
            "e2",
            "desk",
            Part(
                text="Case CASE-40917 is open. A specialist will review it and email you within "
                "2 business days. Sorry to hear that. I'll pass you to our returns team."
            ),
        ),
    ]
    record = ExtractiveSummarizer().summarize_now(events).record
    assert record is not None
    assert [(i.text, i.sources) for i in record.commitments] == [
        ("A specialist will review it and email you within 2 business days (CASE-40917).", ("e2",)),
        # The sentence before names nothing either: the promise stands alone.
        ("I'll pass you to our returns team.", ("e2",)),
    ]


def test_the_agents_last_question_left_unanswered_is_open() -> None:
    events = [
        ev("e1", "user", Part(text="Can you add chocolates to PS-88412?")),
        ev(
            "e2",
            "florist",
            Part(text="I can add a truffle box for £14.50. Would you like it added?"),
        ),
    ]
    record = ExtractiveSummarizer().summarize_now(events).record
    assert record is not None
    assert [(q.text, q.sources) for q in record.open_questions] == [
        (
            "florist asked: I can add a truffle box for £14.50. Would you like it added?",
            ("e2",),
        )
    ]
    # Answered, it is no longer open.
    answered = [*events, ev("e3", "user", Part(text="No thanks."))]
    record = ExtractiveSummarizer().summarize_now(answered).record
    assert record is not None
    assert record.open_questions == ()


def test_entities_left_out_of_items_are_attached_to_their_event() -> None:
    events = [
        ev(
            "e1",
            "user",
            Part(text="Hi. My order A-1001 arrived broken. I paid $84.00 on 2026-09-20."),
        ),
        ev("e2", "desk", Part(text="Sorry to hear that. Let me check.")),
    ]
    result = ExtractiveSummarizer(max_item_chars=20).summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    claims = [i for i in record.facts if i.sources == ("e1",)]
    assert claims
    assert all(i.provenance == "user_claim" for i in claims)
    assert "I paid $84.00 on 2026-09-20." in claims[0].text


@pytest.mark.parametrize(
    ("name", "patterns"),
    [("retail", EntityPatterns.retail()), ("telecom", EntityPatterns.telecom())],
)
def test_every_development_session_passes_the_validator(
    name: str, patterns: EntityPatterns
) -> None:
    sessions = load_jsonl_sessions(TAU2 / f"{name}.jsonl")
    assert len(sessions) == 8
    summarizer = ExtractiveSummarizer(patterns=patterns)
    failed = []
    for session in sessions:
        result = summarizer.summarize_now(session)
        if not result.ok:
            failed.append((session.session_id, result.last_problems))
            continue
        assert result.session_id == session.session_id
        # Independently of the summariser: the same validator, from the outside.
        transcript = render_transcript(session.events)
        record = result.record
        assert record is not None
        _, problems = validate_output(
            record, events=session.events, transcript=transcript, patterns=patterns
        )
        assert problems == []
        assert all(i.provenance is not None for _, i in record.items())
    assert failed == []
    assert summarizer.metrics.first_attempt_pass_rate == 1.0
    assert summarizer.metrics.mean_entity_recall == 1.0


# --- agentlog's machinery as sentences, lookups as facts (issue 13) -----------------------------


def _event(eid: str, author: str, *parts: Part, **fields: object) -> Event:
    role = "user" if author == "user" or any(p.function_response for p in parts) else "model"
    return Event(
        id=eid,
        invocation_id="inv-1",
        author=author,
        timestamp=float(int(eid[1:])),
        content=Content(role=role, parts=parts),
        **fields,  # type: ignore[arg-type]
    )


def _desk_session(confirmed: bool) -> list[Event]:
    call = Part.from_function_call
    result = Part.from_function_response
    order = {"order_id": "A-1001", "status": "shipped", "shipping_fee": 12.5}
    answer = {"confirmed": confirmed, "payload": None}
    refund = (
        {"order_id": "A-1001", "amount": 12.5, "status": "refunded", "refund_id": "R-7781"}
        if confirmed
        else {"error": "The user declined this action.", "declined": True}
    )
    hint = 'Allow refund_shipping with {"order_id": "A-1001", "amount": 12.5}?'
    return [
        _event("e01", "user", Part(text="Order A-1001 is late. Refund the shipping fee?")),
        _event("e02", "desk", call("lookup_order", {"order_id": "A-1001"}, "c1")),
        _event(
            "e03",
            "desk",
            result("lookup_order", order, "c1"),
            actions=EventActions(state_delta={"order": order}),  # a tool caching what it read
        ),
        _event("e04", "desk", call("lookup_order", {"order_id": "A-1001"}, "c2")),
        _event("e05", "desk", result("lookup_order", order, "c2")),
        _event("e06", "desk", call("transfer_to_agent", {"agent_name": "refunds"}, "c3")),
        _event(
            "e07",
            "desk",
            result("transfer_to_agent", {"transferred_to": "refunds"}, "c3"),
            actions=EventActions(transfer_to_agent="refunds"),
        ),
        _event(
            "e08", "refunds", call("refund_shipping", {"order_id": "A-1001", "amount": 12.5}, "c4")
        ),
        _event(
            "e09",
            "refunds",
            call(
                "agentlog_request_confirmation",
                {"function_call_id": "c4", "hint": hint, "payload": None},
                "c5",
            ),
        ),
        _event("e10", "user", result("agentlog_request_confirmation", answer, "c5")),
        _event("e11", "refunds", result("refund_shipping", refund, "c4")),
    ]


@pytest.mark.parametrize("confirmed", [True, False])
def test_machinery_reads_as_sentences_and_a_lookup_is_one_fact(confirmed: bool) -> None:
    events = _desk_session(confirmed)
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    every = " ".join(i.text for _, i in record.items())
    for raw in ("agentlog_request_confirmation", "transfer_to_agent", "confirmed True"):
        assert raw not in every
    verb = "approved" if confirmed else "declined"
    decisions = {i.text: i.sources for i in record.decisions}
    approval = f"An operator {verb} refund shipping A-1001: amount 12.5"
    assert decisions[approval] == ("e08", "e09", "e10")  # the call, the request, the answer
    assert decisions["Handed to refunds"] == ("e06", "e07")
    # The same order read twice is one fact citing both reads, though its tool cached state.
    lookups = [i for i in record.facts if i.text.startswith("Order A-1001")]
    assert [i.sources for i in lookups] == [("e02", "e03", "e04", "e05")]
    assert not any(i.text.startswith("lookup_order") for i in record.decisions)
    refunded = [i for i in record.decisions if i.text.startswith("Refunded shipping")]
    assert [i.sources for i in refunded] == ([("e08", "e11")] if confirmed else [])


def test_the_goal_is_the_request_without_its_greeting() -> None:
    said = "Hi there! I'm Ana Lima, user id ana_lima_4410. I need to move Q7ZK2M. Thanks a lot."
    assert goal_text(said, 200) == "I'm Ana Lima, user id ana_lima_4410. I need to move Q7ZK2M."
    assert goal_text("hello, can you cancel order A-1001? It is late.", 200) == (
        "Can you cancel order A-1001?"
    )


def test_a_read_object_is_one_item_and_a_write_says_what_it_did() -> None:
    booking = {"booking_code": "Q7ZK2M", "status": "confirmed", "paid": 142.0, "meal": "veg"}
    events = [
        ev("e1", "user", Part(text="Please cancel booking Q7ZK2M.")),
        ev("e2", "agent", Part.from_function_call("get_booking", {"code": "Q7ZK2M"}, "c1")),
        ev("e3", "get_booking", Part.from_function_response("get_booking", booking, "c1")),
        ev("e4", "agent", Part.from_function_call("get_booking", {"code": "Q7ZK2M"}, "c2")),
        ev("e5", "get_booking", Part.from_function_response("get_booking", booking, "c2")),
        ev("e6", "agent", Part.from_function_call("cancel_booking", {"code": "Q7ZK2M"}, "c3")),
        ev(
            "e7",
            "cancel_booking",
            Part.from_function_response("cancel_booking", {"status": "cancelled"}, "c3"),
        ),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    # Read twice, one fact citing both reads; the meal is not a key field, and the status
    # read before the cancellation is no longer true.
    assert [(i.text, i.sources) for i in record.facts] == [
        ("Booking Q7ZK2M: paid 142.0", ("e2", "e3", "e4", "e5"))
    ]
    # The status the verb says already is not repeated.
    assert [(i.text, i.sources) for i in record.decisions] == [
        ("Cancelled booking Q7ZK2M", ("e6", "e7"))
    ]


def test_a_sentence_introducing_a_list_is_not_a_promise() -> None:
    assert not is_promise("Here\u2019s what I\u2019ll do for you:")
    assert is_promise("I'll cancel ORD-61877.")
