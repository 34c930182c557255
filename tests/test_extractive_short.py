"""Short extractive records (issue 13, item 5): what an item leaves to its cited events."""

from __future__ import annotations

from typing import Any

from agentlog import Content, Event, Part
from agentlog.summary import ExtractiveSummarizer, SummaryRecord
from agentlog.summary.record._sentences import part_holding


def ev(eid: str, author: str, part: Part) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    return Event(
        id=eid, invocation_id="i", author=author, content=Content(role=role, parts=(part,))
    )


def call(eid: str, name: str, args: dict[str, Any], cid: str) -> Event:
    return ev(eid, "agent", Part.from_function_call(name, args, cid))


def answer(eid: str, name: str, response: Any, cid: str) -> Event:
    return ev(eid, name, Part.from_function_response(name, response, cid))


def record_of(events: list[Event]) -> SummaryRecord:
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None, result.problems
    return result.record


def test_a_write_leaves_its_free_text_to_the_call() -> None:
    note = "customer says the parcel never came and wants this looked at soon"
    events = [
        ev("e1", "user", Part(text="Order ORD-5521 never arrived.")),
        call("e2", "open_case", {"order_id": "ORD-5521", "note": note}, "c1"),
        answer("e3", "open_case", {"case_id": "CASE-7781", "status": "open"}, "c1"),
        ev("e4", "agent", Part(text="Case CASE-7781 is open for ORD-5521.")),
    ]
    (decision,) = record_of(events).decisions
    assert decision.sources == ("e2", "e3")
    assert "ORD-5521" in decision.text
    assert "CASE-7781" in decision.text
    assert "never came" not in decision.text


def test_a_short_reason_and_an_address_stay() -> None:
    address = {"line1": "9 Canal Street", "city": "Boston", "zip": "02114"}
    events = [
        ev("e1", "user", Part(text="Cancel ORD-70245 and send ORD-70391 elsewhere.")),
        call("e2", "cancel_order", {"order_id": "ORD-70245", "reason": "ordered by mistake"}, "c1"),
        answer("e3", "cancel_order", {"status": "cancelled"}, "c1"),
        call("e4", "update_address", {"order_id": "ORD-70391", "address": address}, "c2"),
        answer("e5", "update_address", {"status": "updated"}, "c2"),
    ]
    first, second = (i.text for i in record_of(events).decisions)
    assert "ordered by mistake" in first
    assert "9 Canal Street" in second


def test_a_prose_result_keeps_the_sentences_that_name_something() -> None:
    said = (
        "Job RSA-88213 accepted by Kennet Recovery Ltd. Driver Gary is en route and will "
        "call when close. The vehicle will be taken to the nearest approved garage."
    )
    events = [
        ev("e1", "user", Part(text="My car broke down, policy POL-19-3306-P.")),
        call("e2", "dispatch_recovery", {"policy_id": "POL-19-3306-P"}, "c1"),
        answer("e3", "dispatch_recovery", {"result": said}, "c1"),
        ev("e4", "agent", Part(text="A truck is on its way: job RSA-88213.")),
    ]
    (decision,) = record_of(events).decisions
    assert "Job RSA-88213 accepted by Kennet Recovery Ltd." in decision.text
    assert "Driver Gary" not in decision.text
    assert "garage" not in decision.text


def test_an_amount_the_result_shows_again_is_said_once() -> None:
    events = [
        ev("e1", "user", Part(text="Please retry the charge on POL-70-2291-M.")),
        call("e2", "retry_charge", {"policy_id": "POL-70-2291-M", "amount": 89.0}, "c1"),
        answer(
            "e3",
            "retry_charge",
            {"status": "succeeded", "transaction_id": "c41d0b9e", "amount": "€89.00"},
            "c1",
        ),
    ]
    (decision,) = record_of(events).decisions
    assert "€89.00" in decision.text
    assert "89.0," not in decision.text
    assert not decision.text.endswith("89.0")


