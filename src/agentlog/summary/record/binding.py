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

Round 5 of the red team (issue 13) read more of the structure, each a rule of JSON or of
English grammar, never a domain's words:

- a string holding JSON is read as that JSON (``"payload": "{\\"refund\\": \\"denied\\"}"``);
- a **clause** (:func:`_clause`: a phrase naming its own subject, "refund approved",
  "manager approved full refund", or of three content words not written as a name) is said
  of its field only: an item leaning on it must name the field (``entry``, ``history``);
  a value under a key naming free text (a word of :data:`._payload._TEXT_KEYS` anywhere in
  the key: ``note_1``) binds nothing;
- a flag's key says what it is of (``address_change_approved``: of the address change), and
  the item naming what the payload is at its top (``"kind": "refund request"``) does not take
  the state of a part it does not name (``"address_change": {"approved": true}``), unless the
  part says it is that kind (``"type": "refund"``) or names a decision (``approval``);
- a key saying its object was undone (:data:`_UNDOING`: ``"revoked": true``,
  ``withdrawn_at``, ``approval_revoked``) undoes the object's other states, unless the item
  says so too;
- a key saying its value held before (:data:`_PAST`: ``was``, ``previous_status``, an
  object under ``old``) binds only an item that says so too;
- of records in a list told apart by a short code (a value of up to :data:`_CODE_CHARS`
  characters under a key of :data:`_NAME_WORDS`: ``R1``), an item writing one reads only
  that record;
- an amount in a payload whose currency (a field named for it, or any value that is an
  ISO 4217 code: ``"unit": "JPY"``) the item's sign or code cannot mean is not the item's
  (:mod:`._currency`).

Keys that name no thing of their own (:data:`_GENERIC`: ``status``, ``state``, ``result``,
``type``, ...) make their value a state of their object; key words that only say a value is an
identifier (:data:`_NAME_WORDS`: ``id``, ``number``, ``code``) are not what an item names.
Prose (a string of :data:`_PROSE_WORDS` words or more) states nothing here: free text is
:mod:`.evidence`'s to read. Only the first :data:`_MAX_LEAVES` leaves of a payload are read.
The rules are about English keys and JSON structure, never about a domain's vocabulary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from dataclasses import field as _default
from functools import lru_cache
from typing import Any, Final, NamedTuple

from agentlog.summary.record._currency import CURRENCY_CODES, item_currencies, may_be
from agentlog.summary.record._payload import _TEXT_KEYS, _decision_word
from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._words import REVERSALS, STOP_WORDS, content_words, forms

__all__ = ["Leaf", "Payload", "binds", "numbers_of", "read_payload"]

