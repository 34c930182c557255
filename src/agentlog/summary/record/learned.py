"""Identifiers learned from the session itself: what its tools exchange, with no domain preset.

A hand-written pattern per domain recognises the identifiers someone thought of; a session of
a domain nobody wrote patterns for (six-character booking codes, ``XY123`` flights,
``card_7731904`` payment ids, ``ana_lima_4410`` user ids) would pass a record that dropped every
one of them. The session says what its identifiers are, by how its tools use them. A value is
an identifier of the session when it is, in the rendered transcript:

1. **under a key that names an identifier**, in a tool call or a tool result: the key's last
   word (``booking_id``, ``orderNumber``, ``confirmation_code``, ``ref``, ``record_locator``,
   or a noun that is an identifier by itself: ``sku``, ``tracking``, ``iban``, ``imei``,
   ``tag``)
   is one of :data:`ID_KEY_WORDS`, and no word of it says the value is an attribute code
   (``zip_code``, ``country_code``, ``status_code``: :data:`NOT_ID_KEY_WORDS`). Lists under
   such a key (``order_ids``) count element by element; a value shaped like a decimal
   (``"hs_code": "8471.30"``) counts when a message names it too;
2. **a tool call's argument** (a string, or a string in a list) that looks like an
   identifier (see below), is a string of six digits or more (a tracking or account number:
   an amount or a count is passed as a number), is a dotted code (an IP address, a range of
   them, a tariff code: see :func:`dotted_code`) or is an e-mail address: what the agent
   passed to a tool is what the tool works on;
3. **identifier-shaped and in both a tool result and a message** (the customer's or an
   agent's text): an id the tools returned and the conversation names; a result's string
   that is an identifier written with a space inside (``RCT 2026 441907``) counts when a
   message writes it whole, and so does a message's token with a part joined by ``.``
   (``042-117-09.3``) that a result holds whole: one identifier, not its parts (a version,
   ``v2.14.3``, is none);
   and a prefix of capitals before a number in groups or of joined runs (``INV 2026/117``)
   that a result's prose writes too;
4. **introduced by a tool result's prose and used by the conversation**: capitals or digits
   (``QZKXMB``, ``884120``), which no shape makes an identifier, right after an identifier
   word in a result (``your booking reference is QZKXMB``, ``ticket no. 884120``), as a key
   would name it (not ``zip code 55802``), and in a message or a call's arguments.
5. **a handle a message gives and a tool call passes**: words joined by ``_`` or ``-``, each of
   three letters or more (``kestrel-ops``, ``north_wind``), an argument of a call that a
   message writes whole: the name of a workspace, a project or an account, which holds no
   digit and so has no identifier's shape; an option the agent picks (``period_end``) is in
   no message.

A card's last digits are named by their key too (``last4``, ``last_four_digits``). An
identifier written in groups of capitals and digits (``DE89 3704 0044 0532 0130 00``, ``XQ
9033`` under a key), a group perhaps of runs joined by ``-``, ``/`` or ``.`` (``CC 4410-OPS``,
``KA-MZ 1184``, ``20-45-67 41234567``), is one identifier, keyed without its spaces and found in
any grouping, unless a group is a date a calendar holds or a number (``EUR 12.50``), or, with
no key to name it, its digits are all in quantities (``512GB SSD``); digit runs joined by dots
(``8517.62.0090``: three runs or more, six digits, no date) are one too.

A value is kept when it is one token of letters, digits, ``_`` and ``-`` (a leading ``#``
allowed), 3 to 64 characters, and looks like an identifier rather than a word: it holds a digit,
or is all capitals (``DHL``, ``QZKXMB``), or joins runs with ``_`` or ``-``; runs joined by
``/`` or ``:`` count when one holds a digit (``CLM/2026/004431``, a MAC address; not a time
such as ``09:45``), and under a key runs joined by
``.`` with a letter and a digit (``INV.2026.0042``); dates (``14/05/2026``), fractions,
times, ordinals (``10th``), quantities (``100GB``, ``2.5kg``) and a number hyphenated to a word
(``3-seat``, ``2-day``, ``10-pack``) are not identifiers, except that a key naming an
identifier makes a quantity's shape one (``"tax_code": "1257L"``). For rules 2 and 3 the
shape is stricter (:func:`identifier_shaped`: at least 4 characters holding a digit and a
letter, or digit runs joined by ``_`` or ``-``), since no key vouches for the value.

Learning reads the rendered transcript, so what a truncated payload hid is never required.
Scanning is kept cheap on long sessions: rule 1 is one regular expression over the lower-cased
tool lines that starts at the key's last word, rule 3 intersects two token sets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Final

from agentlog.summary.record._scan import (
    GROUPED_MIN,
    date_entities,
    grouped_spans,
    international_phones,
)
from agentlog.summary.record.entities import _utf8_tokens

__all__ = [
    "ID_KEY_WORDS",
    "JOINERS",
    "NOT_ID_KEY_WORDS",
    "LearnedIds",
    "dotted_code",
    "extended",
    "grouped_runs",
    "holds_token",
    "identifier_shaped",
    "is_id_key",
    "learn_ids",
    "regrouped",
    "squeezed",
    "token_spans",
    "token_starts",
]

ID_KEY_WORDS: Final = frozenset(
    {"id", "ids", "number", "numbers", "num", "no", "nr", "code", "codes", "ref", "refs",
     "reference", "references", "locator",
     # nouns that are identifiers by themselves, in any domain
     "sku", "skus", "tracking", "iban", "uuid", "guid", "serial", "vin", "imei", "isbn", "pnr",
     "tag"}  # an asset's or a bag's tag (``asset_tag``, ``bag_tag``)
)  # fmt: skip
"""Last words of a JSON key that say its value identifies something."""

NOT_ID_KEY_WORDS: Final = frozenset(
    {"area", "color", "colour", "country", "currency", "dial", "http", "iso", "lang",
     "language", "locale", "post", "postal", "region", "state", "status", "zip"}
)  # fmt: skip
"""Words of a key that make its code an attribute, not an identifier (``zip_code``)."""

_LAST_COUNTS: Final = ("4", "four")
"""How many last digits of a card a key names (``last4``, ``last_four``)."""

_KEY_WORD: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_ID_WORDS: Final = tuple(sorted({*ID_KEY_WORDS, *_LAST_COUNTS, "digit", "digits"}))
# A JSON key ending in one of ``_ID_WORDS`` and the value after it: a string, a whole number
# of three digits or more, or a list. It starts at the literal ``": `` that ends every key,
# which the engine jumps to, and looks back for the word (a class first, which most keys fail
# at once); a regex starting at the word would try every letter that may start one.
_ID_VALUE: Final = re.compile(
    r'": (?<=['
    + "".join(sorted({w[-1] for w in _ID_WORDS}))
    + r']": )(?:'
    + "|".join(
        "(?<=(?:" + "|".join(w for w in _ID_WORDS if len(w) == n) + ')": )'
        for n in sorted({len(w) for w in _ID_WORDS})
    )
    + r')(?:"([^"\\\n]{3,64})"|(\d{3,})(?![\d.])|\[([^\]\n]{0,2000})\])'
)
_TAIL_WORD: Final = {w[-3:]: len(w) for w in _ID_WORDS if len(w) > 2}
"""The length of the id word a key ends with, by its last three letters (each is one word's,
and no two-letter word's tail is among them)."""
_LIST_STRING: Final = re.compile(r'"([^"\\\n]{3,64})"')
_CALL_STRING: Final = re.compile(r'": "([^"\\\n]{3,64})"')
_CALL_LIST: Final = re.compile(r'": \[([^\]\n]{0,2000})\]')
_DIGITS_ID: Final = 6
"""A string of this many digits or more that an agent passes to a tool is an identifier: an
amount or a count is passed as a number, a short code (``"0420"``, a PIN) is not one."""
_TOKEN: Final = re.compile(r"#?[A-Za-z0-9]+(?:[_/:#-][A-Za-z0-9]+)*")
_SLASHED: Final = re.compile(
    r"(?<![\w/.:-])[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)*(?:[/:][A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)*)+"
    r"(?![\w/-]|:\w)"
)
"""Runs joined by ``/`` or ``:`` (``CLM/2026/004431``, ``HRC:2026:118``), which the tokens
split: cut out whole, then judged by :func:`identifier_shaped` (a date, a time, ``24/7`` are
not identifiers)."""
_JOINT: Final = re.compile(r"[/:](?<=[A-Za-z0-9][/:])(?=[A-Za-z0-9])")
"""A ``/`` or ``:`` between two letters or digits: in every match of :data:`_SLASHED`, which
matches within a line."""
_HANDLE: Final = re.compile(r"[A-Za-z]{3,}(?:[_-][A-Za-z]{3,}){1,4}")
"""Words joined by ``_`` or ``-``, each of three letters or more: a handle (``kestrel-ops``),
not a word written with a hyphen (``t-shirt``, ``e-mail``, ``check-in``)."""
_EMAIL: Final = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_WHEN: Final = (
    r"\d{4}[-/]\d\d?(?:[-/]\d\d?)?|\d\d?[-/]\d\d?(?:[-/]\d{2}(?:\d\d)?)?"
    r"|\d\d?:\d\d(?::\d\d)?(?:am|pm)?|\d\d?\.\d\d(?:am|pm)|\d+(?:st|nd|rd|th|am|pm)"
)
"""Dates, times, ordinals and hours of the clock (``2026-06-01``, ``09:45``, ``10th``, ``3pm``)."""
_NOT_KEYED_ID: Final = re.compile(_WHEN, re.IGNORECASE)
"""What no key makes an identifier: a key's word may name a code (``tax_code``) whose value
looks like a quantity (``1257L``, ``12B``), never one that is a date or a time."""
_UNITS: Final = (
    r"\d+(?:\.\d+)?(?:[kmbgtp]b?|kg|mg|lbs?|oz|ml|l|km|mi|cm|mm|in|ft|yd|qt|gal|pk|pcs"
    r"|hrs?|min|s|ms|x|px|mp|d|w|v|hz|ghz|mah|mph|kph|yrs?)"
)
_QUANTITY: Final = re.compile(_UNITS, re.IGNORECASE)
"""A number and its unit (``100GB``, ``2.5kg``, ``24hrs``)."""
_NOT_ID: Final = re.compile(_WHEN + "|" + _UNITS, re.IGNORECASE)
_VERSION: Final = re.compile(r"[vV]\d+(?:\.\d+){1,3}")
"""A software version (``v2.14.3``): not an identifier, as a size or a time is none."""
_COUNTED: Final = re.compile(r"\d{1,4}(?:-[A-Za-z]?[a-z]+)+")
"""A number and a word, hyphenated: what a thing has (``3-seat``, ``2-day``, ``10-pack``,
``4-door``), not an identifier."""
_DIGITS: Final = b"0123456789"
_GROUPED: Final = re.compile(r"[A-Z0-9]{1,6}(?: [A-Z0-9]{1,6}){1,7}")
"""An identifier written in groups of capitals and digits (``XQ 9033``, an IBAN)."""
_GROUP: Final = r"[A-Z0-9]+(?:[-/.][A-Z0-9]+)*"
_JOINED_GROUPS: Final = re.compile(_GROUP + "(?: " + _GROUP + "){1,7}")
"""Groups of capitals and digits, a group perhaps of runs joined by ``-``, ``/`` or ``.``:
an identifier written with a space inside (``CC 4410-OPS``, ``CGL 7718-08-A``)."""
_SPACED_BYTES: Final = bytes(
    0x41
    if 0x41 <= c <= 0x5A or 0x30 <= c <= 0x39
    else c
    if c in b' "'
    else 0x2D
    if c in b"-/."
    else 0x2E
    for c in range(256)
)
"""Capitals and digits read ``A``, the joiners ``-``, a space and a quote themselves."""
_SPACED_VALUE: Final = re.compile(rb'"A+(?:-A+)*(?: A+(?:-A+)*){1,7}"')
"""A JSON string that is such groups, whole, in a copy marked by :data:`_SPACED_BYTES`."""
_DECIMAL: Final = re.compile(r"\d{2,6}\.\d{1,6}")
"""Digits, a dot and digits: a decimal, or a code of two runs (a tariff's ``8471.30``)."""
_PREFIX_MARKS: Final = bytes(
    0x41
    if 0x41 <= c <= 0x5A
    else 0x39
    if 0x30 <= c <= 0x39
    else 0x2D
    if c in b"-/."
    else c
    if c == 0x20
    else 0x2E
    for c in range(256)
)
"""Capitals read ``A``, digits ``9``, the joiners ``-``, a space itself."""
_PREFIXED: Final = re.compile(rb"A{2,5}(?: 9+(?:-9+)*){1,3}")
_PREFIXED_DIGITS: Final = 4
"""Digits a prefixed number needs (``INV 2026/117``; not ``AB 1/2``)."""
_DOT_MARKS: Final = bytes(
    0x41 if c < 0x80 and chr(c).isalnum() else 0x2E if c == 0x2E else 0x20 for c in range(256)
)
"""Letters and digits read ``A``, a dot itself, every other byte a space."""
_DOTTED_BYTES: Final = bytes(
    c if (c < 0x80 and chr(c).isalnum()) or c in b"._-@/:" else 0x20 for c in range(256)
)
"""Token characters, ``.`` among them, kept; every other byte a space."""
_DATE_SHAPE: Final = re.compile(
    r"\d{4}[-/.]\d\d?(?:[-/.]\d\d?)?|\d\d?[-/.]\d\d?(?:[-/.]\d{2}(?:\d\d)?)?"
)
"""What may be a date: its numbers then say whether a calendar holds it."""
_DOTTED: Final = re.compile(r"\d{1,6}(?:\.\d{1,6}){2,}(?:/\d{1,3})?")
_DOTTED_GAP: Final = re.compile(r"\.\d{1,6}(?:\.\d{1,6})+(?![\w-]|\.\d)")
"""The runs of a dotted code after its first, from the dot that starts them (a literal)."""
_DOTTED_DATE: Final = re.compile(r"\d\d?\.\d\d?\.(?:\d\d){1,2}|\d{4}\.\d\d?\.\d\d?")
_DOTTED_DIGITS: Final = 6
_GROUPED_MIN: Final = GROUPED_MIN
"""Characters of a token looked for in groups too, when not found whole (an IBAN, a card or
an account number; a short one in groups is as likely two tokens)."""
_INTRODUCER: Final = re.compile(
    r"(?:([a-z]+)[ _-])?(?<![a-z0-9])(?:"
    + "|".join(sorted(ID_KEY_WORDS, key=len, reverse=True))
    + r")\.?(?: (?:is|was|of))?:? ?[#=]? ?[\"'(]?$"
)
"""The end of prose that introduces an identifier: an identifier word (the keys' words, as
prose), perhaps ``is`` and a ``:``, ``#`` or quote; the word before it, if any, in group 1."""
_LINKS: Final = (" is", " was", " of")
_ID_WORD_ENDS: Final = tuple(ID_KEY_WORDS)
_INTRODUCED_CAPITALS: Final = 4
_INTRODUCED_DIGITS: Final = 6
"""Capitals or digits a token of the conversation needs to be checked by rule 4: digits as
many as a string an agent passes to a tool needs (rule 2); a year, a PIN, a zip code is no
identifier a record must keep."""
_CAPITALS_BYTES: Final = bytes(
    0x41
    if 0x41 <= c <= 0x5A
    else 0x2E
    if chr(c).isalnum() or chr(c) in "_-#" or c >= 0x80
    else 0x20
    for c in range(256)
)
"""Capitals read ``A``, other token characters ``.`` (a token holding one is no word of
capitals), separators a space."""
_CAPITALS_WORD: Final = re.compile(rb" AAAA+(?= |$)")
_MAX_KEYS: Final = 4096

_key_cache: dict[str, bool] = {}


def is_id_key(key: str) -> bool:
    """Whether a JSON key names an identifier (``booking_id`` yes, ``zip_code`` no); a card's
    last digits (``last4``, ``last_four_digits``) are what people name it by."""
    known = _key_cache.get(key)
    if known is None:
        words = [w.lower() for w in _KEY_WORD.findall(key)]
        known = bool(words) and NOT_ID_KEY_WORDS.isdisjoint(words)
        known = known and (words[-1] in ID_KEY_WORDS or _is_last_digits(words))
        if len(_key_cache) < _MAX_KEYS:  # keys come from data: bound the cache
            _key_cache[key] = known
    return known


def _is_last_digits(words: list[str]) -> bool:
    """``last4``, ``last_4``, ``lastFour``, ``last_four_digits``: a key's words ending in
    "last", a count of digits and perhaps "digits"."""
    if words[-1] in ("digit", "digits"):
        words = words[:-1]
    return len(words) >= 2 and words[-2] == "last" and words[-1] in _LAST_COUNTS


def dotted_code(token: str) -> bool:
    """Whether ``token`` is digit runs joined by dots, three runs or more and
    :data:`_DOTTED_DIGITS` digits or more, and no date: a tariff code (``8517.62.0090``), an
    address (``10.0.4.17``) or a range of them (``198.51.100.0/24``); never an amount (one
    dot) nor a version (``2.3.1``)."""
    if _DOTTED.fullmatch(token) is None:
        return False
    dotted = token.partition("/")[0]  # a range's prefix length counts for nothing
    return (
        len(dotted) - dotted.count(".") >= _DOTTED_DIGITS and _DOTTED_DATE.fullmatch(dotted) is None
    )


def _is_grouped(value: str, *, keyed: bool = False) -> bool:
    """Whether ``value`` is an identifier written in groups: capitals and digits, with a
    digit, in two to eight groups (``XQ 9033``, ``DE89 3704 0044 0532 0130 00``), a group
    perhaps of runs joined by ``-``, ``/`` or ``.`` (``CC 4410-OPS``, ``KA-MZ 1184``,
    ``20-45-67 41234567``, ``INV 2026/117``) but no date or number (``EUR 12.50``). Unless
    a key names it (``keyed``), its digits are not all in quantities: ``512GB SSD`` is what
    a product has (a postcode's ``LE2 3TB`` is no quantity). A date written in capitals
    (``12 JUN 2026``) is a date."""
    # The shape first: most values with a space are prose, which fails it at once.
    plain = _GROUPED.fullmatch(value) is not None
    if not plain and _JOINED_GROUPS.fullmatch(value) is None:
        return False
    groups = value.split(" ")
    if not keyed and all(_QUANTITY.fullmatch(g) is not None for g in groups if not g.isalpha()):
        return False
    if any(len(g) >= 3 and g.isalpha() for g in groups) and next(
        iter(date_entities(value.title())), None
    ):
        return False  # the date patterns read a month's name as written in prose
    if plain:
        whole = value.replace(" ", "")
        return identifier_shaped(whole) or (whole.isdigit() and len(whole) >= _GROUPED_MIN)
    if any(_is_date_or_number(g) for g in groups if not g.isalnum()):
        return False
    # One token once squeezed, a dot read as the other joiners are: shaped as one.
    return identifier_shaped("".join(groups).replace(".", "-"))


def _is_date_or_number(group: str) -> bool:
    """Whether a group of runs joined by ``-``, ``/`` or ``.`` is a date a calendar holds
    (``2026-06-01``, ``12/06``; a sort code's ``20-45-67`` is none) or digits joined by dots
    (an amount, a version, a dotted date)."""
    if group.replace(".", "").isdigit():
        return True
    if _DATE_SHAPE.fullmatch(group) is None:
        return False
    first, second, *_ = (int(run) for run in re.split(r"[-/.]", group))
    if first > 31:  # a year first: then the month
        return 1 <= second <= 12
    return (first <= 12 and second <= 31) or (first <= 31 and 1 <= second <= 12)


def _is_identifier(value: str) -> bool:
    """Whether a value under an identifier key is one (see the module docstring)."""
    if "@" in value:
        return _EMAIL.fullmatch(value) is not None
    if " " in value:
        return _is_grouped(value, keyed=True)
    bare = value.lstrip("#")
    core = bare.replace("_", "").replace("-", "").replace("#", "")  # ``TKT#5521``
    if "/" in core or ":" in core:  # ``CLM/2026/004431``, ``00:1A:2B:3C:4D:5E``
        if not identifier_shaped(bare):  # runs joined by "/" or ":", as a key-less one is
            return False
        core = core.replace("/", "").replace(":", "")
    if "." in core:  # ``INV.2026.0042``: runs joined by ".", with a letter and a digit
        if dotted_code(bare):
            return True  # ``8517.62.0090``
        core = core.replace(".", "")
        if ".." in bare or core.isdigit() or core.isalpha():
            return False  # ``12.50``, ``example.com``
    # String methods, not regular expressions: thousands of values per long session.
    if not (core.isascii() and core.isalnum()) or bare[:1] in "_-/.:" or bare[-1:] in "_-/.:":
        return False
    if core.isalpha():
        return bare.isupper() or core != bare  # all capitals, or words joined by "_" or "-"
    if _COUNTED.fullmatch(bare) is not None:
        return False  # ``3-seat``
    # The key names it: a quantity's shape (``1257L``, a tax code) is no reason to doubt it.
    return (core == bare and core.isdigit()) or _NOT_KEYED_ID.fullmatch(bare) is None


def identifier_shaped(token: str) -> bool:
    """Whether a token looks like an identifier with no key to vouch for it: at least 4
    characters, one token, holding a digit and a letter (``XY123``, ``card_7731904``) or digit
    runs joined by ``_`` or ``-`` (``555-123-2002``); not a date, time or quantity."""
    bare = token.lstrip("#")
    if len(bare) < 4 or not bare.isascii() or _TOKEN.fullmatch(bare) is None:
        return False
    plain = bare.replace("_", "").replace("-", "").replace("/", "").replace(":", "")
    plain = plain.replace("#", "")  # runs joined by "#": ``TKT#5521``
    if plain.isalpha() or _NOT_ID.fullmatch(bare) is not None or _COUNTED.fullmatch(bare):
        return False
    if plain.isdigit():
        if "/" in bare or ":" in bare:  # dates, fractions, ``24/7``, times: a long run or none
            return max(map(len, re.split(r"[_/:-]", bare))) >= 5
        return plain != bare  # digit runs joined by "_" or "-"
    return any(c.isdigit() for c in plain)


class LearnedIds:
    """The identifiers one transcript's tool traffic names, by key (``id:`` and the value case
    folded, without a leading ``#``), each with the text it was first seen as.

    ``candidates`` holds the identifier-shaped tokens of the messages that rule 3 has not
    checked yet against the tool results: checking is a search of the results per token, so
    it is done only for the tokens a caller asks about (:meth:`resolve`).
    """

    def __init__(
        self,
        found: dict[str, str],
        candidates: dict[str, str],
        results: str,
        introduced: dict[str, str] | None = None,
        cased: str | None = None,
    ) -> None:
        self.found = found
        self.candidates = candidates
        self.introduced = {} if introduced is None else introduced
        """Tokens of the conversation of no identifier's shape (``QZKXMB``, ``884120``) that
        count if a tool result's prose introduces one as an identifier (rule 4)."""
        self._results = results  # the tool results' lines, lower-cased
        self._cased = results if cased is None else cased  # and as written

    def resolve(self, keys: Iterable[str] | None = None) -> dict[str, str]:
        """Every learned identifier (``keys=None``), or only those among ``keys``."""
        if keys is None:
            pending = [*self.candidates, *self.introduced]
        else:
            pending = [k for k in keys if k in self.candidates or k in self.introduced]
        for key in pending:
            text = self.candidates.pop(key, None)
            if text is not None:
                # Looked for in groups only if the conversation wrote it so (``DE89 3704 ...``).
                if next(token_spans(self._results, key[3:], spaced=" " in text), None) is not None:
                    self.found.setdefault(key, text)
                continue
            text = self.introduced.pop(key)
            if introduced_in(self._cased, text):
                self.found.setdefault(key, text)
        if keys is None:
            return self.found
        return {k: self.found[k] for k in keys if k in self.found}

    def keys(self) -> set[str]:
        """The keys learned so far and those still to be checked."""
        return {*self.found, *self.candidates, *self.introduced}


def token_starts(text: str, token: str) -> Iterator[int]:
    """Where ``token`` occurs in ``text`` as a whole token: no identifier character glued to
    either end (a ``#`` before it allowed: ``#W4923227`` holds ``W4923227``), and not
    :func:`extended` past its end."""
    start = text.find(token)
    while start >= 0:
        end = start + len(token)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if (
            not (before.isalnum() or before in "_-")
            and not (after.isalnum() or after in "_-")
            and not (after in JOINERS and extended(text, start, end))
        ):
            yield start
        start = text.find(token, start + 1)


JOINERS: Final = "./:#"
"""Marks that join an identifier to more of one with no space (``A-1001/B``, ``A-1001.5``,
``ACC-5521:01``, ``A-1001#2``)."""


def extended(text: str, start: int, end: int) -> bool:
    """Whether the token ``text[start:end]`` goes on past its end: a joiner
    (:data:`JOINERS`) and a letter or a digit right after it. ``A-1001/B``, a sub-order,
    ``A-1001.5`` and ``ana_lima_4410.old`` are other things whose names start with the
    token's, so they do not hold it; a joiner before a space or the text's end ends a
    sentence or a label (``A-1001.``, ``A-1001: approved``), and a token between two
    slashes is a path's segment (``/orders/A-1001/refunds``: A-1001's refunds)."""
    if end + 1 >= len(text) or text[end] not in JOINERS or not text[end + 1].isalnum():
        return False
    return not (text[end] == "/" and start > 0 and text[start - 1] == "/")


def token_spans(text: str, token: str, *, spaced: bool = False) -> Iterator[tuple[int, int]]:
    """Where ``token`` occurs in ``text`` as a whole token, start and end; with ``spaced``
    also written in groups (``de89 3704 0044`` holds ``de8937040044``)."""
    if not spaced:
        n = len(token)
        return ((start, start + n) for start in token_starts(text, token))
    return (m.span() for m in _spaced_regex(token).finditer(text) if _free(text, m.start()))


@lru_cache(maxsize=1024)
def _spaced_regex(token: str) -> re.Pattern[str]:
    # It starts with the token's first character, a literal the engine jumps to.
    return re.compile(" ?".join(map(re.escape, token)) + r"(?![\w-])")


def _free(text: str, start: int) -> bool:
    """Whether no identifier character is glued to ``text`` before ``start``."""
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-")


def holds_token(text: str, token: str) -> bool:
    """Whether ``token`` occurs in ``text`` as a whole token (:func:`token_starts`); a long
    one (an IBAN, an account number) also written in groups."""
    if next(token_starts(text, token), None) is not None:
        return True
    if len(token) < _GROUPED_MIN or " " not in text or not any(c.isdigit() for c in token):
        return False
    # Written in groups, it starts with its first group and a space: six searches in C
    # before a regular expression is made for it.
    if not any(token[:n] + " " in text for n in range(1, 7)):
        return False
    return next(token_spans(text, token, spaced=True), None) is not None


def grouped_runs(text: str) -> Iterator[tuple[int, int]]:
    """Where ``text`` (original case) writes an identifier in groups (:func:`grouped_spans`,
    and an identifier once squeezed: ``DE89 3704 0044 0532 0130 00``)."""
    return ((a, b) for a, b in grouped_spans(text) if _is_grouped(text[a:b]))


def regrouped(text: str, tokens: set[str]) -> set[str]:
    """``tokens`` (of ``text``, case folded) with the groups of each identifier ``text``
    writes in groups replaced by the identifier squeezed: one token, as a key compares it;
    and without the pieces of a phone number in international format, which compares by
    its digits (``+1-415-555-0142`` is no ``1-415-555-0142``)."""
    if " " not in text and "+" not in text:
        return tokens
    runs = [text[a:b] for a, b in grouped_runs(text)] if " " in text else []
    phones = [text[a:b] for a, b in international_phones(text)] if "+" in text else []
    if not runs and not phones:
        return tokens
    parts = {g.casefold() for run in runs for g in run.split()}
    parts.update(t for phone in phones for t in _utf8_tokens(phone.casefold().encode()))
    return (tokens - parts) | {squeezed(run).casefold() for run in runs}


def squeezed(value: str) -> str:
    """An identifier written in groups as one token: ``DE89 3704 0044`` -> ``DE8937040044``."""
    return value.replace(" ", "") if " " in value else value


def introduced_in(text: str, token: str) -> bool:
    """Whether ``text`` names ``token`` as written (a code in capitals in capitals) right
    after a word that says an identifier follows (``your booking reference is QZKXMB``,
    ``ticket no. 884120``, ``code: 482100``), not after an attribute's (``zip code
    558020``)."""
    for start in token_starts(text, token):
        # The regular expression tries every place of its window: only where the words
        # before the token end as an introducer's may (string methods in C).
        before = text[max(0, start - 16) : start].lower().rstrip(" :#=\"'(")
        if before.endswith(_LINKS):
            before = before[: before.rindex(" ")]
        if not before.rstrip(".").endswith(_ID_WORD_ENDS):
            continue
        window = text[max(0, start - 48) : start].lower()
        m = _INTRODUCER.search(window)
        if m is not None and m[1] not in NOT_ID_KEY_WORDS:
            return True
    return False


def _key_of(value: str) -> str:
    return "id:" + squeezed(value).lstrip("#").casefold()


def learn_ids(calls: str, results: str, messages: str) -> LearnedIds:
    """The identifiers learned from a transcript's tool calls, tool results and messages (each
    the bodies of those lines joined by newlines, ASCII copies: every other character ``?``)."""
    found: dict[str, str] = {}
    tools = f"{calls}\n{results}"
    lowered = tools.lower()
    judged: set[str] = set()  # values repeat: each is judged once
    keys = _key_cache
    for m in _ID_VALUE.finditer(lowered):
        group = m.lastindex or 0
        if group < 3:  # one value: judged once, whatever the key (most values recur)
            begin, end = m.span(group)
            value = tools[begin:end]
            if value in judged:
                continue
            values = [value]
        else:  # a list: its strings, element by element
            first = m.start(3)
            values = [
                tools[first + v.start(1) : first + v.end(1)] for v in _LIST_STRING.finditer(m[3])
            ]
            values = [v for v in values if v not in judged]
            if not values:
                continue
        close = m.start()  # the key's closing quote
        start = close - _TAIL_WORD.get(lowered[close - 3 : close], 2)  # where its id word starts
        quote = lowered.rfind('"', start - 64 if start > 64 else 0, close)
        if quote < 0:
            continue
        key = tools[quote + 1 : close]
        named = keys.get(key)
        if not (is_id_key(key) if named is None else named):
            continue  # judged only under a key that names an identifier
        for value in values:
            judged.add(value)
            if _is_identifier(value):
                found.setdefault(_key_of(value), value)
            elif _DECIMAL.fullmatch(value) and next(token_starts(messages, value), None):
                # A code shaped like a decimal (``"hs_code": "8471.30"``): the key names it,
                # and the conversation uses it; one nobody names is as likely a number.
                found.setdefault(_key_of(value), value)
    if " " in results:
        # An identifier written with a space inside, a whole string of a result (a receipt
        # ``RCT 2026 441907``) that a message names as written: one the tools and the
        # conversation exchange (rule 3), which no message's token shows whole.
        for value in _spaced_values(results):
            if _is_grouped(value) and next(token_starts(messages, value), None) is not None:
                found.setdefault(_key_of(value), value)
    passed = [m[1] for m in _CALL_STRING.finditer(calls)]
    if '": [' in calls:  # a list argument (``"items": ["LAMP-ARC-BRS"]``): element by element
        for m in _CALL_LIST.finditer(calls):
            passed.extend(v[1] for v in _LIST_STRING.finditer(m[1]))
    introduced: dict[str, str] = {}
    # Calls pass the same values again and again (a user id, an order id): each is judged
    # once, in order of first passing (what comes of a value does not depend on the others).
    for value in dict.fromkeys(passed):
        if value not in judged and (
            identifier_shaped(value)
            or (" " in value and _is_grouped(value))
            or (value.isdigit() and len(value) >= _DIGITS_ID)  # a tracking or account number
            or ("." in value and dotted_code(value))  # an address or a tariff code
            or _EMAIL.fullmatch(value)
        ):
            found.setdefault(_key_of(value), value)
        elif _introducible(value):
            introduced.setdefault(_key_of(value), value)
        elif _HANDLE.fullmatch(value) is not None and next(token_starts(messages, value), None):
            found.setdefault(_key_of(value), value)  # a name given in a message (rule 5)
    candidates: dict[str, str] = {}
    # Every identifier-shaped token holds a digit: only the lines that hold one are tokenised
    # (about half of a session's messages; the others are prose).
    said = _with_digits(messages)
    parts: set[str] = set()
    if " " in said:
        for start, end in grouped_runs(said):
            run = said[start:end]
            parts.update(run.split())
            key = _key_of(run)
            if key not in found:
                candidates.setdefault(key, run)
    if " " in said:
        for run in _prefixed_numbers(said):
            key = _key_of(run)
            if key not in found:
                candidates.setdefault(key, run)
    if "." in said:  # tokens split at ".": an id with a dotted part (``042-117-09.3``)
        for token in _dotted_tokens(said):
            parts.update(token.split("."))
            key = _key_of(token)
            if key not in found:
                candidates.setdefault(key, token)
    for token in _utf8_tokens(said.encode("ascii")):
        if token in parts:
            continue  # a group or a dotted part of an identifier, not one by itself
        if token.isalpha() or token.isdigit():
            # Most tokens: words and bare numbers, never identifier-shaped; a long number
            # may still be one a result's prose introduces.
            if token.isdigit() and len(token) >= _INTRODUCED_DIGITS:
                introduced.setdefault(_key_of(token), token)
            continue
        if identifier_shaped(token.strip("-")):
            token = token.strip("-")
            key = _key_of(token)
            if key not in found:
                candidates.setdefault(key, token)
    # Codes in capitals, from every line: in a copy where each capital reads ``A``, a word
    # of capitals starts with a literal (a space and four of them) the engine jumps to.
    marked = b" " + messages.encode("ascii").translate(_CAPITALS_BYTES)
    for word in _CAPITALS_WORD.finditer(marked):
        token = messages[word.start() : word.end() - 1]  # the copy is one longer, at its start
        introduced.setdefault(_key_of(token), token)
    if "/" in said or ":" in said:  # tokens split at "/" and ":": an id joined by them
        # (``CLM/2026/004431``, ``HRC:2026:118``) is cut out whole
        for token in _slashed(said):
            key = _key_of(token)
            if key not in found and identifier_shaped(token):
                candidates.setdefault(key, token)
    if "." in said:  # tokens split at ".": a dotted code (``8517.62.0090``) is cut out
        for m in _DOTTED_GAP.finditer(said):
            start = m.start()
            while start > 0 and m.start() - start < 6 and said[start - 1].isdigit():
                start -= 1
            token = said[start : m.end()]
            if start < m.start() and _free(said, start) and said[start - 1 : start] != ".":
                key = _key_of(token)
                if key not in found and dotted_code(token):
                    candidates.setdefault(key, token)
    for key in [k for k in introduced if k in found or k in candidates]:
        del introduced[key]
    for value in [v for v in found.values() if " " in v]:
        # A group of an identifier written in groups (``7718-03-A`` of ``CGL 7718-03-A``) is
        # kept by any record that keeps the identifier: not one to ask for by itself.
        for part in value.split(" "):
            key = _key_of(part)
            found.pop(key, None)
            candidates.pop(key, None)
            introduced.pop(key, None)
    return LearnedIds(
        found, candidates, lowered[len(calls) + 1 :], introduced, tools[len(calls) + 1 :]
    )


def _with_digits(text: str) -> str:
    """The lines of ``text`` (ASCII) that hold a digit, joined by newlines: those that lose a
    byte when the digits are deleted (one pass in C a line; a regex's search for a digit tests
    every character it passes)."""
    lines = text.split("\n")
    raw = text.encode("ascii").split(b"\n")
    return "\n".join(
        line for line, b in zip(lines, raw, strict=True) if len(b.translate(None, _DIGITS)) < len(b)
    )


def _slashed(text: str) -> list[str]:
    """``_SLASHED.findall(text)``, run only over the lines joining two runs by ``/`` or ``:``
    (:data:`_JOINT`: most colons end a word, "Note: "), which a search from the mark finds at
    a glance: :data:`_SLASHED` tries every place of the text."""
    return _SLASHED.findall(
        "\n".join(
            line
            for line in text.split("\n")
            if ("/" in line or ":" in line) and _JOINT.search(line) is not None
        )
    )


def _dotted_tokens(text: str) -> list[str]:
    """The tokens of ``text`` (ASCII) with a part joined by ``.`` that are identifier-shaped
    once the dot is read as ``-`` (``042-117-09.3``, ``AB12.C``): not a version (``v2.14.3``),
    digits and dots only (an amount, a dotted date, a dotted code: :func:`dotted_code`), no
    quantity or time (``2.5mg``, ``10.30am``), no e-mail address or path."""
    # In a copy where each letter or digit reads "A", a dot between two of them is a literal
    # the search jumps to; the token around it ends at the spaces of a copy that keeps the
    # token characters ("@", "/" and ":" among them, so that an address or a path is seen
    # whole and left out).
    raw = text.encode("ascii")
    marked = raw.translate(_DOT_MARKS)
    kept = raw.translate(_DOTTED_BYTES)
    words: set[str] = set()
    at = marked.find(b"A.A")
    while at >= 0:
        start = kept.rfind(b" ", 0, at) + 1
        end = kept.find(b" ", at)
        end = len(kept) if end < 0 else end
        words.add(text[start:end].strip("._-"))
        at = marked.find(b"A.A", end)
    found = []
    for word in words:
        if "." not in word or not word.replace(".", "").replace("-", "").replace("_", ""):
            continue
        if "@" in word or "/" in word or ":" in word or ".." in word:
            continue
        if word.replace(".", "").isdigit() or _NOT_ID.fullmatch(word) is not None:
            continue
        if _VERSION.fullmatch(word) is not None:
            continue  # a release a thing runs (v2.3.1), what it has, as a size or a weight is
        if identifier_shaped(word.replace(".", "-")):
            found.append(word)
    return sorted(found)  # in one order in every process


def _prefixed_numbers(text: str) -> list[str]:
    """Where ``text`` (ASCII) writes a prefix of two to five capitals, a space and one to
    three groups of digits, perhaps joined by ``-``, ``/`` or ``.`` (``INV 2026/117``, ``RCT
    2026 441907``; one plain number is none: ``TX 78712``, ``HTTP 503``): an identifier a
    tool result then holds as written (rule 3), with
    :data:`_PREFIXED_DIGITS` digits or more and no date or number among its groups (``JUN
    12``, ``EUR 12.50``); an amount (``GBP 5000``) gives way to the amount where the two are
    read."""
    # In a copy where capitals read "A" and digits "9", a capital, a space and a digit are
    # a literal the search jumps to.
    marked = text.encode("ascii").translate(_PREFIX_MARKS)
    runs: list[str] = []
    at = marked.find(b"A 9")
    while at >= 0:
        start = at
        while start > 0 and at - start < 5 and marked[start - 1] == 0x41:
            start -= 1
        m = _PREFIXED.match(marked, start)
        end = at + 3 if m is None else m.end()
        if m is not None and _free(text, start) and _ends_free(text, end):
            run = text[start:end]
            groups = run.split(" ")[1:]
            # One plain number after capitals is as often a state and a zip code (``TX
            # 78712``), a status (``HTTP 503``) or a currency and an amount: a number in
            # groups, or of runs joined, is a document's.
            if (len(groups) > 1 or not groups[0].isdigit()) and (
                sum(c.isdigit() for c in run) >= _PREFIXED_DIGITS
                and not any(_is_date_or_number(g) for g in groups if not g.isdigit())
            ):
                runs.append(run)
        at = marked.find(b"A 9", end)
    return runs


def _ends_free(text: str, end: int) -> bool:
    """Whether no identifier character is glued to ``text`` at ``end`` (a joiner then a
    letter or digit is one: ``2026/117/B``; a full stop ends a sentence)."""
    after = text[end : end + 1]
    if after.isalnum() or after == "_":
        return False
    return not (after and after in "-/." and text[end + 1 : end + 2].isalnum())


def _spaced_values(results: str) -> set[str]:
    """The strings of ``results`` (ASCII) that are groups of capitals and digits, whole
    (:data:`_JOINED_GROUPS`' shape)."""
    # A copy where each capital or digit reads "A": a space between two of them is a
    # literal the search jumps to, and only there is the string around it looked at.
    marked = results.encode("ascii").translate(_SPACED_BYTES)
    values: set[str] = set()
    at = marked.find(b"A A")
    while at >= 0:
        start = marked.rfind(b'"', 0, at)
        end = marked.find(b'"', at)
        if end < 0:
            break
        if start >= 0 and _SPACED_VALUE.fullmatch(marked, start, end + 1) is not None:
            values.add(results[start + 1 : end])
        at = marked.find(b"A A", end + 1)
    return values


def _introducible(token: str) -> bool:
    """Whether a token of no identifier's shape may be one a result's prose introduces:
    capitals (``QZKXMB``) or digits (``884120``)."""
    if token.isdigit():
        return len(token) >= _INTRODUCED_DIGITS
    return len(token) >= _INTRODUCED_CAPITALS and token.isalpha() and token.isupper()
