"""The summary contract: ``SummaryRecord`` and its items, and the JSON schema a model is asked for.

A record has a ``goal`` and four lists: ``facts``, ``decisions``, ``commitments`` (promises made
to the user) and ``open_questions``. Every item cites the events it came from. ``provenance`` is
filled in by code from the authors of those events (:mod:`agentlog.summary.provenance`); the
schema the model is given has no such field, and a label the model adds anyway is dropped.
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

Provenance = Literal["verified", "user_claim"]
"""``user_claim`` when every cited event is user-authored; otherwise ``verified``."""

Section = Literal["facts", "decisions", "commitments", "open_questions"]
"""The four item lists of a record."""

SECTIONS: Final[tuple[Section, ...]] = ("facts", "decisions", "commitments", "open_questions")


class SummaryItem(BaseModel):
    """One line of a record and the events it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1, description="What is recorded, identifiers copied exactly.")
    sources: tuple[str, ...] = Field(default=(), description="Ids of the events it came from.")
    provenance: Provenance | None = Field(
        default=None, description="Set by code from the cited events' authors; None until then."
    )


class SummaryRecord(BaseModel):
    """A checked summary of one session, for a reader who cannot ask."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str = Field(description="What the user wanted.")
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
        """Every cited event id, once each, in order of first citation."""
        return list(dict.fromkeys(s for _, item in self.items() for s in item.sources))


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
            "facts": listing("What was established (tool results, confirmed details)."),
            "decisions": listing("What was decided or done (actions taken)."),
            "commitments": listing("Promises the agent made to the user."),
            "open_questions": listing("What is still unanswered or pending."),
        },
        "required": ["goal", *SECTIONS],
        "additionalProperties": False,
    }
