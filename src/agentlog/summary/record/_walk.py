"""The walk that reads a tool payload into leaves (:func:`read_payload`, :mod:`.leaves`).

Each key is read once (:mod:`._keys`), each string value once (:mod:`._values`), and the walk
reads their structure: each a rule of JSON or of English grammar, never a domain's words
(issue 13, the red team's round in brackets):

- a string holding JSON is read as that JSON (``"payload": "{\\"refund\\": \\"denied\\"}"``) (5);
- a flag's key says what it is of (``address_change_approved``: of the address change), and a
  value saying what the payload is at its top (``"kind": "refund request"``) is its kind (5);
- of records in a list, a short value under a naming key (up to :data:`_CODE_CHARS`
  characters: ``R1``) is the code that tells them apart (5);
- a payload knows its event's day (:class:`._dated.AsOf`): a key naming an act (a participle:
  ``approved_on``) dated after it says the act is not yet done, unless the key says its date
  is a plan (``scheduled_for``), and a time bound the day is outside (a later day under a
  start's key: ``effective_from``; an earlier one under an end's: ``expires_at``,
  ``valid_until``) puts its object's states out of force (:attr:`.leaves.Payload.lapsed`) (6);
- an act's key whose value says no inside a list or an object (``[false]``, ``{"value":
  false}``) or is a zero in any unit (``"$0.00"``, ``"0 USD"``, ``"zero"``) states its act as
  not so (:attr:`.leaves.Leaf.void`), and an act's key over a map of flags (``"approved":
  {"refund": false}``) says the act of each thing inside as its flag says (6);
- records of a list that hold nothing but states and dates are one thing's history: when
  they disagree, the newest (by date, if each has one, else the last) holds now, the others
  held before (:attr:`.leaves.Leaf.past`); of records naming a field (``{"name":
  "refund_status", "value": ...}``) a state is said of that field, and a record holding only a
  state beside them says it of nothing an item can name (:func:`_entries`, 6);
- a top key that a later answer to the same call (one tool, equal arguments) holds another
  value under held its value before (:class:`._dated.AsOf`, ``changed``): ``"refund":
  "approved"`` then ``"refund": "revoked"`` (7);
- a number under a key counting a currency's hundredths (``amount_cents``, ``minor_units``)
  is that sum divided by 100: ``8400`` there is 84.00 (:attr:`.leaves.Payload.minor`) (7);
- a result saying its call did not go through (:class:`._dated.AsOf`, ``failed``: ``"ok":
  false``, an ``errors`` list, ``"status_code": 422``) states each of its words as not so:
  what it holds is the request's (``"refund": "approved"`` beside ``"ok": false``), and so
  does one holding ``null`` under what its tool acts on (``approve_refund`` answered
  ``{"refund": null}``: :func:`.evidence._nothing_made`) (7);
- a nested object is a thing (:mod:`._things`, :attr:`.leaves.Leaf.thing`), which may name
  itself as another (:mod:`._others`) (8);
- the value of a context's or a modal key (``preview``, ``can_approve_refund``,
  ``approved_if``) and the object a context's flag marks (``"draft": true``) bind only an
  item that says the context's word, or none (:mod:`._unreal`, :func:`_not_so_now`) (9);
- a cancellation (:mod:`._cancelled`: ``"cancelled": true``, ``cancelled_at``,
  ``refund_cancelled``) marks the states of the object holding it, or of the part its other
  words name, never a nested object's: they bind only an item that says it (10);
- a number below one under an act's key states the act as not so, and one under a measure
  word binds only an item that names the measure (:mod:`._measures`) (10).

Only the first :data:`_MAX_LEAVES` leaves of a payload are read, :data:`MAX_DEPTH` deep.
"""

from __future__ import annotations

import re
from typing import Any, Final

from agentlog.summary.record import _cancelled, _measures, _unreal
from agentlog.summary.record._currency import CURRENCY_CODES
from agentlog.summary.record._dated import DATE, AsOf
from agentlog.summary.record._extract import is_lookup
from agentlog.summary.record._keys import (
    GENERIC,
    ITEM,
    NAME_WORDS,
    TIMES,
    UNDOING,
    Key,
    key_info,
    key_words,
)
from agentlog.summary.record._things import Thing
from agentlog.summary.record._values import (
    ID_SHAPE,
    ZERO,
    String,
    amount_of,
    json_in,
    no,
    read_string,
    value_words,
    worded,
)
from agentlog.summary.record._words import forms
from agentlog.summary.record.leaves import Leaf, Payload

