"""Rule 2 of :mod:`.binding`: a named field says its own value (:func:`misstated`).

When an item names a field whose value is a word (all the words of the key:
``approved_refund``, ``approval``) but says none of the values any field of that name holds,
and leans on a word another field states of another subject (``{"refund": {"requested":
"full", "approved": "partial"}}`` for "full refund approved"), or names a field whose value is
an amount and states another amount (``{"refund_approved": 12.5, "total": 84.0}`` for "refund
of $84.00 approved"), the item misstates the field. Of sums (issue 13, the red team's round in
brackets):

- an item naming an object that holds money (``"refund": {"amount": 12.0}``) and writing
  none of its sums, but one a field it does not name holds (the ``"total"``), puts another
  thing's sum on it (:func:`other_amount`) (7);
- a sum is the named thing's when the item says its key's other words (``refund_amount``),
  never a bound's (``max_refund``), and a count is the field the item writes whole
  (``items_refunded``, not ``items``: :func:`_unnamed_amount`) (9).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from agentlog.summary.record import _unreal
from agentlog.summary.record.entities import MONEY_KEYS
from agentlog.summary.record.leaves import Leaf, Payload

__all__ = ["misstated", "other_amount"]

_NONE: Final[frozenset[str]] = frozenset()


def misstated(
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


def other_amount(
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
