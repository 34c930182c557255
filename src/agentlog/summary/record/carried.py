"""What agentlog's own events carry: the record of a compaction, the record of a handoff.

Items can cite a compaction event (its summary stands in for the events it covers) or the
first event of a handoff session (it holds the checked record of the session before). Neither
is evidence by itself: a compactor's sentence is a model's paraphrase, and a handoff repeats a
record written elsewhere. What they carry is read back here, line by line with its label, so
that provenance (:mod:`agentlog.summary.record.evidence`) can pass through them:

- a **compaction** with a record (:func:`agentlog.compaction.summarizer.compaction_payload`)
  gives its items, each with its sources and the authors code recorded for them; a plain-text
  compaction gives its text and the ids of the events it covers;
- a **handoff** gives the lines :func:`~agentlog.summary.uses.handoff.render_handoff` wrote: each
  item with the label it had in the checked record of the source session (``user_claim``,
  ``agent_statement`` or ``verified``) and its sources there. A handoff written before labels
  were decided by evidence (its header lacks ``EVIDENCE_HEADER``) gives no ``verified``
  line: its unmarked lines read as agent statements. The marks are the handoff's own
  (:mod:`agentlog.summary.uses.handoff`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from agentlog.compaction.summarizer import compaction_payload
from agentlog.events import Event
from agentlog.summary.record.marks import (
    AGENT_MARK,
    CLAIM_ASKS_MARK,
    CLAIM_MARK,
    EVIDENCE_HEADER,
    GOAL_AGENT,
    GOAL_CLAIM,
)
from agentlog.summary.record.schema import SECTIONS, Provenance, SummaryItem, SummaryRecord

__all__ = [
    "AGENT_MARK",
    "CLAIM_ASKS_MARK",
    "CLAIM_MARK",
    "EVIDENCE_HEADER",
    "GOAL_AGENT",
    "GOAL_CLAIM",
    "CarriedItem",
    "compaction_items",
    "handoff_items",
    "stored_record",
]

_ITEM: Final = re.compile(r"- (.*?)(?: \[([^\[\]]*)\])?")
_GOAL: Final = re.compile(
    r"Goal(?: \((the customer's|an agent's) words, not verified\))?: (.*?)(?: \[([^\[\]]*)\])?"
)


@dataclass(frozen=True, slots=True)
class CarriedItem:
    """One item an event of agentlog's carries, as read back from it."""

    text: str
    sources: tuple[str, ...]
    authors: tuple[str, ...] = ()
    label: Provenance | None = None
    """The label it had where it was checked (a handoff's); ``None`` when none was decided."""


def stored_record(record: dict[str, Any]) -> SummaryRecord | None:
    """A compaction payload's record as a ``SummaryRecord`` (labels unset), or ``None``."""
    try:
        return SummaryRecord.model_validate(
            {
                "goal": record.get("goal", ""),
                "goal_sources": tuple(record.get("goal_sources") or ()),
                "goal_authors": tuple(record.get("goal_authors") or ()),
                **{
                    section: tuple(
                        SummaryItem(
                            text=item["text"],
                            sources=tuple(item.get("sources") or ()),
                            authors=tuple(item.get("authors") or ()),
                        )
                        for item in record.get(section) or ()
                    )
                    for section in SECTIONS
                },
            }
        )
    except (ValueError, KeyError, TypeError):
        return None


def compaction_items(event: Event) -> tuple[list[CarriedItem], bool]:
    """The items a compaction event carries, and whether they come from a record (``False``:
    one item, its text, citing every event it covers)."""
    compaction = event.actions.compaction
    if compaction is None:
        return [], False
    payload = compaction_payload(event)
    record = stored_record(payload["record"]) if payload and payload.get("record") else None
    if record is None:
        text = "".join(p.text or "" for p in compaction.summary.parts)
        return [CarriedItem(text, tuple(compaction.event_ids))], False
    items = [CarriedItem(i.text, i.sources, i.authors) for _, i in record.items()]
    if record.goal:
        items.insert(0, CarriedItem(record.goal, record.goal_sources, record.goal_authors))
    return items, True


def _sources(raw: str | None) -> tuple[str, ...]:
    return tuple(s.strip() for s in (raw or "").split(",") if s.strip())


def handoff_items(text: str) -> Iterator[CarriedItem]:
    """The goal and items of a handoff event's text, each with its label."""
    trusted = EVIDENCE_HEADER in text
    plain: Provenance = "verified" if trusted else "agent_statement"
    # Only "\n" ends a line: render_handoff writes no other, and a line or paragraph separator
    # inside an item (which str.splitlines would break at) must not start a line of its own.
    for line in text.replace("\r\n", "\n").split("\n"):
        goal = _GOAL.fullmatch(line)
        if goal is not None:
            label: Provenance = plain
            if goal[1] is not None:
                label = "user_claim" if goal[1] == "the customer's" else "agent_statement"
            elif not trusted:
                label = "user_claim"  # an old handoff's goal: the customer's request, unchecked
            if goal[2] != "(not stated)":
                yield CarriedItem(goal[2], _sources(goal[3]), label=label)
            continue
        item = _ITEM.fullmatch(line)
        if item is None or item[1] == "none":
            continue
        body = item[1]
        if body.startswith((CLAIM_MARK, CLAIM_ASKS_MARK)):
            yield CarriedItem(body[len(CLAIM_MARK) :], _sources(item[2]), label="user_claim")
        elif body.startswith(AGENT_MARK):
            yield CarriedItem(body[len(AGENT_MARK) :], _sources(item[2]), label="agent_statement")
        else:
            yield CarriedItem(body, _sources(item[2]), label=plain)