__all__ = ["MAX_DEPTH", "read_payload"]

_NONE: Final[frozenset[str]] = frozenset()

_FIELD_NAMES: Final = frozenset(
    {"field", "name", "key", "attribute", "attr", "property", "prop", "param", "parameter"}
)
"""Key words saying a record names a field whose value the record (or a sibling) holds, as a
key and value pair (``{"name": "refund_status", "value": "approved"}``)."""
_KEY_LIKE: Final = re.compile(r"[A-Za-z]+(?:[_.-][A-Za-z]+)*")
"""A value that names a key (``refund_status``, ``refundStatus``): a separator between each
run, so that a long name that fails to match fails at once (no choice of where runs split)."""

_CODE_CHARS: Final = 8
"""The longest value that may tell a record apart as its code (``R1``, ``B-7``)."""

_MAX_LEAVES: Final = 4000
"""The leaves read of one payload at most."""
MAX_DEPTH: Final = 12
"""How deep the walk reads nested values (and :func:`._unsaid._writes_under` looks)."""


class _Reading:
    """What a walk collects beside the leaves."""

    __slots__ = (
        *("codes", "currencies", "dated", "day", "distinct", "fielded", "found", "keys"),
        *("changed", "kinds", "lapsed", "minor", "objects", "own", "record_obj", "records"),
        *("counted", "dates", "denied", "holders", "idents", "proper", "refs", "undoing"),
    )

    def __init__(self, day: str | None = None) -> None:
        self.day = day
        """The event's day (ISO 8601), when the payload knows it (:class:`._dated.AsOf`)."""
        self.lapsed: list[tuple[frozenset[str], frozenset[str]]] = []
        self.distinct: set[int] = set()
        """The records holding a string beside their states and dates: each a thing of its own,
        not an entry of a history."""
        self.fielded: dict[int, frozenset[str]] = {}
        """The field each record names (``"name": "refund_status"``), by the record's number."""
        self.record_obj: dict[int, int] = {}
        self.dated: dict[int, str] = {}
        """The latest date each record holds, by its number."""
        self.keys: set[str] = set()
        self.found: list[Leaf] = []
        self.codes: dict[str, set[int]] = {}
        self.undoing: list[tuple[frozenset[str], frozenset[str]]] = []
        self.currencies: set[str] = set()
        self.records = 0
        self.objects = 0
        self.kinds: dict[int, set[str]] = {}
        self.own: set[str] = set()
        self.changed: frozenset[str] = _NONE
        """The top keys a later result of the same call answered otherwise (:class:`AsOf`)."""
        self.minor: set[str] = set()
        self.counted: set[str] = set()
        self.dates: list[tuple[frozenset[str], str]] = []
        """The top keys a later result of the same call answered otherwise (:class:`AsOf`)."""
        self.refs: dict[str, frozenset[str]] = {}
        self.idents: dict[str, frozenset[str]] = {}
        self.denied: list[frozenset[str]] = []
        self.proper: set[str] = set()
        self.holders: list[tuple[frozenset[str], Thing]] = []