def test_a_lookups_numbers_are_named_or_left_out() -> None:
    events = [
        ev("e1", "user", Part(text="Add three seats to sub_1PqL7sK2.")),
        call(
            "e2",
            "preview_proration",
            {"subscription_id": "sub_1PqL7sK2", "seats": 15, "proration_date": 1781049600},
            "c1",
        ),
        answer("e3", "preview_proration", {"amount_due": "USD 50.00"}, "c1"),
    ]
    (fact,) = record_of(events).facts
    assert fact.text.startswith("Previewed proration sub_1PqL7sK2 seats 15: ")
    assert "1781049600" not in fact.text
    # A page size goes; a number the tool's name says what it is stays as it is.
    events[1] = call("e2", "find_user_by_zip", {"zip": 98178, "limit": 100}, "c1")
    events[2] = answer("e3", "find_user_by_zip", {"result": "noah_ito_3850"}, "c1")
    assert "by zip 98178:" in " ".join(i.text for i in record_of(events).facts)


def test_a_search_whose_results_nobody_named_goes_when_others_keep_its_entities() -> None:
    found = {"invoices": [{"number": f"INV-00{i}", "total": 10.0 + i} for i in range(5)]}
    events = [
        ev("e1", "user", Part(text="Workspace ws_4471 is suspended, why?")),
        call("e2", "list_invoices", {"workspace": "ws_4471", "limit": 100}, "c1"),
        answer("e3", "list_invoices", found, "c1"),
        ev("e4", "agent", Part(text="An invoice of ws_4471 is unpaid.")),
    ]
    record = record_of(events)
    assert not [i for i in record.facts if i.text.startswith("Listed invoices")]
    # Kept when it alone holds an entity.
    events[0] = ev("e1", "user", Part(text="Our workspace is suspended, why?"))
    events[3] = ev("e4", "agent", Part(text="An invoice is unpaid."))
    (search,) = [i for i in record_of(events).facts if i.text.startswith("Listed invoices")]
    assert search.sources == ("e2", "e3")


def test_an_entity_left_over_joins_the_item_citing_its_event() -> None:
    flight = {"flight_number": "XY1187", "status": "on_time"}
    events = [
        ev("e1", "user", Part(text="Is XY1187 on time?")),
        call("e2", "get_flight_status", {"flight_number": "XY1187", "date": "2026-02-17"}, "c1"),
        answer("e3", "get_flight_status", flight, "c1"),
    ]
    record = record_of(events)
    texts = [i.text for _, i in record.items()]
    assert not [t for t in texts if " mentioned " in t]
    assert any("XY1187" in t and "2026-02-17" in t for t in texts)


def test_a_promise_to_email_an_address_names_the_booking_it_is_for() -> None:
    events = [
        ev("e1", "user", Part(text="Move booking Q7ZK2M to XY131, please.")),
        call("e2", "change_flight", {"booking_code": "Q7ZK2M", "flight": "XY131"}, "c1"),
        answer("e3", "change_flight", {"status": "changed", "charged": 9.0}, "c1"),
        ev(
            "e4",
            "agent",
            Part(
                text="Q7ZK2M is now on XY131 at 19:05, and $9.00 went on your card. "
                "Your e-ticket will be emailed to ana.lima@example.org within the hour."
            ),
        ),
    ]
    (promise,) = record_of(events).commitments
    # The address reads alone; the booking the ticket is for comes from the sentence before.
    assert promise.text == (
        "Your e-ticket will be emailed to ana.lima@example.org within the hour (Q7ZK2M, XY131)."
    )


def test_what_will_happen_and_the_promise_after_it_are_each_kept() -> None:
    said = (
        "A driver will collect from 22 Elm Row on 21 May (collection COL-31904). "
        "The return label is in your inbox at iona@example.com."
    )
    events = [
        ev("e1", "user", Part(text="Please collect the parcel.")),
        call("e2", "book_collection", {"postcode": "EH7 4AA"}, "c1"),
        answer("e3", "book_collection", {"collection_id": "COL-31904"}, "c1"),
        ev("e4", "agent", Part(text=said)),
    ]
    # Each promise is its own clause; the collection's id stays with the first, which says it.
    assert [c.text for c in record_of(events).commitments] == [
        "A driver will collect from 22 Elm Row on 21 May (collection COL-31904).",
        "The return label is in your inbox at iona@example.com.",
    ]


