"""The goal of an extractive record: the customer's request from their first message
(:func:`goal_parts`), at most about 100 characters, its instruction-like sentences dropped."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from agentlog.summary.record._sentences import goal_parts
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.provenance import USER_AUTHOR
from agentlog.transcript import TranscriptLine

__all__ = ["first_request", "goal"]

_GOAL_CHARS: Final = 100
"""The goal is cut to about this many characters (entities lost by the cut are kept by an
item)."""


def first_request(lines: Sequence[TranscriptLine]) -> TranscriptLine | None:
    """The customer's first message, which the goal is taken from (``None``: they said none)."""
    return next((ln for ln in lines if ln.kind == "text" and ln.author == USER_AUTHOR), None)


def goal(
    request: TranscriptLine | None, max_chars: int, instructions: InstructionPatterns | None
) -> tuple[str, str]:
    """The goal's two parts (:func:`goal_parts`) from the ``request`` of :func:`first_request`:
    the request, cut to ``max_chars`` if that is less than about 100, and the bracketed
    identifiers the cut left out; each without the ``instructions``' sentences."""
    limit = min(_GOAL_CHARS, max_chars)
    asked, also = goal_parts(request.body, limit) if request else ("", "")
    if instructions is not None:
        asked, also = instructions.drop(asked), instructions.drop(also)
    return asked, also
