"""One check's readings: within a scope (one validation, one summary), the readings of a text
that depend on the text alone (its spaced words, what a payload establishes) are made once and
remembered; they are forgotten when the scope ends.

A record's checks read the same texts many times (an item's clauses, a payload cited by
several items, the events holding an identifier), and a summariser reads the session before
its validator reads it again. A process-wide cache would keep every session's texts (one
leaked memory before); a scope keeps one check's, in a context variable, so threads and tasks
each have their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from agentlog.summary.record.leaves import Payload

__all__ = ["Readings", "current", "one_check"]


class Readings:
    """What one scope has read, by text."""

    __slots__ = (
        "established",
        "key_words",
        "payloads",
        "searched",
        "spaced",
        "spaced_plain",
        "summary_keys",
    )

    def __init__(self) -> None:
        self.spaced: dict[str, str] = {}
        """A text's letters, spaced, hedges read (:func:`._words._spaced`)."""
        self.spaced_plain: dict[str, str] = {}
        """The same, hedges not read."""
        self.established: dict[str, str] = {}
        """What a rendered payload establishes (:func:`._payload.established`)."""
        self.key_words: dict[str, str] = {}
        """A key or a tool's name as words (:func:`._extract.words_of`)."""
        self.searched: dict[tuple[object, str], str | None] = {}
        """What a set of instruction patterns finds in a text
        (:meth:`.instructions.InstructionPatterns.search`): a summariser searches its record
        before the validator searches it again."""
        self.summary_keys: dict[tuple[object, str], frozenset[str]] = {}
        """The keys a set of entity patterns reads in a record's text
        (:meth:`.entities.EntityPatterns.summary_keys`)."""
        self.payloads: dict[tuple[str, str], tuple[Any, Payload]] = {}
        """A tool payload and its leaves (:func:`._walk.read_payload`), by its tool's name
        and its whole rendered line: a session that reads the same order twice holds two
        events with one payload (:meth:`._unit.Unit.leaves`)."""


_CURRENT: Final[ContextVar[Readings | None]] = ContextVar("agentlog_readings", default=None)


def current() -> Readings | None:
    """The readings of the scope running, ``None`` outside any."""
    return _CURRENT.get()


@contextmanager
def one_check() -> Iterator[Readings]:
    """A scope for one check (nested, the outer one's readings are shared)."""
    readings = _CURRENT.get()
    if readings is not None:
        yield readings
        return
    readings = Readings()
    token = _CURRENT.set(readings)
    try:
        yield readings
    finally:
        _CURRENT.reset(token)