def test_a_user_claim_keeps_no_greeting_and_an_address_as_written() -> None:
    events = [
        ev("e1", "user", Part(text="I need to add a seat to our workspace.")),
        ev("e2", "agent", Part(text="Since when are you on the Team plan?")),
        ev("e3", "user", Part(text="Hi, we're on the Team plan since 2026-03-14.")),
        ev("e4", "agent", Part(text="Thanks, one moment.")),
    ]
    (claim,) = record_of(events).facts
    assert (claim.text, claim.provenance) == (
        "We're on the Team plan since 2026-03-14.",
        "user_claim",
    )
    # An e-mail address that opens a message is kept as written, not capitalised.
    address = "tomas.reyes@example.org"
    assert part_holding(address, [address]) == address


def test_a_sentence_ends_after_a_closing_quote() -> None:
    said = 'Order #W9284598 is cancelled, reason "ordered by mistake." The $3,930.54 will be '
    said += "refunded to your card within 5 to 7 business days."
    events = [
        ev("e1", "user", Part(text="Cancel #W9284598, please.")),
        call("e2", "cancel_order", {"order_id": "#W9284598", "reason": "ordered by mistake"}, "c1"),
        answer("e3", "cancel_order", {"status": "cancelled", "refund": 3930.54}, "c1"),
        ev("e4", "agent", Part(text=said)),
    ]
    (promise,) = record_of(events).commitments
    assert promise.text == (
        "The $3,930.54 will be refunded to your card within 5 to 7 business days (#W9284598)."
    )


def test_a_currency_is_said_with_its_amount() -> None:
    args = {"claim_id": "TRC-2026-40117", "amount": "540.00", "currency": "EUR"}
    events = [
        ev("e1", "user", Part(text="Please pay the compensation on TRC-2026-40117.")),
        call("e2", "pay_compensation", args, "c1"),
        answer("e3", "pay_compensation", {"payout_id": "CMP-PAY-88120"}, "c1"),
    ]
    (decision,) = record_of(events).decisions
    assert "amount 540.00 EUR" in decision.text
    assert "currency" not in decision.text


def test_a_prose_result_keeps_the_sentence_naming_the_arguments() -> None:
    args = {"app_name": "messaging", "permission": "storage"}
    granted = "Success. Permission 'storage' granted to app 'messaging'."
    events = [
        ev("e1", "user", Part(text="My pictures won't send.")),
        call("e2", "grant_app_permission", args, "c1"),
        answer("e3", "grant_app_permission", {"result": granted}, "c1"),
    ]
    (decision,) = record_of(events).decisions
    assert (
        decision.text == "Granted app permission: Permission 'storage' granted to app 'messaging'."
    )


def test_the_same_write_again_at_once_is_one_decision_with_each_outcome() -> None:
    events = [
        ev("e1", "user", Part(text="Sync for WS-4410 is stuck.")),
        call("e2", "toggle_sync_lock", {"workspace_id": "WS-4410"}, "c1"),
        answer("e3", "toggle_sync_lock", {"result": "Sync lock is now engaged."}, "c1"),
        call("e4", "toggle_sync_lock", {"workspace_id": "WS-4410"}, "c2"),
        answer("e5", "toggle_sync_lock", {"result": "Sync lock is now released."}, "c2"),
    ]
    (decision,) = record_of(events).decisions
    assert decision.text == "Toggled sync lock WS-4410: engaged, then released"
    assert decision.sources == ("e2", "e3", "e4", "e5")


def test_the_same_write_with_other_arguments_stays_two_decisions() -> None:
    events = [
        ev("e1", "user", Part(text="Lock WS-4410 and WS-4411.")),
        call("e2", "toggle_sync_lock", {"workspace_id": "WS-4410"}, "c1"),
        answer("e3", "toggle_sync_lock", {"result": "Sync lock is now engaged."}, "c1"),
        call("e4", "toggle_sync_lock", {"workspace_id": "WS-4411"}, "c2"),
        answer("e5", "toggle_sync_lock", {"result": "Sync lock is now engaged."}, "c2"),
    ]
    first, second = record_of(events).decisions
    assert (first.sources, second.sources) == (("e2", "e3"), ("e4", "e5"))


