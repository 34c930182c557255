"""Entities: the identifiers, amounts and dates a summary must not lose.

``EntityPatterns`` says what counts as an entity in one domain: named identifier patterns, plus
money and dates (on by default). Each found entity carries a normalised ``key`` so that forms
which mean the same thing compare equal: ``12.5`` under a ``"price"`` key in tool JSON, ``$12.50``
and ``12.50 USD``; ``1,234.56`` and ``1234.56``; ``2026-09-28``, ``28 September 2026`` and
``September 28, 2026`` (and ``28 September``, whose year is unknown, matches any of them).

Noise control, because a recall gate that flags every number is a gate nobody can pass:

- a bare number is never an entity; an amount needs a currency marker (``$``, ``€``, ``£``,
  ``USD``, ...) or must be the value of a money-ish JSON key (``price``, ``amount``, ``total``,
  ``refund``, ``fee``, ``balance``, ``cost``, ...); zero amounts under a JSON key are skipped;
- an identifier pattern may be scoped to ``"mentioned"``: it then counts only where the
  conversation or a tool call names it, not in every lookup result (catalogue item ids, say).

Finding entities in a summary is deliberately lenient (any word equal to an identifier, any
number equal to an amount), because the question there is only "is it still in the record?".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from typing import Final, Literal

from agentlog.summary.record._fold import casefold_utf8
from agentlog.summary.record._scan import (
    Entity,
    EntityKind,
    account_ids,
    amount_key,
    ascii_copy,
    date_entities,
    digits_key,
    grouped_spans,
    id_key,
    international_phones,
    item_ids,
    marked_capitals,
    money_entities,
    new_entity,
    order_ids,
    payment_method_ids,
    phones,
    user_ids,
)
from agentlog.summary.record._scope import current

__all__ = [
    "MONEY_KEYS",
    "Entity",
    "EntityKind",
    "EntityPattern",
    "EntityPatterns",
    "find_entities",
    "normalise_amount",
    "recall_keys",
]

Scope = Literal["all", "mentioned"]

MONEY_KEYS: Final = frozenset(
    {
        "amount", "balance", "charge", "charged", "cost", "credit", "deposit", "discount",
        "due", "fee", "fees", "fine", "paid", "price", "refund", "refunded", "subtotal",
        "tax", "total",
    }
)  # fmt: skip
"""Words which, as a part of a JSON key (``total_due``, ``priceUsd``), make its number money."""

_NOT_MONEY_WORDS: Final = frozenset(
    {"code", "count", "digits", "four", "id", "last", "number", "percent", "qty", "quantity",
     "rate", "zip"}
)  # fmt: skip
"""Words that make a key's number something else (``credit_card_last_four``, ``tax_rate``)."""

_START: Final = attrgetter("start")
_KEY_WORD: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_ANY_NUMBER: Final = re.compile(r"\d(?<=(?<![\w.])\d)(?:\d{0,2}(?:,\d{3})+|\d*)(?:\.\d+)?")
_LOOSE_NUMBER: Final = re.compile(r"\d{1,3}(?:\.\d{3})+,\d\d(?!\d)|\d[\d,]*(?:\.\d+)?")
_WORD: Final = re.compile(r"#?(\w+(?:-\w+)*)")
_TOKEN: Final = re.compile(r"[\w#-]+")


