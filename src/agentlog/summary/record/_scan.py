"""Fast scanners for the built-in entity formats, and the keys entities compare by.

Python's regex engine finds a literal first character quickly (a memchr-like search) and a
character class or a look-behind first character slowly (it tries every position). Transcripts
are mostly JSON, hundreds of kilobytes for a long session, so every scanner here starts from a
literal anchor (``-``, ``_``, ``"``) and looks around it in Python, which makes them 10 to 50
times faster than the obvious patterns. Where a format has no literal (a digit, a month's
initial), a byte copy of the text marks it with one (``0``, ``\\x01``) for the regex to start
from; a lone character (``$``) is found faster still by ``str.find``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from decimal import Context, Decimal, InvalidOperation
from functools import lru_cache
from typing import Final, Literal, NamedTuple

__all__ = [
    "GROUPED_MIN",
    "Entity",
    "EntityKind",
    "account_ids",
    "amount_key",
    "ascii_copy",
    "date_entities",
    "digits_key",
    "grouped_spans",
    "id_key",
    "international_phones",
    "item_ids",
    "marked_capitals",
    "money_entities",
    "new_entity",
    "order_ids",
    "payment_method_ids",
    "phones",
    "user_ids",
]

EntityKind = Literal["id", "digits", "money", "date"]


class Entity(NamedTuple):
    """One entity occurrence: what it is, the text found, and the key it compares by.

    A named tuple rather than a dataclass: a long transcript yields thousands, and a tuple is
    several times cheaper to make.
    """

    kind: EntityKind
    name: str
    text: str
    key: str
    start: int = -1

    def shown(self) -> str:
        """How a record may write it: amounts normalised (``12.5`` -> ``12.50``), else as found."""
        return self.key.removeprefix("money:") if self.kind == "money" else self.text


new_entity: Final = tuple.__new__
"""``new_entity(Entity, (kind, name, text, key, start))``: an entity made without the named
tuple's ``__new__``, a Python function that costs as much again (for the hottest loops)."""


def ascii_copy(text: str) -> str:
    """``text`` with each non-ASCII character replaced by ``?``: same length, same positions.

    Regex scans of a one-byte-per-character string run about twice as fast, and transcripts
    are mostly ASCII JSON made wide by a few curly quotes, emoji or ``⏎`` marks.
    """
    return text if text.isascii() else text.encode("ascii", "replace").decode("ascii")


# --- keys ---------------------------------------------------------------------------------------

_CENT: Final = Decimal("0.01")
_DECIMAL: Final = Context()  # the default context, fixed: keys never depend on the caller's


def id_key(text: str) -> str:
    """An identifier's key: case folded, without a leading ``#``."""
    return "id:" + text.lstrip("#").casefold()


def digits_key(text: str) -> str:
    """A phone number's key: its last ten digits."""
    return "digits:" + "".join(c for c in text if c.isdigit())[-10:]


@lru_cache(maxsize=8192)  # the same prices and totals recur across records and transcripts
def amount_key(number: str) -> str | None:
    """``"1,234.5"`` -> ``"money:1234.50"``, and so do ``"1.234,50"``, ``"1 234,50"`` and
    ``"1'234.50"``; sign dropped (a refund of -5 is "$5 back")."""
    comma = number.rfind(",")
    if comma >= 0 and len(number) - comma <= 3 and "." not in number[comma:]:
        # A decimal comma (``42,10``, ``1.234,56``): a comma before one or two last digits;
        # a thousands comma is followed by three.
        number = number.replace(".", "").replace(",", ".")
    try:
        number = number.replace(",", "").replace("'", "").replace(" ", "")
        if not number.isascii():  # grouped by a no-break, narrow no-break or thin space
            number = number.replace("\u00a0", "").replace("\u202f", "").replace("\u2009", "")
        value = Decimal(number.lstrip("+-"))
        # Rounding fails too, for numbers with more digits than the context holds.
        return f"money:{value.quantize(_CENT, context=_DECIMAL)}"
    except InvalidOperation:
        return None


# --- identifiers --------------------------------------------------------------------------------