def read_payload(tool: str, payload: Any) -> Payload:
    """The leaves of a JSON-like ``payload`` (mappings, lists and scalars) of tool ``tool``."""
    dated = isinstance(payload, AsOf)
    reading = _Reading(payload.day if dated else None)
    if dated and payload.changed:
        reading.changed = payload.changed
    _walk(payload, frozenset(), None, 0, reading, frozenset())
    keys, found = reading.keys, reading.found
    if dated and payload.failed:  # a failure's words are the request's: stated, not so
        found[:] = [leaf._replace(void=True) if leaf.states else leaf for leaf in found]
    stating: dict[str, list[Leaf]] = {}
    fields: dict[frozenset[str], list[Leaf]] = {}
    states: list[Leaf] = []
    amounts: set[str] = set()
    kinds: set[str] = set()
    for leaf in found:  # one pass: a payload holds many leaves
        if leaf.states:
            for word in leaf.states:
                if word in stating:
                    stating[word].append(leaf)
                else:
                    stating[word] = [leaf]
            if leaf.state and not leaf.member and not leaf.prose:
                states.append(leaf)
            if leaf.what:
                kinds |= leaf.states
        if leaf.field:
            fields.setdefault(leaf.field, []).append(leaf)
        if leaf.amount is not None:
            amounts.add(leaf.amount)
    return Payload(
        key_words(tool),
        tuple(found),
        frozenset(keys),
        stating,
        fields,
        tuple(states),
        frozenset(amounts),
        # A code held by every record tells none apart.
        {c: frozenset(r) for c, r in reading.codes.items() if len(r) < reading.records},
        tuple(reading.undoing),
        frozenset(reading.currencies),
        frozenset(kinds),
        {obj: frozenset(words) for obj, words in reading.kinds.items()},
        tuple(reading.lapsed),
        frozenset(reading.own),
        {i: w for i, w in reading.refs.items() if i not in reading.own},
        tuple(reading.dates),
        frozenset(reading.minor - amounts),
        reading.idents,
        tuple(reading.denied),
        payload,
        is_lookup(tool),
        frozenset(reading.proper),
        tuple(reading.holders),
        frozenset(reading.counted - amounts),
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
    thing: Thing | None = None,
) -> None:
    """Collect the leaves of ``node`` in ``reading``: ``above`` is the words of the keys over
    it (generic and naming words out), ``last`` the key words of the list holding it, if any,
    ``records`` the records (objects in a list) holding it, ``record`` its own number as one
    (0: it is not in a list), ``past`` whether a key above says it held before, ``thing`` the
    nested object it is (or, for a list, the one holding it; ``None``: the top object's)."""
    found = reading.found
    if depth > MAX_DEPTH or len(found) >= _MAX_LEAVES:
        return
    top = depth == 0
    if isinstance(node, dict):
        reading.objects += 1
        obj = reading.objects
        if record:
            reading.record_obj[record] = obj
        keys, day = reading.keys, reading.day
        changed = reading.changed if top else _NONE
        begin, unreal = len(found), _NONE
        cancelled: list[tuple[frozenset[str], frozenset[str]]] | None = None
        for key, value in node.items():
            info = key_info(key) if type(key) is str else key_info(str(key))
            if changed and key in changed:  # a later answer to the same call holds now
                info = info._replace(past=True)
            if info.unreal and (marked := _unreal.marks(info.unreal, value)) is not None:
                if marked[1]:  # "preview": {...}, "can_approve_refund": true: not so now
                    _not_so_now(info, key, value, above, depth, reading, records, thing, marked[0])
                    continue
                unreal |= marked[0]  # "draft": true: its object is not so now
            words = info.words
            kind = type(value)
            if info.rare:  # a measure or a cancellation: few keys say one
                if info.measures and (measure := _measured(info, value, above, top, records,
                                                           past, thing)) is not None:  # fmt: skip
                    # "unlock_confidence": 0.95 measures the unlock: said only with the measure
                    keys.update(words)
                    found.append(measure)
                    continue
                if (
                    info.cancels
                    and value not in (None, False, 0)
                    and not (kind is str and no(value))
                ):  # "refund_cancelled": true, "cancelled_at": "2026-11-30"
                    if cancelled is None:
                        cancelled = []
                    cancelled.append((words - info.cancels - NAME_WORDS - TIMES, info.cancels))
                    if kind is str and read_string(value) is None:
                        # A date states no word: it says its key's words, as true would.
                        found.append(
                            _new(Leaf, (words - NAME_WORDS - TIMES, above, top, info.field,
                                        _NONE, None, "", False, False, False, records, False,
                                        obj, past or info.past, False, _NONE, False, thing))
                        )  # fmt: skip
            if kind is str and not info.generic and len(value) <= 4 and value.lower() in _YES:
                # "refund_approved": "yes" is a flag, as true is: it states its key's words,
                # which so name no field; a failure or a context voids them as it voids true
                value, kind = True, bool
            if info.acts and value is not True and _says_no(value, info, reading, record):
                # "refund_approved": [false], "$0.00", "approved_on" a later day: its act's
                # words are stated as not so, and name no field
                keys.update(words - info.acts)
                if kind is str and value[:1].isdigit() and (date := DATE.match(value)):
                    # A later day is still a date the payload holds ("created_at"): an item
                    # writing it of another key's act dates that act by another thing.
                    reading.dates.append((words - TIMES, date.group(1)))
                figure = _measures.number(value)  # "refund_approved": 0.73 keeps its sum
                found.append(
                    Leaf(info.acts, above | (info.naming - info.acts), top, info.field, _NONE,
                         None if figure is None else amount_of(figure), "", records=records,
                         void=True, thing=thing)
                )  # fmt: skip
                continue
            if kind is str or isinstance(value, str):  # most values: read here, no call per leaf
                keys.update(words)
                first = value[:1]
                if first == "{" or first == "[":
                    inner = json_in(value)
                    if inner is not None:  # a string holding JSON: read as what it holds
                        was = past or info.past
                        inside = _new(Thing, (thing, inner, None)) if type(inner) is dict else thing
                        _walk(
                            inner, above | info.naming, words, depth + 1, reading, records, 0,
                            was, inside,
                        )  # fmt: skip
                        continue
                if info.what:  # "type": "refund": what the object is
                    reading.kinds.setdefault(obj, set()).update(value_words(value))
                if record:
                    if info.names_id and 0 < len(value) <= _CODE_CHARS:
                        # A short value under a naming key: the code that tells records apart.
                        reading.codes.setdefault(value.strip().lower(), set()).add(record)
                    _record_value(info, value, record, reading)
                if first.isdigit() and (date := DATE.match(value)) is not None:
                    reading.dates.append((words - TIMES, date.group(1)))
                if day is not None and first.isdigit():
                    _bound_in_time(info, value, above, reading)
                if top and ID_SHAPE.fullmatch(value) and not info.generic:
                    ident = value.lstrip("#").casefold()
                    reading.idents[ident] = info.naming
                    if info.names_id:
                        reading.own.add(ident)
                    else:  # a key naming a thing and no name of its own: another thing's
                        reading.refs[ident] = words
                read = read_string(value)
                if read is not None:  # _stated, written out: most leaves are strings
                    said, field = read.words, info.field
                    if read.currency and (info.currency or value in CURRENCY_CODES):
                        reading.currencies.add(value.upper())
                    if info.generic:  # "status": "approved" is a state of its object
                        found.append(
                            _new(Leaf, (said, above, top, field, said, None, read.lower, False,
                                        not top and bool(above) and read.clause, info.prose,
                                        records, top and info.what, obj, past or info.past,
                                        False, read.tail, read.state, thing))
                        )  # fmt: skip
                    else:  # "exchange": "approved" is a state of the exchange (no obj)
                        if read.name:
                            reading.proper.add(read.lower)
                        found.append(
                            _new(Leaf, (said, above | field, False, field, said, None,
                                        read.lower, False, read.clause, info.prose, records,
                                        False, 0, past or info.past, False, read.tail,
                                        read.state, thing))
                        )  # fmt: skip
                if info.undoes and value:
                    reading.undoing.append((above, words - UNDOING - NAME_WORDS))
                continue
            if (
                kind is dict
                or kind is list
                or (kind not in _SCALARS and isinstance(value, dict | list | tuple))
            ):
                if info.acts and isinstance(value, dict) and _flags(value):
                    # "approved": {"refund": false}: the act said of each thing inside
                    _acts_of(info, value, above, reading, records, thing)
                    continue
                keys.update(words)
                was = past or info.past
                if isinstance(value, dict):  # a thing of its own, or a part of this one
                    inside = _new(Thing, (thing, value, key if type(key) is str else None))
                    reading.holders.append((words, inside))
                else:
                    inside = thing
                _walk(
                    value, above | info.naming, words, depth + 1, reading, records, 0, was, inside
                )
                continue
            if value is True:  # "refund_approved": true states its key of its object
                found.append(
                    _new(Leaf, (words - NAME_WORDS, above, top, info.field, _NONE, None, "",
                                False, False, False, records, False, obj, past or info.past,
                                False, _NONE, False, thing))
                )  # fmt: skip
            else:  # a flag's key is what it states, not a field it names
                keys.update(words)
                if (
                    kind is int
                    or kind is float
                    or (kind is not bool and isinstance(value, int | float))
                ):
                    # A field's name and its value (:func:`_leaf`): it states no word.
                    found.append(
                        _new(Leaf, (_NONE, above, top, info.field, _NONE,
                                    _figure(value, info, reading), "",
                                    False, False, False, records, False, 0, False, False, _NONE,
                                    False, thing))
                    )  # fmt: skip
                elif value is False:  # "fee_waived": false, "fee": {"waived": false}
                    reading.denied.append(above | (words - NAME_WORDS))
            if info.undoes and value not in (None, False, 0):
                # "revoked": true, "withdrawn_at": "2026-01-03": the object's states undone
                reading.undoing.append((above, words - UNDOING - NAME_WORDS))
        if unreal:
            _unreal.mark(found, begin, unreal)
        if cancelled:
            _cancelled.mark(found, begin, thing, cancelled)
    elif isinstance(node, list | tuple):
        start, numbers = len(found), []
        for value in node:
            if isinstance(value, dict):
                reading.records += 1
                number = reading.records
                numbers.append(number)
                _walk(
                    value, above, None, depth + 1, reading, records | {number}, number, past,
                    _new(Thing, (thing, value, None)),
                )  # fmt: skip
            elif isinstance(value, list | tuple):
                _walk(value, above, None, depth + 1, reading, records, 0, past, thing)
            elif isinstance(value, str) and last is not None:
                _member(above, value, found, records, thing)  # "covers": ["leaks"]
            else:
                _leaf(ITEM, value, above, top, reading, records, 0, past, thing)
        if len(found) - start > 1:
            if numbers:
                _entries(found, start, numbers, reading)
            elif last is not None and any(not GENERIC.isdisjoint(forms(w)) for w in last):
                _superseded(found, [[i] for i in range(start, len(found))])