@dataclass(frozen=True, slots=True)
class EntityPattern:
    """A named identifier pattern.

    ``kind="id"`` compares case-insensitively without a leading ``#``; ``kind="digits"``
    compares the digits only (phone numbers). ``scope="mentioned"`` ignores occurrences inside
    tool results (lines rendered as ``RESULT``). ``finder``, when set, replaces the regex: it
    yields the ``(start, end)`` of each occurrence, for formats a regex scans slowly.
    ``ascii_only`` says the pattern only ever matches ASCII, so it may scan a copy of the text
    with every other character replaced by ``?`` (positions unchanged), which is faster.

    For speed, start a regex with a literal character (``T-\\d{4}``, not ``[A-Z]-\\d{4}``):
    Python's engine jumps to a literal but tries every position for a class or a look-behind.
    """

    name: str
    regex: re.Pattern[str] | None = None
    kind: Literal["id", "digits"] = "id"
    scope: Scope = "all"
    finder: Callable[[str], Iterable[tuple[int, int]]] | None = None
    ascii_only: bool = False

    @classmethod
    def of(
        cls,
        name: str,
        regex: str,
        *,
        kind: Literal["id", "digits"] = "id",
        scope: Scope = "all",
        ascii_only: bool = False,
    ) -> EntityPattern:
        """A pattern from a regular expression's source."""
        return cls(name, re.compile(regex), kind, scope, ascii_only=ascii_only)

    def spans(self, text: str) -> Iterable[tuple[int, int]]:
        """Where the pattern occurs in ``text``."""
        if self.finder is not None:
            return self.finder(text)
        if self.regex is None:
            return ()
        return (m.span() for m in self.regex.finditer(text))

    def entities(self, text: str, offset: int = 0, scan: str | None = None) -> Iterator[Entity]:
        """Each occurrence in ``text`` as an entity (positions shifted by ``offset``); an
        ``ascii_only`` pattern looks in ``scan``, the ASCII copy, when given."""
        normal = digits_key if self.kind == "digits" else id_key
        kind, name = self.kind, self.name
        for start, end in self.spans(scan if scan is not None and self.ascii_only else text):
            found = text[start:end]
            yield new_entity(Entity, (kind, name, found, normal(found), start + offset))


_ORDER_ID: Final = EntityPattern("order_id", finder=order_ids, ascii_only=True)
_HASH_ID: Final = EntityPattern.of(
    "hash_id", r"#(?<=(?<![\w#])#)[A-Z]{0,3}\d{4,}(?!\w)", ascii_only=True
)
_INTERNATIONAL_PHONE: Final = EntityPattern(
    "phone", kind="digits", finder=international_phones, ascii_only=True
)