_DASH_DIGITS: Final = re.compile(r"-\d{3,}(?![\w-])")
_UNDER_DIGITS: Final = re.compile(r"_\d{4,}(?!\w)")
_UNDER_FOUR: Final = re.compile(r"_\d{4}(?!\w)")
"""``_UNDER_DIGITS``' matches of four digits, and only those: a longer run fails the look-ahead."""
_USER_HEAD: Final = re.compile(r"(?<![\w.])[a-z]+(?:_[a-z]+)+$")
_PAYMENT_HEAD: Final = re.compile(
    r"(?<![\w.])(?:credit_card|debit_card|gift_card|paypal|bank_account|store_credit)$"
)
_LOWER_WORD: Final = "abcdefghijklmnopqrstuvwxyz_"
_PHONE_DASH: Final = re.compile(r"-\d{3}-\d{4}(?![\w-])")
_PHONE_PAREN: Final = re.compile(r"\) ?\d{3}-\d{4}(?![\w-])")
_ACCOUNT: Final = tuple(re.compile(rf"{c}\d{{4,}}(?![\w-])") for c in "BCDLP")
_INTERNATIONAL: Final = re.compile(
    r"\+\d{1,3}(?:[ .-]?(?:\(\d{1,4}\)|\d{1,4})){1,6}(?![\w+-]|[.:/]\d)"
)
_PHONE_DIGITS: Final = (8, 15)
_ITEM_ID: Final = re.compile(r"\d(?<=(?<![\w.-])\d)\d{9}(?![\w.-])")
# ``_ITEM_ID`` for ASCII text: digits read ``0``, the other characters of ``[\w.-]`` read ``a``
# and every other byte a space, so an item id is ten zeros between two spaces, which
# ``bytes.find`` finds at memchr speed (the regex engine's literal search is several times
# slower, and tries each place in a longer run of digits).
_ITEM_BYTES: Final = (
    bytes(
        0x30 if chr(c).isdigit() else 0x61 if chr(c).isalpha() or chr(c) in "_.-" else 0x20
        for c in range(128)
    )
    + b" " * 128
)
_FREE_TEN: Final = b" 0000000000 "


def _free_before(text: str, i: int, extra: str = "") -> bool:
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_" + extra)


def order_ids(text: str) -> Iterator[tuple[int, int]]:
    """``A-1001``, ``BX-2040``: one to three capitals, a dash, three or more digits."""
    for m in _DASH_DIGITS.finditer(text):
        dash = i = m.start()
        while i > 0 and dash - i < 3 and "A" <= text[i - 1] <= "Z":
            i -= 1
        if i < dash and _free_before(text, i, "#-"):
            yield i, m.end()


def _head_start(text: str, window: int, end: int) -> int:
    """Where to search ``text`` for a ``_USER_HEAD`` ending at ``end``, at most ``window``
    characters back."""
    # A head is all [a-z_], so it starts in the run of them that ends at ``end`` (or at the
    # newline before it, where ``$`` also matches). Searched from there, the regex finds what
    # it finds from further back, without trying every position before.
    lo = max(0, end - window)
    return lo + len(text[lo:end].rstrip("\n").rstrip(_LOWER_WORD))


def user_ids(text: str) -> Iterator[tuple[int, int]]:
    """``jane_doe_1234``: lowercase words joined by ``_`` and four digits (not a payment id)."""
    for m in _UNDER_FOUR.finditer(text):
        start = m.start()
        head = _USER_HEAD.search(text, _head_start(text, 64, start), start)
        if head is not None and _PAYMENT_HEAD.search(text, head.start(), start) is None:
            yield head.start(), m.end()


def payment_method_ids(text: str) -> Iterator[tuple[int, int]]:
    """``credit_card_8897086``, ``gift_card_…``, ``paypal_…``, ``bank_account_…``."""
    for m in _UNDER_DIGITS.finditer(text):
        head = _PAYMENT_HEAD.search(text, max(0, m.start() - 14), m.start())
        if head is not None:
            yield head.start(), m.end()


