"""The provenance rules, one by one: what a cited event must hold for each label, and when the
validator refuses an item instead (``agentlog.summary.record.provenance``)."""

from __future__ import annotations

import json
from typing import Any

from agentlog import Content, Event, EventActions, Part
from agentlog.summary import (
    StoredSummary,
    SummaryItem,
    SummaryRecord,
    label_provenance,
    render_transcript,
    validate_output,
)
from agentlog.summary.record.evidence import is_decision

T0 = 1_790_000_000.0


def event(n: int, author: str, part: Part, **fields: Any) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    return Event(
        id=f"e{n:02d}",
        invocation_id=f"i{n}",
        author=author,
        timestamp=T0 + n,
        content=Content(role=role, parts=(part,)),
        **fields,
    )


def session() -> list[Event]:
    lookup = {
        "order_id": "A-1001",
        "status": "shipped",
        "shipped_on": "2026-09-28",
        "shipping_fee": 12.5,
        "notes": "x" * 3_000,  # pushes what follows past the transcript's cut
        "warehouse_ref": "WH-77120",
    }
    refund = {"order_id": "A-1001", "refunded": 12.5, "status": "ok"}
    return [
        event(1, "user", Part(text="Where is A-1001? It is late, refund the shipping fee.")),
        event(
            2,
            "desk",
            Part.from_function_call("lookup_order", {"order_id": "A-1001"}, "c1"),
            model="gpt",
        ),
        event(3, "desk", Part.from_function_response("lookup_order", lookup, "c1")),
        event(
            4,
            "desk",
            Part.from_function_call(
                "refund_shipping", {"order_id": "A-1001", "amount": 12.5}, "c2"
            ),
            model="gpt",
        ),
        event(5, "desk", Part.from_function_response("refund_shipping", refund, "c2")),
        event(
            6,
            "desk",
            Part(text="Your $12.50 reaches your card within five working days."),
            model="gpt",
        ),
        event(
            7,
            "policy_check",
            Part(text="Refund of A-1001 is within policy."),
            actions=EventActions(state_delta={"refund_eligible": True}),
        ),
        event(8, "desk", Part(text="Refund of A-1001 is within policy."), model="gpt"),
    ]


def label(text: str, *sources: str, goal: str = "") -> tuple[SummaryItem, list[str]]:
    events = session()
    out = {
        "goal": goal or "Get the shipping fee of A-1001 back",
        "goal_sources": ["e01"],
        "facts": [{"text": text, "sources": list(sources)}],
        "decisions": [],
        "commitments": [],
        "open_questions": [],
    }
    record, problems = validate_output(
        json.dumps(out), events=events, transcript=render_transcript(events)
    )
    assert record is not None
    return record.facts[0], [p.kind for p in problems if p.path.startswith("facts")]


def test_a_tool_result_holding_the_entities_and_words_verifies() -> None:
    item, problems = label("Order A-1001 shipped on 28 September 2026.", "e02", "e03")
    assert (item.provenance, problems) == ("verified", [])
    assert item.authors == ("desk", "desk")


def test_a_tool_call_and_its_result_are_read_together() -> None:
    # A-1001 is in both; "amount" only in the call, "refunded" only in the result.
    item, _ = label("refund_shipping amount $12.50 refunded for A-1001", "e04", "e05")
    assert item.provenance == "verified"


def test_agent_prose_alone_is_an_agent_statement() -> None:
    item, problems = label("The $12.50 reaches the card within five working days.", "e06")
    assert (item.provenance, problems) == ("agent_statement", [])


def test_a_possessive_does_not_lean_on_the_users_contractions() -> None:
    # The user wrote "What's"; the record's "customer's" leaves the same "s" after its
    # apostrophe, which is grammar, not the user's word: the promise stays the agent's.
    events = [*session(), event(9, "user", Part(text="What's going on? That's late."))]
    out = {
        "goal": "Get the shipping fee of A-1001 back",
        "goal_sources": ["e01"],
        "facts": [],
        "decisions": [],
        "commitments": [
            {
                "text": "The $12.50 reaches the customer's card within five working days.",
                "sources": ["e06"],
            }
        ],
        "open_questions": [],
    }
    record, problems = validate_output(
        json.dumps(out), events=events, transcript=render_transcript(events)
    )
    assert record is not None
    assert problems == []
    assert record.commitments[0].provenance == "agent_statement"


def test_user_text_alone_is_a_user_claim() -> None:
    item, _ = label("A-1001 is late.", "e01")
    assert item.provenance == "user_claim"
    assert item.authors == ("user",)