_WHAT: Final = frozenset({"kind", "type", "category"})
"""Key words whose value says what the object is (``"kind": "refund request"``), not a state."""
_GENERIC: Final = _WHAT | frozenset(
    {"status", "state", "result", "outcome", "decision", "verdict", "stage", "phase"}
    | {"value", "current", "overall", "final", "latest"}
)
"""Key words that name no thing: a value under them is a state of the object holding it."""
_TEXT_WORDS: Final = frozenset(_TEXT_KEYS)
"""Key words that say a value is free text (:data:`._payload._TEXT_KEYS`), wherever they
stand in the key (``note_1``, ``text_saved``): a tool stores it, it establishes none of it."""
_UNDOING: Final = REVERSALS - {"cancelled", "canceled"}
"""Words saying a decision was undone (``revoked``, ``reversed``, ``withdrawn``): a key that
says one of its object undoes the object's other states. Not "cancelled": an order that was
cancelled may still have its refund approved."""
_IRREGULAR: Final = frozenset(
    {"paid", "sent", "done", "given", "taken", "made", "sold", "kept", "won", "written"}
    | {"shown", "told", "granted", "ok", "okd"}
)
"""English participles that do not end in ``-ed`` (and "OK'd"), for :func:`_clause`."""
_PAST: Final = frozenset(
    {"was", "were", "previous", "previously", "former", "formerly", "prior", "old", "past"}
    | {"earlier", "before", "then", "original", "originally"}
)
"""Words of a key saying its value held before, not now (``"was": "approved"``,
``previous_status``): English words of past time. An item leaning on it must say so too."""
_CODE_CHARS: Final = 8
"""The longest value that may tell a record apart as its code (``R1``, ``B-7``)."""
_CODE_TOKEN: Final = re.compile(r"[\w-]+")
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
    clause: bool = False
    """A phrase said only of its field (:func:`_clause`): an item must name the field."""
    prose: bool = False
    """A value of a field named for free text: it states its words, and binds none."""
    records: frozenset[int] = frozenset()
    """The records (objects in a list) holding the leaf, innermost or not."""
    what: bool = False
    """A value saying what the payload is, at its top (``"kind": "refund request"``)."""
    obj: int = 0
    """The number of the object holding the leaf, when it is a state of that object (not of
    its own key): what the object says it is (:attr:`Payload.kind_of`) is what it is of."""
    past: bool = False
    """Said of a time before (:data:`_PAST`): binds only an item that says so too."""


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
    codes: dict[str, frozenset[int]] = _default(default_factory=dict)
    """Each short code (lower case) that tells records apart, and the records holding it."""
    undoing: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    """Each key saying its object was undone: the object's subject, and what else it names."""
    currencies: frozenset[str] = frozenset()
    """The codes the payload's currency fields hold (upper case)."""
    kinds: frozenset[str] = frozenset()
    """The words of what the payload says it is at its top (``"kind": "refund request"``)."""
    kind_of: dict[int, frozenset[str]] = _default(default_factory=dict)
    """The words of what each object says it is (``"type": "refund"``), by its number."""


class _Reading:
    """What a walk collects beside the leaves."""

    __slots__ = ("codes", "currencies", "found", "keys", "kinds", "objects", "records", "undoing")

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.found: list[Leaf] = []
        self.codes: dict[str, set[int]] = {}
        self.undoing: list[tuple[frozenset[str], frozenset[str]]] = []
        self.currencies: set[str] = set()
        self.records = 0
        self.objects = 0
        self.kinds: dict[int, set[str]] = {}


def read_payload(tool: str, payload: Any) -> Payload:
    """The leaves of a JSON-like ``payload`` (mappings, lists and scalars) of tool ``tool``."""
    reading = _Reading()
    _walk(payload, frozenset(), None, 0, reading, frozenset())
    keys, found = reading.keys, reading.found
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
        tuple(leaf for leaf in found if not leaf.member and not leaf.prose and _is_state(leaf)),
        frozenset(leaf.amount for leaf in found if leaf.amount is not None),
        # A code held by every record tells none apart.
        {c: frozenset(r) for c, r in reading.codes.items() if len(r) < reading.records},
        tuple(reading.undoing),
        frozenset(reading.currencies),
        frozenset().union(*(leaf.states for leaf in found if leaf.what)),
        {obj: frozenset(words) for obj, words in reading.kinds.items()},
    )