def phones(text: str) -> Iterator[tuple[int, int]]:
    """``555-123-2002`` and ``(555) 123-2002``."""
    for m in _PHONE_DASH.finditer(text):
        i = m.start() - 3
        if i >= 0 and text[i : m.start()].isdigit() and _free_before(text, i, "-"):
            yield i, m.end()
    for m in _PHONE_PAREN.finditer(text):
        i = m.start() - 4
        digits = text[i + 1 : m.start()]
        if i >= 0 and text[i] == "(" and digits.isdigit() and _free_before(text, i, "-"):
            yield i, m.end()


def international_phones(text: str) -> Iterator[tuple[int, int]]:
    """``+1 415 555 0142``, ``+14155550142``, ``+44 (0)20 7946 0958``, ``+48 601-234-567``:
    a ``+``, a country code and groups of digits, 8 to 15 digits in all (E.164)."""
    for i in _find_all(text, "+"):
        m = _INTERNATIONAL.match(text, i)
        if m is None or not _free_before(text, i, "+"):
            continue
        digits = sum(c.isdigit() for c in m[0])
        if _PHONE_DIGITS[0] <= digits <= _PHONE_DIGITS[1]:
            yield m.span()


def item_ids(text: str) -> Iterator[tuple[int, int]]:
    """``7751905257``: ten digits standing alone (not part of a longer number, word or id)."""
    if not text.isascii():
        yield from (m.span() for m in _ITEM_ID.finditer(text))
        return
    # The copy is one byte longer at each end: its ``i + 1`` is the text's ``i``.
    marked = b" " + text.encode("ascii").translate(_ITEM_BYTES) + b" "
    at = marked.find(_FREE_TEN)
    while at >= 0:
        yield at, at + 10
        at = marked.find(_FREE_TEN, at + 11)  # the space after one id may be before the next


def account_ids(text: str) -> Iterator[tuple[int, int]]:
    """``C1001``, ``L1002``, ``P1001``, ``D1001``, ``B1234321``: customers, lines, plans,
    devices, bills."""
    for regex in _ACCOUNT:
        for m in regex.finditer(text):
            if _free_before(text, m.start(), "-"):
                yield m.span()


_GROUP_BYTES: Final = bytes(
    0x41
    if chr(c).isascii() and (chr(c).isupper() or chr(c).isdigit())
    else c
    if c == 0x20
    else 0x2E
    for c in range(256)
)
"""Capitals and digits read ``A``, a space stays, every other byte reads ``.``: a copy in
which a run of groups is found by literals (a class first tries every position)."""
_GROUP_JOIN: Final = re.compile(rb"A A")
"""Where one group ends and the next starts."""
_GROUPS_AFTER: Final = re.compile(rb"(?: A{1,6})+")
GROUPED_MIN: Final = 8
"""Characters without the spaces of an identifier written in groups (an IBAN, a card or an
account number; a shorter run of groups is as likely several tokens)."""


def grouped_spans(text: str) -> Iterator[tuple[int, int]]:
    """Where ``text`` (original case) has groups of capitals and digits, at most six each,
    with a digit and :data:`GROUPED_MIN` characters or more without the spaces: how an IBAN,
    a card or an account number is written in groups (``DE89 3704 0044 0532 0130 00``)."""
    marked = text.encode("ascii", "replace").translate(_GROUP_BYTES)  # same positions
    n = len(text)
    m = _GROUP_JOIN.search(marked)
    while m is not None:
        head = start = m.start() + 1  # the space after the first group
        while start > 0 and head - start <= 6 and marked[start - 1] == 0x41:
            start -= 1
        groups = _GROUPS_AFTER.match(marked, head)
        end = groups.end() if groups is not None else head
        # Not glued to a longer token on the right: give back groups until it is not.
        while end > head and end < n and (text[end].isalnum() or text[end] in "_-"):
            end = marked.rfind(b" ", head, end)
        if (
            head - start <= 6
            and end > head
            and _free_before(text, start, "-")
            and end - start - text.count(" ", start, end) >= GROUPED_MIN
            and _in_groups(text[start:end].split(" "))
        ):
            yield start, end
        m = _GROUP_JOIN.search(marked, max(end, m.end() - 1))


