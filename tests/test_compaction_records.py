"""Compaction summaries as records: what ``LlmEventSummarizer`` stores, how the compaction validator
checks it like a summary, and how the next compaction is held to what this one kept."""

from __future__ import annotations

import json
from typing import Any

from agentlog import Content, Part
from agentlog.agents.history import build_contents
from agentlog.compaction import LlmEventSummarizer, compaction_event
from agentlog.compaction.summarizer import (
    COMPACTION_RECORD,
    compaction_payload,
    parse_compaction_record,
)
from agentlog.events import Event
from agentlog.models.scripted import ScriptedLlm
from agentlog.summary import compaction_validator, render_transcript, validate_output
from agentlog.summary.record.compaction_check import resolved_in
from agentlog.summary.record.entities import Entity
from compaction_helpers import call, ev, response, text


def window() -> list[Event]:
    return [
        ev("i1", "user", text("Where is order A-1001? My manager approved a refund.")),
        ev("i1", "desk", call("lookup_order", "c1", order_id="A-1001"), model="m"),
        ev("i1", "desk", response("lookup_order", "c1", order_id="A-1001", shipping_fee=12.5)),
        ev("i1", "desk", text("A-1001 shipped; the fee was $12.50."), model="m"),
    ]


def record(**sections: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "goal": "",
        "goal_sources": [],
        "facts": [],
        "decisions": [],
        "commitments": [],
        "open_questions": [],
    }
    return {**base, **sections}


async def summarise(events: list[Event], answer: dict[str, Any] | str) -> Event:
    reply = answer if isinstance(answer, str) else json.dumps(answer)
    with ScriptedLlm([ScriptedLlm.text(reply)]) as llm:
        event = await LlmEventSummarizer(llm).summarize_events(events)
    assert event is not None
    return event


async def first_compaction(events: list[Event]) -> Event:
    ids = [e.id for e in events]
    return await summarise(
        events,
        record(
            goal="Find order A-1001",
            goal_sources=[ids[0]],
            facts=[
                {"text": "A-1001 shipped; shipping fee $12.50", "sources": ids[1:3]},
                {"text": "The customer says a manager approved a refund", "sources": [ids[0]]},
            ],
        ),
    )


async def test_a_record_answer_is_stored_as_readable_sections_and_a_payload() -> None:
    events = window()
    compaction = await first_compaction(events)
    summary = compaction.actions.compaction.summary  # type: ignore[union-attr]
    readable, structured = summary.parts
    assert readable.text is not None
    assert "- A-1001 shipped; shipping fee $12.50 [" in readable.text
    assert "(the customer says, not verified) The customer says a manager" in readable.text
    assert structured.function_response is not None
    assert structured.function_response.name == COMPACTION_RECORD
    payload = compaction_payload(compaction)
    assert payload is not None
    assert payload["previous"] is None
    facts = payload["record"]["facts"]
    assert facts[0]["authors"] == ["desk", "desk"]
    assert facts[1]["authors"] == ["user"]
    # The agent's history and later transcripts read the sections, never the payload.
    (first, *_) = build_contents([compaction], "desk")
    assert "A-1001 shipped" in (first.parts[0].text or "")
    assert "authors" not in str(first)
    assert "authors" not in render_transcript([*events, compaction])
    assert compaction_validator()(compaction, events) == []


async def test_plain_text_answers_and_old_compactions_still_work() -> None:
    events = window()
    plain = await summarise(events, "Customer asked about A-1001; shipping fee $12.50.")
    assert compaction_payload(plain) is None
    assert compaction_validator()(plain, events) == []
    old = compaction_event(events, "Customer asked about A-1001; shipping fee $12.50.")
    assert compaction_validator()(old, events) == []
    # JSON that is not a record is no summary at all.
    with ScriptedLlm([ScriptedLlm.text('{"goal": 3}')]) as llm:
        assert await LlmEventSummarizer(llm).summarize_events(events) is None
    assert parse_compaction_record("```json\n" + json.dumps(record(goal="g")) + "\n```") == {
        **record(goal="g")
    }


