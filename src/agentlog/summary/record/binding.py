"""Binding: a tool payload says each of its words *of* something, not into a bag.

Evidence reads a payload's words (:mod:`.evidence`); an item is verified when the cited tool
traffic holds its words. But ``{"exchange": "approved", "refund": "denied"}`` holds "refund"
and "approved" and says neither of the other: "A-1001 refund approved" citing it launders
the customer's claim through a result that approved something else. So before an item is
verified, each payload it leans on is read as **leaves** (a key path and a value), and two
rules ask whether the payload says the item's words of the thing the item names:

1. **A state is said of its subject.** A word a leaf *states* (a word of a short string
   value, or a key whose value is ``true``, a number or an identifier: ``"refund_approved":
   true``, ``"refunded_on": "2026-05-01"``) is said of the leaf's **subject**: the key itself
   for a word value under a key that names a thing (``"exchange": "approved"`` is said of the
   exchange), else the object holding the leaf (``"status": "approved"``, ``"approved": true``
   are said of their object, and of the objects holding it: a shipment of order A-1001 is
   about A-1001); a string in a list is a member of the list's key (``"covers": ["leaks"]``).
   An item word that some cited payload states only of subjects the item does not name (no
   word of the subject's key path; nor an identifier of its objects while the item names no
   other part of the payload; and not the payload's top level, which is what the tool was
   asked about) is said of something else: the item is not verified.
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
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

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
_CAMEL: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")
_ID_SHAPE: Final = re.compile(r"(?=[^\s]*\d)[^\s]{3,64}")
"""A string value that reads as an identifier: one token of 3 to 64 characters with a digit."""


@dataclass(frozen=True, slots=True)
class Leaf:
    """One scalar of a payload: the words it states and what it states them of."""

    states: frozenset[str]
    """The words the leaf says are so: a short string value's words, or, for a value of
    ``true``, a number or an identifier, the key's own words."""
    subject: frozenset[str]
    """The words naming what it says them of (key path words, generic and naming words out)."""
    subject_ids: frozenset[str]
    """The identifiers (lower case) of the object it says them of."""
    top: bool
    """Whether it is said of the payload as a whole (a leaf of the top object, not of a key)."""
    field: frozenset[str]
    """The leaf's own key words, naming words out (empty for a generic key or a list item)."""
    words: frozenset[str]
    """A word value's words (empty for any other value)."""
    amount: str | None
    """A number value as an amount key (``money:12.50``)."""
    key: frozenset[str]
    """The leaf's key words, as written."""
    value: str
    """A word value in lower case (empty for any other value)."""
    member: bool = False
    """A string in a list: said of the list's key only."""


def numbers_of(text: str) -> frozenset[str]:
    """Every number of an item's text as an amount key, currency or not (``fee 50.0``)."""
    return frozenset(k for k in map(amount_key, _NUMBER.findall(text)) if k is not None)


def _key_words(key: str) -> frozenset[str]:
    return frozenset(content_words(_CAMEL.sub(" ", key)))


def _object_ids(node: dict[str, Any]) -> frozenset[str]:
    return frozenset(
        v.lower().lstrip("#")
        for v in node.values()
        if isinstance(v, str) and _ID_SHAPE.fullmatch(v) is not None
    )


@dataclass(frozen=True, slots=True)
class Payload:
    """A tool call's arguments or a result, read as leaves, for :func:`binds`."""

    tool: frozenset[str]
    """The tool name's words: what the whole payload is about."""
    leaves: tuple[Leaf, ...]
    keys: frozenset[str]
    """Every key word of the payload, at any depth."""


def read_payload(tool: str, payload: Any) -> Payload:
    """The leaves of a JSON-like ``payload`` (mappings, lists and scalars) of tool ``tool``."""
    keys: set[str] = set()
    found: list[Leaf] = []
    for leaf in _walk(payload, (), frozenset(), 0, keys):
        found.append(leaf)
        if len(found) >= _MAX_LEAVES:
            break
    return Payload(_key_words(tool), tuple(found), frozenset(keys))


