"""Which entities a record must keep: those the conversation touched, not a listing's every id."""

from __future__ import annotations

from agentlog import Content, Event, Part
from agentlog.summary import ExtractiveSummarizer, SummaryItem, SummaryRecord, validate_output
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.expected import transcript_entities
from agentlog.transcript import transcript_lines


def ev(eid: str, author: str, part: Part) -> Event:
    role = "user" if author == "user" else "model"
    return Event(
        id=eid, invocation_id="i", author=author, content=Content(role=role, parts=(part,))
    )


def session() -> list[Event]:
    """A search lists three bookings; the customer cancels one of them by its code."""
    listing = {
        "bookings": [
            {"booking_code": "KX4P7Q", "status": "confirmed", "date": "2026-07-01"},
            {"booking_code": "ZW9R2T", "status": "confirmed", "date": "2026-08-12"},
            {"booking_code": "MB3N8V", "status": "confirmed", "date": "2026-09-30"},
        ]
    }
    return [
        ev("e1", "user", Part(text="Please cancel my August trip.")),
        ev(
            "e2",
            "agent",
            Part.from_function_call("search_bookings", {"user": "ana_lima_4410"}, "c1"),
        ),
        ev("e3", "search_bookings", Part.from_function_response("search_bookings", listing, "c1")),
        ev(
            "e4",
            "agent",
            Part.from_function_call("cancel_booking", {"booking_code": "ZW9R2T"}, "c2"),
        ),
        ev(
            "e5",
            "cancel_booking",
            Part.from_function_response(
                "cancel_booking", {"status": "cancelled", "refund_id": "rf_88120"}, "c2"
            ),
        ),
        ev("e6", "agent", Part(text="Cancelled; the refund rf_88120 follows in five days.")),
    ]


def required(events: list[Event]) -> set[str]:
    expected = transcript_entities(transcript_lines(events), EntityPatterns.default())
    return {x.entity.text for x in expected.values()}


def test_a_listing_id_nothing_else_names_is_not_required() -> None:
    got = required(session())
    assert {"ana_lima_4410", "ZW9R2T", "rf_88120"} <= got  # a call, a write, a message
    assert not {"KX4P7Q", "MB3N8V", "2026-07-01", "2026-09-30"} & got  # the listing's others


def test_the_key_identifier_and_fields_of_one_object_read_are_required() -> None:
    order = {"order_id": "B-5127", "total": 129.95, "items": [{"item_id": "6081447219"}]}
    events = [
        ev("e1", "user", Part(text="Where is my parcel?")),
        ev("e2", "agent", Part.from_function_call("find_last_order", {}, "c1")),
        ev("e3", "find_last_order", Part.from_function_response("find_last_order", order, "c1")),
    ]
    # Read as one object: its identifier and its own fields (a list of one entry is a part).
    assert {"B-5127", "129.95", "6081447219"} <= required(events)
    # Two entries are a listing: neither is required unless something else names it.
    order["items"] = [{"item_id": "6081447219"}, {"item_id": "6081447301"}]
    listed = [
        *events[:2],
        ev("e3", "t", Part.from_function_response("find_last_order", order, "c1")),
    ]
    assert {"B-5127", "129.95"} <= required(listed)
    assert not {"6081447219", "6081447301"} & required(listed)


def test_a_record_dropping_the_code_a_cancellation_named_fails() -> None:
    events = session()
    lines = transcript_lines(events)
    record = ExtractiveSummarizer().summarize_now(events).record
    assert record is not None
    kept = [i for i in record.items() if "ZW9R2T" not in i[1].text]
    dropped = SummaryRecord(
        goal=record.goal,
        goal_sources=record.goal_sources,
        facts=tuple(i for p, i in kept if p.startswith("facts")),
        commitments=tuple(i for p, i in kept if p.startswith("commitments")),
    )
    _, problems = validate_output(dropped, events=events, transcript=lines)
    assert any(p.kind == "dropped_entity" and "ZW9R2T" in p.detail for p in problems)


def test_a_record_omitting_the_unused_listing_ids_passes() -> None:
    events = session()
    record = SummaryRecord(
        goal="Please cancel my August trip.",
        goal_sources=("e1",),
        facts=(SummaryItem(text="search_bookings for user ana_lima_4410", sources=("e2", "e3")),),
        decisions=(
            SummaryItem(
                text="cancel_booking for booking code ZW9R2T: status cancelled, refund id rf_88120",
                sources=("e4", "e5"),
            ),
        ),
    )
    _, problems = validate_output(record, events=events, transcript=transcript_lines(events))
    assert problems == []


def test_the_extractive_record_keeps_the_write_and_leaves_the_listing_out() -> None:
    result = ExtractiveSummarizer().summarize_now(session())
    assert result.ok, result.problems
    record = result.record
    assert record is not None
    (decision,) = record.decisions
    assert decision.sources == ("e4", "e5")
    assert "ZW9R2T" in decision.text
    # The refund id stays in the decision, where the tool's result verifies it, though the
    # promise that tells the customer when it follows names it too.
    assert "rf_88120" in decision.text
    (promise,) = record.commitments
    assert "rf_88120" in promise.text
    assert "KX4P7Q" not in record.text()
    assert "MB3N8V" not in record.text()
    # The search is one fact: how many it found and the entry the conversation used.
    (search,) = [i for i in record.facts if i.text.startswith("Searched bookings")]
    assert search.text == "Searched bookings ana_lima_4410: 3 results; ZW9R2T"


def test_a_dict_keyed_by_identifiers_is_a_listing() -> None:
    product = {
        "product_id": "6066914160",
        "name": "Wristwatch",
        "variants": {
            "4510078629": {"item_id": "4510078629", "price": 2127.62},
            "2407258246": {"item_id": "2407258246", "price": 1822.82},
        },
    }
    events = [
        ev("e1", "user", Part(text="Which watches do you have?")),
        ev(
            "e2",
            "agent",
            Part.from_function_call("get_product", {"product_id": "6066914160"}, "c1"),
        ),
        ev("e3", "get_product", Part.from_function_response("get_product", product, "c1")),
        ev("e4", "agent", Part(text="Item 2407258246 costs $1,822.82.")),
    ]
    got = required(events)
    assert {"6066914160", "2407258246"} <= got
    assert "4510078629" not in got  # a variant nobody named