def _in_groups(groups: list[str]) -> bool:
    """Whether these are one identifier's groups, not identifiers side by side (``T9KD2W SK
    61``): three or more, all but the last as long as the first, or two of digits only."""
    if len(groups) == 2:
        return groups[0].isdigit() and groups[1].isdigit()
    first = len(groups[0])
    if len(groups) < 2 or not all(len(g) == first for g in groups[1:-1]):
        return False
    return len(groups[-1]) <= first and any(c.isdigit() for g in groups for c in g)


# --- money --------------------------------------------------------------------------------------

# An amount's number: with a decimal comma (``1.234,56``, ``1 234,56``, ``42,10``; tried first,
# or ``1.234`` would end at the comma), with ``'`` between thousands (``1'000.00``), or with
# a decimal point and ``,`` between thousands.
_AMOUNT: Final = (
    r"\d{1,3}(?:[.' \u00a0\u202f]\d{3})+,\d\d|\d{1,3}(?:'\d{3})+(?:\.\d+)?"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d\d|\d+(?:\.\d+)?"
)
_AFTER_SIGN: Final = re.compile(rf" ?-? ?({_AMOUNT})(?![\d.,]\d)")
# Before a sign or code, thousands may also be grouped by a space alone (``1 200 €``): tried
# first, or ``1 200 €`` would read ``200``.
_BEFORE_CODE: Final = re.compile(
    rf"(?<![\w.,'])(\d{{1,3}}(?:[ \u00a0\u202f\u2009]\d{{3}})+(?:\.\d+)?(?![\d,])|{_AMOUNT})"
    r"[ \u00a0\u202f\u2009]?$"
)
_CODE_NAMES: Final = (
    "USD", "EUR", "GBP", "CHF", "PLN", "CAD", "AUD", "JPY", "SEK", "NOK", "DKK", "CZK", "HUF",
    "RON", "BGN", "ISK", "INR", "BRL", "MXN", "ZAR", "NZD", "SGD", "HKD", "CNY", "KRW", "ILS",
    "AED", "SAR", "THB", "PHP", "IDR", "MYR", "UAH",
)  # fmt: skip
"""ISO 4217 codes of the most traded currencies (none an English word: no ``TRY``, ``ALL``)."""
_SIGNS: Final = "$€£¥₹₩₽₺₴₪₫₦₱"
"""Currency signs, written before the amount (``€42,10``) or after it (``249,99 €``)."""
_WIDE_SIGNS: Final = _SIGNS[1:]
_WORD_SIGNS: Final = tuple((sign, ascii_copy(sign)) for sign in ("zł", "kr", "Kč"))
"""Currency signs that are letters, written after the amount (``1 200,00 zł``, ``350 kr``),
and how the ASCII copy shows them."""
_ASCII_WORD_SIGNS: Final = tuple(pair for pair in _WORD_SIGNS if pair[0].isascii())
_CODE_WORD: Final = re.compile("(?:" + "|".join(_CODE_NAMES) + r")(?!\w)")
_DOLLARS: Final = re.compile(r"dollars(?!\w)")
# A JSON number, or a numeric string short enough to be an amount (ten-digit ids are not).
# Every JSON key is tried, so a failed try must be cheap: each alternative starts with a
# literal or a class, which lets the engine skip it at a glance, and the possessive ``?+`` and
# ``++`` never backtrack (backtracking could not find a match: what they give back is a
# digit, a dot or a space, which the next step refuses). No groups: marks cost on every try.
_JSON_VALUE: Final = re.compile(
    r'": ?+(?:"-?\d{1,9}+(?:\.\d++)?+"|-\d++(?:\.\d++)?+(?=[,}\]\s])|\d++(?:\.\d++)?+(?=[,}\]\s]))'
)


def _find_all(text: str, char: str) -> Iterator[int]:
    """Where ``char`` occurs in ``text``, left to right (``str.find`` looks for one character
    at memchr speed; for a word, a regex starting with it is faster, measured on transcripts)."""
    i = text.find(char)
    while i >= 0:
        yield i
        i = text.find(char, i + 1)