class EntityPatterns:
    """What counts as an entity in one domain. Immutable; ``extend`` returns a new one.

    Args:
        ids: identifier patterns (``EntityPattern``s, or a mapping of name to regex source).
        money: find amounts (currency-marked, or under a money-ish JSON key).
        money_keys: the words that make a JSON key money-ish.
        dates: find ISO and written dates.
        learn: also count the identifiers the transcript's own tool traffic names
            (:mod:`agentlog.summary.record.learned`), so that a domain without patterns is checked
            too; the patterns are additions to what is learned.
    """

    def __init__(
        self,
        ids: Iterable[EntityPattern] | Mapping[str, str] = (
            _ORDER_ID,
            _HASH_ID,
            _INTERNATIONAL_PHONE,
        ),
        *,
        money: bool = True,
        money_keys: Iterable[str] = MONEY_KEYS,
        dates: bool = True,
        learn: bool = True,
    ) -> None:
        if isinstance(ids, Mapping):
            ids = [EntityPattern.of(name, source) for name, source in ids.items()]
        self.ids: tuple[EntityPattern, ...] = tuple(ids)
        self.money = money
        self.money_keys = frozenset(k.lower() for k in money_keys)
        self.dates = dates
        self.learn = learn
        self._money_key_cache: dict[str, bool] = {}

    def __repr__(self) -> str:
        names = ", ".join(p.name for p in self.ids)
        return (
            f"EntityPatterns(ids=[{names}], money={self.money}, dates={self.dates}, "
            f"learn={self.learn})"
        )

    # --- presets --------------------------------------------------------------------------

    @classmethod
    def default(cls) -> EntityPatterns:
        """Order-style ids (``A-1001``, ``#W4923227``), phone numbers in international format
        (``+1 415 555 0142``: compared by their last ten digits), money and dates."""
        return cls()

    @classmethod
    def retail(cls) -> EntityPatterns:
        """Online retail: order ids, user ids (``jane_doe_1234``), payment method ids
        (``credit_card_8897086``, ``gift_card_…``, ``paypal_…``), and product or item ids
        (ten digits) where the conversation or a tool call names them."""
        return cls.default().extend(
            EntityPattern("user_id", finder=user_ids, ascii_only=True),
            EntityPattern("payment_method_id", finder=payment_method_ids, ascii_only=True),
            EntityPattern("item_id", scope="mentioned", finder=item_ids, ascii_only=True),
        )

    @classmethod
    def telecom(cls) -> EntityPatterns:
        """Telecom support: phone numbers (``555-123-2002``) and account ids: customers,
        lines, plans, devices and bills (``C1001``, ``L1002``, ``P1001``, ``D1001``,
        ``B1234321``)."""
        return cls.default().extend(
            EntityPattern("phone", kind="digits", finder=phones, ascii_only=True),
            EntityPattern("account_id", finder=account_ids, ascii_only=True),
        )

    def extend(self, *patterns: EntityPattern, **named: str) -> EntityPatterns:
        """These patterns plus more (``extend(EntityPattern.of(...), ticket=r"T-\\\\d+")``)."""
        extra = [*patterns, *(EntityPattern.of(n, s) for n, s in named.items())]
        return EntityPatterns(
            [*self.ids, *extra],
            money=self.money,
            money_keys=self.money_keys,
            dates=self.dates,
            learn=self.learn,
        )

    # --- finding --------------------------------------------------------------------------

    def find(
        self,
        text: str,
        *,
        mentioned: bool = True,
        ordered: bool = True,
        scan: str | None = None,
        settle: bool = False,
    ) -> list[Entity]:
        """Every entity occurrence in ``text``, in order of position unless ``ordered`` is
        false (and without the ``"mentioned"``-scoped patterns when ``mentioned`` is false);
        ``scan`` is ``ascii_copy(text)``, if made already; with ``settle``, ``text`` is one
        session's transcript, whose numeric dates settle the ones that read both ways
        (:func:`~agentlog.summary.record._scan.date_entities`)."""
        scan = ascii_copy(text) if scan is None else scan
        found: list[Entity] = []
        for pattern in self.ids:
            if mentioned or pattern.scope != "mentioned":
                found.extend(pattern.entities(text, scan=scan))
        # One marked copy for both: each of them starts from the capitals it marks.
        marked = marked_capitals(scan) if self.money or self.dates else None
        if self.money:
            found.extend(money_entities(text, self.is_money_key, scan, marked))
        if self.dates:
            found.extend(date_entities(text, scan, marked, settle=settle))
        if ordered:
            found.sort(key=_START)
        return found

    def is_money_key(self, key: str) -> bool:
        """Whether a JSON key's number is an amount (``total_due`` yes, ``tax_rate`` no)."""
        known = self._money_key_cache.get(key)
        if known is None:
            words = {w.lower() for w in _KEY_WORD.findall(key)}
            known = not words.isdisjoint(self.money_keys) and words.isdisjoint(_NOT_MONEY_WORDS)
            if len(self._money_key_cache) < 4096:  # keys come from data: bound the cache
                self._money_key_cache[key] = known
        return known

    def summary_keys(self, text: str) -> set[str]:
        """The keys ``text`` holds, read leniently: every word as an identifier, every number
        as an amount, and each date also under its month and day alone."""
        readings = current()
        if readings is None:
            return self._summary_keys(text)
        # A summariser reads its record's keys, and its validator the same record's again.
        found = readings.summary_keys.get((self, text))
        if found is None:
            found = readings.summary_keys[(self, text)] = frozenset(self._summary_keys(text))
        return set(found)  # the caller's to change

    def _summary_keys(self, text: str) -> set[str]:
        # Loose on purpose: extra keys cost nothing, a missed one fails a good record.
        raw = text.encode("utf-8", "surrogatepass")
        tokens = _utf8_tokens(casefold_utf8(text, raw))
        keys = {"id:" + t for t in tokens}
        keys.update("id:" + t.strip("#-") for t in tokens if t[0] in "#-" or t[-1] == "-")
        if " " in text:  # an identifier written in groups is also the groups squeezed
            keys.update(
                "id:" + text[a:b].replace(" ", "").casefold() for a, b in grouped_spans(text)
            )
        for pattern in self.ids:
            if pattern.kind == "digits":
                keys.update(e.key for e in pattern.entities(text))
        keys.update(k for k in map(amount_key, _numbers(raw)) if k is not None)
        for entity in date_entities(text):
            keys.add(entity.key)
            keys.add("date-md:" + entity.key[-5:])
        return keys