def _measured(
    info: Key,
    value: Any,
    above: frozenset[str],
    top: bool,
    records: frozenset[int],
    past: bool,
    thing: Thing | None,
) -> Leaf | None:
    """The leaf of a number under a key with a measure word (:mod:`._measures`:
    ``"unlock_confidence": 0.95``): it states the key's other words, binding only an item that
    names the measure too (its tail), and holds its amount; ``None`` for any other value, or a
    key of no other word (``"score": 0.42``)."""
    number = _measures.number(value)
    if number is None:
        return None
    measured = info.words - info.measures - NAME_WORDS
    if not measured:
        return None
    return _new(
        Leaf,
        (measured, above, top, info.field, _NONE, amount_of(number), "", False, False, False,
         records, False, 0, past or info.past, False, info.measures, False, thing),
    )  # fmt: skip


def _not_so_now(
    info: Key,
    key: Any,
    value: Any,
    above: frozenset[str],
    depth: int,
    reading: _Reading,
    records: frozenset[int],
    thing: Thing | None,
    words: frozenset[str],
) -> None:
    """A value that is not a fact now (:mod:`._unreal`: a preview, a capability, a condition),
    read as the others and marked by ``words``: its leaves, and one stating its key words and
    the keys under it (which so name no field an item may lean on: ``"approve_refund"`` in
    ``available_actions``), bind only an item that says ``words`` too, or none."""
    keys, reading.keys = reading.keys, set()
    start = len(reading.found)
    inner = json_in(value) if isinstance(value, str) else None
    node = value if inner is None else inner
    if isinstance(node, dict):
        inside = _new(Thing, (thing, node, key if type(key) is str else None))
        _walk(node, above | info.naming, info.words, depth + 1, reading, records, 0, False, inside)
    elif isinstance(node, list | tuple):
        _walk(node, above | info.naming, info.words, depth + 1, reading, records, 0, False, thing)
    else:
        _leaf(info, value, above, False, reading, records, 0, False, thing)
    named = frozenset(reading.keys | info.words) - NAME_WORDS
    reading.keys = keys
    reading.found.append(
        Leaf(named, above, False, _NONE, _NONE, None, "", records=records, thing=thing)
    )
    _unreal.mark(reading.found, start, words)


