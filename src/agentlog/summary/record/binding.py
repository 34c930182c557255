"""Binding: a tool payload says each of its words *of* something, not into a bag.

Evidence reads a payload's words (:mod:`.evidence`); an item is verified when the cited tool
traffic holds its words. But ``{"exchange": "approved", "refund": "denied"}`` holds "refund"
and "approved" and says neither of the other: "A-1001 refund approved" citing it launders
the customer's claim through a result that approved something else. So before an item is
verified, each payload it leans on is read as **leaves** (a key path and a value), and two
rules ask whether the payload says the item's words of the thing the item names:

1. **A state is said of its subject.** A word a leaf *states* (a word of a short string
   value, or the words of a key whose value is ``true``: ``"refund_approved": true``; a
   number or an identifier states no word, only its field's value) is said of the leaf's
   **subject**: the key itself for a word value under a key that names a thing
   (``"exchange": "approved"`` is said of the exchange), else the object holding the leaf
   (``"status": "approved"``, ``"approved": true``) and the keys above it; a string in a list
   is a member of the list's key (``"covers": ["leaks"]``). An item word that a cited payload
   states, but only of subjects the item does not name, is said of something else when the
   item names another field of that payload whose short state it does not say (the refund
   that was ``"denied"``) or when the word is a list's member: the item is not verified. A
   word stated at the payload's top level (what the tool was asked about), a word naming one
   of the payload's keys or its tool, and a word other cited evidence holds pass.
2. **A named field says its own value.** When an item names a field whose value is a word
   (all the words of the key: ``approved_refund``, ``approval``) but says none of the values
   any field of that name holds, and leans on a word another field states of another subject
   (``{"refund": {"requested": "full", "approved": "partial"}}`` for "full refund
   approved"), or names a field whose value is an amount and states another amount
   (``{"refund_approved": 12.5, "total": 84.0}`` for "refund of $84.00 approved"), the item
   misstates the field.

Keys that name no thing of their own (:data:`_GENERIC`: ``status``, ``state``, ``result``,
``type``, ...) make their value a state of their object; key words that only say a value is an
identifier (:data:`_NAME_WORDS`: ``id``, ``number``, ``code``) are not what an item names.
Prose (a string of :data:`_PROSE_WORDS` words or more) states nothing here: free text is
:mod:`.evidence`'s to read. Only the first :data:`_MAX_LEAVES` leaves of a payload are read.
The rules are about English keys and JSON structure, never about a domain's vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, NamedTuple

from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._words import content_words, forms

__all__ = ["Leaf", "Payload", "binds", "numbers_of", "read_payload"]

_GENERIC: Final = frozenset(
    {"status", "state", "result", "outcome", "decision", "verdict", "stage", "phase", "kind"}
    | {"type", "category", "value", "current", "overall", "final", "latest"}
)
"""Key words that name no thing: a value under them is a state of the object holding it."""
_NAME_WORDS: Final = frozenset(
    {"id", "ids", "no", "num", "number", "code", "ref", "reference", "key", "uuid"}
)
"""Key words that say a value is a name or an identifier, not which thing it is."""
_PROSE_WORDS: Final = 7
_MAX_LEAVES: Final = 4000
_MAX_DEPTH: Final = 12
_NUMBER: Final = re.compile(r"(?<![\w#/-])\d(?:[\d,.']*\d)?(?![\w/-])")
"""A number standing alone (not the digits of ``RUN-AERO-10`` or ``#W4418250``)."""
_NONE: Final[frozenset[str]] = frozenset()
_CAMEL: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")
_ID_SHAPE: Final = re.compile(r"(?=[^\s]*\d)[^\s]{3,64}")
"""A string value that reads as an identifier: one token of 3 to 64 characters with a digit."""


class Leaf(NamedTuple):
    """One scalar of a payload: the words it states and what it states them of."""

    states: frozenset[str]
    """The words the leaf says are so: a short string value's words, or, for a value of
    ``true``, the key's own words (a number or an identifier states none)."""
    subject: frozenset[str]
    """The words naming what it says them of (key path words, generic and naming words out)."""
    top: bool
    """Whether it is said of the payload as a whole (a leaf of the top object, not of a key)."""
    field: frozenset[str]
    """The leaf's own key words, naming words out (empty for a generic key or a list item)."""
    words: frozenset[str]
    """A word value's words (empty for any other value)."""
    amount: str | None
    """A number value as an amount key (``money:12.50``)."""
    value: str
    """A word value in lower case (empty for any other value)."""
    member: bool = False
    """A string in a list: said of the list's key only."""


def numbers_of(text: str) -> frozenset[str]:
    """Every number of an item's text as an amount key, currency or not (``fee 50.0``)."""
    return frozenset(k for k in map(amount_key, _NUMBER.findall(text)) if k is not None)


@lru_cache(maxsize=8192)
def _key_words(key: str) -> frozenset[str]:
    return frozenset(content_words(_CAMEL.sub(" ", key)))


@dataclass(frozen=True, slots=True)
class Payload:
    """A tool call's arguments or a result, read as leaves and indexed, for :func:`binds`."""

    tool: frozenset[str]
    """The tool name's words: what the whole payload is about."""
    leaves: tuple[Leaf, ...]
    keys: frozenset[str]
    """Every key word of the payload, at any depth."""
    stating: dict[str, tuple[Leaf, ...]]
    """The leaves stating each word."""
    fields: dict[frozenset[str], tuple[Leaf, ...]]
    """The leaves of each field name (a key that names a thing)."""
    states: tuple[Leaf, ...]
    """The leaves of a field or object whose value is a short word state (:func:`_is_state`),
    list members aside."""
    amounts: frozenset[str]
    """Every number the payload holds, as an amount key."""


def read_payload(tool: str, payload: Any) -> Payload:
    """The leaves of a JSON-like ``payload`` (mappings, lists and scalars) of tool ``tool``."""
    keys: set[str] = set()
    found: list[Leaf] = []
    _walk(payload, frozenset(), None, 0, keys, found)
    stating: dict[str, list[Leaf]] = {}
    fields: dict[frozenset[str], list[Leaf]] = {}
    for leaf in found:
        for word in leaf.states:
            stating.setdefault(word, []).append(leaf)
        if leaf.field:
            fields.setdefault(leaf.field, []).append(leaf)
    return Payload(
        _key_words(tool),
        tuple(found),
        frozenset(keys),
        {w: tuple(ls) for w, ls in stating.items()},
        {f: tuple(ls) for f, ls in fields.items()},
        tuple(leaf for leaf in found if not leaf.member and _is_state(leaf)),
        frozenset(leaf.amount for leaf in found if leaf.amount is not None),
    )


def _walk(
    node: Any,
    above: frozenset[str],
    last: frozenset[str] | None,
    depth: int,
    keys: set[str],
    found: list[Leaf],
) -> None:
    """Append the leaves of ``node`` to ``found``: ``above`` is the words of the keys over it
    (generic and naming words out), ``last`` the key words of the list holding it, if any."""
    if depth > _MAX_DEPTH or len(found) >= _MAX_LEAVES:
        return
    top = depth == 0
    if isinstance(node, dict):
        for key, value in node.items():
            words, naming, field, generic = _key_info(key if isinstance(key, str) else str(key))
            keys.update(words)
            if isinstance(value, dict | list | tuple):
                _walk(value, above | naming, words, depth + 1, keys, found)
            else:
                _leaf(words, field, generic, value, above, top, found)
    elif isinstance(node, list | tuple):
        for value in node:
            if isinstance(value, dict | list | tuple):
                _walk(value, above, None, depth + 1, keys, found)
            elif isinstance(value, str) and last is not None:
                _member(above, value, found)  # "covers": ["leaks"]: a member of "covers"
            else:
                _leaf(_NONE, _NONE, True, value, above, top, found)


@lru_cache(maxsize=8192)
def _key_info(key: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], bool]:
    """A key's words; those naming a thing (generic and naming words out); its field name
    (empty for a generic key); whether it is generic."""
    words = _key_words(key)
    generic = not words or not words.isdisjoint(_GENERIC)
    naming = words - _GENERIC - _NAME_WORDS
    return words, naming, (_NONE if generic else words - _NAME_WORDS), generic


