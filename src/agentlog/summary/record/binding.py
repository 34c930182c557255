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

Round 6 (issue 13) read a payload as of its event's time and more of its structure:

- a payload knows its event's day (:class:`._dated.AsOf`): a key naming an act
  (a participle: ``approved_on``) dated after it says the act is not yet done, unless the key
  says its date is a plan (:data:`_PLANNED`: ``scheduled_for``), and a time bound the day is
  outside (:data:`_STARTS` a later day: ``effective_from``; :data:`_ENDS` an earlier one:
  ``expires_at``, ``valid_until``) puts its object's states out of force, unless the item says
  so (``expired``);
- an act's key whose value says no inside a list or an object (``[false]``, ``{"value":
  false}``) or is a zero in any unit (``"$0.00"``, ``"0 USD"``, ``"zero"``) states its act as
  not so (:attr:`Leaf.void`), and an act's key over a map of flags (``"approved": {"refund":
  false}``) says the act of each thing inside as its flag says;
- a generic word beside a thing's name (``refund_status``, ``ExchangeStatus``) states its
  value of that thing, not of the object holding it;
- records of a list that hold nothing but states and dates are one thing's history: when
  they disagree, the newest (by date, if each has one, else the last) holds now, the others
  held before (:attr:`Leaf.past`); of records naming a field (``{"name": "refund_status",
  "value": ...}``) a state is said of that field, and a record holding only a state beside
  them says it of nothing an item can name;
- a comment after a short value's state (:func:`_tail`: "approved (not really)", "approved
  - just kidding") binds only an item that says it too;
- a decision noun is the verdict on the whole only when its state says that decision was
  made (``"approval": {"approved": true}``) or refused; ``"cancellation": {"approved": true}``
  is another act, decided.

Round 7 (issue 13) read which thing a payload is about, and what else it holds:

- a top key holding an identifier without naming it (``"previous_order": "A-2002"``,
  ``"replaces"``) refers to another thing when the top object names its own by a naming key
  (``"order_id": "A-1001"``): an item naming only the other thing is not verified by the
  payload's states, unless it says the key's words (:func:`_referred`);
- an item naming an object that holds money (``"refund": {"amount": 12.0}``) and writing
  none of its sums, but one a field it does not name holds (the ``"total"``), puts another
  thing's sum on it (:func:`_other_amount`);
- a top key that a later answer to the same call (one tool, equal arguments) holds another
  value under held its value before (:class:`._dated.AsOf`, ``changed``): ``"refund":
  "approved"`` then ``"refund": "revoked"``;
- a number under a key counting a currency's hundredths (:data:`_MINOR`: ``amount_cents``,
  ``minor_units``) is that sum divided by 100: ``8400`` there is 84.00, and "$8,400" is
  not what it holds (:attr:`Payload.minor`);
- of several cited exchanges, one whose tops name their own subjects (``"order_id":
  "A-2002"``) by no identifier the item writes, beside one naming the item's, is about
  another thing: a word or a sum only it holds is not the item's (:func:`_about`);
- a result saying its call did not go through (:class:`._dated.AsOf`, ``failed``:
  ``"ok": false``, an ``errors`` list, ``"status_code": 422``) states each of its words as
  not so: what it holds is the request's (``"refund": "approved"`` beside ``"ok": false``),
  and so does one holding ``null`` under what its tool acts on (``approve_refund`` answered
  ``{"refund": null}``: :func:`.evidence._nothing_made`);
- an item naming a dated key (``approved_on``) and writing none of its dates, but one
  another key holds (``placed``), dates the act by another thing (:func:`_other_date`).

Round 8 (issue 13) read which things a payload holds beside the one it is about:

- a nested object naming itself by an identifier of the kind the item writes, and not one
  the item writes (``"related": {"order_id": "A-2002", ...}``, a map keyed by order ids, a
  household's ``"account_id": "ACC-7788"``), is another thing: its states bind no word of
  the item (:mod:`._things`, :attr:`Leaf.thing`);
- **a named key says its own state** (:func:`_state_unsaid`): an item word naming a key (the
  words skipped as the item naming a field) while that key holds a state the item does not
  say and nothing it does (``"warranty": "expired"`` for "under warranty", ``{"unlock":
  {"queued": true}}`` for "unlocked", ``"fee": {"waived": false}``, ``"warranty_until"`` a day
  before the event's) is a state the tool did not say;
- of two short states the item's words may be of, the one whose key path the item names whole
  (``"refund": "denied"``) is what it says, not one whose path it names in part
  (``"parent": {"refund": "approved"}``: :func:`_nearer`).

Round 9 (issue 13) read whether a value is a fact now (:mod:`._unreal`): the value of a
context's or a modal key (``preview``, ``can_approve_refund``, ``approved_if``) and the object
a context's flag marks (``"draft": true``) bind only an item that says the context's word, or
none (:func:`_not_so_now`); a result a setting makes unreal (``"dry_run": true``) is read as a
failure (:mod:`.evidence`); an ending key (``superseded_by``) undoes its object, and an item
naming that object by its key (:func:`binds`); a sum is the named thing's when the item says
its key's other words (``refund_amount``), never a bound's (``max_refund``), and a count is
the field the item writes whole (``items_refunded``, not ``items``: :func:`_unnamed_amount`).

Round 10 (issue 13) read what a state's own object says beside it:

- a cancellation (:mod:`._cancelled`: ``"cancelled": true``, ``cancelled_at``,
  ``refund_cancelled``) marks the states of the object holding it, or of the part its other
  words name, never a nested object's: they bind only an item that says it, and a value the
  item writes under the object's key does not lift it (:func:`_state_unsaid`);
- an identifier of the shape of the item's under any key of a nested object is another
  thing's name (:func:`._things.another`), a top key holding one owns the part of the top its
  other words name (:func:`_foreign`), and an item naming a key whose objects are all another
  thing's names that thing's part (:func:`_keys_of_others`);
- a number below one under an act's key states the act as not so, and one under a measure
  word binds only an item that names the measure (:mod:`._measures`).

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
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as _default
from functools import lru_cache
from typing import Any, Final, NamedTuple

from agentlog.summary.record import _cancelled, _measures, _unreal
from agentlog.summary.record._currency import CURRENCY_CODES, item_currencies, may_be
from agentlog.summary.record._dated import DATE, AsOf
from agentlog.summary.record._extract import is_lookup
from agentlog.summary.record._payload import _DENIED, _TEXT_KEYS, _decision_word
from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._things import Names, Thing, another, foreign
from agentlog.summary.record._words import NEGATED, REVERSALS, STOP_WORDS, content_words, forms
from agentlog.summary.record.entities import MONEY_KEYS

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
_UNDOING: Final = REVERSALS - _cancelled.WORDS | _unreal.ENDED | {"void"}
"""Words saying a decision was undone or ended (``revoked``, ``withdrawn``, ``superseded``,
``void`` as ``voided``): a key that says one of its object undoes the object's other states.
Not "cancelled": an order that was cancelled may still have its refund approved, so a
cancellation undoes only what its own object says (:mod:`._cancelled`)."""
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
_STARTS: Final = frozenset({"from", "start", "starts", "starting", "begin", "begins", "since"})
"""Words of a key saying its date is when its object comes into force (``effective_from``)."""
_ENDS: Final = frozenset(
    {"until", "till", "through", "thru", "expires", "expiry", "expiration", "expire", "expiring"}
    | {"end", "ends", "ending", "lapses", "expired"}
)
"""Words of a key saying its date is when its object stops being in force (``valid_until``)."""
_BOUNDS: Final = _STARTS | _ENDS
_MINOR: Final = frozenset({"cent", "cents", "minor", "pence", "penny", "pennies"})
"""Words of a key saying its number counts a currency's hundredth (``amount_cents``,
``minor_units``): ``8400`` there is 84.00, and "$8,400" is not what it holds."""
_TIMES: Final = (
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
_FIELD_NAMES: Final = frozenset(
    {"field", "name", "key", "attribute", "attr", "property", "prop", "param", "parameter"}
)
"""Key words saying a record names a field whose value the record (or a sibling) holds, as a
key and value pair (``{"name": "refund_status", "value": "approved"}``)."""
_KEY_LIKE: Final = re.compile(r"[A-Za-z]+(?:[_.-][A-Za-z]+)*")
"""A value that names a key (``refund_status``, ``refundStatus``): a separator between each
run, so that a long name that fails to match fails at once (no choice of where runs split)."""
_BREAK: Final = re.compile(r"\s[-\u2013\u2014~]+\s|[(\[,;:?!/\u2026]|\.\.|\s\.\s")
"""Where a short value's state ends and a comment on it starts ("approved (not really)",
"approved - just kidding", "approved, or so they say", "approved... not")."""
_DENIAL: Final = re.compile(rf" *(?:{_DENIED})[ .!]*", re.IGNORECASE)
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
_NUMBER: Final = re.compile(r"(?<![\w#/])(?<![\w#/]-)\d(?:[\d,.']*\d)?(?![\w/-])")
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
    void: bool = False
    """Said not to be so (a flag's key with a value that says no inside a list or an object,
    or a zero; an act dated after the event): stated, it binds nothing."""
    tail: frozenset[str] = frozenset()
    """The words commenting on a short value's state (:func:`_tail`): an item leaning on the
    state must say them too."""
    state: bool = False
    """A word value short enough to be a state (``approved``, ``on hold``), not a name."""
    thing: Thing | None = None
    """The nested object holding it (:mod:`._things`; ``None``: the top object)."""


def numbers_of(text: str) -> frozenset[str]:
    """Every number of an item's text as an amount key, currency or not (``fee 50.0``)."""
    return frozenset(k for k in map(amount_key, _NUMBER.findall(text)) if k is not None)


@lru_cache(maxsize=8192)
def _key_words(key: str) -> frozenset[str]:
    # Camel case split as snake case is ("isRevoked" as "is_revoked"): a space would make a
    # hedge of a flag's word ("is revoked" reads "if~revoked"), and hide it.
    return frozenset(content_words(_CAMEL.sub("_", key)))


@dataclass(frozen=True, slots=True)
class Payload:
    """A tool call's arguments or a result, read as leaves and indexed, for :func:`binds`."""

    tool: frozenset[str]
    """The tool name's words: what the whole payload is about."""
    leaves: tuple[Leaf, ...]
    keys: frozenset[str]
    """Every key word of the payload, at any depth."""
    stating: dict[str, list[Leaf]]
    """The leaves stating each word."""
    fields: dict[frozenset[str], list[Leaf]]
    """The leaves of each field name (a key that names a thing)."""
    states: tuple[Leaf, ...]
    """The leaves of a field or object whose value is a short word state (:attr:`Leaf.state`),
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
    lapsed: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    """Each time bound the event's day is outside (``"expires_at"`` before it,
    ``"effective_from"`` after it): the object's subject, and what else its key names."""
    own: frozenset[str] = frozenset()
    """The identifiers (case folded, no ``#``) its top object holds under a naming key
    (``"order_id": "A-1001"``): what the payload is about."""
    refs: dict[str, frozenset[str]] = _default(default_factory=dict)
    """The identifiers its top object holds under a key naming another thing
    (``"previous_order": "A-2002"``, ``"replaces"``), each with that key's words."""
    dates: tuple[tuple[frozenset[str], str], ...] = ()
    """Each date a string value starts with, beside its key's words (time words out)."""
    minor: frozenset[str] = frozenset()
    """Numbers as written under a key counting a currency's hundredths (``amount_cents``):
    not amounts it holds (:attr:`amounts` holds them divided)."""
    id_kinds: dict[str, frozenset[str]] = _default(default_factory=dict)
    """Each identifier its top object holds, and the words of the key holding it (naming
    words out): the kind of thing it names (:mod:`._things`)."""
    denied: tuple[frozenset[str], ...] = ()
    """The words of each key holding ``false``, with the keys above it (``"fee": {"waived":
    false}``: fee, waived): what it says is not so."""
    source: Any = None
    """The payload as given, read again only for what an item writes under a key it names
    (:func:`_writes_under`)."""
    reads: bool = False
    """Whether its tool's name says it only reads (``get_warranty``): its name's words name
    what it was asked about, not an act."""
    proper: frozenset[str] = frozenset()
    """The values (lower case) written as names under a key naming a thing (``"city":
    "Bristol"``): what the thing is called, not a state of it."""
    holders: tuple[tuple[frozenset[str], Thing], ...] = ()
    """Each nested object held under a key (``"unlock": {...}``), with the key's words, for
    :func:`_keys_of_others`."""
    under: dict[str, list[int]] = _default(default_factory=dict, compare=False, repr=False)
    """The places of the leaves under each key word (:func:`_under`), made on first use."""


class _Reading:
    """What a walk collects beside the leaves."""

    __slots__ = (
        *("codes", "currencies", "dated", "day", "distinct", "fielded", "found", "keys"),
        *("changed", "kinds", "lapsed", "minor", "objects", "own", "record_obj", "records"),
        *("dates", "denied", "holders", "idents", "proper", "refs", "undoing"),
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
        _key_words(tool),
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
    if depth > _MAX_DEPTH or len(found) >= _MAX_LEAVES:
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
            info = _key_info(key) if type(key) is str else _key_info(str(key))
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
                    and not (kind is str and _no(value))
                ):  # "refund_cancelled": true, "cancelled_at": "2026-11-30"
                    if cancelled is None:
                        cancelled = []
                    cancelled.append((words - info.cancels - _NAME_WORDS - _TIMES, info.cancels))
                    if kind is str and _string(value) is None:
                        # A date states no word: it says its key's words, as true would.
                        found.append(
                            _new(Leaf, (words - _NAME_WORDS - _TIMES, above, top, info.field,
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
                figure = _measures.number(value)  # "refund_approved": 0.73 keeps its sum
                found.append(
                    Leaf(info.acts, above | (info.naming - info.acts), top, info.field, _NONE,
                         None if figure is None else _amount(figure), "", records=records,
                         void=True, thing=thing)
                )  # fmt: skip
                continue
            if kind is str or isinstance(value, str):  # most values: read here, no call per leaf
                keys.update(words)
                first = value[:1]
                if first == "{" or first == "[":
                    inner = _json_in(value)
                    if inner is not None:  # a string holding JSON: read as what it holds
                        was = past or info.past
                        inside = _new(Thing, (thing, inner, None)) if type(inner) is dict else thing
                        _walk(
                            inner, above | info.naming, words, depth + 1, reading, records, 0,
                            was, inside,
                        )  # fmt: skip
                        continue
                if info.what:  # "type": "refund": what the object is
                    reading.kinds.setdefault(obj, set()).update(_value_words(value))
                if record:
                    if info.names_id and 0 < len(value) <= _CODE_CHARS:
                        # A short value under a naming key: the code that tells records apart.
                        reading.codes.setdefault(value.strip().lower(), set()).add(record)
                    _record_value(info, value, record, reading)
                if first.isdigit() and (date := DATE.match(value)) is not None:
                    reading.dates.append((words - _TIMES, date.group(1)))
                if day is not None and first.isdigit():
                    _bound_in_time(info, value, above, reading)
                if top and _ID_SHAPE.fullmatch(value) and not info.generic:
                    ident = value.lstrip("#").casefold()
                    reading.idents[ident] = info.naming
                    if info.names_id:
                        reading.own.add(ident)
                    else:  # a key naming a thing and no name of its own: another thing's
                        reading.refs[ident] = words
                read = _string(value)
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
                    reading.undoing.append((above, words - _UNDOING - _NAME_WORDS))
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
                    _new(Leaf, (words - _NAME_WORDS, above, top, info.field, _NONE, None, "",
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
                                    _minor(value, reading) if info.minor else _amount(value), "",
                                    False, False, False, records, False, 0, False, False, _NONE,
                                    False, thing))
                    )  # fmt: skip
                elif value is False:  # "fee_waived": false, "fee": {"waived": false}
                    reading.denied.append(above | (words - _NAME_WORDS))
            if info.undoes and value not in (None, False, 0):
                # "revoked": true, "withdrawn_at": "2026-01-03": the object's states undone
                reading.undoing.append((above, words - _UNDOING - _NAME_WORDS))
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
                _leaf(_ITEM, value, above, top, reading, records, 0, past, thing)
        if len(found) - start > 1:
            if numbers:
                _entries(found, start, numbers, reading)
            elif last is not None and any(not _GENERIC.isdisjoint(forms(w)) for w in last):
                _superseded(found, [[i] for i in range(start, len(found))])


def _measured(
    info: _Key,
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
    measured = info.words - info.measures - _NAME_WORDS
    if not measured:
        return None
    return _new(
        Leaf,
        (measured, above, top, info.field, _NONE, _amount(number), "", False, False, False,
         records, False, 0, past or info.past, False, info.measures, False, thing),
    )  # fmt: skip


def _ident(value: str) -> str | None:
    """A string that reads as an identifier (:data:`_ID_SHAPE`), case folded, no ``#``."""
    return value.lstrip("#").casefold() if _ID_SHAPE.fullmatch(value) else None


def _names(thing: Thing | None) -> Names | None:
    """What the innermost object naming itself, from ``thing`` out, names itself by
    (:mod:`._things`); ``None`` when none does (the top object's own are not read here)."""
    while thing is not None:
        strong = [] if thing.key is None or (own := _ident(thing.key)) is None else [own]
        keyed: list[tuple[str, frozenset[str]]] = []
        for key, value in thing.node.items():
            if isinstance(value, str) and (ident := _ident(value)) is not None:
                info = _key_info(key if isinstance(key, str) else str(key))
                if info.names_id:
                    strong.append(ident)
                elif not info.generic:
                    keyed.append((ident, info.naming))
        if strong or keyed:
            return Names(frozenset(strong), tuple(keyed))
        thing = thing.parent
    return None


def _not_so_now(
    info: _Key,
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
    inner = _json_in(value) if isinstance(value, str) else None
    node = value if inner is None else inner
    if isinstance(node, dict):
        inside = _new(Thing, (thing, node, key if type(key) is str else None))
        _walk(node, above | info.naming, info.words, depth + 1, reading, records, 0, False, inside)
    elif isinstance(node, list | tuple):
        _walk(node, above | info.naming, info.words, depth + 1, reading, records, 0, False, thing)
    else:
        _leaf(info, value, above, False, reading, records, 0, False, thing)
    named = frozenset(reading.keys | info.words) - _NAME_WORDS
    reading.keys = keys
    reading.found.append(
        Leaf(named, above, False, _NONE, _NONE, None, "", records=records, thing=thing)
    )
    _unreal.mark(reading.found, start, words)


def _says_no(value: Any, info: _Key, reading: _Reading, record: int) -> bool:
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
        return bool(scalars) and all(_no(v) for v in scalars)
    if isinstance(value, str):
        if _ZERO.fullmatch(value) is not None or _unreal.type_name(value):
            return True  # "$0.00"; "boolean": a schema's, naming what the key may hold
        when = DATE.match(value) if reading.day is not None else None
        # A plan's date is what it says; an undoing dated later still ends the state.
        later = when is not None and when[1] > str(reading.day)
        return later and not (info.planned or info.undoes or info.cancels)
    return False


_ZERO: Final = re.compile(
    r" *(?:zero|none|nil|[$\u20ac\u00a3\u00a5]? *0+(?:[.,]0+)? *(?:%|[^\W\d_]{1,5})?) *",
    re.IGNORECASE,
)
"""A string saying zero, in any unit or currency (``"$0.00"``, ``"0 USD"``, ``"0%"``)."""


def _no(value: Any) -> bool:
    """A scalar that says no: ``false``, ``null``, zero, ``"no"`` or a denial."""
    if value is None or value is False:
        return True
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value == 0
    if isinstance(value, str):
        return not value.strip() or _ZERO.fullmatch(value) is not None or _denies(value)
    return False


@lru_cache(maxsize=4096)
def _denies(value: str) -> bool:
    return _DENIAL.fullmatch(value) is not None or value.strip().lower() in _SAYS_NO


_SAYS_NO: Final = frozenset({"no", "n", "false", "none", "null", "nil", "nope", "never", "off"})


def _flags(value: dict[Any, Any]) -> bool:
    """Whether an object is a map of flags (``{"refund": false, "exchange": true}``)."""
    return bool(value) and all(isinstance(v, bool) or v is None or _no(v) for v in value.values())


def _acts_of(
    info: _Key,
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
        member = _key_info(key if isinstance(key, str) else str(key))
        reading.keys.update(member.words)
        subject = above | (info.naming - info.acts) | member.naming
        reading.found.append(
            Leaf(info.acts, subject, False, member.field, _NONE, None, "",
                 records=records, void=flag is not True, thing=thing)
        )  # fmt: skip


def _record_value(info: _Key, value: str, record: int, reading: _Reading) -> None:
    """Note what a record's string says of the record: a field it names (``"name":
    "refund_status"``), a date, or anything else that makes it a thing of its own."""
    when = DATE.match(value)
    if when is not None:
        if when[1] > reading.dated.get(record, ""):
            reading.dated[record] = when[1]
    elif not info.words.isdisjoint(_FIELD_NAMES) and _KEY_LIKE.fullmatch(value) is not None:
        reading.fielded[record] = _key_info(value).naming
    elif not info.generic or info.what:  # "sku": "MUG-RED", "type": "fee waiver"
        reading.distinct.add(record)


def _bound_in_time(info: _Key, value: str, above: frozenset[str], reading: _Reading) -> None:
    """A time bound the event's day is outside: ``"effective_from"`` a later day, or
    ``"expires_at"``, ``"valid_until"`` an earlier one; its object's states are not in force."""
    when = DATE.match(value)
    if when is None:
        return
    day = str(reading.day)
    if (info.starts and when[1] > day) or (info.ends and when[1] < day):
        reading.lapsed.append((above, info.words - _TIMES - _NAME_WORDS))


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
    they disagree, all but the newest held before (:attr:`Leaf.past`)."""
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


_ITEM: Final = _Key(_NONE, _NONE, _NONE, True, False, False, False, False, False, False)
"""A scalar in a list: no key of its own."""


@lru_cache(maxsize=8192)
def _key_info(key: str) -> _Key:
    """What a key's words say (:class:`_Key`)."""
    words = _key_words(key)
    naming = words - _GENERIC - _NAME_WORDS
    # A generic word beside a thing's name ("refund_status") says the state of that thing.
    generic = not words or (not words.isdisjoint(_GENERIC) and not naming)
    runs = frozenset(_LETTER_RUN.findall(_CAMEL.sub(" ", key).lower()))
    return _Key(
        words,
        naming,
        _NONE if generic else naming if not words.isdisjoint(_GENERIC) else words - _NAME_WORDS,
        generic,
        not words.isdisjoint(_WHAT),
        not words.isdisjoint(_UNDOING),
        not words.isdisjoint(_NAME_WORDS),
        not words.isdisjoint(_TEXT_WORDS),
        "currency" in words,
        not _PAST.isdisjoint(runs),
        frozenset(w for w in words if _participle(w)),
        not runs.isdisjoint(_STARTS),
        not runs.isdisjoint(_ENDS),
        not runs.isdisjoint(_PLANNED),
        not runs.isdisjoint(_MINOR),
        runs if not runs.isdisjoint(_unreal.WORDS) else _NONE,
        words & _cancelled.WORDS,
        words & _measures.WORDS,
        not words.isdisjoint(_cancelled.WORDS) or not words.isdisjoint(_measures.WORDS),
    )


def _participle(word: str) -> bool:
    """Whether a (folded) word is an English past participle: ``-ed``, or :data:`_IRREGULAR`."""
    return (word.endswith("ed") and len(word) > 4) or word in _IRREGULAR


def _leaf(
    info: _Key,
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
        states = info.words - _NAME_WORDS
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
        amount = _minor(value, reading) if info.minor else _amount(value)
        found.append(
            _new(Leaf, (_NONE, above, top, field, _NONE, amount, "", False, False,
                        False, records, False, 0, False, False, _NONE, False, thing))
        )  # fmt: skip
    elif isinstance(value, str):
        read = _string(value)
        if read is not None:
            _stated(info, value, read, above, top, reading, records, obj, past, thing)


def _stated(
    info: _Key,
    value: str,
    read: _String,
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
"""A :class:`Leaf` made from all its fields at once: a payload holds thousands of leaves, and
the named tuple's own constructor (keywords and defaults, in Python) costs more than the tuple."""


@lru_cache(maxsize=8192, typed=True)
def _amount(value: float) -> str | None:
    """A number value as an amount key (``money:12.50``), read once per number."""
    return amount_key(repr(value)) if value == value and abs(value) < 1e15 else None


def _minor(value: float, reading: _Reading) -> str | None:
    """A count of a currency's hundredths as the amount it is (``8400`` cents: 84.00); the
    count as written is kept apart (:attr:`Payload.minor`), an amount no item may read."""
    written = _amount(value)
    if written is not None:
        reading.minor.add(written)
    return _amount(value / 100)


class _String(NamedTuple):
    """What a string value says, whatever its key (:func:`_string`)."""

    words: frozenset[str]
    lower: str
    clause: bool
    tail: frozenset[str]
    state: bool
    """Whether it is short enough to be a state (:attr:`Leaf.state`)."""
    currency: bool
    """Whether it may be a currency's code (three letters)."""
    name: bool
    """Whether it is written as a name: each word capitalised, none in capitals only
    (``"city": "Bristol"``), as a state is not (``"warranty": "expired"``)."""


@lru_cache(maxsize=16384)
def _string(value: str) -> _String | None:
    """A string value read once per value (a payload repeats a few values many times): its
    words and what they are, or ``None`` when it states no word (:func:`_worded`)."""
    if not _worded(value):
        return None
    words = _value_words(value)
    if not words:
        return None
    lower = value.lower()
    state = len(lower.split()) <= 3 and not any(c.isdigit() for c in lower)
    return _String(
        words,
        lower,
        _clause(value),
        _tail(value),
        state,
        len(value) == 3 and value.isalpha(),
        state and all(w[0].isupper() and not w.isupper() for w in _LETTER_RUN.findall(value)),
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
def _tail(value: str) -> frozenset[str]:
    """The words of a short value that comment on its state, after a break (:data:`_BREAK`:
    "approved (not really)", "approved - just kidding", "approved, or so they say"); a plain
    state ("approved", "approved by manager", "shipped today", "in transit") has none."""
    cut = _BREAK.search(value)
    if cut is not None and cut.start() > 0:
        comment = value[cut.start() :]
        # Of grammar only ("or so they say"), its words still comment: none is an item's.
        return frozenset(content_words(comment) or _LETTER_RUN.findall(comment.lower()))
    return _NONE


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
    subject: frozenset[str],
    value: str,
    found: list[Leaf],
    records: frozenset[int],
    thing: Thing | None,
) -> None:
    """A string in a list: a member of the list's key, which an item must name."""
    if _worded(value):
        words = _value_words(value)
        if words:
            found.append(
                Leaf(words, subject, False, _NONE, words, None, "", True, records=records,
                     thing=thing)
            )  # fmt: skip


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
    links: Sequence[str | None] = (),
) -> bool:
    """Whether each of ``payloads`` (a tool's name and the leaves of its call or result) says
    the item's words of what the item names (module docstring).

    ``words`` are the item's content words that need support (its entities' letters out),
    ``text_words`` all its content words (what it names, "pet" of ``PET-4471`` too), ``ids``
    its identifiers (lower case, no ``#``), ``amounts`` the amount keys of its numbers
    (:func:`numbers_of`) and ``text`` the item's text (the short codes and the currency it
    writes). A word for which ``said`` is true is held by cited evidence other than these
    payloads (a decision's text, a call shown without its payload) and needs no leaf.
    ``links`` are the payloads' call ids (a call and its result are one exchange).
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
    if amounts and any(not p.minor.isdisjoint(amounts) for p in payloads):
        return False  # "$8,400.00" where the tool's 8400 counts cents
    if text and any(p.dates for p in payloads) and _other_date(payloads, spoken, text):
        return False  # "approved on 2026-08-01" where the approval is dated 2026-09-01
    if ids and any(_referred(p, ids, spoken) for p in payloads):
        return False  # "A-2002 refund approved" where A-2002 is the order A-1001 replaced
    if ids and len(payloads) > 1:
        payloads, others = _about(payloads, ids, text.casefold(), links)
        if others and not _own_words(words, amounts, payloads, others, said):
            return False  # "A-1001 refund approved" where the approval is A-2002's result's
    named = _named_records(text, payloads)
    # The parts of each payload's top that another thing's identifier owns
    # ("refund_applies_to": "A-2002"): read only when the item writes an identifier.
    parts = [_foreign(p, ids) if ids and p.refs else () for p in payloads]
    written = spoken | frozenset(text_words)  # its negated words too ("no connection")
    undoes = not spoken.isdisjoint(_UNDOING)
    keys = frozenset().union(*(p.keys for p in payloads))
    # The objects a key says were undone or ended (``reverted_at``): an item naming one by
    # its key ("unlock done" of "unlock": {...}) and no undoing leans on an ended state.
    ended = _NONE if undoes else frozenset().union(*(s for p in payloads for s, _ in p.undoing))
    for word in words:
        if "~" in word or said(word):
            continue
        alternatives = forms(word) | {word}
        if not alternatives.isdisjoint(keys):
            if ended and not alternatives.isdisjoint(ended):
                return False  # "unlock": {"done": true, "reverted_at": ...}: undone
            # A word that names a field is the item naming it, not a state it says; but the
            # field says its own state, which the item must not leave out, unless the word
            # is a state the payloads say too ("shipped" beside "status": "shipped"). Rule 3
            # first: it is cheap and seldom true, and binding the word is not.
            if _state_unsaid(
                alternatives, spoken, text_words, ids, amounts, payloads, text, parts
            ) and not (
                any(w in p.stating for p in payloads for w in alternatives)
                and _bound(alternatives, spoken, payloads, named, undoes, written, ids, parts)
            ):
                return False
            if ids and _keys_of_others(alternatives, ids, payloads, parts):
                return False  # "unlock": {"status": "done", "target": "ACC-9000"}
            continue
        if not _bound(alternatives, spoken, payloads, named, undoes, written, ids, parts):
            return False
    if amounts and _other_amount(payloads, spoken, amounts):
        return False  # "refund of $84.00" where the refund holds 12.00 and the total 84.00
    literal = frozenset(text_words)
    return not any(_misstated(p, spoken, ids, amounts, literal) for p in payloads)


def _other_date(payloads: Sequence[Payload], spoken: frozenset[str], text: str) -> bool:
    """Whether the item names a dated key (``approved_on``: its words, time words out) and
    writes none of the dates such keys hold, but one another key holds (``placed``)."""
    written = set(DATE.findall(text))
    if not written:
        return False
    named: set[str] = set()
    other: set[str] = set()
    for payload in payloads:
        for words, date in payload.dates:
            (named if words and words <= spoken else other).add(date)
    return bool(named) and named.isdisjoint(written) and not other.isdisjoint(written)


def _referred(payload: Payload, ids: Collection[str], spoken: frozenset[str]) -> bool:
    """Whether the item names a thing by an identifier the payload holds only under another
    thing's key (``"previous_order": "A-2002"``) while its top object names its own subject
    (``"order_id": "A-1001"``): the payload's states are its subject's, not the one it refers
    to (unless the item says the key's words: "the previous order A-2002")."""
    if not payload.refs or not payload.own:
        return False
    refs = payload.refs
    if any(i in payload.own for i in ids):
        return False
    return any(i in refs and refs[i].isdisjoint(spoken) for i in ids)


def _about(
    payloads: Sequence[Payload], ids: Collection[str], text: str, links: Sequence[str | None]
) -> tuple[Sequence[Payload], list[Payload]]:
    """The payloads about what the item names, and those about another thing: an exchange
    (a call and its result, by ``links``; a payload alone without one) whose tops name their
    own subjects (:attr:`Payload.own`) by no identifier the item writes (``text``, case
    folded), beside one that names it by one of the item's (the lookup of A-2002 cited with
    the lookup of A-1001)."""
    if not any(not p.own.isdisjoint(ids) for p in payloads):
        return payloads, []
    linked = list(links) if len(links) == len(payloads) else [None] * len(payloads)
    named: set[str] = set()
    apart: list[bool] = []
    for payload, link in zip(payloads, linked, strict=True):
        other = bool(payload.own) and payload.own.isdisjoint(ids)
        other = other and not any(i in text for i in payload.own)
        apart.append(other)
        if not other and link is not None:
            named.add(link)
    mine: list[Payload] = []
    others: list[Payload] = []
    for payload, link, other in zip(payloads, linked, apart, strict=True):
        (others if other and link not in named else mine).append(payload)
    return mine, others


def _own_words(
    words: Collection[str],
    amounts: Collection[str],
    mine: Sequence[Payload],
    others: Sequence[Payload],
    said: Callable[[str], bool],
) -> bool:
    """Whether each word and sum of the item that a payload about another thing holds (a
    state, a key, its tool's name, a number) is held by one about the item's own too: one
    cited result does not lend its approval or its total to the order another names."""
    for word in words:
        if "~" in word or said(word):
            continue
        alternatives = forms(word) | {word}
        if _holds(others, alternatives) and not _holds(mine, alternatives):
            return False
    for amount in amounts:
        if any(amount in p.amounts for p in others) and not any(amount in p.amounts for p in mine):
            return False
    return True


def _holds(payloads: Sequence[Payload], alternatives: frozenset[str]) -> bool:
    return any(
        not alternatives.isdisjoint(p.tool)
        or not alternatives.isdisjoint(p.keys)
        or any(w in p.stating for w in alternatives)
        for p in payloads
    )


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
    written: frozenset[str] = _NONE,
    ids: Collection[str] = (),
    parts: Sequence[Sequence[frozenset[str]]] = (),
) -> bool:
    """Rule 1 for one word (in its forms): no payload states it, or one states it of the
    payload as a whole or of a subject the item names, or (but for a list's member, a clause
    and a part of what the payload is about) while the item names no other part of that
    payload that says something the item does not; never by free text, nor by a record
    beside the one the item names by its code, nor by a state its object undoes, nor by
    another thing's (``parts``: each payload's, :func:`_foreign`)."""
    stated = False
    owned = parts if len(parts) == len(payloads) else [()] * len(payloads)
    for payload, records, foreign_parts in zip(payloads, named, owned, strict=True):
        if not alternatives.isdisjoint(payload.tool):
            return True
        for word in alternatives:
            for leaf in payload.stating.get(word, ()):
                stated = True
                if leaf.prose or leaf.void:
                    continue  # a note's words, however short: stored, not established
                if leaf.thing is not None and ids and _another(leaf.thing, ids, payload):
                    continue  # "related": {"order_id": "A-2002", ...}: another order's
                if foreign_parts and _owned(leaf, foreign_parts):
                    continue  # "refund_applies_to": "A-2002" beside "refund_status"
                if leaf.tail and not leaf.tail <= written:
                    continue  # "approved (not really)": the comment takes the state back
                if records is not None and leaf.records and leaf.records.isdisjoint(records):
                    continue  # the record beside the one the item names by its code
                if not undoes and payload.undoing and _undone(leaf, payload.undoing):
                    continue  # "approved": true beside "revoked": true
                if leaf.past and spoken.isdisjoint(_PAST):
                    continue  # "was": "approved" is not so now
                if payload.lapsed and spoken.isdisjoint(_BOUNDS) and _undone(leaf, payload.lapsed):
                    continue  # "expires_at" a day before the event's: no longer so
                top, subject = leaf.top, leaf.subject
                kind = payload.kind_of.get(leaf.obj, _NONE) if leaf.obj else _NONE
                if not leaf.words:  # a flag: what else its key names is what it is of
                    rest = leaf.states - alternatives
                    if rest and rest.isdisjoint(spoken):
                        top, subject, kind = False, subject | rest, _NONE
                if top or (subject and subject <= spoken):
                    return True
                if not subject.isdisjoint(spoken) and not _nearer(payload.states, spoken, leaf):
                    return True  # of a part the item names in part ("refund" of details)
                if leaf.member or leaf.clause:
                    continue  # said of the list's key, or of the field holding the sentence
                if (
                    not (payload.kinds - alternatives).isdisjoint(spoken)
                    and kind.isdisjoint(spoken)
                    and not _verdict(subject, leaf)
                ):
                    # The state of a part, the item naming what the whole is (unless the part
                    # is a thing the item names by its kind, "type": "refund", or a decision:
                    # "approval": "refused" is the whole's, as "status" is).
                    continue
                if not _competing(payload.states, spoken, leaf):
                    return True
    return not stated


def _another(thing: Thing, ids: Collection[str], payload: Payload) -> bool:
    """Whether the nested object ``thing`` is part of another thing than the item's
    (:func:`._things.another`)."""
    names = _names(thing)
    return names is not None and another(names, ids, payload.id_kinds)


def _foreign(payload: Payload, ids: Collection[str]) -> Sequence[frozenset[str]]:
    """The parts of the payload's top object that another thing's identifier owns
    (:func:`._things.foreign`: ``refund`` of ``"refund_applies_to": "A-2002"``)."""
    return foreign(payload.refs, ids, payload.id_kinds, payload.tool | _PAST)


def _keys_of_others(
    alternatives: frozenset[str],
    ids: Collection[str],
    payloads: Sequence[Payload],
    parts: Sequence[Sequence[frozenset[str]]],
) -> bool:
    """Whether each key with one of ``alternatives`` (a word the item names a field by) that
    holds an object holds another thing's (:func:`_another`), one does, and the item's own
    hold none: no key of the top (but of a part another thing's identifier owns, ``parts``),
    no leaf of the item's thing, no tool's name. The item names another thing's part
    (``"unlock": {"status": "done", "target": "ACC-9000"}`` for "ACC-5521 unlocked"); a field
    of another's object holding no object (a variant's ``price``) is not read: its value is
    what the item writes, read as any."""
    found = False
    for payload in payloads:
        if not alternatives.isdisjoint(payload.tool):
            return False
        if not payload.holders or alternatives.isdisjoint(payload.keys):
            continue
        for words, thing in payload.holders:
            if not alternatives.isdisjoint(words):
                if not _another(thing, ids, payload):
                    return False
                found = True
    if not found:
        return False
    owned = parts if len(parts) == len(payloads) else [()] * len(payloads)
    for payload, foreign_parts in zip(payloads, owned, strict=True):
        if alternatives.isdisjoint(payload.keys):
            continue
        source = payload.source
        if isinstance(source, dict):
            for key, value in source.items():
                words = _key_words(key if isinstance(key, str) else str(key))
                if (
                    not isinstance(value, dict)
                    and not alternatives.isdisjoint(words)
                    and not any(not words.isdisjoint(part) for part in foreign_parts)
                ):
                    return False  # a key of the top object: what the payload is about
        for leaf in _under(payload, alternatives):
            if (leaf.thing is None or not _another(leaf.thing, ids, payload)) and not (
                foreign_parts and _owned(leaf, foreign_parts)
            ):
                return False  # a state of the item's own thing under the word
    return True


def _owned(leaf: Leaf, parts: Sequence[frozenset[str]]) -> bool:
    """Whether a leaf states something of a part of the top object that another thing's
    identifier owns (:func:`_foreign`): its key path or its key names that part."""
    said = leaf.subject | _cancelled.part(leaf)
    return bool(said) and any(not said.isdisjoint(part) for part in parts)


def _verdict(subject: frozenset[str], leaf: Leaf) -> bool:
    """Whether a part's state is the verdict on the whole: its subject names a decision
    (:func:`._payload._decision_word`) that the state says was made (``"approval":
    {"approved": true}``, one stem) or refused (``"approval": "refused"``), not another act
    that was decided (``"cancellation": {"approved": true}``)."""
    decisions = [w for w in subject if _decision_word(w)]
    if not decisions:
        return False
    if leaf.value and _denies(leaf.value):
        return True
    return not _stems(decisions).isdisjoint(_stems(leaf.states))


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


def _nearer(leaves: Sequence[Leaf], spoken: frozenset[str], stating: Leaf) -> bool:
    """Whether another short word state (``leaves``) is said of a subject the item names
    whole, and not in words the item says, while ``stating`` is of a subject it names only
    in part: ``"refund": "denied"`` is the refund the item names, not the ``"parent": {"refund":
    "approved"}`` beside it."""
    return any(
        leaf is not stating
        and leaf.subject
        and leaf.subject <= spoken
        and leaf.states.isdisjoint(spoken)
        and not leaf.past
        for leaf in leaves
    )


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


def _state_unsaid(
    alternatives: frozenset[str],
    spoken: frozenset[str],
    text_words: Collection[str],
    ids: Collection[str],
    amounts: Collection[str],
    payloads: Sequence[Payload],
    text: str,
    parts: Sequence[Sequence[frozenset[str]]] = (),
) -> bool:
    """Rule 3 for one word (in its forms) that names a key: whether the thing it names holds,
    in the payloads, a state the item does not say, and nothing the item says.

    A state of the thing is a short word value under a key with the word
    (``"warranty": "expired"``, ``"vip_upgrade": "requested"``), a flag whose key has it
    (``"vip_upgrade_requested": true``), and, in an object whose key path the item names
    whole, a flag or a generic key's value (``"unlock": {"queued": true}``, ``"address_change":
    {"status": "received"}``); a key holding ``false`` (or an act's key saying it is not so,
    :attr:`Leaf.void`) whose words and those above it the item names (``"fee": {"waived":
    false}``); a time bound with the word that the event's day is
    outside (``"warranty_until"`` a day before it). A value the item writes (a word, a sum)
    under the word says the thing's state; a name, a number, free text, a list's member or
    record, a past state or another thing's (:mod:`._things`) is no state of it, nor a value
    written as a name (``"city": "Bristol"``). A word of a writing tool's name
    (``update_marketing_preferences``) names what the call acted on when the item says the
    act in another of its words ("updated"): the act is what the item says of it."""
    if any(
        not p.reads
        and not alternatives.isdisjoint(p.tool)
        and not (p.tool - alternatives).isdisjoint(spoken)
        for p in payloads
    ):
        return False  # "updated marketing preferences": the act says what the item says
    negated = frozenset(w[len(NEGATED) :] for w in text_words if w.startswith(NEGATED))
    unsaid = firm = False
    owned = parts if len(parts) == len(payloads) else [()] * len(payloads)
    for payload, foreign_parts in zip(payloads, owned, strict=True):
        for leaf in _under(payload, alternatives):
            if leaf.past or leaf.prose or leaf.member:
                continue  # held before, free text, a list's member: no state of it now
            # A state its object's cancellation marks says nothing of it now, but that.
            cancelled = bool(leaf.tail) and _cancelled_unsaid(leaf.tail, spoken, text_words)
            if cancelled:
                said = False
            elif (leaf.amount is not None and leaf.amount in amounts) or not leaf.words.isdisjoint(
                spoken
            ):
                said = True  # "late fee of $25.00", "warranty active": what the thing is
            elif not leaf.words and leaf.amount is None and not leaf.void and leaf.states:
                # a flag: "refund_approved": true for "refund approved"
                said = leaf.states <= alternatives or not leaf.states.isdisjoint(spoken)
            else:
                said = False
            if not said and (
                (unsaid and (firm or not cancelled))
                or not _unsaid_state(leaf, alternatives, spoken, negated)
            ):
                continue
            if leaf.field and leaf.value in payload.proper:
                continue  # "city": "Bristol": what it is called
            if leaf.thing is not None and ids and _another(leaf.thing, ids, payload):
                continue  # another thing's (read last: it reads the object's names)
            if foreign_parts and _owned(leaf, foreign_parts):
                continue  # a part of the top another thing's identifier owns
            if said:
                return False
            unsaid, firm = True, firm or cancelled
        if not unsaid and spoken.isdisjoint(_BOUNDS):
            unsaid = any(not alternatives.isdisjoint(rest) for _, rest in payload.lapsed)
        if not unsaid:
            unsaid = any(
                not alternatives.isdisjoint(words)
                and words <= spoken
                and not _negates(negated, words)
                for words in payload.denied
            )
    if firm:  # "unlock": {"status": "done", "cancelled": true} for "unlock done"
        return True
    if unsaid:  # a value the item writes that is no leaf (an identifier, a date) says it too
        folded = text.casefold()
        return not any(_writes_under(p.source, alternatives, folded) for p in payloads)
    return False


def _cancelled_unsaid(
    tail: frozenset[str], spoken: frozenset[str], text_words: Collection[str]
) -> bool:
    """Whether a leaf's ``tail`` holds a cancellation (:mod:`._cancelled`) the item does not
    say: the state it marks is not so now, and no value the item writes under its key says
    it is (``"status": "done"`` of a cancelled unlock, for "unlock done")."""
    words = tail & _cancelled.WORDS
    return bool(words) and not words <= spoken and not words <= frozenset(text_words)


def _writes_under(node: Any, alternatives: frozenset[str], text: str, depth: int = 0) -> bool:
    """Whether a value under a key with one of ``alternatives`` (at any depth below it) is
    written in ``text`` (case folded): an identifier, a date, a number of three characters or
    more (``"line": {"line_id": "L1002"}`` for "line L1002")."""
    if depth > _MAX_DEPTH:
        return False
    items: Iterable[tuple[Any, Any]]
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list | tuple):
        items = ((None, v) for v in node)
    else:
        return False
    for key, value in items:
        named = key is not None and not alternatives.isdisjoint(_key_words(str(key)))
        if named and _written(value, text):
            return True
        if isinstance(value, dict | list | tuple) and _writes_under(
            value, alternatives, text, depth + 1
        ):
            return True
    return False


def _written(node: Any, text: str, depth: int = 0) -> bool:
    """Whether a scalar of ``node`` (at any depth) is written in ``text`` (case folded)."""
    if isinstance(node, str | int | float) and not isinstance(node, bool):
        value = str(node).strip().lstrip("#").casefold()
        return len(value) >= 3 and value in text
    if depth > _MAX_DEPTH:
        return False
    if isinstance(node, dict):
        return any(_written(v, text, depth + 1) for v in node.values())
    if isinstance(node, list | tuple):
        return any(_written(v, text, depth + 1) for v in node)
    return False


def _unsaid_state(
    leaf: Leaf, alternatives: frozenset[str], spoken: frozenset[str], negated: frozenset[str]
) -> bool:
    """Whether ``leaf`` (under a key with one of ``alternatives``, saying nothing the item
    says) is a state of the thing the key names (:func:`_state_unsaid`)."""
    if not leaf.states or leaf.clause or leaf.records or (leaf.words and not leaf.state):
        return False  # a sentence, a record of a list, a name: no state of the thing
    if alternatives.isdisjoint(leaf.field) and (
        (leaf.words and leaf.field) or not leaf.subject <= spoken
    ):
        return False  # of a part the item does not name, or a field of the object
    # An act not so is a state the item says only by naming the act.
    return not leaf.void or (leaf.states <= spoken and not _negates(negated, leaf.states))


def _under(payload: Payload, alternatives: frozenset[str]) -> list[Leaf]:
    """The leaves of ``payload`` whose key path or own key has one of ``alternatives``, in
    the payload's order: read through an index of the payload's key words, made on first use
    (most payloads an item cites hold many leaves, few under the word it names)."""
    index = payload.under
    if not index:
        for at, leaf in enumerate(payload.leaves):
            for word in leaf.subject | leaf.field:
                index.setdefault(word, []).append(at)
        index[""] = []  # made, even for a payload with no key words
    leaves = payload.leaves
    places = [index[w] for w in alternatives if w in index]
    if len(places) == 1:
        return [leaves[at] for at in places[0]]
    return [leaves[at] for at in sorted({at for found in places for at in found})]


def _negates(negated: frozenset[str], words: Collection[str]) -> bool:
    """Whether the item negates one of ``words`` in some form ("not waived", "no refund")."""
    return any(not forms(w).isdisjoint(negated) or w in negated for w in words)


def _misstated(
    payload: Payload,
    spoken: frozenset[str],
    ids: Collection[str],
    amounts: Collection[str],
    literal: frozenset[str] = _NONE,
) -> bool:
    """Rule 2: the item names a field and says another value than any field of that name
    (``literal``: the item's words as written, for :func:`_unnamed_amount`)."""
    leaves = payload.leaves
    for field, named in payload.fields.items():
        if not field <= spoken:
            continue
        if any(not leaf.words.isdisjoint(spoken) or leaf.value in ids for leaf in named):
            continue
        if any(leaf.amount is not None and leaf.amount in amounts for leaf in named):
            continue
        worded = [leaf for leaf in named if leaf.state]
        counted = any(leaf.amount is not None for leaf in named)
        if (
            counted
            and not worded
            and not payload.amounts.isdisjoint(amounts)
            and _unnamed_amount(leaves, spoken, amounts, field, literal)
        ):
            return True  # "refund of $84.00 approved" where the field approved 12.50
        if worded and len(worded) == len(named) and _elsewhere(payload.states, spoken):
            return True
    return False


_MEASURES: Final = frozenset({"amount", "total", "subtotal", "sum", "value", "balance", "due"})
"""Money words of a key that say how much, not of what (``refund_amount``: the refund's)."""


def _other_amount(
    payloads: Sequence[Payload], spoken: frozenset[str], amounts: Collection[str]
) -> bool:
    """Whether the item names one object holding money (``"refund": {"amount": 12.0}``: a
    key of :data:`.entities.MONEY_KEYS` in an object, not a list's record, whose key path
    the item names) and writes none of that object's sums in any payload, but one that a
    field outside it holds and the item does not name (the order's ``"total"``): it puts
    another thing's sum on the thing it names. One holding only a bound of its sum
    (``max_refund``) holds no sum: an item writing the bound's, and no word of a bound, puts
    the ceiling in place of the sum granted."""
    own: set[str] = set()
    outside: set[str] = set()
    ceilings: set[str] = set()
    for payload in payloads:
        for leaf in payload.leaves:
            if leaf.amount is None:
                continue
            # Whose sum it is: its object's and its key's other words (the refund's of
            # ``refund_amount``, not of ``requested_amount`` in the refund unless the item
            # says so); a bound (``max_refund``) is no sum the thing holds.
            thing = leaf.subject | (leaf.field - _MEASURES)
            if (
                thing
                and not leaf.records
                and thing <= spoken
                and not leaf.field.isdisjoint(MONEY_KEYS)
                and leaf.field.isdisjoint(_unreal.BOUNDS)
            ):
                own.add(leaf.amount)
                continue
            if (bounded := thing - _unreal.BOUNDS) != thing and bounded and bounded <= spoken:
                ceilings.add(leaf.amount)  # "max_refund": a bound of the refund's sum
            if not leaf.field or not leaf.field <= spoken:  # "total 84.00" names its field
                outside.add(leaf.amount)
    if not own:
        return not ceilings.isdisjoint(amounts) and spoken.isdisjoint(_unreal.BOUNDS)
    if not own.isdisjoint(amounts):
        return False
    return not outside.isdisjoint(amounts)


def _unnamed_amount(
    leaves: Sequence[Leaf],
    spoken: frozenset[str],
    amounts: Collection[str],
    field: frozenset[str] = _NONE,
    literal: frozenset[str] = _NONE,
) -> bool:
    """Whether the item states a number that only fields it does not name hold (the total
    it puts in place of the approved amount). When it writes all the words of ``field`` (the
    field it names), a field named by only some of them is not named: "3 items refunded"
    names ``items_refunded``, and the ``items`` count it writes is another field's."""
    whole = bool(field) and field <= literal
    named = {
        leaf.amount
        for leaf in leaves
        if leaf.field and leaf.field <= spoken and not (whole and leaf.field < field)
    }
    held = {leaf.amount for leaf in leaves if leaf.amount is not None}
    return any(a in held and a not in named for a in amounts)


def _elsewhere(leaves: Sequence[Leaf], spoken: frozenset[str]) -> bool:
    """Whether the item leans on a word that a field it does not name states (``leaves``:
    the payload's short word values; the value it puts in place of the named field's own)."""
    return any(
        leaf.field and not leaf.field <= spoken and not leaf.words.isdisjoint(spoken)
        for leaf in leaves
    )