def _says_no(value: Any, info: Key, reading: _Reading, record: int) -> bool:
    """Whether a value says that its key's act is not so: a list or an object of values that
    say no (``[false]``, ``{"value": false}``), a zero in any unit (``"$0.00"``, ``"0 USD"``,
    ``"zero"``), a number below one (:func:`._measures.below_one`: ``0.73``, ``-1``,
    ``"0.73"``: a measure or a sign, no yes), or a day after the event's (``"approved_on":
    "2099-01-01"``: not yet, unless the key says it is a plan: ``scheduled_for``)."""
    if _measures.below_one(value, info.words):
        return True
    if isinstance(value, list | tuple | dict):
        inner = list(value.values()) if isinstance(value, dict) else list(value)
        scalars = [v for v in inner if not isinstance(v, str) or not DATE.match(v)]
        return bool(scalars) and all(no(v) for v in scalars)
    if isinstance(value, str):
        if ZERO.fullmatch(value) is not None or _unreal.type_name(value):
            return True  # "$0.00"; "boolean": a schema's, naming what the key may hold
        when = DATE.match(value) if reading.day is not None else None
        # A plan's date is what it says; an undoing dated later still ends the state.
        later = when is not None and when[1] > str(reading.day)
        return later and not (info.planned or info.undoes or info.cancels)
    return False


