"""The summary contract: ``SummaryRecord`` and its items, and the JSON schema a model is asked for.

A record has a ``goal`` and four lists: ``facts``, ``decisions``, ``commitments`` (promises made
to the user) and ``open_questions``. Every item cites the events it came from, and so may the
goal (``goal_sources``). ``provenance`` (and ``goal_provenance``) is decided by code from what
the cited events contain (:mod:`agentlog.summary.record.provenance`), and ``authors`` records who
wrote each cited event; the schema the model is given has neither, and a label the model adds
anyway is dropped.

Records stored before labels were decided by evidence load unchanged: the fields added since
have defaults (no goal sources, no authors, no goal label), and their labels stay as stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "SECTIONS",
    "Provenance",
    "Section",
    "SummaryItem",
    "SummaryRecord",
    "model_output_schema",
]

Provenance = Literal["verified", "agent_statement", "user_claim"]
"""Whose word an item rests on: ``verified`` when a cited tool call or result (or a
deterministic agent's decision) holds what it says, ``agent_statement`` when an agent's prose
does, ``user_claim`` when only the customer's words do (see :mod:`.provenance`)."""

Section = Literal["facts", "decisions", "commitments", "open_questions"]
"""The four item lists of a record."""

SECTIONS: Final[tuple[Section, ...]] = ("facts", "decisions", "commitments", "open_questions")


class SummaryItem(BaseModel):
    """One line of a record and the events it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1, description="What is recorded, identifiers copied exactly.")
    sources: tuple[str, ...] = Field(default=(), description="Ids of the events it came from.")
    provenance: Provenance | None = Field(
        default=None, description="Set by code from what the cited events hold; None until then."
    )
    authors: tuple[str, ...] = Field(
        default=(), description="The author of each cited event, in order; set by code."
    )


class SummaryRecord(BaseModel):
    """A checked summary of one session, for a reader who cannot ask."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str = Field(description="What the user wanted.")
    goal_sources: tuple[str, ...] = Field(
        default=(), description="Ids of the events the goal came from."
    )
    goal_authors: tuple[str, ...] = Field(
        default=(), description="The author of each event the goal cites; set by code."
    )
    goal_provenance: Provenance | None = Field(
        default=None, description="The goal's label, as for an item; None until set."
    )
    facts: tuple[SummaryItem, ...] = Field(default=(), description="What was established.")
    decisions: tuple[SummaryItem, ...] = Field(default=(), description="What was decided or done.")
    commitments: tuple[SummaryItem, ...] = Field(
        default=(), description="Promises made to the user."
    )
    open_questions: tuple[SummaryItem, ...] = Field(default=(), description="What is still open.")

    def items(self) -> Iterator[tuple[str, SummaryItem]]:
        """Every item with its path (``facts[0]``, ...), section by section."""
        for section in SECTIONS:
            for index, item in enumerate(getattr(self, section)):
                yield f"{section}[{index}]", item

    def section(self, name: Section) -> tuple[SummaryItem, ...]:
        """The items of one section."""
        items: tuple[SummaryItem, ...] = getattr(self, name)
        return items

    def text(self) -> str:
        """The goal and every item's text, one a line (what entity recall searches)."""
        return "\n".join([self.goal, *(item.text for _, item in self.items())])

    def cited_event_ids(self) -> list[str]:
        """Every cited event id (the goal's first), once each, in order of first citation."""
        cited = [*self.goal_sources, *(s for _, item in self.items() for s in item.sources)]
        return list(dict.fromkeys(cited))

    def goal_item(self) -> SummaryItem | None:
        """The goal as an item (its text, sources, authors and label), or ``None`` if empty."""
        if not self.goal.strip():
            return None
        return SummaryItem(
            text=self.goal,
            sources=self.goal_sources,
            authors=self.goal_authors,
            provenance=self.goal_provenance,
        )


def model_output_schema() -> dict[str, Any]:
    """The JSON schema the summary model must answer with (no ``provenance``: code sets it).

    Hand-written rather than generated so that it is the same small, strict shape for every
    provider's structured-output mode (no ``$defs``, every property required, nothing else).
    """
    item: dict[str, Any] = {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "One line; copy ids, amounts, dates."},
            "sources": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Ids of the transcript events that support this item.",
            },
        },
        "required": ["text", "sources"],
        "additionalProperties": False,
    }

    def listing(description: str) -> dict[str, Any]:
        return {"type": "array", "items": item, "description": description}

    return {
        "type": "object",
        "properties": {
            "goal": {"type": "string", "description": "What the user wanted."},
            "goal_sources": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Ids of the transcript events the goal comes from.",
            },
            "facts": listing("What was established (tool results, confirmed details)."),
            "decisions": listing("What was decided or done (actions taken)."),
            "commitments": listing("Promises the agent made to the user."),
            "open_questions": listing("What is still unanswered or pending."),
        },
        "required": ["goal", "goal_sources", *SECTIONS],
        "additionalProperties": False,
    }
