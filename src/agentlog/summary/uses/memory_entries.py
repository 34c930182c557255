"""``memory_entries``: a checked record's facts and commitments as memory-store entries.

Plain dicts with exactly the fields of ``agentlog.memory.MemoryEntry`` (``app_name``,
``user_id``, ``session_id``, ``event_ids``, ``kind``, ``text``, ``provenance``), so they go
straight to ``MemoryService.add`` without this module depending on the memory package.

Each entry keeps its item's label as the validator set it: ``verified``, ``agent_statement``
or ``user_claim``, the three labels memory stores keep.
"""

from __future__ import annotations

from typing import Literal, TypedDict

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
) -> list[MemoryEntryFields]:
    """One entry per fact and commitment (and, by default, per decision, as a fact).

    Open questions are left out: they go stale as soon as someone answers them. Raises
    ``ValueError`` for a record whose provenance is not set (an unchecked record).
    """
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