def _flags(value: dict[Any, Any]) -> bool:
    """Whether an object is a map of flags (``{"refund": false, "exchange": true}``)."""
    return bool(value) and all(isinstance(v, bool) or v is None or no(v) for v in value.values())


def _acts_of(
    info: Key,
    value: dict[Any, Any],
    above: frozenset[str],
    reading: _Reading,
    records: frozenset[int],
    thing: Thing | None,
) -> None:
    """``"approved": {"refund": false, "exchange": true}``: the key's act, said of each thing
    inside as its flag says (true: so; anything else: not so)."""
    reading.keys.update(info.words - info.acts)
    for key, flag in value.items():
        member = key_info(key if isinstance(key, str) else str(key))
        reading.keys.update(member.words)
        subject = above | (info.naming - info.acts) | member.naming
        reading.found.append(
            Leaf(info.acts, subject, False, member.field, _NONE, None, "",
                 records=records, void=flag is not True, thing=thing)
        )  # fmt: skip


def _record_value(info: Key, value: str, record: int, reading: _Reading) -> None:
    """Note what a record's string says of the record: a field it names (``"name":
    "refund_status"``), a date, or anything else that makes it a thing of its own."""
    when = DATE.match(value)
    if when is not None:
        if when[1] > reading.dated.get(record, ""):
            reading.dated[record] = when[1]
    elif not info.words.isdisjoint(_FIELD_NAMES) and _KEY_LIKE.fullmatch(value) is not None:
        reading.fielded[record] = key_info(value).naming
    elif not info.generic or info.what:  # "sku": "MUG-RED", "type": "fee waiver"
        reading.distinct.add(record)


def _bound_in_time(info: Key, value: str, above: frozenset[str], reading: _Reading) -> None:
    """A time bound the event's day is outside: ``"effective_from"`` a later day, or
    ``"expires_at"``, ``"valid_until"`` an earlier one; its object's states are not in force."""
    when = DATE.match(value)
    if when is None:
        return
    day = str(reading.day)
    if (info.starts and when[1] > day) or (info.ends and when[1] < day):
        reading.lapsed.append((above, info.words - TIMES - NAME_WORDS))


def _entries(found: list[Leaf], start: int, numbers: list[int], reading: _Reading) -> None:
    """Of a list of records, the states each says of itself (``found[start:]``, by a generic
    key): a record naming a field (``{"name": "refund_status", "value": "approved"}``) says
    them of that field, one holding only a state beside such records of nothing it names;
    records holding nothing else (a history) are entries of one thing's states, the newest
    (by their dates, if each has one, else the last) saying what holds now."""
    own: dict[int, list[int]] = {}
    objects = {reading.record_obj.get(n): n for n in numbers}
    for at in range(start, len(found)):
        leaf = found[at]
        number = objects.get(leaf.obj) if leaf.obj else None
        if number is not None and leaf.words and not leaf.member:
            own.setdefault(number, []).append(at)
    if not own:
        return
    fielded = reading.fielded
    if any(n in fielded for n in numbers):
        for number, places in own.items():
            field = fielded.get(number)
            for at in places:
                leaf = found[at]
                if field is None:
                    found[at] = leaf._replace(subject=_NONE, clause=True, obj=0)
                else:
                    found[at] = leaf._replace(subject=leaf.subject | field, field=field, obj=0)
        return
    if any(n in reading.distinct for n in numbers):
        return
    dated = reading.dated
    order = numbers
    if all(n in dated for n in numbers):
        order = sorted(numbers, key=lambda n: dated[n])
    _superseded(found, [own.get(n, []) for n in order])


