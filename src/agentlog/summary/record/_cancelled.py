"""A cancellation undoes the states of the object that says it, and nothing else.

``{"refund": {"status": "approved", "cancelled": true}}`` holds "refund" and "approved", and
says the refund's approval no longer stands (issue 13, round 10). A revocation undoes its
object and all it holds (:data:`._keys.UNDOING`), but "cancelled" may not: an order that
was cancelled may still have its refund approved (``{"status": "cancelled", "refund":
{"status": "approved"}}``, ``{"cancelled": true, "refund": {...}}``). So a key with a word of
:data:`WORDS` whose value says yes (``true``, a date: ``cancelled_at``) marks only the states
said of what it names (:func:`mark`): the object holding it, for a key of no other word
(``cancelled``, ``is_cancelled``, ``cancelled_at``: the object's generic states and flags,
``"status": "approved"``, ``"done": true``), or the part of that object its other words name
(``refund_cancelled`` beside ``refund_status``). Neither a nested object nor another named
part of the object is undone. A marked state binds only an item that says the cancellation
too ("the refund was approved, then cancelled"), as a comment on it does
(:func:`._values._tail`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from agentlog.summary.record._words import participle

if TYPE_CHECKING:
    from agentlog.summary.record._things import Thing
    from agentlog.summary.record.leaves import Leaf

__all__ = ["WORDS", "mark", "part"]

WORDS: Final = frozenset({"cancelled", "canceled"})
"""English words of a key saying its object was cancelled (both spellings)."""


def part(leaf: Leaf) -> frozenset[str]:
    """The part of its object a leaf (:class:`.leaves.Leaf`) states something of: its key's
    words, naming words out (``refund`` of ``refund_status``, of ``refund_approved``: a flag's
    act aside), or nothing for a state of the object itself (``"status"``, ``"done": true``)."""
    if leaf.words:
        return leaf.field
    return frozenset(w for w in leaf.field if not participle(w))


def mark(
    found: list[Leaf],
    start: int,
    thing: Thing | None,
    cancellations: Sequence[tuple[frozenset[str], frozenset[str]]],
) -> None:
    """Mark each leaf of ``found[start:]`` that the object ``thing`` holds itself (not a nested
    object's) and that states something of a part a cancellation names (``cancellations``:
    each the part, and the key's words of :data:`WORDS`): it binds only an item that says
    those words too."""
    for at in range(start, len(found)):
        leaf = found[at]
        if leaf.thing is not thing or not leaf.states:
            continue
        named = part(leaf)
        for rest, words in cancellations:
            if named == rest:
                found[at] = leaf = leaf._replace(tail=leaf.tail | words)
