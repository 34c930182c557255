"""The validator and provenance: typed problems, entity recall, and labels set by code."""

from __future__ import annotations

import json
from typing import Any

from agentlog.summary import (
    EntityPatterns,
    SummaryItem,
    SummaryRecord,
    check_record,
    dropped_entities,
    entity_recall,
    label_provenance,
    model_output_schema,
    parse_record,
    render_transcript,
    validate_output,
)
from agentlog.summary.example import FIRST_OUTPUT, FIXED_OUTPUT, refund_session_events

EVENTS = refund_session_events()
TRANSCRIPT = render_transcript(EVENTS)
IDS = {e.id for e in EVENTS}


def record(**sections: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "goal": "g",
        "facts": [],
        "decisions": [],
        "commitments": [],
        "open_questions": [],
    }
    return {**base, **sections}


def test_the_schema_the_model_gets_has_no_provenance() -> None:
    schema = model_output_schema()
    assert schema["required"] == [
        "goal", "goal_sources", "facts", "decisions", "commitments", "open_questions"
    ]  # fmt: skip
    item = schema["properties"]["facts"]["items"]
    assert set(item["properties"]) == {"text", "sources"}
    assert item["additionalProperties"] is False
    assert "provenance" not in json.dumps(schema)
    assert "authors" not in json.dumps(schema)


def test_output_that_is_not_json_is_a_schema_problem() -> None:
    for output in ("Here is the summary: goal ...", "", "[1, 2]", '{"goal": "x"'):
        parsed, problems = parse_record(output)
        assert parsed is None
        assert [p.kind for p in problems] == ["schema"]


def test_shape_problems_name_the_path() -> None:
    bad = record(facts=[{"text": "", "sources": ["e01"]}, {"text": "x"}])
    del bad["decisions"]
    parsed, problems = parse_record(json.dumps(bad))
    assert parsed is None
    assert {p.path for p in problems} == {"facts[0].text", "facts[1].sources", "decisions"}
    assert all(p.kind == "schema" for p in problems)


def test_fences_brackets_and_a_model_label_are_tolerated() -> None:
    raw = record(
        facts=[{"text": "A-1001 shipped", "sources": ["[e03]", "e03"], "provenance": "verified"}]
    )
    parsed, problems = parse_record("```json\n" + json.dumps(raw) + "\n```")
    assert problems == []
    assert parsed is not None
    assert parsed.facts == (SummaryItem(text="A-1001 shipped", sources=("e03",)),)
    assert parsed.facts[0].provenance is None  # the model's label is dropped


def test_sources_must_exist_and_be_present() -> None:
    parsed, _ = parse_record(
        record(
            facts=[{"text": "A-1001 shipped", "sources": []}],
            decisions=[{"text": "refund", "sources": ["e05", "e404"]}],
        )
    )
    assert parsed is not None
    problems = check_record(parsed, event_ids=IDS, transcript="", patterns=EntityPatterns())
    assert [(p.kind, p.path) for p in problems] == [
        ("no_source", "facts[0]"),
        ("unknown_source", "decisions[0].sources[1]"),
    ]
    assert "'e404' is not an event" in problems[1].detail


def test_the_worked_example_drops_b_2040_then_passes() -> None:
    first, problems = validate_output(FIRST_OUTPUT, events=EVENTS, transcript=TRANSCRIPT)
    assert first is not None
    assert [(p.kind, p.detail) for p in problems] == [
        ("dropped_entity", "B-2040 (order_id) is in the transcript at e08 but not in the record")
    ]
    assert entity_recall(first, TRANSCRIPT) == 3 / 4  # A-1001, 2026-09-28, 12.50 kept
    assert [x.entity.text for x in dropped_entities(first, TRANSCRIPT)] == ["B-2040"]
    fixed, problems = validate_output(FIXED_OUTPUT, events=EVENTS, transcript=TRANSCRIPT)
    assert problems == []
    assert fixed is not None
    assert entity_recall(fixed, TRANSCRIPT) == 1.0


def test_recall_normalises_amounts_and_dates() -> None:
    transcript = (
        '[e1] desk RESULT order {"order_id": "A-1001", "total": 1234.5, "shipped": "2026-09-28"}'
    )
    rec = SummaryRecord(
        goal="",
        facts=(SummaryItem(text="A-1001 cost $1,234.50, shipped 28 September.", sources=("e1",)),),
    )
    assert entity_recall(rec, transcript) == 1.0
    rec2 = SummaryRecord(goal="", facts=(SummaryItem(text="A-1001 cost $1,234", sources=("e1",)),))
    assert entity_recall(rec2, transcript) == 1 / 3
    assert entity_recall(SummaryRecord(goal=""), "[e1] user: hello") == 1.0


def test_mentioned_scope_skips_lookup_results() -> None:
    patterns = EntityPatterns.retail()
    transcript = (
        '[e1] tool RESULT get_product_details {"variants": {"1234567890": {"price": 10.0}}}\n'
        '[e2] agent CALLS exchange {"item_ids": ["2345678901"]}'
    )
    empty = SummaryRecord(goal="")
    # The variant's price is in a listing nothing else names: not required either.
    assert [x.entity.text for x in dropped_entities(empty, transcript, patterns)] == ["2345678901"]


def test_provenance_is_set_by_code_from_authors() -> None:
    rec = SummaryRecord(
        goal="",
        facts=(
            SummaryItem(
                text="The customer says B-2040 is affected", sources=("e08",), provenance="verified"
            ),
            SummaryItem(text="A-1001 shipped", sources=("e01", "e03")),
            SummaryItem(text="made up", sources=("e404",)),
        ),
    )
    labelled = label_provenance(rec, EVENTS)
    assert [i.provenance for i in labelled.facts] == ["user_claim", "verified", "user_claim"]