def _superseded(found: list[Leaf], entries: list[list[int]]) -> None:
    """Entries of one thing's states, oldest first (each a list of places in ``found``): when
    they disagree, all but the newest held before (:attr:`.leaves.Leaf.past`)."""
    said = [frozenset().union(*(found[at].words for at in places)) for places in entries]
    held = [w for w in said if w]
    if len(set(held)) < 2:
        return  # one state throughout
    newest = max((i for i, w in enumerate(said) if w), default=-1)
    for i, places in enumerate(entries):
        if i != newest:
            for at in places:
                found[at] = found[at]._replace(past=True)


_YES: Final = frozenset({"true", "yes", "y"})
"""Strings that say yes as a flag's ``true`` does."""
_SCALARS: Final = frozenset({bool, int, float, type(None)})
"""The types of JSON's other values: none is a container, and none is asked again."""


def _leaf(
    info: Key,
    value: Any,
    above: frozenset[str],
    top: bool,
    reading: _Reading,
    records: frozenset[int],
    obj: int,
    past: bool,
    thing: Thing | None,
) -> None:
    found = reading.found
    field = info.field
    if value is True:  # "refund_approved": true states its key of its object
        states = info.words - NAME_WORDS
        found.append(
            _new(Leaf, (states, above, top, field, _NONE, None, "", False, False, False,
                        records, False, obj, past, False, _NONE, False, thing))
        )  # fmt: skip
    elif (
        (kind := type(value)) is int
        or kind is float
        or (kind is not bool and isinstance(value, int | float))
    ):
        # A field's name and its value: it states no word.
        amount = _figure(value, info, reading)
        found.append(
            _new(Leaf, (_NONE, above, top, field, _NONE, amount, "", False, False,
                        False, records, False, 0, False, False, _NONE, False, thing))
        )  # fmt: skip
    elif isinstance(value, str):
        read = read_string(value)
        if read is not None:
            _stated(info, value, read, above, top, reading, records, obj, past, thing)


def _stated(
    info: Key,
    value: str,
    read: String,
    above: frozenset[str],
    top: bool,
    reading: _Reading,
    records: frozenset[int],
    obj: int,
    past: bool,
    thing: Thing | None,
) -> None:
    """The leaf of a string ``value`` that states words (``read``) under a key (``info``)."""
    words, field = read.words, info.field
    if read.currency and (info.currency or value in CURRENCY_CODES):
        reading.currencies.add(value.upper())
    if info.generic:  # "status": "approved" is a state of its object
        clause = not top and bool(above) and read.clause
        reading.found.append(
            _new(Leaf, (words, above, top, field, words, None, read.lower, False, clause,
                        info.prose, records, top and info.what, obj, past, False, read.tail,
                        read.state, thing))
        )  # fmt: skip
    else:  # "exchange": "approved" is a state of the exchange (not of the object: no obj)
        if read.name:
            reading.proper.add(read.lower)
        reading.found.append(
            _new(Leaf, (words, above | field, False, field, words, None, read.lower, False,
                        read.clause, info.prose, records, False, 0, past, False, read.tail,
                        read.state, thing))
        )  # fmt: skip


_new: Final = tuple.__new__
"""A :class:`.leaves.Leaf` made from all its fields at once: a payload holds thousands of
leaves, and the named tuple's own constructor (keywords and defaults, in Python) costs more
than the tuple."""


def _figure(value: float, info: Key, reading: _Reading) -> str | None:
    """A number's amount key under a key (``info``): a count of a currency's hundredths as the
    sum it is (:func:`_minor`); a count of a unit that is not money (``credited_percent``,
    ``_miles``) as none, kept apart (:attr:`.leaves.Payload.counted`)."""
    if info.minor:
        return _minor(value, reading)
    if info.units:
        written = amount_of(value)
        if written is not None:
            reading.counted.add(written)
        return None
    return amount_of(value)


def _minor(value: float, reading: _Reading) -> str | None:
    """A count of a currency's hundredths as the amount it is (``8400`` cents: 84.00); the
    count as written is kept apart (:attr:`.leaves.Payload.minor`), an amount no item may read."""
    written = amount_of(value)
    if written is not None:
        reading.minor.add(written)
    return amount_of(value / 100)


def _member(
    subject: frozenset[str],
    value: str,
    found: list[Leaf],
    records: frozenset[int],
    thing: Thing | None,
) -> None:
    """A string in a list: a member of the list's key, which an item must name."""
    if worded(value):
        words = value_words(value)
        if words:
            found.append(
                Leaf(words, subject, False, _NONE, words, None, "", True, records=records,
                     thing=thing)
            )  # fmt: skip