def _walk(
    node: Any,
    above: frozenset[str],
    last: frozenset[str] | None,
    depth: int,
    reading: _Reading,
    records: frozenset[int],
    record: int = 0,
    past: bool = False,
) -> None:
    """Collect the leaves of ``node`` in ``reading``: ``above`` is the words of the keys over
    it (generic and naming words out), ``last`` the key words of the list holding it, if any,
    ``records`` the records (objects in a list) holding it, ``record`` its own number as one
    (0: it is not in a list), ``past`` whether a key above says it held before."""
    found = reading.found
    if depth > _MAX_DEPTH or len(found) >= _MAX_LEAVES:
        return
    top = depth == 0
    if isinstance(node, dict):
        reading.objects += 1
        obj = reading.objects
        for key, value in node.items():
            info = _key_info(key if isinstance(key, str) else str(key))
            words = info.words
            was = past or info.past
            if value is not True:  # a flag's key is what it states, not a field it names
                reading.keys.update(words)
            if isinstance(value, str):
                if value[:1] in _JSON_STARTS:
                    inner = _json_in(value)
                    if inner is not None:  # a string holding JSON: read as what it holds
                        _walk(
                            inner, above | info.naming, words, depth + 1, reading, records, 0, was
                        )
                        continue
                if info.what:  # "type": "refund": what the object is
                    reading.kinds.setdefault(obj, set()).update(_value_words(value))
                if record and info.names_id and 0 < len(value) <= _CODE_CHARS:
                    # A short value under a naming key: the code that tells records apart.
                    reading.codes.setdefault(value.strip().lower(), set()).add(record)
            elif isinstance(value, dict | list | tuple):
                _walk(value, above | info.naming, words, depth + 1, reading, records, 0, was)
                continue
            _leaf(info, value, above, top, reading, records, obj, was)
            if info.undoes and value not in (None, False, "", 0):
                # "revoked": true, "withdrawn_at": "2026-01-03": the object's states undone
                reading.undoing.append((above, words - _UNDOING - _NAME_WORDS))
    elif isinstance(node, list | tuple):
        for value in node:
            if isinstance(value, dict):
                reading.records += 1
                number = reading.records
                _walk(value, above, None, depth + 1, reading, records | {number}, number, past)
            elif isinstance(value, list | tuple):
                _walk(value, above, None, depth + 1, reading, records, 0, past)
            elif isinstance(value, str) and last is not None:
                _member(above, value, found, records)  # "covers": ["leaks"]: of "covers"
            else:
                _leaf(_ITEM, value, above, top, reading, records, 0, past)


_JSON_STARTS: Final = ("{", "[")


def _json_in(value: str) -> Any:
    """The object or list a string holds as JSON (``'{"refund": "denied"}'``), else ``None``."""
    text = value.strip()
    if len(text) < 2 or (text[0], text[-1]) not in (("{", "}"), ("[", "]")):
        return None
    try:
        inner = json.loads(text)
    except ValueError:
        return None
    return inner if isinstance(inner, dict | list) else None


class _Key(NamedTuple):
    """What a key's words say (:func:`_key_info`)."""

    words: frozenset[str]
    naming: frozenset[str]
    """Its words naming a thing (generic and naming words out)."""
    field: frozenset[str]
    """Its field name (empty for a generic key)."""
    generic: bool
    what: bool
    """Whether its value says what the object is (:data:`_WHAT`)."""
    undoes: bool
    """Whether it says its object was undone (:data:`_UNDOING`)."""
    names_id: bool
    """Whether it says its value is a name or an identifier (:data:`_NAME_WORDS`)."""
    prose: bool
    """Whether it names free text (:data:`_TEXT_WORDS`)."""
    currency: bool
    past: bool
    """Whether it says its value held before (:data:`_PAST`: ``was``, ``previous_status``)."""


_ITEM: Final = _Key(_NONE, _NONE, _NONE, True, False, False, False, False, False, False)
"""A scalar in a list: no key of its own."""


@lru_cache(maxsize=8192)
def _key_info(key: str) -> _Key:
    """What a key's words say (:class:`_Key`)."""
    words = _key_words(key)
    generic = not words or not words.isdisjoint(_GENERIC)
    return _Key(
        words,
        words - _GENERIC - _NAME_WORDS,
        _NONE if generic else words - _NAME_WORDS,
        generic,
        not words.isdisjoint(_WHAT),
        not words.isdisjoint(_UNDOING),
        not words.isdisjoint(_NAME_WORDS),
        not words.isdisjoint(_TEXT_WORDS),
        "currency" in words,
        not _PAST.isdisjoint(_LETTER_RUN.findall(_CAMEL.sub(" ", key).lower())),
    )


