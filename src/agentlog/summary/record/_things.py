"""Things of a payload: a nested object naming itself by an identifier is a thing of its own.

A lookup of order A-1001 may hold other things beside it: ``"related": {"order_id":
"A-2002", "refund": "approved"}``, a map keyed by order ids, a household's other account, a
companion's booking. What such an object states is said of the thing it names, not of the one
the item names: "A-1001 refund approved" citing it launders the other order's approval. So
:mod:`._walk` gives each leaf of a nested object (never of the top one, which is what the
tool was asked about) its :class:`Thing`, and :mod:`._others` reads, only when a leaf would
support an item, the identifiers the innermost object naming itself **names itself by**
(:class:`Names`):

- an identifier-shaped value under a naming key (``"order_id"``, ``"id"``, ``"number"``), or
  the identifier-shaped key the object stands under (``{"A-2002": {...}}``): *strong* names;
- an identifier-shaped value under another key (``"booking": "Z9XX4P"``, ``"target"``,
  ``"applies_to"``): a name when it is of the shape of an identifier the item writes (round
  10: the object is about that other order, whatever its key calls the relation), or when the
  payload's top holds one of the item's identifiers under a key of the same words (two
  bookings).

An object that names itself by nothing is part of the object holding it. An item reads the
object as **another thing** (:func:`another`) when it writes none of those identifiers and one
of them is of the kind of an identifier it writes: a name of the same shape (letters, digits
and marks in the same places: ``A-2002`` and ``A-1001``), or a name held under the same key
words as one of the item's. An object that also names one of the item's identifiers
(``"applies_to": "A-1001"``) is the item's.

The top object's own keys may hold such a reference too (``"refund_applies_to": "A-2002"``
beside ``"refund_status"``): the key's other words (:func:`foreign`: the item's kind, the
tool's words and words of past time out) name the part of the top object that is the other
thing's, as a nested object's key does. A part of the item's thing named by an identifier of another
kind (a payment's ``"payment_id": "PAY-7"`` in an order) stays the item's, and an item writing
no identifier reads every object.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

__all__ = ["Names", "Thing", "another", "foreign", "shape"]


class Thing(NamedTuple):
    """A nested object of a payload, as the walk met it."""

    parent: Thing | None
    """The nested object holding it (``None``: the top object holds it)."""
    node: Mapping[Any, Any]
    """The object itself, read for its names only when a leaf of it would support an item."""
    key: str | None
    """The identifier-shaped key it stands under (case folded, no ``#``), if any."""


class Names(NamedTuple):
    """The identifiers an object names itself by (case folded, no ``#``)."""

    strong: frozenset[str]
    """Under a naming key, or the key it stands under: of the kind their shape says."""
    keyed: tuple[tuple[str, frozenset[str]], ...]
    """Under other keys, each with its key's words: of the kind those words say."""


@lru_cache(maxsize=8192)
def shape(ident: str) -> str:
    """An identifier's shape: each letter ``a``, each digit ``9``, other characters as they are
    (``A-1001`` and ``a-2002``: ``a-9999``). Identifiers of one shape are of one kind."""
    return "".join("a" if c.isalpha() else "9" if c.isdigit() else c for c in ident.casefold())


def another(names: Names, ids: Collection[str], kinds: Mapping[str, frozenset[str]]) -> bool:
    """Whether an object naming itself by ``names`` is another thing than the item's, which
    writes identifiers ``ids`` (case folded, no ``#``); ``kinds`` gives the key words under
    which the payload's top holds each of its identifiers (module docstring)."""
    strong, keyed = names
    if not ids or any(i in ids for i in strong) or any(i in ids for i, _ in keyed):
        return False
    shapes = {shape(i) for i in ids}
    if any(shape(n) in shapes for n in strong) or any(shape(n) in shapes for n, _ in keyed):
        return True
    mine = {kinds[i] for i in ids if i in kinds}
    return any(words in mine for _, words in keyed)


def foreign(
    refs: Mapping[str, frozenset[str]],
    ids: Collection[str],
    kinds: Mapping[str, frozenset[str]],
    unnamed: frozenset[str],
) -> list[frozenset[str]]:
    """The parts of a payload's top object that another thing's identifier owns: for each
    identifier of ``refs`` (a top key's value, with that key's words) of the shape of one the
    item writes (``ids``) and not one of them, its key's words but the item's kind (``kinds``:
    the key words its top holds the item's identifiers under, ``order`` of ``order_id``) and
    ``unnamed`` (the tool's words, words of past time): ``refund_applies_to``'s ``refund``,
    ``previous_order``'s nothing."""
    if not ids or not refs:
        return []
    shapes = {shape(i) for i in ids}
    mine = frozenset().union(*(kinds[i] for i in ids if i in kinds))
    parts = []
    for ident, words in refs.items():
        if ident not in ids and shape(ident) in shapes:
            part = words - mine - unnamed
            if part:
                parts.append(part)
    return parts