def _code_amounts(text: str, codes: Iterable[re.Match[str]]) -> Iterator[Entity]:
    """The amount written with each of these currency codes (found in ``text``'s ASCII copy)."""
    for m in codes:
        if not _free_before(text, m.start()):
            continue
        # "12.50 USD" when a number comes just before the code, else "USD 12.50".
        n = _BEFORE_CODE.search(text, max(0, m.start() - 24), m.start())
        start = n.start() if n is not None else m.start()
        if n is None:
            n = _AFTER_SIGN.match(text, m.end())
        key = amount_key(n[1]) if n is not None else None
        if n is not None and key is not None:
            yield Entity("money", "amount", text[start : max(n.end(), m.end())], key, start)


def _wide_signs(text: str) -> list[int]:
    """Where ``text`` (not ASCII) has a currency sign other than ``$``, in order."""
    # A search per sign, in C, costs less than a class (which tests every position) or a
    # look at each character the ASCII copy shows as "?".
    return sorted(i for sign in _WIDE_SIGNS if sign in text for i in _find_all(text, sign))


def money_entities(
    text: str,
    money_key: Callable[[str], bool],
    scan: str | None = None,
    marked: bytes | None = None,
) -> Iterator[Entity]:
    """Amounts with a currency sign or code, and numbers under a money-ish JSON key (``scan``
    is ``text``'s ASCII copy and ``marked`` its :func:`marked_capitals`, if made already)."""
    scan = ascii_copy(text) if scan is None else scan
    wide = not text.isascii()  # checked in C; only then can a sign but ``$`` occur
    signs = list(_find_all(scan, "$"))
    if wide:
        signs.extend(_wide_signs(text))
    for i in signs:
        n = _AFTER_SIGN.match(text, i + 1)
        key = amount_key(n[1]) if n is not None else None
        if n is not None and key is not None:
            yield Entity("money", "amount", text[i : n.end()], key, i)
            continue
        before = _BEFORE_CODE.search(text, max(0, i - 24), i)  # ``249,99 €``
        key = amount_key(before[1]) if before is not None else None
        if before is not None and key is not None:
            start = before.start()
            yield Entity("money", "amount", text[start : i + 1], key, start)
    for sign, shown in _WORD_SIGNS if wide else _ASCII_WORD_SIGNS:
        # Searched in the ASCII copy (one byte a character: faster), as the copy shows it.
        for i in _find_all(scan, shown):
            if shown != sign and not text.startswith(sign, i):
                continue
            end = i + len(sign)
            if end < len(text) and (text[end].isalnum() or text[end] == "_"):
                continue
            before = _BEFORE_CODE.search(text, max(0, i - 24), i)
            key = amount_key(before[1]) if before is not None else None
            if before is not None and key is not None:
                start = before.start()
                yield Entity("money", "amount", text[start:end], key, start)
    # Each code where it stands as a word, code by code: one scan of the marked copy finds
    # every code's candidates (eight scans of the text before), checked by a match each.
    codes: dict[str, list[re.Match[str]]] = {}
    for stem in _CODE_STEM.finditer(marked_capitals(scan) if marked is None else marked):
        m = _CODE_WORD.match(scan, stem.start())
        if m is not None:
            codes.setdefault(m[0], []).append(m)
    for name in _CODE_NAMES:
        yield from _code_amounts(text, codes.get(name, ()))
    yield from _code_amounts(text, _DOLLARS.finditer(scan))
    # The hot loop of a long transcript: every number in its JSON. Kept flat on purpose.
    amounts: dict[str, str | None] = {}
    money_names: dict[str, bool] = {}  # a transcript repeats its keys: one call per key
    rfind = text.rfind
    for m in _JSON_VALUE.finditer(scan):
        start, end = m.span()
        quote = rfind('"', start - 64 if start > 64 else 0, start)
        if quote < 0:
            continue
        name = text[quote + 1 : start]
        money = money_names.get(name)
        if money is None:
            money = money_names[name] = money_key(name)
        if not money:
            continue
        at = start + 3 if scan[start + 2] == " " else start + 2
        if scan[at] == '"':  # a numeric string: the number is inside the quotes
            at, end = at + 1, end - 1
        number = scan[at:end]
        key = amounts.get(number)
        if key is None and number not in amounts:
            key = amounts[number] = amount_key(number)
        if key is not None and key != "money:0.00":
            yield new_entity(Entity, ("money", "amount", number, key, at))