def test_a_write_result_that_only_says_the_call_again_goes() -> None:
    events = [
        ev("e1", "user", Part(text="Please archive PRJ-1042 and notify the owner.")),
        call("e2", "archive_project", {"project_id": "PRJ-1042"}, "c1"),
        answer(
            "e3", "archive_project", {"result": "Project PRJ-1042 archived successfully."}, "c1"
        ),
        call("e4", "send_owner_notice", {"project_id": "PRJ-1042"}, "c2"),
        answer(
            "e5", "send_owner_notice", {"result": "Owner notice sent for project PRJ-1042"}, "c2"
        ),
    ]
    first, second = record_of(events).decisions
    assert (first.text, first.sources) == ("Archived project PRJ-1042", ("e2", "e3"))
    assert (second.text, second.sources) == ("Sent owner notice PRJ-1042", ("e4", "e5"))


def test_a_write_result_opening_with_the_tools_words_says_what_it_adds() -> None:
    events = [
        ev("e1", "user", Part(text="Turn on maintenance for site SITE-88.")),
        call("e2", "toggle_maintenance_mode", {"site_id": "SITE-88"}, "c1"),
        answer("e3", "toggle_maintenance_mode", {"result": "Maintenance Mode is now ON."}, "c1"),
        call("e4", "set_backup_window", {"site_id": "SITE-88"}, "c2"),
        answer(
            "e5", "set_backup_window", {"result": "Backup window set to: 02:00-04:00 UTC"}, "c2"
        ),
    ]
    first, second = (d.text for d in record_of(events).decisions)
    assert first == "Toggled maintenance mode SITE-88: ON"
    assert second == "Set backup window SITE-88: 02:00-04:00 UTC"


def test_a_write_result_naming_an_argument_keeps_saying_it() -> None:
    # The result, not the call, establishes that the value took: its sentence stays whole.
    events = [
        ev("e1", "user", Part(text="Give the exporter app read access, account AC-3321.")),
        call("e2", "grant_app_scope", {"account_id": "AC-3321", "scope": "read"}, "c1"),
        answer("e3", "grant_app_scope", {"result": "App scope 'read' granted on AC-3321."}, "c1"),
    ]
    (decision,) = record_of(events).decisions
    assert "App scope 'read' granted" in decision.text


def test_a_handover_note_repeating_the_record_goes() -> None:
    note = (
        "Customer CU-3381 disputes a charge on the last statement and would like a call back"
        " about it today"
    )
    events = [
        ev("e1", "user", Part(text="I don't recognise a charge. I'm CU-3381.")),
        call("e2", "get_customer", {"customer_id": "CU-3381"}, "c1"),
        answer("e3", "get_customer", {"customer_id": "CU-3381", "plan": "basic"}, "c1"),
        call("e4", "hand_over_to_billing", {"summary": note}, "c2"),
        answer("e5", "hand_over_to_billing", {"status": "queued"}, "c2"),
    ]
    record = record_of(events)
    (decision,) = record.decisions
    assert decision.sources == ("e4", "e5")
    assert "disputes" not in record.text()


def test_a_handover_note_naming_what_nothing_else_does_stays() -> None:
    note = (
        "Customer disputes charge CH-77120 on the last statement and would like a call back"
        " about it today"
    )
    events = [
        ev("e1", "user", Part(text="I don't recognise a charge. I'm CU-3381.")),
        call("e2", "get_customer", {"customer_id": "CU-3381"}, "c1"),
        answer("e3", "get_customer", {"customer_id": "CU-3381", "plan": "basic"}, "c1"),
        call("e4", "hand_over_to_billing", {"summary": note}, "c2"),
        answer("e5", "hand_over_to_billing", {"status": "queued"}, "c2"),
    ]
    (decision,) = record_of(events).decisions
    assert "CH-77120" in decision.text


def test_a_lookup_result_opening_with_the_tools_words_says_what_it_adds() -> None:
    events = [
        ev("e1", "user", Part(text="Is nightly backup running for SITE-88?")),
        call("e2", "check_nightly_backup_status", {}, "c1"),
        answer(
            "e3", "check_nightly_backup_status", {"result": "Nightly Backup is currently ON."}, "c1"
        ),
    ]
    (fact,) = record_of(events).facts
    assert (fact.text, fact.sources) == ("Checked nightly backup status: ON", ("e2", "e3"))


