"""Short extractive records (issue 13 item 5): what each kind of item shows, and what it leaves
to the result it cites."""

from __future__ import annotations

from typing import Any

from agentlog import Content, Event, Part
from agentlog.summary import ExtractiveSummarizer, SummaryRecord
from agentlog.summary.record._extract import action_of, args_text, fields_text, shown_amount
from agentlog.summary.record._sentences import goal_text, is_promise, part_holding, promise_part


def ev(eid: str, author: str, part: Part) -> Event:
    role = "user" if author == "user" else "model"
    return Event(
        id=eid, invocation_id="i", author=author, content=Content(role=role, parts=(part,))
    )


def call(eid: str, name: str, args: dict[str, Any], cid: str) -> Event:
    return ev(eid, "agent", Part.from_function_call(name, args, cid))


def answer(eid: str, name: str, response: dict[str, Any], cid: str) -> Event:
    return ev(eid, name, Part.from_function_response(name, response, cid))


def record_of(events: list[Event]) -> SummaryRecord:
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.ok, result.problems
    assert result.record is not None
    return result.record


def test_a_fact_shows_the_id_what_the_record_keeps_and_one_status() -> None:
    user = {
        "user_id": "ana_lima_4410",
        "status": "active",
        "tier": "gold",
        "name": "Ana Lima",
        "email": "ana@example.org",
        "payment_id": "card_7731904",
    }
    events = [
        ev("e1", "user", Part(text="I'm ana_lima_4410; please check my card card_7731904.")),
        call("e2", "get_user", {"user_id": "ana_lima_4410"}, "c1"),
        answer("e3", "get_user", user, "c1"),
    ]
    (fact,) = record_of(events).facts
    # The name, e-mail and tier are the cited result's to show, not the record's.
    assert fact.text == "User ana_lima_4410: active, card_7731904"
    assert fact.sources == ("e2", "e3")


def test_a_search_reads_its_argument_values_and_the_results_named() -> None:
    options = {
        "options": [
            {"flight_number": "XY127", "departs": "13:40", "price": 26.0},
            {"flight_number": "XY131", "departs": "19:05", "price": 9.0},
        ]
    }
    events = [
        ev("e1", "user", Part(text="Move me to a later flight, please.")),
        call("e2", "search_flights", {"from": "LIS", "to": "OPO", "date": "2026-05-14"}, "c1"),
        answer("e3", "search_flights", options, "c1"),
        ev("e4", "agent", Part(text="XY131 leaves at 19:05.")),
    ]
    (fact,) = record_of(events).facts
    assert fact.text == "Searched flights LIS→OPO 2026-05-14: 2 results; XY131"


def test_a_write_is_a_verb_phrase_and_its_float_amount_reads_in_cents() -> None:
    charged = {"status": "changed", "charged": 13.750000000000028, "seat": "22A"}
    args = {"booking_code": "Q7ZK2M", "new_flight_number": "XY131"}
    events = [
        ev("e1", "user", Part(text="Please move booking Q7ZK2M to XY131.")),
        call("e2", "change_flight", args, "c1"),
        answer("e3", "change_flight", charged, "c1"),
    ]
    record = record_of(events)  # the validator finds the transcript's amount in "13.75"
    (decision,) = record.decisions
    assert decision.text == "Changed flight Q7ZK2M: new flight XY131, seat 22A, charged 13.75"
    assert decision.sources == ("e2", "e3")


def test_a_transfer_without_its_action_reads_as_a_handover() -> None:
    events = [
        ev("e1", "user", Part(text="I want to bring my dog.")),
        call("e2", "transfer_to_agent", {"agent_name": "special_services"}, "c1"),
        answer("e3", "transfer_to_agent", {"result": "ok"}, "c1"),
    ]
    (decision,) = record_of(events).decisions
    assert (decision.text, decision.sources) == ("Handed to special_services", ("e2", "e3"))


