"""A compaction validator built from the summary checks (SPEC 5 and 6).

Compaction summaries serve the same agent a moment later, but a dropped order number or amount
is lost for good once the window is summarised, and a claim the compactor restates must not
come back as a fact. This check rejects a compaction that:

- covers events that are not in its window;
- carries instructions aimed at the next reader;
- leaves out an identifier, amount or date of its window (the session's learned identifiers
  included), **or one the previous compaction kept**, unless the window shows it resolved;
- is a record (:mod:`agentlog.compaction.summarizer`) that is not checked like a summary: an
  item without sources, a source that is neither an event of the window nor the previous
  compaction nor an event that compaction cited, or an item whose entities no cited event
  holds ("cited events do not support ...").

**Resolved** means closed by the window's own tool traffic: a tool result in the window that
did not fail, that names the entity, and whose ``status`` (or ``state``, ``result``) says the
matter is over (:data:`CLOSED`: cancelled, closed, resolved, completed, deleted, removed,
expired, void, archived). Such an entity may be left out, as a finished matter the agent need
not carry on; anything merely looked up, refunded or changed stays, since the customer may
still ask about it.

The labels of a compaction record are not stored: they are decided, like every label, from
what the cited events hold, by whoever reads the record (:mod:`agentlog.summary.record.evidence`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from agentlog.compaction import CompactionValidator
from agentlog.compaction.summarizer import compaction_payload
from agentlog.events import Event
from agentlog.summary.record._extract import failed
from agentlog.summary.record.carried import CarriedItem, stored_record
from agentlog.summary.record.entities import Entity, EntityPatterns
from agentlog.summary.record.evidence import Evidence, Unit
from agentlog.summary.record.expected import (
    ExpectedEntity,
    ParsedTranscript,
    missing_entities,
    transcript_entities,
)
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.provenance import item_entities, label_record
from agentlog.summary.record.schema import SummaryRecord
from agentlog.transcript import render_payload, transcript_lines

__all__ = ["CLOSED", "compaction_validator", "resolved_in"]

CLOSED: Final = frozenset(
    {"archived", "canceled", "cancelled", "closed", "complete", "completed", "deleted", "done",
     "expired", "removed", "resolved", "void", "voided"}
)  # fmt: skip
"""Statuses that end a matter: an entity a window's result closes may be left out."""

_STATUS_KEYS: Final = ("status", "state", "result")


def _closing(window: Iterable[Event]) -> list[Unit]:
    """The window's tool results that succeeded and close what they name."""
    units = []
    for event in window:
        for response in event.function_responses():
            payload = response.response
            if failed(payload):
                continue
            statuses = {str(payload.get(k, "")).strip().lower() for k in _STATUS_KEYS}
            if not statuses.isdisjoint(CLOSED):
                body = render_payload(payload, 1 << 40, 1 << 40)
                units.append(Unit("evidence", f"{response.name} {body}"))
    return units


def resolved_in(window: Sequence[Event], entity: Entity) -> bool:
    """Whether ``window`` shows ``entity`` resolved (see the module docstring)."""
    return any(u.holds(entity) for u in _closing(window))


def _previous(payload: Mapping[str, Any] | None) -> tuple[str | None, list[CarriedItem], str]:
    """The previous compaction a payload names: its id, its items and its text."""
    before = payload.get("previous") if payload else None
    if not isinstance(before, Mapping) or not isinstance(before.get("event_id"), str):
        return None, [], ""
    record = stored_record(before["record"]) if isinstance(before.get("record"), dict) else None
    if record is None:
        text = str(before.get("text") or "")
        return before["event_id"], [CarriedItem(text, ())], text
    items = [CarriedItem(i.text, i.sources, i.authors) for _, i in record.items()]
    if record.goal:
        items.insert(0, CarriedItem(record.goal, record.goal_sources, record.goal_authors))
    return before["event_id"], items, record.text()


def compaction_validator(
    patterns: EntityPatterns | None = None,
    *,
    instruction_patterns: InstructionPatterns | None = None,
    max_tool_chars: int = 2_000,
) -> CompactionValidator:
    """A ``CompactionValidator`` for ``EventsCompactionConfig(validator=...)``."""
    entity_patterns = patterns or EntityPatterns.default()
    instructions = instruction_patterns or InstructionPatterns.default()

    def check(compaction_event: Event, window: Sequence[Event]) -> list[str]:
        compaction = compaction_event.actions.compaction
        if compaction is None:
            return ["the event is not a compaction"]
        problems: list[str] = []
        known = {e.id for e in window}
        unknown = [i for i in compaction.event_ids if i not in known]
        if unknown:
            problems.append(f"covers events outside its window: {', '.join(unknown[:5])}")
        payload = compaction_payload(compaction_event)
        record = stored_record(payload["record"]) if payload and payload.get("record") else None
        text = record.text() if record is not None else _text(compaction_event)
        parsed = ParsedTranscript(transcript_lines(window, max_tool_chars=max_tool_chars))
        evidence = Evidence(parsed, window)
        previous_id, previous_items, previous_text = _previous(payload)
        if previous_id is not None:
            evidence.carry(previous_id, previous_items, record=True)
        if record is not None:
            problems += _record_problems(record, evidence, entity_patterns)
        closing = _closing(window)
        expected = transcript_entities(parsed, entity_patterns)
        if previous_text:
            (kept,) = item_entities([previous_text], entity_patterns, evidence)
            for entity in kept:
                if entity.key not in expected:
                    expected[entity.key] = ExpectedEntity(entity, ())
        for missing in missing_entities(text, expected, entity_patterns):
            if any(u.holds(missing.entity) for u in closing):
                continue  # the window closed it
            where = "the previous compaction" if not missing.event_ids else "the window"
            problems.append(
                f"dropped {missing.entity.shown()} ({missing.entity.name}), which {where} holds"
            )
        if (found := instructions.search(text)) is not None:
            problems.append(f"carries instruction-like text: {found!r}")
        return problems

    return check


def _text(event: Event) -> str:
    compaction = event.actions.compaction
    return "".join(p.text or "" for p in compaction.summary.parts) if compaction else ""


def _record_problems(
    record: SummaryRecord, evidence: Evidence, patterns: EntityPatterns
) -> list[str]:
    """A compaction record checked like a summary: sources present and citable, entities held."""
    problems: list[str] = []
    for path, item in record.items():
        if not item.sources:
            problems.append(f"{path} cites no event")
        for source in item.sources:
            if not evidence.cites(source):
                problems.append(f"{path} cites {source!r}, which is not in its window")
    _, labels = label_record(record, evidence, patterns)
    for path, label in labels:
        if label.unsupported:
            shown = ", ".join(e.shown() for e in label.unsupported)
            problems.append(f"{path}: cited events do not support {shown}")
    return problems