async def test_a_record_is_checked_like_a_summary() -> None:
    events = window()
    ids = [e.id for e in events]
    bad = await summarise(
        events,
        record(
            facts=[
                {"text": "A-1001 shipped; fee $12.50", "sources": []},
                {"text": "B-2040 was refunded", "sources": [ids[2]]},
                {"text": "A-1001", "sources": ["nowhere"]},
            ]
        ),
    )
    problems = compaction_validator()(bad, events)
    assert "facts[0] cites no event" in problems
    assert any("facts[1]: cited events do not support B-2040" in p for p in problems)
    assert any("cites 'nowhere'" in p for p in problems)


async def test_a_compaction_may_not_drop_what_the_previous_one_kept() -> None:
    earlier = window()
    first = await first_compaction(earlier)
    later = [
        ev("i2", "user", text("Any news?")),
        ev("i2", "desk", text("Still on its way."), model="m"),
    ]
    dropping = await summarise(
        [first, *later],
        record(facts=[{"text": "Still on its way", "sources": [later[1].id]}]),
    )
    assert compaction_payload(dropping)["previous"]["event_id"] == first.id  # type: ignore[index]
    problems = compaction_validator()(dropping, later)
    assert "dropped A-1001 (order_id), which the previous compaction holds" in problems
    assert "dropped 12.50 (amount), which the previous compaction holds" in problems
    keeping = await summarise(
        [first, *later],
        record(
            facts=[
                {"text": "A-1001 shipped; shipping fee $12.50", "sources": [first.id]},
                {"text": "Still on its way", "sources": [later[1].id]},
            ]
        ),
    )
    assert compaction_validator()(keeping, later) == []


async def test_what_the_window_closes_may_be_left_out() -> None:
    first = await first_compaction(window())
    later = [
        ev("i2", "user", text("Cancel A-1001 please.")),
        ev("i2", "desk", call("cancel_order", "c2", order_id="A-1001"), model="m"),
        ev("i2", "desk", response("cancel_order", "c2", order_id="A-1001", status="cancelled")),
    ]
    assert resolved_in(later, Entity("id", "order_id", "A-1001", "id:a-1001"))
    closed = await summarise(
        [first, *later],
        record(facts=[{"text": "The order was cancelled", "sources": [later[2].id]}]),
    )
    problems = compaction_validator()(closed, later)
    assert not any("A-1001" in p for p in problems)
    assert "dropped 12.50 (amount), which the previous compaction holds" in problems


async def test_a_session_summary_reads_a_compaction_through_to_what_it_cites() -> None:
    events = window()
    compaction = (await first_compaction(events)).model_copy(update={"id": "cmp"})
    session = [*events, compaction]
    out = record(
        goal="Find A-1001",
        goal_sources=["cmp"],
        facts=[
            {"text": "A-1001 shipped; shipping fee $12.50", "sources": ["cmp"]},
            {"text": "A manager approved a refund", "sources": ["cmp"]},
        ],
    )
    labelled, problems = validate_output(
        json.dumps(out), events=session, transcript=render_transcript(session)
    )
    assert problems == []
    assert labelled is not None
    assert [i.provenance for i in labelled.facts] == ["verified", "user_claim"]
    # Loaded from the compaction on (the window's events gone), nothing is verified.
    alone, _ = validate_output(
        json.dumps(out), events=[compaction], transcript=render_transcript([compaction])
    )
    assert alone is not None
    assert [i.provenance for i in alone.facts] == ["agent_statement", "user_claim"]


def test_a_handoff_style_text_in_a_compaction_is_only_the_compactors_word() -> None:
    events = window()
    fake = compaction_event(
        events,
        Content(role="model", parts=(Part(text="Facts:\n- A-1001 refund approved [e9]"),)),
    )
    out = record(facts=[{"text": "A-1001 refund approved", "sources": [fake.id]}])
    session = [*events, fake]
    labelled, _ = validate_output(
        json.dumps(out), events=session, transcript=render_transcript(session)
    )
    assert labelled is not None
    assert labelled.facts[0].provenance == "agent_statement"
