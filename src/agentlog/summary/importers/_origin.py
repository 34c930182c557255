"""Who an imported event may say wrote it: not agentlog itself. A handoff's first event and a
compactor's summary are records agentlog writes, and the labeller reads them through by their
author (a handoff's verified lines stand as evidence); a file that names them as its authors
claims a check that never ran, so the import refuses it (``ReservedAuthorError``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from agentlog.compaction.summarizer import COMPACTOR_AUTHOR
from agentlog.errors import DuplicateEventError, ReservedAuthorError
from agentlog.summary.record.evidence import USER_AUTHOR
from agentlog.summary.record.marks import HANDOFF_AUTHOR

__all__ = ["RESERVED_AUTHORS", "check_author", "check_unique"]

RESERVED_AUTHORS: Final = frozenset({HANDOFF_AUTHOR, COMPACTOR_AUTHOR})
"""The authors of the records agentlog writes itself, which no imported event may have."""


def check_author(event_id: str, author: str) -> str:
    """``author``, or ``ReservedAuthorError`` when it is one of :data:`RESERVED_AUTHORS`
    (case and spacing aside: ``Handoff `` reads as the same name to a person), or reads as the
    user's without being it (``User``, `` user``: the customer's words under an agent's name)."""
    read = author.strip().casefold()
    if read in RESERVED_AUTHORS or (read == USER_AUTHOR and author != USER_AUTHOR):
        raise ReservedAuthorError(event_id, author)
    return author


def check_unique(session_id: str, event_ids: Iterable[str]) -> None:
    """``DuplicateEventError`` for the first id given twice: a record's citation of it would
    read two events as one (a customer's message and a tool's result)."""
    seen: set[str] = set()
    for event_id in event_ids:
        if event_id in seen:
            raise DuplicateEventError(session_id, event_id)
        seen.add(event_id)