# Every ASCII byte that cannot be in a token becomes a space; UTF-8's multi-byte sequences are
# all bytes >= 0x80, so they are kept whole.
_TOKEN_BYTES: Final = bytes(
    c if c >= 0x80 or chr(c) == "#" or chr(c) == "-" or re.fullmatch(r"\w", chr(c)) else 0x20
    for c in range(256)
)


def _tokens(text: str) -> set[str]:
    """``set(_TOKEN.findall(text))``, about three times faster."""
    return _utf8_tokens(text.encode("utf-8", "surrogatepass"))


def _utf8_tokens(raw: bytes) -> set[str]:
    """``_tokens`` of text encoded as UTF-8.

    ASCII separators are blanked with one ``bytes.translate`` and the rest split on whitespace;
    a piece holding a non-ASCII character (``—`` or ``é``) is split by the regex itself.
    """
    words = set(raw.translate(_TOKEN_BYTES).decode("utf-8", "surrogatepass").split())
    if raw.isascii():  # checked in C: most texts, and then no piece is wide
        return words
    wide = [w for w in words if not w.isascii()]
    for w in wide:
        words.discard(w)
        words.update(_TOKEN.findall(w))
    return words


# Every ASCII byte that cannot be in a number becomes a space; multi-byte sequences are kept
# whole, as some are digits of other scripts.
_NUMBER_BYTES: Final = bytes(
    c if c >= 0x80 or chr(c) in "0123456789,." else 0x20 for c in range(256)
)


_WIDE_SPACES: Final = tuple(c.encode() for c in "\u00a0\u202f\u2009")
_GROUP_TAIL: Final = re.compile(rb"\d{3}[.,]\d")
"""A run that may be the last group of a number grouped by ``'`` or a space."""
_GROUPED: Final = re.compile(rb"(?<![\d.,'])\d{1,3}(?:['\x20]\d{3})+(?:[.,]\d+)?(?!\d|['\x20]\d)")
"""A number grouped in thousands by ``'`` or a space (``1'000.00``, ``8 400``), ending where
no other digit follows (``555 123 4567`` is a phone number's groups, not one number)."""
_EXPONENT: Final = re.compile(rb"(?<![\w.])\d+(?:\.\d+)?[eE][+-]?\d+(?![\w.])")
"""A number in exponent notation, written as a token of its own (``1e2``, ``2.5E+03``; not
the ``1e2`` inside ``a1e2b``)."""
_HEX: Final = re.compile(rb"(?<![\w.])0[xX][0-9a-fA-F]+(?![\w.])")
"""A number written in hexadecimal (``0x54``): a code, never a sum of its decimal digits."""
_LARGEST_EXPONENT: Final = 15
"""Beyond it a number in exponent notation is no sum anyone is owed (``1e100``): it is read
as no amount at all, not as its digits."""
_SLASHED: Final = re.compile(rb"[\d.,]*\d/\d[\d.,/]*")
"""Numbers joined by ``/``: a fraction, a ratio, a date or a code (``12/84``), none of its
numbers an amount of its own."""


# Each byte as the shapes of :func:`_whole_numbers` need it: a digit ``0``, a group separator
# (a space, ``'``) ``'``, an exponent's ``e`` and sign, ``/`` itself; every other byte ``x``.
# A text is searched for ``0'000``, ``0e0`` or ``0/0`` (a fast scan in C) before any regex
# that would test every position of it.
_SHAPE_OF: Final = {" ": "'", "'": "'", "e": "e", "E": "e", "+": "+", "-": "+", "/": "/"}
_SHAPES: Final = bytes(
    ord("x") if c >= 0x80 else ord("0") if chr(c).isdigit() else ord(_SHAPE_OF.get(chr(c), "x"))
    for c in range(256)
)