def test_a_thing_still_waiting_after_a_second_result_is_one_question_of_what_it_waits_on_now() -> (
    None
):
    events = [
        ev("e1", "user", Part(text="Please make leave request LR-2026-118 3 days.")),
        call("e2", "get_leave_request", {"request_id": "LR-2026-118"}, "c1"),
        answer(
            "e3",
            "get_leave_request",
            {"request_id": "LR-2026-118", "status": "pending_manager"},
            "c1",
        ),
        call("e4", "update_leave_request", {"request_id": "LR-2026-118", "days": 3}, "c2"),
        answer(
            "e5",
            "update_leave_request",
            {"request_id": "LR-2026-118", "status": "pending_hr"},
            "c2",
        ),
    ]
    (question,) = record_of(events).open_questions
    assert question.text == "LR-2026-118: status pending_hr"
    assert question.sources == ("e2", "e3", "e4", "e5")


def test_a_lookup_another_tool_asked_the_same_answers_in_full_is_one_fact() -> None:
    events = [
        ev("e1", "user", Part(text="The exporter on AC-3321 cannot write files.")),
        call("e2", "get_app_scopes", {"app": "exporter"}, "c1"),
        answer(
            "e3",
            "get_app_scopes",
            {"result": "Status for app exporter: Scopes Granted - read - network"},
            "c1",
        ),
        call("e4", "check_app_access", {"app": "exporter"}, "c2"),
        answer(
            "e5", "check_app_access", {"result": "App 'exporter' has scopes: read, network."}, "c2"
        ),
        call("e6", "check_app_quota", {"app": "exporter"}, "c3"),
        answer("e7", "check_app_quota", {"result": "Quota left: 120 files of 500"}, "c3"),
    ]
    first, second = record_of(events).facts
    assert first.text.startswith("Looked up app scopes exporter: ")
    assert first.sources == ("e2", "e3", "e4", "e5")
    assert second.sources == ("e6", "e7")


def test_two_lookups_asked_the_same_with_a_short_answer_each_stay_two_facts() -> None:
    events = [
        ev("e1", "user", Part(text="Device DV-2201 is offline.")),
        call("e2", "check_radio_power", {"device_id": "DV-2201"}, "c1"),
        answer("e3", "check_radio_power", {"result": "Power: OFF"}, "c1"),
        call("e4", "check_radio_link", {"device_id": "DV-2201"}, "c2"),
        answer("e5", "check_radio_link", {"result": "Link: OFF"}, "c2"),
    ]
    first, second = record_of(events).facts
    assert (first.sources, second.sources) == (("e2", "e3"), ("e4", "e5"))


def test_a_write_status_that_only_says_it_worked_goes() -> None:
    events = [
        ev("e1", "user", Part(text="Use card pm_77120 for ACC-4410 and pause invoice IV-3301.")),
        call("e2", "set_billing_card", {"account_id": "ACC-4410", "card": "pm_77120"}, "c1"),
        answer("e3", "set_billing_card", {"status": "updated"}, "c1"),
        call("e4", "pause_invoice", {"invoice_id": "IV-3301"}, "c2"),
        answer("e5", "pause_invoice", {"status": "on_hold"}, "c2"),
    ]
    first, second = (d.text for d in record_of(events).decisions)
    assert first == "Set billing card ACC-4410: card pm_77120"
    assert "on_hold" in second


def test_the_same_write_after_another_decision_stays_its_own() -> None:
    events = [
        ev("e1", "user", Part(text="Sync for WS-4410 is stuck.")),
        call("e2", "toggle_sync_lock", {"workspace_id": "WS-4410"}, "c1"),
        answer("e3", "toggle_sync_lock", {"result": "Sync lock is now engaged."}, "c1"),
        call("e4", "transfer_to_agent", {"agent_name": "night_desk"}, "c2"),
        answer("e5", "transfer_to_agent", {"result": "ok"}, "c2"),
        call("e6", "toggle_sync_lock", {"workspace_id": "WS-4410"}, "c3"),
        answer("e7", "toggle_sync_lock", {"result": "Sync lock is now released."}, "c3"),
    ]
    decisions = [(d.text, d.sources) for d in record_of(events).decisions]
    assert decisions == [
        ("Toggled sync lock WS-4410: engaged", ("e2", "e3")),
        ("Handed to night_desk", ("e4", "e5")),
        ("Toggled sync lock WS-4410: released", ("e6", "e7")),
    ]