def _leaf(
    key: frozenset[str],
    field: frozenset[str],
    generic: bool,
    value: Any,
    above: frozenset[str],
    top: bool,
    found: list[Leaf],
) -> None:
    if value is True:  # "refund_approved": true states its key of its object
        found.append(Leaf(key - _NAME_WORDS, above, top, field, _NONE, None, ""))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        # A field's name and its value: it states no word.
        amount = amount_key(repr(value)) if value == value and abs(value) < 1e15 else None
        found.append(Leaf(_NONE, above, top, field, _NONE, amount, ""))
    elif isinstance(value, str) and _worded(value):
        words = _value_words(value)
        if not words:
            return
        if generic:  # "status": "approved" is a state of its object
            found.append(Leaf(words, above, top, field, words, None, value.lower()))
        else:  # "exchange": "approved" is a state of the exchange
            found.append(Leaf(words, above | field, False, field, words, None, value.lower()))


def _worded(value: str) -> bool:
    """A string that may state words: not empty, not an identifier, not prose (free text is
    evidence's to read)."""
    return (
        bool(value)
        and len(value) <= 200
        and value.count(" ") < _PROSE_WORDS - 1
        and _ID_SHAPE.fullmatch(value) is None
    )


@lru_cache(maxsize=8192)
def _value_words(value: str) -> frozenset[str]:
    return frozenset(content_words(value))


def _member(subject: frozenset[str], value: str, found: list[Leaf]) -> None:
    """A string in a list: a member of the list's key, which an item must name."""
    if _worded(value):
        words = _value_words(value)
        if words:
            found.append(Leaf(words, subject, False, _NONE, words, None, "", True))


