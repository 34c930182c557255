"""One session's extractive summary while it is drafted (:class:`Draft`): what every job of the
extractive summariser reads, and the items and notes each job leaves for the others. The jobs
(:mod:`._results`, :mod:`._things`, :mod:`._writes`, :mod:`._awaited`, :mod:`._conversation`,
:mod:`._commitments`, :mod:`._kept`) are functions that take the draft as their first argument."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from agentlog.events import Event
from agentlog.summary.record._scan import date_entities
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.schema import SummaryItem
from agentlog.transcript import TranscriptLine

__all__ = ["HANDOVER", "TRANSFER_TOOL", "Draft", "WriteParts"]

TRANSFER_TOOL: Final = "transfer_to_agent"
"""The transfer tool's name (``TransferToAgentTool.NAME``; the agents package is a layer up)."""
_REALISTIC: Final = 946_684_800.0
"""2000-01-01 UTC: a session's event time before this is not a clock's (a test's or an
evaluation set's timestamps count from 1970), so it dates nothing."""
HANDOVER: Final = ("transfer", "pass", "hand", "connect", "put", "route")
"""The verbs of a promise that a handover keeps ("I'll pass you to our returns team")."""

WriteParts: TypeAlias = tuple[
    str, list[tuple[str, str]], list[tuple[str, str]], tuple[str, str] | None
]
"""A write's decision in parts: its action, arguments, result and target."""


@dataclass(slots=True)
class Draft:
    """One session's items, in the order they are found, and what the jobs note for each other.

    Build one with :meth:`of`; the fields after ``calls`` start empty."""

    events: dict[str, Event]
    """The session's events, by id."""
    lines: Sequence[TranscriptLine]
    """The rendered transcript."""
    limit: int
    """An item's text is cut to about this many characters."""
    patterns: EntityPatterns
    instructions: InstructionPatterns | None
    """The instruction-like text to drop; ``None``: copy text as it is (nothing to clean)."""
    entities: dict[str, set[str]]
    """Per event id, the texts of the entities its lines hold."""
    order: dict[str, int]
    """Each event's position in the session."""
    calls: dict[str, tuple[str, str, Any]]
    """Per call id: its event's id, the tool's name and the arguments."""

    facts: list[SummaryItem] = field(default_factory=list)
    decisions: list[SummaryItem] = field(default_factory=list)
    open_questions: list[SummaryItem] = field(default_factory=list)
    promised: list[tuple[list[str], str]] = field(default_factory=list)
    """The agents' promises: sources, text."""
    awaiting: set[str] = field(default_factory=set)
    """The open questions that are outcomes awaited."""
    deadlines: set[str] = field(default_factory=set)
    """Of those, the ones an agent's clause says."""
    waits_on: dict[str, str] = field(default_factory=dict)
    """A result's awaited question: what waits."""
    settled: dict[tuple[str, str], int] = field(default_factory=dict)
    """A tool and a thing it read no longer waiting: where (a later status ends the wait)."""
    asked_by: dict[str, str] = field(default_factory=dict)
    """A result's awaited question: the tool's name."""
    wrote: list[tuple[int, str, list[str]]] = field(default_factory=list)
    """Each write's position, what it acted on and its events."""
    read_parts: dict[str, tuple[str, list[tuple[str, str]]]] = field(default_factory=dict)
    """Each read's fact, by its text: its title and fields."""
    asked_about: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Each read's fact of a lookup that asked something, by its text: its tool, its arguments
    and what it answered."""
    parts: dict[str, WriteParts] = field(default_factory=dict)
    """Each write's decision, by its text, in parts."""
    last_write: tuple[tuple[str, tuple[tuple[str, str], ...]], list[str], SummaryItem] | None = None
    """The last write's tool and arguments, each outcome so far of that call repeated, and its
    decision."""
    things: dict[tuple[str, str], tuple[list[tuple[str, str]], list[str]]] = field(
        default_factory=dict
    )
    """The things read so far: their key fields and cited events."""
    thing_at: dict[tuple[str, str], int] = field(default_factory=dict)
    """Where each thing's fact is."""
    thing_title: dict[tuple[str, str], str] = field(default_factory=dict)
    answers: dict[str, tuple[int, str, tuple[str, ...]]] = field(default_factory=dict)
    """Lookups that answered one identifier: where its fact is, what was asked, its sources."""
    said: set[str] = field(default_factory=set)
    """Values an item already shows: a record says each once."""
    unnamed: set[str] = field(default_factory=set)
    """Searches none of whose results the session named."""
    last_shown: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    """A repeated labelled part of prose results: its latest value and the events citing it."""
    done: list[tuple[int, str]] = field(default_factory=list)
    """What the agents did, where: (event position, verb), for promises kept at once."""
    today: str = ""
    """The day of the session's last event (``YYYY-MM-DD``), when its clock is realistic."""

    @classmethod
    def of(
        cls,
        events: Sequence[Event],
        lines: Sequence[TranscriptLine],
        limit: int,
        patterns: EntityPatterns,
        entities: dict[str, set[str]],
        instructions: InstructionPatterns | None,
    ) -> Draft:
        """An empty draft of the session of ``events``, rendered as ``lines``."""
        order = {e.id: i for i, e in enumerate(events)}
        draft = cls(
            events={e.id: e for e in events},
            lines=lines,
            limit=limit,
            patterns=patterns,
            instructions=instructions,
            entities=entities,
            order=order,
            calls={c.id: (e.id, c.name, c.args) for e in events for c in e.function_calls()},
        )
        last = max((e.timestamp for e in events), default=0.0)
        if last >= _REALISTIC:
            draft.today = time.strftime("%Y-%m-%d", time.gmtime(last))
        for ln in lines:
            if ln.kind == "transfer":
                draft.handed_over(order.get(ln.event_id, -1))
        return draft

    def item(self, text: str, sources: Iterable[str]) -> SummaryItem | None:
        """An item of ``text`` citing ``sources`` once each, its instruction-like sentences
        dropped; ``None`` when nothing is left of it."""
        if self.instructions is not None:
            text = self.instructions.drop(text)
            if not text:
                return None
        return SummaryItem(text=text, sources=tuple(dict.fromkeys(sources)))

    def add(self, items: list[SummaryItem], text: str, sources: Iterable[str]) -> None:
        """Append the item of ``text`` (:meth:`item`) to ``items``, unless it is there or empty."""
        item = self.item(text, sources)
        if item is not None and item not in items:
            items.append(item)

    def shown(self) -> str:
        """What the facts and decisions found so far say, one a line."""
        return "\n".join(i.text for i in (*self.facts, *self.decisions))

    def ended(self, text: str) -> bool:
        """Whether every date ``text`` holds (it holds one, with its year) is before the day of
        the session's last event: a deadline already past is not awaited (only with a
        realistic clock, :attr:`today`)."""
        if not self.today:
            return False
        days = [d.key.removeprefix("date:") for d in date_entities(text)]
        return bool(days) and all(not d.startswith("-") and d < self.today for d in days)

    def handed_over(self, at: int) -> None:
        """Note a handover at event position ``at``: it keeps a promise to hand over."""
        self.done.extend((at, v) for v in HANDOVER)
