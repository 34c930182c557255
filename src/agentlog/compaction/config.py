"""``EventsCompactionConfig``: when to compact a session, and with what."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from agentlog.errors import InvalidConfigError
from agentlog.events import Event

if TYPE_CHECKING:
    from agentlog.compaction.summarizer import BaseEventsSummarizer

__all__ = ["CompactionValidator", "EventsCompactionConfig"]

CompactionValidator: TypeAlias = Callable[[Event, Sequence[Event]], Sequence[str]]
"""Checks a compaction event against the window it summarises (the events it covers, in
order) and returns the problems found; any problem and the compaction is not stored."""


@dataclass(frozen=True, slots=True)
class EventsCompactionConfig:
    """Sliding-window compaction settings (SPEC 5), checked when made.

    Args:
        compaction_interval: compact once at least this many invocations are newer than the
            end of the latest compaction (at least 1).
        overlap_size: invocations before those that the next window takes in again, for
            continuity (0 or more).
        summarizer: turns a window into one compaction event.
        token_threshold: with ``event_retention_size``, a second trigger: when the prompt of
            the last model call reached this many tokens, compact all but the last
            ``event_retention_size`` events. Both or neither.
        event_retention_size: events kept as they are by the token trigger.
        summarizer_timeout: seconds the summariser may take before the attempt is abandoned.
        validator: checks a summary before it is stored (e.g. that it kept every identifier
            and amount in its window); a summary with problems is not stored.
    """

    compaction_interval: int
    overlap_size: int
    summarizer: BaseEventsSummarizer
    token_threshold: int | None = None
    event_retention_size: int | None = None
    summarizer_timeout: float = field(default=60.0, kw_only=True)
    validator: CompactionValidator | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        _whole(self.compaction_interval, "compaction_interval", minimum=1)
        _whole(self.overlap_size, "overlap_size", minimum=0)
        if (self.token_threshold is None) != (self.event_retention_size is None):
            raise InvalidConfigError(
                "token_threshold and event_retention_size are set together or not at all; "
                f"got token_threshold={self.token_threshold!r}, "
                f"event_retention_size={self.event_retention_size!r}"
            )
        if self.token_threshold is not None:
            _whole(self.token_threshold, "token_threshold", minimum=1)
        if self.event_retention_size is not None:
            _whole(self.event_retention_size, "event_retention_size", minimum=0)
        timeout = self.summarizer_timeout
        if isinstance(timeout, bool) or not isinstance(timeout, int | float):
            raise InvalidConfigError(f"summarizer_timeout must be a number, not {timeout!r}")
        if not (math.isfinite(timeout) and timeout > 0):
            raise InvalidConfigError(f"summarizer_timeout must be above 0, got {timeout!r}")
        if not callable(getattr(self.summarizer, "summarize_events", None)):
            raise InvalidConfigError(
                "summarizer must have an async summarize_events(events) method, "
                f"not {type(self.summarizer).__name__}"
            )
        if self.validator is not None and not callable(self.validator):
            raise InvalidConfigError("validator must be callable")

    @property
    def has_token_trigger(self) -> bool:
        """Whether the token trigger is configured."""
        return self.token_threshold is not None and self.event_retention_size is not None


def _whole(value: object, name: str, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidConfigError(f"{name} must be a whole number, not {value!r}")
    if value < minimum:
        raise InvalidConfigError(f"{name} must be at least {minimum}, got {value}")