# --- dates --------------------------------------------------------------------------------------

_MONTH_NAMES: Final = (
    ("January", 1), ("February", 2), ("March", 3), ("April", 4), ("May", 5), ("June", 6),
    ("July", 7), ("August", 8), ("September", 9), ("October", 10), ("November", 11),
    ("December", 12), ("Jan", 1), ("Feb", 2), ("Mar", 3), ("Apr", 4), ("Jun", 6), ("Jul", 7),
    ("Aug", 8), ("Sept", 9), ("Sep", 9), ("Oct", 10), ("Nov", 11), ("Dec", 12),
)  # fmt: skip
_MONTHS: Final = dict(_MONTH_NAMES)
_MONTH_WORD: Final = re.compile("(" + "|".join(name for name, _ in _MONTH_NAMES) + r")\.?(?!\w)")
# A regex whose first character is one of several tests a character class at every position,
# which for a long transcript costs more than all the other date scanning together. Instead,
# every month's and currency code's initial is marked with one byte (:func:`marked_capitals`),
# and a regex starting with that literal finds each place where an initial is followed by the
# next two letters of some month's name (lower case: never marked), or by the rest of a code
# (marked the same way: ``USD`` reads ``\x01S\x01``).
_INITIALS: Final = tuple(
    sorted({name[0].encode() for name, _ in _MONTH_NAMES} | {c[0].encode() for c in _CODE_NAMES})
)
_MARKS: Final = bytes.maketrans(b"".join(_INITIALS), b"\x01" * len(_INITIALS))


def _mark(raw: bytes) -> bytes:
    return raw.translate(_MARKS)  # one pass in C: fewer instructions than a replace each


def marked_capitals(scan: str) -> bytes:
    """``scan`` (an ASCII copy) as bytes, each capital that may start a month's name or a
    currency code replaced by ``\\x01``: what the date and money scanners start from."""
    return _mark(scan.encode("ascii", "replace"))


_MONTH_STEM: Final = re.compile(
    b"\x01(?:" + b"|".join(sorted({name[1:3].encode() for name, _ in _MONTH_NAMES})) + b")"
)
# A look-ahead, so that a stem that is no code (``ESD``) never hides one starting inside it.
_CODE_STEM: Final = re.compile(
    b"\x01(?=" + b"|".join(sorted({_mark(c[1:].encode()) for c in _CODE_NAMES})) + b")"
)
_DAY_AFTER: Final = re.compile(r" (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?(?!\w)")
_DAY_BEFORE: Final = re.compile(r"(?<![\w-])(\d{1,2})(?:st|nd|rd|th)?(?: of)? $")
_YEAR_AFTER: Final = re.compile(r",? (\d{4})(?![\w-])")
_ISO_DATE: Final = re.compile(r"-(?<=(?<![\d-])(\d{4})-)(\d\d)-(\d\d)(?![\d-])")
# 14/05/2026, 14.05.2026, 14-05-2026 (05/14/2026 when only the first number can be a month).
# Each starts at its first separator, a literal the engine jumps to; the one or two digits
# before it are looked back for, one width at a time.
_NUMERIC_DATES: Final = tuple(
    (
        sep,
        re.compile(
            rf"\{sep}(?:(?<=(?<![\w.,/-])(\d\d)\{sep})|(?<=(?<![\w.,/-])(\d)\{sep}))"
            rf"(\d\d?)\{sep}(\d{{4}})(?![\w/-]|[.,]\d)"
        ),
    )
    for sep in "/.-"
)


# 2026/05/19, 2026.05.19: year first is always year, month, day (no guess).
_YEAR_FIRST_DATES: Final = tuple(
    (
        sep,
        re.compile(
            rf"\{sep}(?<=(?<![\w.,/-])(\d{{4}})\{sep})(\d\d?)\{sep}(\d\d?)(?![\w/-]|[.,]\d)"
        ),
    )
    for sep in "/."
)


def _date_key(year: str | None, month: int, day: str) -> str | None:
    d = int(day)
    if not (1 <= month <= 12 and 1 <= d <= 31):
        return None
    return f"date:{year or '-'}-{month:02d}-{d:02d}"