def test_a_deterministic_decision_verifies_and_the_same_words_from_a_model_do_not() -> None:
    events = session()
    assert is_decision(events[6])
    assert not is_decision(events[7])
    assert label("Refund of A-1001 is within policy.", "e07")[0].provenance == "verified"
    assert label("Refund of A-1001 is within policy.", "e08")[0].provenance == "agent_statement"


def test_entities_no_cited_event_holds_fail_validation() -> None:
    _, problems = label("Order B-2040 shipped.", "e02", "e03")
    assert problems == ["unsupported"]
    events = session()
    out = {
        "goal": "g",
        "facts": [{"text": "A refund of $99.00 for A-1001", "sources": ["e05"]}],
        "decisions": [],
        "commitments": [],
        "open_questions": [],
    }
    _, found = validate_output(json.dumps(out), events=events, transcript=render_transcript(events))
    (problem,) = [p for p in found if p.kind == "unsupported"]
    assert problem.path == "facts[0]"
    assert problem.detail.startswith("cited events do not support 99.00 (amount)")


def test_a_word_no_cited_tool_event_holds_keeps_an_item_from_being_verified() -> None:
    assert label("A-1001 shipped, refund approved", "e02", "e03")[0].provenance != "verified"
    assert label("A-1001 was not shipped", "e02", "e03")[0].provenance != "verified"


def test_a_paraphrase_may_take_words_from_the_tools_about_the_same_entity() -> None:
    # "fee" is in the lookup, not in the refund the item cites: still the tools' words.
    assert label("The shipping fee of A-1001 was refunded.", "e04", "e05")[0].provenance == (
        "verified"
    )
    # ... but "waived" is in no tool event at all.
    item, _ = label("The shipping fee of A-1001 was waived.", "e04", "e05")
    assert item.provenance != "verified"


def test_an_item_without_entities_needs_one_tool_event_holding_all_its_words() -> None:
    assert label("Status shipped.", "e03")[0].provenance == "verified"
    # Sharing the tool's name is not enough.
    assert label("Refund shipping approved in full.", "e04")[0].provenance != "verified"


def test_what_a_cut_payload_holds_past_the_cut_still_supports_an_item() -> None:
    assert "WH-77120" not in render_transcript(session())
    item, problems = label("A-1001 ships from warehouse WH-77120.", "e03")
    assert problems == []
    assert item.provenance == "verified"


def test_the_goal_is_labelled_and_an_uncited_goal_is_the_customers() -> None:
    events = session()
    out: dict[str, Any] = {
        "goal": "Get the shipping fee of A-1001 back",
        "goal_sources": ["e01"],
        "facts": [],
        "decisions": [],
        "commitments": [],
        "open_questions": [],
    }
    record, problems = validate_output(
        json.dumps(out), events=events, transcript=render_transcript(events)
    )
    assert record is not None
    assert (record.goal_provenance, record.goal_authors) == ("user_claim", ("user",))
    out["goal"] = "my manager already approved a full refund; process it"
    del out["goal_sources"]
    record, _ = validate_output(
        json.dumps(out), events=events, transcript=render_transcript(events)
    )
    assert record is not None
    assert record.goal_provenance == "user_claim"
    out["goal_sources"] = ["e404"]
    _, problems = validate_output(
        json.dumps(out), events=events, transcript=render_transcript(events)
    )
    assert [(p.kind, p.path) for p in problems][:1] == [("unknown_source", "goal_sources[0]")]


def test_records_stored_before_the_new_fields_load_unchanged() -> None:
    old = {
        "app_name": "desk",
        "user_id": "ana",
        "session_id": "s1",
        "session_version": 3,
        "status": "ok",
        "record": {
            "goal": "g",
            "facts": [{"text": "A-1001 shipped", "sources": ["e03"], "provenance": "verified"}],
            "decisions": [],
            "commitments": [],
            "open_questions": [],
        },
        "created_at": 1.0,
    }
    stored = StoredSummary.model_validate_json(json.dumps(old))
    assert stored.record is not None
    assert stored.record.goal_sources == ()
    assert stored.record.goal_provenance is None
    assert stored.record.facts[0] == SummaryItem(
        text="A-1001 shipped", sources=("e03",), provenance="verified"
    )


def test_label_provenance_renders_the_transcript_itself_when_not_given() -> None:
    record = SummaryRecord(
        goal="", facts=(SummaryItem(text="A-1001 shipped", sources=("e02", "e03")),)
    )
    labelled = label_provenance(record, session())
    assert labelled.facts[0].provenance == "verified"
    assert labelled.goal_provenance is None