def _spoken(words: Collection[str]) -> frozenset[str]:
    """Every form of the item's plain words (negated and conditional ones aside)."""
    plain = [w for w in words if "~" not in w]
    return frozenset(plain).union(*map(forms, plain)) if plain else frozenset()


def binds(
    words: Collection[str],
    text_words: Collection[str],
    ids: Collection[str],
    amounts: Collection[str],
    payloads: Sequence[Payload],
    said: Callable[[str], bool] = lambda _: False,
) -> bool:
    """Whether each of ``payloads`` (a tool's name and the leaves of its call or result) says
    the item's words of what the item names (module docstring).

    ``words`` are the item's content words that need support (its entities' letters out),
    ``text_words`` all its content words (what it names, "pet" of ``PET-4471`` too), ``ids``
    its identifiers (lower case, no ``#``) and ``amounts`` the amount keys of its numbers
    (:func:`numbers_of`). A word for which
    ``said`` is true is held by cited evidence other than these payloads (a decision's text,
    a call shown without its payload) and needs no leaf.
    """
    spoken = _spoken(text_words)
    if not spoken or not payloads:
        return True
    keys = frozenset().union(*(p.keys for p in payloads))
    for word in words:
        if "~" in word or said(word):
            continue
        alternatives = forms(word) | {word}
        if not alternatives.isdisjoint(keys):
            continue  # a word that names a field is the item naming it, not a state it says
        if not _bound(alternatives, spoken, payloads):
            return False
    return not any(_misstated(p, spoken, ids, amounts) for p in payloads)


def _bound(
    alternatives: frozenset[str],
    spoken: frozenset[str],
    payloads: Sequence[Payload],
) -> bool:
    """Rule 1 for one word (in its forms): no payload states it, or one states it of the
    payload as a whole or of a subject the item names, or (but for a list's member) while
    the item names no other part of that payload that says something the item does not."""
    stated = False
    for payload in payloads:
        if not alternatives.isdisjoint(payload.tool):
            return True
        for word in alternatives:
            for leaf in payload.stating.get(word, ()):
                stated = True
                if leaf.top or not leaf.subject.isdisjoint(spoken):
                    return True
                if not leaf.member and not _competing(payload.states, spoken, leaf):
                    return True
    return not stated


def _competing(leaves: Sequence[Leaf], spoken: frozenset[str], stating: Leaf) -> bool:
    """Whether the item names another field of the payload whose state (``leaves``: the
    payload's short word values) it does not say: ``"refund": "denied"`` beside the
    ``"exchange": "approved"`` that "refund approved" leans on."""
    return any(
        leaf is not stating
        and leaf.states.isdisjoint(spoken)
        and not (leaf.subject | leaf.field).isdisjoint(spoken)
        for leaf in leaves
    )


def _is_state(leaf: Leaf) -> bool:
    """A word value short enough to be a state (``approved``, ``on hold``), not a name."""
    return (
        bool(leaf.words)
        and len(leaf.value.split()) <= 3
        and not any(c.isdigit() for c in leaf.value)
    )


def _misstated(
    payload: Payload, spoken: frozenset[str], ids: Collection[str], amounts: Collection[str]
) -> bool:
    """Rule 2: the item names a field and says another value than any field of that name."""
    leaves = payload.leaves
    for field, named in payload.fields.items():
        if not field <= spoken:
            continue
        if any(not leaf.words.isdisjoint(spoken) or leaf.value in ids for leaf in named):
            continue
        if any(leaf.amount is not None and leaf.amount in amounts for leaf in named):
            continue
        worded = [leaf for leaf in named if _is_state(leaf)]
        counted = any(leaf.amount is not None for leaf in named)
        if (
            counted
            and not worded
            and not payload.amounts.isdisjoint(amounts)
            and _unnamed_amount(leaves, spoken, amounts)
        ):
            return True  # "refund of $84.00 approved" where the field approved 12.50
        if worded and len(worded) == len(named) and _elsewhere(payload.states, spoken):
            return True
    return False


def _unnamed_amount(
    leaves: Sequence[Leaf], spoken: frozenset[str], amounts: Collection[str]
) -> bool:
    """Whether the item states a number that only fields it does not name hold (the total
    it puts in place of the approved amount)."""
    named = {leaf.amount for leaf in leaves if leaf.field and leaf.field <= spoken}
    held = {leaf.amount for leaf in leaves if leaf.amount is not None}
    return any(a in held and a not in named for a in amounts)


def _elsewhere(leaves: Sequence[Leaf], spoken: frozenset[str]) -> bool:
    """Whether the item leans on a word that a field it does not name states (``leaves``:
    the payload's short word values; the value it puts in place of the named field's own)."""
    return any(
        leaf.field and not leaf.field <= spoken and not leaf.words.isdisjoint(spoken)
        for leaf in leaves
    )
