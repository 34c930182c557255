"""What a payload's key says, whatever its value: read once per key (:func:`key_info`).

A key's words (camel case split as snake case: ``refundStatus``) say what its value is of and
what kind of value it is, in English words of grammar, never a domain's:

- keys that name no thing of their own (:data:`GENERIC`: ``status``, ``state``, ``result``,
  ``type``, ...) make their value a state of their object, and a generic word beside a
  thing's name (``refund_status``, ``ExchangeStatus``) states its value of that thing, not of
  the object holding it (issue 13, round 6); key words that only say a value is an
  identifier (:data:`NAME_WORDS`: ``id``, ``number``, ``code``) are not what an item names;
- a key naming free text (a word of :data:`._payload._TEXT_KEYS` anywhere in the key:
  ``note_1``) holds a value that binds nothing (round 5);
- a key saying its object was undone (:data:`UNDOING`: ``"revoked": true``, ``withdrawn_at``,
  ``approval_revoked``, round 5; an ending key, ``superseded_by``, round 9) undoes the
  object's other states, unless the item says so too;
- a key saying its value held before (:data:`PAST`: ``was``, ``previous_status``, an object
  under ``old``) binds only an item that says so too (round 5);
- a key naming an act (a participle: ``approved``, ``paid``) states the act; its date may be a
  plan (:data:`_PLANNED`: ``scheduled_for``), or a time bound (:data:`_STARTS`:
  ``effective_from``; :data:`_ENDS`: ``expires_at``, ``valid_until``) (round 6);
- a key counting a currency's hundredths (:data:`_MINOR`: ``amount_cents``, ``minor_units``)
  holds that sum times 100 (round 7);
- a key may say its value is not a fact now (:mod:`._unreal`, round 9), that its object was
  cancelled (:mod:`._cancelled`) or that its number measures the others (:mod:`._measures`,
  round 10).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, NamedTuple

from agentlog.summary.record import _cancelled, _measures, _unreal
from agentlog.summary.record._payload import _TEXT_KEYS
from agentlog.summary.record._values import IRREGULAR, LETTER_RUN
from agentlog.summary.record._words import REVERSALS, content_words

__all__ = [
    "GENERIC",
    "ITEM",
    "Key",
    "NAME_WORDS",
    "PAST",
    "TIME_BOUNDS",
    "TIMES",
    "UNDOING",
    "key_info",
    "key_words",
]

_NONE: Final[frozenset[str]] = frozenset()

_WHAT: Final = frozenset({"kind", "type", "category"})
"""Key words whose value says what the object is (``"kind": "refund request"``), not a state."""
GENERIC: Final = _WHAT | frozenset(
    {"status", "state", "result", "outcome", "decision", "verdict", "stage", "phase"}
    | {"value", "current", "overall", "final", "latest"}
)
"""Key words that name no thing: a value under them is a state of the object holding it."""
_TEXT_WORDS: Final = frozenset(_TEXT_KEYS)
"""Key words that say a value is free text (:data:`._payload._TEXT_KEYS`), wherever they
stand in the key (``note_1``, ``text_saved``): a tool stores it, it establishes none of it."""
UNDOING: Final = REVERSALS - _cancelled.WORDS | _unreal.ENDED | {"void"}
"""Words saying a decision was undone or ended (``revoked``, ``withdrawn``, ``superseded``,
``void`` as ``voided``): a key that says one of its object undoes the object's other states.
Not "cancelled": an order that was cancelled may still have its refund approved, so a
cancellation undoes only what its own object says (:mod:`._cancelled`)."""

PAST: Final = frozenset(
    {"was", "were", "previous", "previously", "former", "formerly", "prior", "old", "past"}
    | {"earlier", "before", "then", "original", "originally"}
)
"""Words of a key saying its value held before, not now (``"was": "approved"``,
``previous_status``): English words of past time. An item leaning on it must say so too."""
_STARTS: Final = frozenset({"from", "start", "starts", "starting", "begin", "begins", "since"})
"""Words of a key saying its date is when its object comes into force (``effective_from``)."""
_ENDS: Final = frozenset(
    {"until", "till", "through", "thru", "expires", "expiry", "expiration", "expire", "expiring"}
    | {"end", "ends", "ending", "lapses", "expired"}
)
"""Words of a key saying its date is when its object stops being in force (``valid_until``)."""
TIME_BOUNDS: Final = _STARTS | _ENDS
"""Words of a key saying its date bounds when its object is in force (either end)."""
_MINOR: Final = frozenset({"cent", "cents", "minor", "pence", "penny", "pennies"})
"""Words of a key saying its number counts a currency's hundredth (``amount_cents``,
``minor_units``): ``8400`` there is 84.00, and "$8,400" is not what it holds."""
_UNITS: Final = frozenset(
    {"percent", "percentage", "pct", "points", "pts", "miles", "bps", "basispoints"}
)
"""Words of a key saying its number counts a unit that is not money (``credited_percent``,
``credited_points``, ``credited_miles``, ``discount_bps``): ``50`` there is no sum of $50.00."""
TIMES: Final = (
    _STARTS
    | _ENDS
    | frozenset(
        {"valid", "validity", "effective", "active", "date", "time", "day", "at", "on", "timestamp"}
    )
)
"""Words of a time bound's key that say when, not of what (``expires_at``, ``valid_until``)."""
_PLANNED: Final = frozenset(
    {"scheduled", "planned", "expected", "estimated", "projected", "due", "booked", "reserved"}
    | {"intended", "proposed", "requested", "promised", "targeted", "forecast", "forecasted"}
)
"""English words saying a date is a plan (``scheduled_for``): a later date is what they say."""