def test_a_status_every_tool_repeats_is_one_fact_of_its_last_value() -> None:
    events = [
        ev("e1", "user", Part(text="My mobile data does not work.")),
        call("e2", "check_status_bar", {}, "c1"),
        answer("e3", "check_status_bar", {"result": "Status Bar: Airplane Mode | 80%"}, "c1"),
        call("e4", "toggle_airplane_mode", {}, "c2"),
        answer(
            "e5",
            "toggle_airplane_mode",
            {"result": "Airplane Mode is now OFF. Status Bar: 4G | Data Enabled | 80%"},
            "c2",
        ),
    ]
    record = record_of(events)
    assert [(d.text, d.sources) for d in record.decisions] == [
        ("Toggled airplane mode: OFF", ("e4", "e5"))
    ]
    assert [(f.text, f.sources) for f in record.facts] == [
        ("Status Bar, last shown: 4G | Data Enabled | 80%", ("e4", "e5"))
    ]


def test_the_goal_is_one_request_cut_at_a_word() -> None:
    said = "Hi! My order A-1001 still hasn't arrived. What's going on? Also my card expired."
    assert goal_text(said, 100) == "My order A-1001 still hasn't arrived. What's going on?"
    long = "I need to " + "really " * 30 + "cancel order A-1001."
    cut = goal_text(long, 100)
    assert len(cut) <= 100
    assert cut.endswith(" …")
    assert cut.startswith("I need to really")


def test_the_helpers_read_as_words() -> None:
    assert action_of("get_order_details") == "Looked up order details"
    assert action_of("modify_pending_order_address") == "Modified pending order address"
    assert action_of("apply_voucher") == "Applied voucher"
    assert args_text([("origin", "LIS"), ("destination", "OPO"), ("pax", "2")]) == "LIS→OPO 2"
    assert shown_amount("total 1319.4300000000001 and 2.675") == "total 1319.43 and 2.675"


def test_a_promise_to_act_now_that_a_later_action_kept_is_its_decision() -> None:
    events = [
        ev("e1", "user", Part(text="I was charged twice for PMT-7704.")),
        ev("e2", "agent", Part(text="I'll refund the second one. I'll email you by Friday.")),
        call("e3", "refund_payment", {"payment_id": "PMT-7704"}, "c1"),
        answer("e4", "refund_payment", {"refund_id": "RFD-118"}, "c1"),
        ev("e5", "agent", Part(text="I'll refund it again if the bank bounces it.")),
    ]
    record = record_of(events)
    assert [d.text for d in record.decisions] == ["Refunded payment PMT-7704: refund RFD-118"]
    # Emailing is still to come, and so is a refund promised after the one made.
    assert [c.text for c in record.commitments] == [
        "I'll email you by Friday.",
        # What "it" is: the payment the refund acted on, citing that write.
        "I'll refund it again if the bank bounces it (PMT-7704).",
    ]


def test_a_request_that_refers_back_reads_with_the_sentence_before_it() -> None:
    said = "My mobile data fails. It keeps stopping every few minutes and I need it fast again."
    assert goal_text(said, 100) == said


def test_a_promise_said_again_later_is_kept_once_the_later_one() -> None:
    events = [
        ev("e1", "user", Part(text="Please return the bicycle from order #W3916020.")),
        ev(
            "e2",
            "agent",
            Part(
                text="I have located your account. The refund will reach your card "
                "ending in 8484. Reply yes to confirm, and I'll process this immediately."
            ),
        ),
        call("e3", "return_order_items", {"order_id": "#W3916020"}, "c1"),
        answer("e4", "return_order_items", {"status": "return requested"}, "c1"),
        ev(
            "e5",
            "agent",
            Part(text="Done: the refund will reach your card ending in 8484 within 5 days."),
        ),
    ]
    record = record_of(events)
    # A lookup reported, a promise to act that the return kept, and the earlier wording of
    # the refund promise are not commitments; the later wording, which says when, is.
    assert [(c.text, c.sources) for c in record.commitments] == [
        (
            "The refund will reach your card ending in 8484 within 5 days (#W3916020).",
            ("e5", "e3", "e4"),  # the order it concerns is the return's, cited with it
        )
    ]


def test_a_promise_keeps_its_promising_clauses_and_the_deadline() -> None:
    assert promise_part("I'm sorry about the delay; it is on its way to you.") == (
        "It is on its way to you."
    )
    said = "Refund RF-1 goes back to your Visa; banks post it within 5 to 7 business days."
    assert promise_part(said) == said
    assert promise_part("Great news: you'll get a label.") == "You'll get a label."
    assert promise_part("Booked: you'll get a text.") == "Booked: you'll get a text."


