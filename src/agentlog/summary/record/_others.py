"""Whose a leaf is: the thing the item names, or another thing the payload holds beside it.

A payload may hold other things beside the one it is about (issue 13, the red team's round in
brackets):

- a nested object naming itself by an identifier of the kind the item writes, and not one
  the item writes (``"related": {"order_id": "A-2002", ...}``, a map keyed by order ids, a
  household's ``"account_id": "ACC-7788"``), is another thing: its states bind no word of
  the item (:func:`of_another`, :mod:`._things`, :attr:`.leaves.Leaf.thing`) (8);
- an identifier of the shape of the item's under any key of a nested object is another
  thing's name (:func:`._things.another`), and a top key holding one owns the part of the top
  its other words name (:func:`owned_parts`, :func:`foreign_owned`) (10);
- an item naming a key whose objects are all another thing's names that thing's part
  (:func:`keys_of_others`) (10).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from agentlog.summary.record import _cancelled
from agentlog.summary.record._keys import PAST, key_info, key_words
from agentlog.summary.record._things import Names, Thing, another, foreign
from agentlog.summary.record._values import ident_of
from agentlog.summary.record.leaves import Leaf, Payload, under

__all__ = ["foreign_owned", "keys_of_others", "of_another", "owned_parts"]


def _names(thing: Thing | None) -> Names | None:
    """What the innermost object naming itself, from ``thing`` out, names itself by
    (:mod:`._things`); ``None`` when none does (the top object's own are not read here)."""
    while thing is not None:
        strong = [] if thing.key is None or (own := ident_of(thing.key)) is None else [own]
        keyed: list[tuple[str, frozenset[str]]] = []
        for key, value in thing.node.items():
            if isinstance(value, str) and (ident := ident_of(value)) is not None:
                info = key_info(key if isinstance(key, str) else str(key))
                if info.names_id:
                    strong.append(ident)
                elif not info.generic:
                    keyed.append((ident, info.naming))
        if strong or keyed:
            return Names(frozenset(strong), tuple(keyed))
        thing = thing.parent
    return None


def of_another(thing: Thing, ids: Collection[str], payload: Payload) -> bool:
    """Whether the nested object ``thing`` is part of another thing than the item's
    (:func:`._things.another`)."""
    names = _names(thing)
    return names is not None and another(names, ids, payload.id_kinds)


def owned_parts(payload: Payload, ids: Collection[str]) -> Sequence[frozenset[str]]:
    """The parts of the payload's top object that another thing's identifier owns
    (:func:`._things.foreign`: ``refund`` of ``"refund_applies_to": "A-2002"``)."""
    return foreign(payload.refs, ids, payload.id_kinds, payload.tool | PAST)


def keys_of_others(
    alternatives: frozenset[str],
    ids: Collection[str],
    payloads: Sequence[Payload],
    parts: Sequence[Sequence[frozenset[str]]],
) -> bool:
    """Whether each key with one of ``alternatives`` (a word the item names a field by) that
    holds an object holds another thing's (:func:`of_another`), one does, and the item's own
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
                if not of_another(thing, ids, payload):
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
                words = key_words(key if isinstance(key, str) else str(key))
                if (
                    not isinstance(value, dict)
                    and not alternatives.isdisjoint(words)
                    and not any(not words.isdisjoint(part) for part in foreign_parts)
                ):
                    return False  # a key of the top object: what the payload is about
        for leaf in under(payload, alternatives):
            if (leaf.thing is None or not of_another(leaf.thing, ids, payload)) and not (
                foreign_parts and foreign_owned(leaf, foreign_parts)
            ):
                return False  # a state of the item's own thing under the word
    return True


def foreign_owned(leaf: Leaf, parts: Sequence[frozenset[str]]) -> bool:
    """Whether a leaf states something of a part of the top object that another thing's
    identifier owns (:func:`owned_parts`): its key path or its key names that part."""
    said = leaf.subject | _cancelled.part(leaf)
    return bool(said) and any(not said.isdisjoint(part) for part in parts)
