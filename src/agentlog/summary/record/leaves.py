"""Leaves: a tool payload read as key paths and values, and indexed (:class:`Payload`).

:mod:`._walk` reads a payload into its leaves; :mod:`.binding` asks of them whether the
payload says an item's words of what the item names. A word a leaf *states* (a word of a short
string value, or the words of a key whose value is ``true``: ``"refund_approved": true``; a
number or an identifier states no word, only its field's value) is said of the leaf's
**subject**: the key itself for a word value under a key that names a thing (``"exchange":
"approved"`` is said of the exchange), else the object holding the leaf (``"status":
"approved"``, ``"approved": true``) and the keys above it; a string in a list is a member of
the list's key (``"covers": ["leaks"]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _default
from typing import Any, NamedTuple

from agentlog.summary.record._things import Thing

__all__ = ["Leaf", "Payload", "under"]


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
    """A phrase said only of its field (:func:`._values._clause`): an item must name the field."""
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
    """Said of a time before (:data:`._keys.PAST`): binds only an item that says so too."""
    void: bool = False
    """Said not to be so (a flag's key with a value that says no inside a list or an object,
    or a zero; an act dated after the event): stated, it binds nothing."""
    tail: frozenset[str] = frozenset()
    """The words commenting on a short value's state (:func:`._values._tail`): an item leaning
    on the state must say them too."""
    state: bool = False
    """A word value short enough to be a state (``approved``, ``on hold``), not a name."""
    thing: Thing | None = None
    """The nested object holding it (:mod:`._things`; ``None``: the top object)."""


@dataclass(frozen=True, slots=True)
class Payload:
    """A tool call's arguments or a result, read as leaves and indexed (:func:`.binding.binds`)."""

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
    (:func:`._unsaid._writes_under`)."""
    reads: bool = False
    """Whether its tool's name says it only reads (``get_warranty``): its name's words name
    what it was asked about, not an act."""
    proper: frozenset[str] = frozenset()
    """The values (lower case) written as names under a key naming a thing (``"city":
    "Bristol"``): what the thing is called, not a state of it."""
    holders: tuple[tuple[frozenset[str], Thing], ...] = ()
    """Each nested object held under a key (``"unlock": {...}``), with the key's words, for
    :func:`._others.keys_of_others`."""
    counted: frozenset[str] = frozenset()
    """Numbers (as amount keys) under a key counting a unit that is not money
    (``credited_percent``): not sums of money it holds (:func:`.binding.binds`)."""
    under: dict[str, list[int]] = _default(default_factory=dict, compare=False, repr=False)
    """The places of the leaves under each key word (:func:`under`), made on first use."""
    nested: list[frozenset[str]] = _default(default_factory=list, compare=False, repr=False)
    """The letter runs of the keys of its nested histories
    (:func:`._histories.nested_history_words`), made on first use."""


def under(payload: Payload, alternatives: frozenset[str]) -> list[Leaf]:
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
