"""Which currency an item's amounts are in, and whether a payload's currency can be it: an
amount of 84.00 in yen is not "$84.00"."""

from __future__ import annotations

import re
from typing import Final

from agentlog.summary.record._scan import _CODE_NAMES as CODE_NAMES

__all__ = ["CURRENCY_CODES", "item_currencies", "may_be"]

_SIGN_CODES: Final = {
    "$": frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "BRL", "TWD", "ARS"})
    | frozenset({"CLP", "COP"}),
    "\u20ac": frozenset({"EUR"}),
    "\u00a3": frozenset({"GBP", "EGP"}),
    "\u00a5": frozenset({"JPY", "CNY"}),
    "\u20b9": frozenset({"INR"}),
    "\u20a9": frozenset({"KRW"}),
    "\u20bd": frozenset({"RUB"}),
    "\u20ba": frozenset({"TRY"}),
    "\u20b4": frozenset({"UAH"}),
    "\u20aa": frozenset({"ILS"}),
    "\u20ab": frozenset({"VND"}),
    "\u20a6": frozenset({"NGN"}),
    "\u20b1": frozenset({"PHP"}),
}
"""The ISO 4217 codes each currency sign is written for (``$`` for many dollars and pesos)."""
CURRENCY_CODES: Final = frozenset(CODE_NAMES).union(*_SIGN_CODES.values())
"""Every ISO 4217 code known here, in capitals: a value that is one is a currency, whatever its
key (``"unit": "JPY"``)."""
_CODE: Final = re.compile(r"(?<![A-Za-z])(?:" + "|".join(CODE_NAMES) + r")(?![A-Za-z])")


def item_currencies(text: str) -> frozenset[str] | None:
    """The codes an item's text may mean by its amounts' currency (its signs and codes), or
    ``None`` when it writes none."""
    found: set[str] = set()
    for sign, codes in _SIGN_CODES.items():
        if sign in text:
            found |= codes
    found.update(_CODE.findall(text))
    return frozenset(found) if found else None


def may_be(currencies: frozenset[str], held: frozenset[str]) -> bool:
    """Whether a payload whose currency fields hold the codes ``held`` (upper case) can be in
    one of ``currencies``: a payload naming no known code says nothing against it."""
    known = {c for c in held if c in CURRENCY_CODES}
    return not known or not currencies.isdisjoint(known)
