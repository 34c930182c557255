"""A number that measures a state is no yes to it.

``"refund_approved": 0.73`` is a likelihood or a score, not an approval, and so are ``-1``
(no, or an error code), ``"0.73"`` written as text and ``"73%"`` (issue 13, round 10); a yes
is ``true``, ``1`` or a count or a sum (``"refund_approved": 12.5``, the sum approved). So
a number below one under a key naming an act (:func:`below_one`) states the act as not so,
as a zero does (:func:`._walk._says_no`), unless the key says it counts or sums
(:data:`HOW_MUCH`: ``amount_paid``). And a number under a key holding a measure word
(:data:`WORDS`: ``unlock_confidence``, ``approve_refund_score``, ``refund_likelihood``) is a
measure of the key's other words whatever it is: it states them only for an item that names
the measure ("unlock confidence 0.95"), as a comment on a state binds only an item that says
it too (:func:`._values._tail`). English words of grammar, no domain's.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["HOW_MUCH", "WORDS", "below_one", "number"]

WORDS: Final = frozenset(
    {"confidence", "likelihood", "probability", "prob", "score", "scores", "odds", "chance"}
    | {"chances", "certainty", "propensity"}
)
"""English words of a key saying its number measures how likely or how much its other words
are so, not that they are (``unlock_confidence``)."""
HOW_MUCH: Final = frozenset(
    {"amount", "total", "subtotal", "sum", "value", "balance", "due", "count", "counts"}
    | {"qty", "quantity", "items", "units", "pieces"}
)
"""Key words saying its number counts or sums what the act did (``amount_paid``,
``items_refunded``): any number there is what was done, none a measure of it."""
_NUMERIC: Final = re.compile(r" *([-+]?(?:\d+(?:\.\d*)?|\.\d+)) *(%?) *")


def number(value: Any) -> float | None:
    """A number value, or a string that is only a number (``"0.73"``, ``"-1"``, ``"73%"``: a
    percentage as its fraction); ``None`` for any other value, ``true`` and ``false`` too."""
    kind = type(value)
    if kind is int or kind is float:
        return float(value)
    if kind is str and len(value) <= 24 and value[:1] in " +-.0123456789":
        found = _NUMERIC.fullmatch(value)
        if found is not None:
            return float(found[1]) / (100 if found[2] else 1)
    return None


def below_one(value: Any, words: frozenset[str]) -> bool:
    """Whether a value under a key naming an act (its key's ``words``) is a number below one
    that no word of the key makes a count or a sum: zero, a negative, a fraction."""
    found = number(value)
    return found is not None and found < 1 and words.isdisjoint(HOW_MUCH)