def _leaf(
    info: _Key,
    value: Any,
    above: frozenset[str],
    top: bool,
    reading: _Reading,
    records: frozenset[int],
    obj: int,
    past: bool,
) -> None:
    found = reading.found
    field = info.field
    if value is True:  # "refund_approved": true states its key of its object
        states = info.words - _NAME_WORDS
        found.append(
            Leaf(
                states,
                above,
                top,
                field,
                _NONE,
                None,
                "",
                False,
                False,
                False,
                records,
                False,
                obj,
                past,
            )
        )
    elif isinstance(value, int | float) and not isinstance(value, bool):
        # A field's name and its value: it states no word.
        amount = amount_key(repr(value)) if value == value and abs(value) < 1e15 else None
        found.append(Leaf(_NONE, above, top, field, _NONE, amount, "", records=records))
    elif isinstance(value, str) and _worded(value):
        words = _value_words(value)
        if not words:
            return
        if len(value) == 3 and (info.currency or value in CURRENCY_CODES) and value.isalpha():
            reading.currencies.add(value.upper())
        if info.generic:  # "status": "approved" is a state of its object
            clause = not top and bool(above) and _clause(value)
            found.append(
                Leaf(
                    words,
                    above,
                    top,
                    field,
                    words,
                    None,
                    value.lower(),
                    False,
                    clause,
                    info.prose,
                    records,
                    top and info.what,
                    obj,
                    past,
                )
            )
        else:  # "exchange": "approved" is a state of the exchange (not of the object: no obj)
            subject = above | field
            found.append(
                Leaf(
                    words,
                    subject,
                    False,
                    field,
                    words,
                    None,
                    value.lower(),
                    False,
                    _clause(value),
                    info.prose,
                    records,
                    False,
                    0,
                    past,
                )
            )


@lru_cache(maxsize=8192)
def _clause(value: str) -> bool:
    """Whether a phrase says something of a thing it names itself, so that it is said only of
    the field holding it: a participle after a word that is not an adverb ("refund approved",
    "manager approved full refund": a sentence, the subject before its verb), or three content
    words or more not written as a name ("manager approves full refund"; a name's words are
    capitalised: "Spring Peony Bouquet"). A state ("approved", "approved by manager",
    "ordered by mistake", "in transit", "crew neck") is what its field is, and may be said of
    what the field's object is about."""
    words = [w for w in _LETTER_RUN.findall(value.lower()) if w not in STOP_WORDS]
    if len(words) < 2:
        return False
    for at, word in enumerate(words):
        participle = (word.endswith("ed") and len(word) > 4) or word in _IRREGULAR
        if at and participle and any(not w.endswith("ly") for w in words[:at]):
            return True
    content = [w for w in words if len(w) > 2 and not w.endswith("ly")]  # not "W" of 65W
    if len(content) < 3:
        return False
    # A name's words start with a capital and go on in small letters (not "APPROVED").
    named = [
        w[0].isupper() and not w.isupper()
        for w in _LETTER_RUN.findall(value)
        if w.lower() in content
    ]
    return not all(named)


_LETTER_RUN: Final = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=8192)
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


def _member(
    subject: frozenset[str], value: str, found: list[Leaf], records: frozenset[int]
) -> None:
    """A string in a list: a member of the list's key, which an item must name."""
    if _worded(value):
        words = _value_words(value)
        if words:
            found.append(Leaf(words, subject, False, _NONE, words, None, "", True, records=records))


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
    text: str = "",
) -> bool:
    """Whether each of ``payloads`` (a tool's name and the leaves of its call or result) says
    the item's words of what the item names (module docstring).

    ``words`` are the item's content words that need support (its entities' letters out),
    ``text_words`` all its content words (what it names, "pet" of ``PET-4471`` too), ``ids``
    its identifiers (lower case, no ``#``), ``amounts`` the amount keys of its numbers
    (:func:`numbers_of`) and ``text`` the item's text (the short codes and the currency it
    writes). A word for which ``said`` is true is held by cited evidence other than these
    payloads (a decision's text, a call shown without its payload) and needs no leaf.
    """
    spoken = _spoken(text_words)
    if not spoken or not payloads:
        return True
    if amounts and text and any(p.currencies for p in payloads):
        written = item_currencies(text)
        if written is not None and any(
            not p.amounts.isdisjoint(amounts) and not may_be(written, p.currencies)
            for p in payloads
        ):
            return False  # "$84.00" where the tool's 84.00 is in yen
    named = _named_records(text, payloads)
    undoes = not spoken.isdisjoint(_UNDOING)
    keys = frozenset().union(*(p.keys for p in payloads))
    for word in words:
        if "~" in word or said(word):
            continue
        alternatives = forms(word) | {word}
        if not alternatives.isdisjoint(keys):
            continue  # a word that names a field is the item naming it, not a state it says
        if not _bound(alternatives, spoken, payloads, named, undoes):
            return False
    return not any(_misstated(p, spoken, ids, amounts) for p in payloads)


