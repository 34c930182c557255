"""A tool payload read as of its event's time: an approval dated after the result that holds it
is not yet so, and one whose validity ended before it is no longer so (:mod:`._walk`)."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["DATE", "AsOf", "as_of", "day_of"]

DATE: Final = re.compile(r"(\d{4}-\d{2}-\d{2})(?![\d-])")
"""An ISO 8601 date at a value's start (a date-time's too: ``2026-09-21T10:00:00Z``)."""


class AsOf(dict[str, Any]):
    """A payload (a call's arguments, a result) that knows the day its event happened."""

    __slots__ = ("changed", "day", "failed")

    def __init__(
        self,
        payload: Mapping[str, Any],
        day: str,
        changed: frozenset[str] = frozenset(),
        failed: bool = False,
    ) -> None:
        super().__init__(payload)
        self.day = day
        """The event's day, ``YYYY-MM-DD`` in UTC."""
        self.changed = changed
        """Its top keys that a later result of the same call (one tool, equal arguments)
        answered otherwise: what they held, they held before (:mod:`._walk`)."""
        self.failed = failed
        """Whether it is a result saying its call did not go through: what it holds is what
        was asked, or what would have been, never a state it established."""

    # One payload as of two days is two readings: a check that reads a payload once for the
    # events holding it alike (``_unit``) must not lend one day's reading to the other.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, AsOf) and (
            other.day != self.day or other.changed != self.changed or other.failed != self.failed
        ):
            return False
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other


def day_of(timestamp: float) -> str:
    """The UTC day of an event's ``timestamp`` (seconds since the epoch), as ISO 8601."""
    return time.strftime("%Y-%m-%d", time.gmtime(timestamp))


_KNOWN: Final = 946_684_800.0
"""2000-01-01: an event before it has no real time (an import that gave none reads as the
epoch's first seconds), and a payload's dates are not read against it."""


def as_of(
    payload: Any, timestamp: float, changed: frozenset[str] = frozenset(), failed: bool = False
) -> Any:
    """``payload`` as an :class:`AsOf` of its event's day (a mapping of an event with a real
    time, :data:`_KNOWN`; anything else as is), ``changed`` its keys a later result undid,
    ``failed`` whether it reports its call's failure (a mapping of any time is read so)."""
    if isinstance(payload, dict) and payload and (timestamp >= _KNOWN or failed):
        return AsOf(payload, day_of(max(timestamp, _KNOWN)), changed, failed)
    return payload