def _whole_numbers(raw: bytes) -> tuple[bytes, set[str], bool]:
    """``raw`` without the numbers a run of digits would misread, those numbers' values
    (``1e2`` is 100, not 1 and 2; ``12/84`` is no amount at all, neither 12 nor 84), and
    whether a number grouped by a space or ``'`` may be in it (``8 400``)."""
    found: set[str] = set()
    shapes = raw.translate(_SHAPES)
    if b"0/0" in shapes:
        raw = _SLASHED.sub(b" ", raw)
    if b"0e0" in shapes or b"0e+0" in shapes:
        for match in _EXPONENT.findall(raw):
            value = Decimal(match.decode("ascii"))
            if abs(value.adjusted()) <= _LARGEST_EXPONENT:
                found.add(format(value, "f"))
        raw = _EXPONENT.sub(b" ", raw)
    if b"0x" in raw or b"0X" in raw:
        raw = _HEX.sub(b" ", raw)
    return raw, found, b"0'000" in shapes


def _numbers(raw: bytes) -> set[str]:
    """``set(_LOOSE_NUMBER.findall(text))`` for ``text`` encoded as UTF-8, about twice as fast.

    A regex starting with a digit class tests every position; here the runs of characters a
    number can hold are cut out with one ``bytes.translate`` and a split, and the regex runs
    only on the few runs that are not plain digits (``1,234.50``, ``3.``, ``…``).
    """
    if not raw.isascii():  # thousands grouped by a no-break, narrow no-break or thin space
        for space in _WIDE_SPACES:
            if space in raw:
                raw = raw.replace(space, b" ")
    raw, whole, spaced = _whole_numbers(raw)
    found: set[str] = set()
    grouped = False
    for run in set(raw.translate(_NUMBER_BYTES).split()):
        if run.isdigit():  # ASCII digits only: the run is one number
            found.add(run.decode("ascii"))
            # Or the tail of one grouped by a space or ``'`` (``8 400``): looked for below.
            grouped = grouped or (spaced and len(run) == 3)
        else:
            found.update(_LOOSE_NUMBER.findall(run.decode("utf-8", "surrogatepass")))
            grouped = grouped or _GROUP_TAIL.match(run) is not None
    if grouped:  # ``1'000.00`` or ``8 400`` was cut in runs at the ``'`` or the space
        groups = _GROUPED.findall(raw)
        if groups:
            # Its runs are not numbers of their own: "1'000.00" does not hold "1" nor "000.00".
            found = _numbers(_GROUPED.sub(b" ", raw))
            found.update(m.decode("ascii") for m in groups)
    return found | whole if whole else found


def is_word(text: str) -> bool:
    """Whether ``text`` is one word as ``summary_keys`` reads words (most identifiers are)."""
    return _WORD.fullmatch(text) is not None


def find_entities(text: str, patterns: EntityPatterns | None = None) -> list[Entity]:
    """Every entity occurrence in ``text`` (default patterns unless given), in order."""
    return (patterns or EntityPatterns.default()).find(text)


def recall_keys(entity: Entity) -> tuple[str, ...]:
    """The summary keys any one of which counts as keeping ``entity``.

    A dated entity is kept by the same date, or by its day and month written without a year;
    a date without a year is kept by any date on that day and month.
    """
    if entity.kind == "date":
        month_day = entity.key[-5:]
        if entity.key.startswith("date:--"):
            return ("date-md:" + month_day,)
        return (entity.key, "date:--" + month_day)
    return (entity.key,)


def normalise_amount(text: str) -> str | None:
    """``"$1,234.5"`` -> ``"1234.50"``: an amount's digits, two decimals, sign and marks dropped."""
    m = _ANY_NUMBER.search(text)
    key = amount_key(m[0]) if m is not None else None
    return key.removeprefix("money:") if key is not None else None