NAME_WORDS: Final = frozenset(
    {"id", "ids", "no", "num", "number", "code", "ref", "reference", "key", "uuid"}
)
"""Key words that say a value is a name or an identifier, not which thing it is."""

_CAMEL: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")


@lru_cache(maxsize=8192)
def key_words(key: str) -> frozenset[str]:
    """A key's content words (``refundStatus``: refund, status), read once per key."""
    # Camel case split as snake case is ("isRevoked" as "is_revoked"): a space would make a
    # hedge of a flag's word ("is revoked" reads "if~revoked"), and hide it.
    return frozenset(content_words(_CAMEL.sub("_", key)))


class Key(NamedTuple):
    """What a key's words say (:func:`key_info`)."""

    words: frozenset[str]
    naming: frozenset[str]
    """Its words naming a thing (generic and naming words out)."""
    field: frozenset[str]
    """Its field name (empty for a generic key)."""
    generic: bool
    what: bool
    """Whether its value says what the object is (:data:`_WHAT`)."""
    undoes: bool
    """Whether it says its object was undone (:data:`UNDOING`)."""
    names_id: bool
    """Whether it says its value is a name or an identifier (:data:`NAME_WORDS`)."""
    prose: bool
    """Whether it names free text (:data:`_TEXT_WORDS`)."""
    currency: bool
    past: bool
    """Whether it says its value held before (:data:`PAST`: ``was``, ``previous_status``)."""
    acts: frozenset[str] = _NONE
    """Its words naming an act done (English participles: ``approved``, ``paid``)."""
    starts: bool = False
    """Whether it names when its object comes into force (:data:`_STARTS`)."""
    ends: bool = False
    """Whether it names when its object stops being in force (:data:`_ENDS`)."""
    planned: bool = False
    """Whether it says its date is a plan (:data:`_PLANNED`)."""
    minor: bool = False
    """Whether it says its number counts a currency's minor unit (:data:`_MINOR`)."""
    unreal: frozenset[str] = _NONE
    """Its letter runs, when one may say its value is not a fact (:data:`._unreal.WORDS`)."""
    cancels: frozenset[str] = _NONE
    """Its words saying its object was cancelled (:data:`._cancelled.WORDS`)."""
    measures: frozenset[str] = _NONE
    """Its words saying its number measures the others (:data:`._measures.WORDS`)."""
    rare: bool = False
    """Whether it has :attr:`cancels` or :attr:`measures` (one test per key in the walk)."""
    units: bool = False
    """Whether it says its number counts a unit that is not money (:data:`_UNITS`)."""


ITEM: Final = Key(_NONE, _NONE, _NONE, True, False, False, False, False, False, False)
"""A scalar in a list: no key of its own."""


@lru_cache(maxsize=8192)
def key_info(key: str) -> Key:
    """What a key's words say (:class:`Key`)."""
    words = key_words(key)
    naming = words - GENERIC - NAME_WORDS
    # A generic word beside a thing's name ("refund_status") says the state of that thing.
    generic = not words or (not words.isdisjoint(GENERIC) and not naming)
    runs = frozenset(LETTER_RUN.findall(_CAMEL.sub(" ", key).lower()))
    return Key(
        words,
        naming,
        _NONE if generic else naming if not words.isdisjoint(GENERIC) else words - NAME_WORDS,
        generic,
        not words.isdisjoint(_WHAT),
        not words.isdisjoint(UNDOING),
        not words.isdisjoint(NAME_WORDS),
        not words.isdisjoint(_TEXT_WORDS),
        "currency" in words,
        not PAST.isdisjoint(runs),
        frozenset(w for w in words if _participle(w)),
        not runs.isdisjoint(_STARTS),
        not runs.isdisjoint(_ENDS),
        not runs.isdisjoint(_PLANNED),
        not runs.isdisjoint(_MINOR),
        runs if not runs.isdisjoint(_unreal.WORDS) else _NONE,
        words & _cancelled.WORDS,
        words & _measures.WORDS,
        not words.isdisjoint(_cancelled.WORDS) or not words.isdisjoint(_measures.WORDS),
        not runs.isdisjoint(_UNITS),
    )


def _participle(word: str) -> bool:
    """Whether a (folded) word is an English past participle: ``-ed``, or
    :data:`._values.IRREGULAR`."""
    return (word.endswith("ed") and len(word) > 4) or word in IRREGULAR