def test_a_field_reads_without_what_its_value_shows() -> None:
    fields = [
        ("status", "shipped"),
        ("shipped_on", "2026-09-28"),
        ("contract_end_date", "2026-12-31"),
        ("voucher_id", "voucher_61877"),
        ("order_status", "pending"),
        ("total", "84.0"),
    ]
    assert fields_text(fields) == (
        "shipped 2026-09-28, contract end 2026-12-31, voucher_61877, pending, total 84.0"
    )


def test_a_prose_result_that_names_what_it_read_stands_alone() -> None:
    events = [
        ev("e1", "user", Part(text="My data is slow.")),
        call("e2", "check_data_saver", {}, "c1"),
        answer("e3", "check_data_saver", {"result": "Data Saver is turned ON."}, "c1"),
        call("e4", "check_sim_status", {}, "c2"),
        answer("e5", "check_sim_status", {"result": "Everything looks fine here."}, "c2"),
    ]
    assert [f.text for f in record_of(events).facts] == [
        "Data Saver is turned ON.",
        "Checked sim status: Everything looks fine here.",
    ]


def test_an_address_reads_as_one_field() -> None:
    fields = [
        ("order_id", "#W2840175"),
        ("address1", "44 Larch Court"),
        ("address2", "Apt 3B"),
        ("city", "Duluth"),
        ("zip", "55802"),
        ("payment_method_id", "credit_card_2290413"),
    ]
    assert fields_text(fields) == (
        "order #W2840175, address 44 Larch Court, Apt 3B, Duluth, 55802, credit_card_2290413"
    )


def test_an_offer_of_help_is_no_commitment() -> None:
    assert not is_promise("To fix your data, I\u2019ll guide you through a few quick checks.")
    assert not is_promise("I'll help you troubleshoot the issue.")
    assert is_promise("I'll help you with that and email you the label.")
    assert is_promise("I'll help you by Friday.")


def test_an_entity_kept_from_prose_keeps_only_the_part_that_holds_it() -> None:
    said = "XY127 costs $26.00 more; XY131 costs $9.00 more."
    assert part_holding(said, ["26.00"]) == "XY127 costs $26.00 more"
    assert part_holding(said, ["26.00", "9.00"]) == said
    assert part_holding("Found it: order #W9. Fine.", ["#W9"]) == "Found it: order #W9. Fine."


def test_a_lookup_that_found_a_thing_is_folded_into_its_fact() -> None:
    user = {"user_id": "ana_lima_4410", "email": "ana@example.org", "payment_id": "card_7731904"}
    events = [
        ev("e1", "user", Part(text="I'm ana@example.org; my card card_7731904 was charged.")),
        call("e2", "find_user_id_by_email", {"email": "ana@example.org"}, "c1"),
        answer("e3", "find_user_id_by_email", {"result": "ana_lima_4410"}, "c1"),
        call("e4", "get_user", {"user_id": "ana_lima_4410"}, "c2"),
        answer("e5", "get_user", user, "c2"),
    ]
    (fact,) = record_of(events).facts
    assert fact.text == "User ana_lima_4410 (ana@example.org): card_7731904"
    assert fact.sources == ("e2", "e3", "e4", "e5")


def test_a_handover_promised_then_made_is_no_commitment() -> None:
    events = [
        ev("e1", "user", Part(text="Do I get a credit for the outage on ACC-4421?")),
        ev("e2", "agent", Part(text="Credits are handled by billing, so I'll transfer you.")),
        call("e3", "transfer_to_agent", {"agent_name": "billing_agent"}, "c1"),
        answer("e4", "transfer_to_agent", {"result": "ok"}, "c1"),
    ]
    record = record_of(events)
    assert record.commitments == ()
    assert [d.text for d in record.decisions] == ["Handed to billing_agent"]


def test_a_promise_of_no_content_words_is_not_taken_for_a_repeat() -> None:
    events = [
        ev("e1", "user", Part(text="Is refund R-778 going through?")),
        ev("e2", "agent", Part(text="Refund R-778 is approved. It will be done.")),
    ]
    # The finished part ("is approved") is no promise; the promise keeps what it concerns.
    assert [c.text for c in record_of(events).commitments] == ["It will be done (R-778)."]
