"""Which tool calls are writes on a domain no verb list names, and what a write's decision is
about (issue 13, the follow-ups of item 5)."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import Content, Event, Part
from agentlog.summary import ExtractiveSummarizer, is_state_changing

T0 = 1_760_000_000.0

WRITES: list[tuple[str, dict[str, Any], Any]] = [
    # re + a writing verb
    ("reissue_payment", {"payment_ref": "PAY-7F3A"}, {"new_payment_ref": "PAY-9B20"}),
    ("rebook_flight", {"booking_code": "Q7ZK2M"}, {"ok": True}),
    ("unlink_card", {"card_id": "card_1"}, {"ok": True}),
    # the result says the tool's verb was done
    ("accept_settlement", {"claim_id": "C-1", "offer_id": "off_3"}, {"status": "accepted"}),
    ("withdraw_claim", {"claim_id": "C-1"}, {"claim_id": "C-1", "status": "withdrawn"}),
    ("void_transaction", {"transaction_id": "t_1"}, {"transaction_id": "t_1", "state": "voided"}),
    ("pause_subscription", {"subscription_id": "S-1"}, {"status": "paused until 1 July"}),
    ("ship_order", {"order_id": "O-1"}, {"order_id": "O-1", "status": "shipped"}),
    ("release_hold", {"account_id": "A-1"}, {"released": True}),
    ("lodge_appeal", {"case_id": "K-9"}, "Appeal lodged with the board; decision within 10 days."),
    # a change flag
    ("sync_profile", {"email": "ana@example.org"}, {"changed": True}),
    # a prose result saying a change
    ("dispatch_recovery", {"policy": "POL-1"}, "Job RSA-88213 accepted by Kennet Recovery Ltd."),
    # an identifier the result made, its key naming the tool
    ("extend_warranty", {"order_id": "O-1", "months": 12}, {"warranty_id": "W-9"}),
    ("checkout", {"cart": "cart_4"}, {"id": "ord_77"}),
    # a verb before an object an argument names
    ("waive_fee", {"account_id": "A-1", "fee_id": "fee_2"}, {"ok": True}),
    # a writing verb anywhere
    ("escalate", {"ticket_id": "T-1"}, {"ticket_id": "T-1", "queue": "tier2"}),
    ("order_cancel", {"order_id": "O-1"}, {"ok": True}),
    # a status saying a change
    ("chargeback_transaction", {"txn_ref": "TX-1"}, {"status": "provisional_credit_issued"}),
    ("invoice_fee", {"booking_ref": "BKG-1", "amount": 350.0}, {"invoice_no": "INV-2026-3301"}),
]

READS: list[tuple[str, dict[str, Any], Any]] = [
    # a read verb first
    ("get_order", {"order_id": "O-1"}, {"order_id": "O-1", "status": "cancelled"}),
    ("track_package", {"package_id": "P-1"}, {"status": "delivered", "hub_id": "H-4"}),
    ("trace_bag", {"bag_tag": "BAG-1"}, {"status": "located", "next_flight_number": "XY881"}),
    ("diagnose_device", {"device_id": "D-1"}, {"fault": "antenna"}),
    # a noun first, nothing else
    ("order_status", {"order_id": "O-1"}, {"order_id": "O-1", "status": "shipped"}),
    ("account_balance", {"account_id": "A-1"}, {"account_id": "A-1", "balance": 12.5}),
    ("account_balance", {"user_id": "u_1"}, {"balance": 12.5, "currency": "EUR"}),
    ("claim_history", {"claim_id": "C-1"}, {"claim_id": "C-1", "events": [{"id": "ev_1"}]}),
    ("user_profile", {"user_id": "u_1"}, {"user_id": "u_1", "name": "Ana"}),
    (
        "flight_availability",
        {"origin": "LIS", "destination": "OPO"},
        {"flights": [{"flight_number": "XY1", "status": "scheduled"}]},
    ),
    ("weather_forecast", {"city": "Porto"}, "Sunny, 21C expected in the afternoon."),
    # a last word that reads or names what is read
    ("subscription_details", {"workspace": "acme"}, {"subscription_id": "sub_1N", "seats": 10}),
    ("user_lookup", {"email": "ana@example.org"}, {"user_id": "u_1"}),
]


@pytest.mark.parametrize(("name", "args", "result"), WRITES)
def test_a_tool_that_may_have_changed_something_is_a_write(
    name: str, args: dict[str, Any], result: Any
) -> None:
    assert is_state_changing(name, args, result)


@pytest.mark.parametrize(("name", "args", "result"), READS)
def test_a_read_is_not_taken_for_a_write(name: str, args: dict[str, Any], result: Any) -> None:
    assert not is_state_changing(name, args, result)


@pytest.mark.parametrize(("name", "args", "result"), WRITES + READS)
def test_without_the_arguments_the_rule_finds_no_write_it_would_not_find_with_them(
    name: str, args: dict[str, Any], result: Any
) -> None:
    # The validator's expected entities judge a result without its call: what it takes for a
    # write the summariser does too, so a record never lacks what the validator requires.
    if is_state_changing(name, result=result):
        assert is_state_changing(name, args, result)


def test_a_state_delta_makes_a_write_unless_the_name_reads() -> None:
    assert is_state_changing("parcel", {}, {"held": True}, delta=True)
    assert not is_state_changing("get_parcel", {}, {"held": True}, delta=True)


def ev(n: int, author: str, part: Part) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    return Event(
        id=f"e{n}",
        invocation_id="i",
        author=author,
        timestamp=T0 + n,
        content=Content(role=role, parts=(part,)),
    )


def session(*calls: tuple[str, dict[str, Any], Any]) -> list[Event]:
    events = [ev(1, "user", Part(text="Hello, I need help with my account."))]
    for i, (name, args, result) in enumerate(calls):
        events.append(ev(2 * i + 2, "agent", Part.from_function_call(name, args, f"c{i}")))
        events.append(ev(2 * i + 3, name, Part.from_function_response(name, result, f"c{i}")))
    return events


def test_a_write_no_verb_list_names_is_a_decision_citing_its_call_and_result() -> None:
    events = session(
        ("order_status", {"order_id": "O-1001"}, {"order_id": "O-1001", "status": "on_hold"}),
        ("withdraw_claim", {"claim_id": "C-2210"}, {"claim_id": "C-2210", "status": "withdrawn"}),
        ("void_transaction", {"transaction_id": "t_1"}, {"state": "voided"}),
    )
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    assert [(d.text, d.sources) for d in record.decisions] == [
        ("Withdrew claim C-2210", ("e4", "e5")),  # its status says what the verb does
        ("Voided transaction t_1", ("e6", "e7")),
    ]
    assert [f.text for f in record.facts] == ["Order O-1001: on_hold"]


def test_a_write_is_about_what_it_created_else_the_argument_naming_its_noun() -> None:
    events = session(
        (
            "book_flight",
            {"user_id": "ana_lima_4410", "flight_number": "XY500"},
            {"booking_code": "N8VJ3C", "status": "confirmed"},
        ),
        (
            "refund_booking",
            {"user_id": "ana_lima_4410", "booking_code": "RR9M2D"},
            {"refund_id": "RF-220931", "amount": 80.0},
        ),
        (
            "assign_handler",
            {"claim_id": "C-5518", "handler_id": "hnd_0457"},
            {"assigned": True},
        ),
        ("open_ticket", {"user": "jdoe", "summary": "VPN down"}, {"ticket": "INC0049921"}),
    )
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    heads = [d.text.split(":", 1)[0] for d in record.decisions]
    # The booking the call made, not the user it was made for; the booking refunded, not the
    # refund it made; the handler assigned, not the claim; the ticket opened, under its noun.
    assert heads == [
        "Booked flight N8VJ3C",
        "Refunded booking RR9M2D",
        "Assigned handler hnd_0457",
        "Opened ticket INC0049921",
    ]
    # The made identifier is said once, in the head; the other arguments are still there.
    assert record.decisions[0].text.count("N8VJ3C") == 1
    assert "ana_lima_4410" in record.decisions[0].text
    assert "C-5518" in record.decisions[2].text


def test_an_identifier_the_call_passed_is_not_one_its_result_made() -> None:
    # The same order, written with a "#" by the result, or under the key the call passed it by.
    events = session(
        ("modify_order", {"order_id": "W6750959", "zip": "10093"}, {"order_id": "#W6750959"}),
        ("modify_order", {"order_id": "#W5061109"}, {"order_id": "#W9583042", "items": 2}),
    )
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    heads = [d.text.split(":", 1)[0] for d in record.decisions]
    assert heads == ["Modified order W6750959", "Modified order #W5061109"]
