"""``memory_entries``: a checked record's facts and commitments as memory-store entries.

Plain dicts with exactly the fields of ``agentlog.memory.MemoryEntry`` (``app_name``,
``user_id``, ``session_id``, ``event_ids``, ``kind``, ``text``, ``provenance``), so they go
straight to ``MemoryService.add`` without this module depending on the memory package.

Each entry keeps its item's label as the validator set it: ``verified``, ``agent_statement``
or ``user_claim``, the three labels memory stores keep. Given the session's events, the labels
are decided again by code first, as :func:`start_handoff` does: a record parsed from a model's
output without the validator carries the labels the model wrote.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypedDict

from agentlog.events import Event
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.provenance import label_provenance
from agentlog.summary.record.schema import Provenance, Section, SummaryRecord

__all__ = ["MemoryEntryFields", "memory_entries"]


class MemoryEntryFields(TypedDict):
    """The fields of one memory entry."""

    app_name: str
    user_id: str
    session_id: str
    event_ids: list[str]
    kind: Literal["fact", "commitment"]
    text: str
    provenance: Provenance


def memory_entries(
    record: SummaryRecord,
    *,
    app_name: str,
    user_id: str,
    session_id: str,
    include_decisions: bool = True,
    events: Iterable[Event] | None = None,
    patterns: EntityPatterns | None = None,
) -> list[MemoryEntryFields]:
    """One entry per fact and commitment (and, by default, per decision, as a fact).

    Open questions are left out: they go stale as soon as someone answers them. With
    ``events`` (the session's), every label is decided again from them (with the validator's
    ``patterns`` if it had domain ones); without, raises ``ValueError`` for a record whose
    provenance is not set (an unchecked record).
    """
    if events is not None:
        record = label_provenance(record, events, patterns=patterns)
    sections: list[tuple[Section, Literal["fact", "commitment"]]] = [("facts", "fact")]
    if include_decisions:
        sections.append(("decisions", "fact"))
    sections.append(("commitments", "commitment"))
    entries: list[MemoryEntryFields] = []
    for section, kind in sections:
        for item in record.section(section):
            if item.provenance is None:
                raise ValueError("the record's provenance is not set: store only checked records")
            entries.append(
                MemoryEntryFields(
                    app_name=app_name,
                    user_id=user_id,
                    session_id=session_id,
                    event_ids=list(item.sources),
                    kind=kind,
                    text=item.text,
                    provenance=item.provenance,
                )
            )
    return entries