def _month_words(scan: str, marked: bytes | None = None) -> Iterator[re.Match[str]]:
    """``_MONTH_WORD.finditer(scan)``, faster (see ``_MONTH_STEM``; ``marked`` is
    :func:`marked_capitals` of ``scan``, if made already)."""
    # Tried only where a name can start, the regex finds what a full scan finds: a match
    # holds no capital letter after its first, so it never covers another stem.
    for stem in _MONTH_STEM.finditer(marked_capitals(scan) if marked is None else marked):
        m = _MONTH_WORD.match(scan, stem.start())
        if m is not None:
            yield m


def date_entities(
    text: str, scan: str | None = None, marked: bytes | None = None, *, settle: bool = False
) -> Iterator[Entity]:
    """ISO dates (``2026-09-28``), numeric ones with a year (``28/09/2026``, ``28.09.2026``,
    ``09/28/2026``, ``2026/09/28``; one that reads both ways, ``05/06/2026``, is not a date
    here unless both ways are one day, ``05/05/2026``, or ``settle`` is true and ``text``
    settles it) and written
    ones (``28 September``, ``Sept. 28, 2026``);
    a date without a year has the key ``date:--MM-DD`` (``scan``: ``text``'s ASCII copy;
    ``marked``: its :func:`marked_capitals`).

    With ``settle``, ``text`` is one document (a session's transcript), which writes its dates
    one way: if its numeric dates that read one way only are all month first (``05/27/2026``)
    or all day first (``27/05/2026``), one that reads both ways is read that way too. A text
    that writes them both ways, or only ambiguously, settles nothing."""
    scan = ascii_copy(text) if scan is None else scan
    for m in _ISO_DATE.finditer(scan):
        key = _date_key(m[1], int(m[2]), m[3])
        if key is not None:
            yield Entity("date", "date", text[m.start(1) : m.end()], key, m.start(1))
    ambiguous: list[tuple[re.Match[str], int, int]] = []
    orders = 0  # bit 1: a date written month first; bit 2: one written day first
    for sep, regex in _NUMERIC_DATES:
        if sep not in scan:
            continue
        for m in regex.finditer(scan):
            first, second = int(m[1] or m[2]), int(m[3])
            if second > 12 >= first and sep != ".":
                first, second = second, first  # month first: 05/14/2026
                orders |= 1
            elif first <= 12 and sep != "." and first != second:
                if settle:
                    ambiguous.append((m, first, second))
                continue  # 05/06/2026 reads both ways: no guess (yet)
            elif sep != "." and 12 < first <= 31 and second <= 12:
                orders |= 2  # day first: 14/05/2026
            key = _date_key(m[4], second, str(first))
            if key is not None:
                start = m.start(1) if m[1] else m.start(2)
                yield Entity("date", "date", text[start : m.end()], key, start)
    if ambiguous and orders in (1, 2):
        for m, first, second in ambiguous:
            if orders == 1:
                first, second = second, first
            key = _date_key(m[4], second, str(first))
            if key is not None:
                start = m.start(1) if m[1] else m.start(2)
                yield Entity("date", "date", text[start : m.end()], key, start)
    for sep, regex in _YEAR_FIRST_DATES:
        if sep not in scan:
            continue
        for m in regex.finditer(scan):
            key = _date_key(m[1], int(m[2]), m[3])
            if key is not None:
                yield Entity("date", "date", text[m.start(1) : m.end()], key, m.start(1))
    for m in _month_words(scan, marked):
        start, month = m.start(), _MONTHS[m[1]]
        if not _free_before(text, start, "-"):
            continue
        after = _DAY_AFTER.match(text, m.end())
        if after is not None:  # September 28[, 2026]
            key = _date_key(after[2], month, after[1])
            if key is not None:
                yield Entity("date", "date", text[start : after.end()], key, start)
                continue
        before = _DAY_BEFORE.search(text, max(0, start - 12), start)
        if before is not None:  # 28 September[ 2026]
            year = _YEAR_AFTER.match(text, m.end())
            key = _date_key(year[1] if year else None, month, before[1])
            if key is not None:
                end = year.end() if year else m.end()
                yield Entity("date", "date", text[before.start() : end], key, before.start())