def _named_records(text: str, payloads: Sequence[Payload]) -> list[frozenset[int] | None]:
    """For each payload, the records whose short code the item writes (``None``: none)."""
    if not text or not any(p.codes for p in payloads):
        return [None] * len(payloads)
    tokens = set(_CODE_TOKEN.findall(text.lower()))
    named: list[frozenset[int] | None] = []
    for payload in payloads:
        records = [payload.codes[t] for t in tokens if t in payload.codes]
        named.append(frozenset().union(*records) if records else None)
    return named


def _bound(
    alternatives: frozenset[str],
    spoken: frozenset[str],
    payloads: Sequence[Payload],
    named: Sequence[frozenset[int] | None],
    undoes: bool,
) -> bool:
    """Rule 1 for one word (in its forms): no payload states it, or one states it of the
    payload as a whole or of a subject the item names, or (but for a list's member, a clause
    and a part of what the payload is about) while the item names no other part of that
    payload that says something the item does not; never by free text, nor by a record
    beside the one the item names by its code, nor by a state its object undoes."""
    stated = False
    for payload, records in zip(payloads, named, strict=True):
        if not alternatives.isdisjoint(payload.tool):
            return True
        for word in alternatives:
            for leaf in payload.stating.get(word, ()):
                stated = True
                if leaf.prose:
                    continue  # a note's words, however short: stored, not established
                if records is not None and leaf.records and leaf.records.isdisjoint(records):
                    continue  # the record beside the one the item names by its code
                if not undoes and payload.undoing and _undone(leaf, payload.undoing):
                    continue  # "approved": true beside "revoked": true
                if leaf.past and spoken.isdisjoint(_PAST):
                    continue  # "was": "approved" is not so now
                top, subject = leaf.top, leaf.subject
                kind = payload.kind_of.get(leaf.obj, _NONE) if leaf.obj else _NONE
                if not leaf.words:  # a flag: what else its key names is what it is of
                    rest = leaf.states - alternatives
                    if rest and rest.isdisjoint(spoken):
                        top, subject, kind = False, subject | rest, _NONE
                if top or not subject.isdisjoint(spoken):
                    return True
                if leaf.member or leaf.clause:
                    continue  # said of the list's key, or of the field holding the sentence
                if (
                    not (payload.kinds - alternatives).isdisjoint(spoken)
                    and kind.isdisjoint(spoken)
                    and not any(map(_decision_word, subject))
                ):
                    # The state of a part, the item naming what the whole is (unless the part
                    # is a thing the item names by its kind, "type": "refund", or a decision:
                    # "approval": "refused" is the whole's, as "status" is).
                    continue
                if not _competing(payload.states, spoken, leaf):
                    return True
    return not stated


def _undone(leaf: Leaf, undoing: Sequence[tuple[frozenset[str], frozenset[str]]]) -> bool:
    """Whether a key saying its object was undone (``revoked``, ``approval_revoked``,
    ``refund_rescinded``) is of the leaf's object, and names what the leaf says or nothing
    else."""
    for subject, rest in undoing:
        if not subject <= leaf.subject:
            continue
        if not rest:
            return True
        said = _stems((leaf.subject - subject) | leaf.field | leaf.states)
        if not said.isdisjoint(_stems(rest)):
            return True
    return False


def _stems(words: Collection[str]) -> frozenset[str]:
    """Each word's first five letters: ``approval`` and ``approved`` share one."""
    return frozenset(w[:5] for w in words)


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