def _walk(
    node: Any, path: tuple[frozenset[str], ...], ids: frozenset[str], depth: int, keys: set[str]
) -> Iterator[Leaf]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        own = ids | _object_ids(node)  # a part of order A-1001 is about A-1001
        for key, value in node.items():
            words = _key_words(str(key))
            keys.update(words)
            if isinstance(value, dict | list | tuple):
                yield from _walk(value, (*path, words), own, depth + 1, keys)
            else:
                yield from _leaf(words, value, path, own)
    elif isinstance(node, list | tuple):
        for value in node:
            if isinstance(value, dict | list | tuple):
                yield from _walk(value, path, ids, depth + 1, keys)
            elif isinstance(value, str) and path:  # "covers": ["leaks"]: a member of "covers"
                yield from _member(path, value)
            else:
                yield from _leaf(frozenset(), value, path, ids)


def _leaf(
    key: frozenset[str], value: Any, path: tuple[frozenset[str], ...], ids: frozenset[str]
) -> Iterator[Leaf]:
    above = frozenset().union(*path) - _GENERIC - _NAME_WORDS
    generic = not key or not key.isdisjoint(_GENERIC)
    field = frozenset() if generic else key - _NAME_WORDS
    if isinstance(value, bool):
        if value:  # "refund_approved": true states its key of its object
            yield Leaf(key - _NAME_WORDS, above, ids, not path, field, frozenset(), None, key, "")
        return
    if isinstance(value, int | float):  # a field's name and its value: it states no word
        amount = amount_key(repr(value)) if value == value and abs(value) < 1e15 else None
        yield Leaf(frozenset(), above, ids, not path, field, frozenset(), amount, key, "")
        return
    if not isinstance(value, str) or not value or _ID_SHAPE.fullmatch(value) is not None:
        return
    words = frozenset(content_words(value))
    if not words or len(value.split()) >= _PROSE_WORDS:
        return
    if generic:  # "status": "approved" is a state of its object
        yield Leaf(words, above, ids, not path, field, words, None, key, value.lower())
    else:  # "exchange": "approved" is a state of the exchange
        yield Leaf(words, above | field, frozenset(), False, field, words, None, key, value.lower())


def _member(path: tuple[frozenset[str], ...], value: str) -> Iterator[Leaf]:
    """A string in a list: a member of the list's key, which an item must name."""
    words = frozenset(content_words(value))
    if words and _ID_SHAPE.fullmatch(value) is None and len(value.split()) < _PROSE_WORDS:
        subject = frozenset().union(*path) - _GENERIC - _NAME_WORDS
        yield Leaf(words, subject, frozenset(), False, frozenset(), words, None, path[-1], "", True)


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
    return not any(_misstated(p.leaves, spoken, ids, amounts) for p in payloads)


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
        leaves = payload.leaves
        for leaf in leaves:
            if alternatives.isdisjoint(leaf.states):
                continue
            stated = True
            if leaf.top or not leaf.subject.isdisjoint(spoken):
                return True
            if not leaf.member and not _competing(leaves, spoken, leaf):
                return True
    return not stated


def _competing(leaves: Sequence[Leaf], spoken: frozenset[str], stating: Leaf) -> bool:
    """Whether the item names another field of the payload whose state (a short word value)
    it does not say: ``"refund": "denied"`` beside the ``"exchange": "approved"`` that
    "refund approved" leans on."""
    return any(
        leaf is not stating
        and not leaf.member
        and _is_state(leaf)
        and not (leaf.subject | leaf.field).isdisjoint(spoken)
        and leaf.states.isdisjoint(spoken)
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
    leaves: Sequence[Leaf], spoken: frozenset[str], ids: Collection[str], amounts: Collection[str]
) -> bool:
    """Rule 2: the item names a field and says another value than any field of that name."""
    fields: dict[frozenset[str], list[Leaf]] = {}
    for leaf in leaves:
        if leaf.field and leaf.field <= spoken:
            fields.setdefault(leaf.field, []).append(leaf)
    for named in fields.values():
        if any(not leaf.words.isdisjoint(spoken) or leaf.value in ids for leaf in named):
            continue
        if any(leaf.amount is not None and leaf.amount in amounts for leaf in named):
            continue
        worded = [leaf for leaf in named if _is_state(leaf)]
        counted = any(leaf.amount is not None for leaf in named)
        if counted and not worded and _unnamed_amount(leaves, spoken, amounts):
            return True  # "refund of $84.00 approved" where the field approved 12.50
        if worded and len(worded) == len(named) and _elsewhere(leaves, spoken):
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
    """Whether the item leans on a word that a field it does not name states (the value it
    puts in place of the named field's own)."""
    return any(
        leaf.field
        and not leaf.field <= spoken
        and _is_state(leaf)
        and not leaf.words.isdisjoint(spoken)
        for leaf in leaves
    )
