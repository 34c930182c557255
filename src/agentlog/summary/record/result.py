"""What a summariser returns: ``SummaryResult``, and the ``Summarizer`` protocol.

A result holds a checked record or ``None``, never an unchecked one. With ``None`` the caller
gets the problems of each attempt and the raw transcript to fall back on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from agentlog.events import Event
from agentlog.sessions.base import Session
from agentlog.summary.record.schema import SummaryRecord
from agentlog.summary.record.validate import Problem

__all__ = ["SummaryInput", "SummaryResult", "Summarizer", "TokenPrice", "events_of"]

SummaryInput = Session | Sequence[Event]
"""What a summariser reads: a loaded session, or a session's events in order."""


@dataclass(frozen=True, slots=True)
class TokenPrice:
    """What one model charges, in any currency, per million tokens."""

    input_per_million: float
    output_per_million: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """The price of one call."""
        return (
            input_tokens * self.input_per_million + output_tokens * self.output_per_million
        ) / 1_000_000


class SummaryResult(BaseModel):
    """The outcome of summarising one session."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session_id: str | None = Field(default=None, description="The session summarised, if known.")
    summarizer: str = Field(description="What wrote it: 'llm:<model>' or 'extractive'.")
    record: SummaryRecord | None = Field(
        description="The checked record with provenance set; None when no attempt passed."
    )
    attempts: int = Field(ge=0, description="Attempts made: 1, or 2 after a retry.")
    problems: tuple[tuple[Problem, ...], ...] = Field(
        default=(), description="The problems of each attempt, in order; a passing one is empty."
    )
    outputs: tuple[str, ...] = Field(default=(), description="The raw output of each attempt.")
    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens over all attempts.")
    output_tokens: int = Field(default=0, ge=0, description="Output tokens over all attempts.")
    cost: float = Field(default=0.0, ge=0, description="At the configured prices; 0 if unpriced.")
    entity_recall: float | None = Field(
        default=None, description="Recall of the last attempt that parsed; None if none did."
    )
    first_entity_recall: float | None = Field(
        default=None, description="Recall of the first attempt, if it parsed."
    )
    transcript: str | None = Field(
        default=None, description="The rendered transcript, when there is no record."
    )

    @property
    def ok(self) -> bool:
        """Whether a checked record was delivered."""
        return self.record is not None

    @property
    def first_attempt_passed(self) -> bool:
        """Whether the first attempt passed every check."""
        return self.record is not None and self.attempts == 1

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    @property
    def last_problems(self) -> tuple[Problem, ...]:
        """The problems of the last attempt (empty when it passed)."""
        return self.problems[-1] if self.problems else ()


@runtime_checkable
class Summarizer(Protocol):
    """Anything that turns a session into a checked ``SummaryResult`` (model or extractive)."""

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        """Summarise one session; never returns an unchecked record."""
        ...


def events_of(session: SummaryInput) -> tuple[tuple[Event, ...], str | None]:
    """The events and id of a summariser's input."""
    if isinstance(session, Session):
        return session.events, session.id
    events = getattr(session, "events", None)
    if events is not None:
        # An ImportedSession (a named tuple), or anything else carrying events and an id.
        return tuple(events), getattr(session, "session_id", None)
    return tuple(session), None
