"""The evaluation's matchers: does a record's text carry an expected entity, commitment, gold
action or quoted phrase? Deterministic and tolerant, documented in
:mod:`agentlog.summary.evaluation.scoring`.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from agentlog.summary.record._extract import READ_VERBS
from agentlog.summary.record._scan import date_entities, money_entities
from agentlog.summary.record.entities import EntityPatterns

__all__ = [
    "action_label",
    "action_recalled",
    "content_words",
    "described_by",
    "key_tokens",
    "key_values",
    "mentions",
    "performed",
    "quotes",
    "stem",
]

_MONEY: Final = re.compile(
    r"(?:[$£€]\s?(?P<a>\d[\d,]*(?:\.\d+)?))|(?:(?P<b>\d[\d,]*(?:\.\d+)?)\s?(?:usd|gbp|eur))",
    re.IGNORECASE,
)
_DECIMAL_COMMA: Final = re.compile(r",\d\d?$")
_IDENTIFIER: Final = re.compile(r"[0-9a-z_-]+")
_GROUPED_MIN: Final = 5
_NUMBER: Final = re.compile(r"(?<![\w.:/-])\d[\d,]*(?:\.\d+)?(?![\w-])")
_QUANTITY: Final = re.compile(r"(?P<n>\d[\d,]*(?:\.\d+)?)\s+(?P<unit>[a-z]+)", re.IGNORECASE)
_PHONE: Final = re.compile(r"[+(]?\d[\d ()+.-]{6,}\d")
_DIGIT_RUN: Final = re.compile(r"\d[\d ()+.-]*\d")
_WORD: Final = re.compile(r"[a-z]+")
_TIME: Final = re.compile(
    r"(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::[0-5]\d(?:\.\d+)?)?(?![\d:])"
    r"(?:\s?(?P<half>[ap])\.?m\b\.?)?",
    re.IGNORECASE,
)
"""A clock time, also inside an ISO timestamp (``T14:30:00-05:00``): a date or a zone is not its
boundary, as a letter or a digit is an identifier's."""
_QUOTE_TOKEN: Final = re.compile(r"[a-z0-9$£€]+(?:['.-][a-z0-9]+)*")
_NAME_WORD: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_REMARK: Final = re.compile(r"\([^()]*\)")
_TOKEN_EDGE: Final = "()[]{}.,;:!?\"'"
_STOPWORDS: Final = frozenset(
    {
        "a", "about", "after", "an", "and", "any", "are", "as", "at", "be", "been", "before",
        "but", "by", "can", "customer", "customer's", "for", "from", "has", "have", "he", "her",
        "his", "i", "if", "in", "into", "is", "it", "its", "no", "not", "of", "on", "once", "or",
        "our", "out", "she", "that", "the", "their", "them", "they", "this", "to", "until", "up",
        "was", "we", "when", "whether", "which", "who", "will", "with", "within", "you", "your",
    }
)  # fmt: skip
_ACTION_STOP: Final = frozenset(
    {"a", "an", "and", "by", "detail", "details", "for", "from", "id", "ids", "info", "of",
     "the", "to", "with"}
)  # fmt: skip
_IRREGULAR: Final = {
    "send": "sent", "pay": "paid", "make": "made", "buy": "bought", "freeze": "froze",
    "write": "wrote", "take": "took", "give": "gave", "get": "got", "break": "broke",
    "choose": "chose", "hold": "held", "lend": "lent", "spend": "spent", "build": "built",
}  # fmt: skip
"""English verbs whose past tense is not a suffix (``froze``, ``wrote``): grammar, not a
domain's words."""
_BARE_DECIMAL: Final = re.compile(r"\d+\.\d+")
_SHORT_YEAR_DATE: Final = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{2})")
_GROUPED_QUANTITY: Final = re.compile(
    r"(?P<n>\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?)\s?(?P<unit>[a-z]+\d?)", re.IGNORECASE
)
"""A quantity written the European way, thousands in spaces and a decimal comma (``1 283,4
m3``, after NFKC has made ``m³`` ``m3``)."""
_MONEY_KEYS: Final = EntityPatterns.default()


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("\u2019", "'").split())


def _literal(haystack: str, needle: str) -> bool:
    """``needle`` in ``haystack`` as a whole token run (case, spacing and a leading ``#`` aside)."""
    n = _norm(needle).lstrip("#")
    if not n:
        return False
    pattern = r"(?<![0-9a-z_])" + re.escape(n) + r"(?![0-9a-z_])"
    return re.search(pattern, _norm(haystack)) is not None


def _grouped(haystack: str, needle: str) -> bool:
    """``needle`` in ``haystack`` with the spaces inside an identifier ignored on both sides:
    ``SK 418`` = ``SK418``, an IBAN in groups of four or none; the identifier holds a digit and
    five characters or more without its spaces, so that ``22 A`` is not ``22A``."""
    whole = "".join(needle.casefold().split()).lstrip("#")
    if len(whole) < _GROUPED_MIN or _IDENTIFIER.fullmatch(whole) is None:
        return False
    if not any(c.isdigit() for c in whole) or not any(c.isalnum() for c in whole):
        return False
    spaced = " ?".join(map(re.escape, whole))
    pattern = r"(?<![0-9a-z_])" + spaced + r"(?![0-9a-z_])"
    return re.search(pattern, _norm(haystack)) is not None


def _numbers(text: str) -> set[Decimal]:
    found = set()
    for n in _NUMBER.findall(text):
        try:
            found.add(Decimal(n.replace(",", "")))
        except InvalidOperation:
            continue
    return found


def _dates(text: str) -> list[tuple[str, str]]:
    """(year or '-', 'MM-DD') of each date in ``text`` (keys are ``date:YYYY-MM-DD`` or
    ``date:--MM-DD``)."""
    keys = [e.key.removeprefix("date:") for e in date_entities(text)]
    return [("-", k[2:]) if k.startswith("--") else (k[:4], k[5:]) for k in keys]


def mentions(haystack: str, needle: str) -> bool:
    """Whether ``haystack`` carries ``needle``: literally (case, spacing and a leading ``#``
    aside), as the same amount (``$12.50`` = ``12.5`` = ``12.50 USD``), as the same date
    (``28 September`` = ``2026-09-28``; a date without a year matches any year), as the same
    phone number (same last ten digits) or as the same quantity (``5,000 miles`` = ``miles
    5000``)."""
    needle = needle.strip()
    if _literal(haystack, needle) or _grouped(haystack, needle):
        return True
    money = _MONEY.fullmatch(needle)
    if money is not None and _DECIMAL_COMMA.search(money["a"] or money["b"]) is None:
        return Decimal((money["a"] or money["b"]).replace(",", "")) in _numbers(haystack)
    amounts = list(money_entities(needle, _MONEY_KEYS.is_money_key))
    if len(amounts) == 1 and amounts[0].text == needle.lstrip("+-\u2212 "):
        # ``EUR 1.234,56``, ``€42,10``, ``249,99 €``, ``-€5.00`` (a refund: the amount back)
        return amounts[0].key in _MONEY_KEYS.summary_keys(haystack)
    if _is_one_date(needle):
        (year, day), have = _dates(needle)[0], _dates(haystack)
        return any(d == day and (year == "-" or y in ("-", year)) for y, d in have)
    time = _TIME.fullmatch(needle)
    if time is not None:
        return _clock(time) in {_clock(t) for t in _TIME.finditer(haystack)}
    if _PHONE.fullmatch(needle):
        digits = re.sub(r"\D", "", needle)[-10:]
        if len(digits) >= 7:
            runs = (re.sub(r"\D", "", r) for r in _DIGIT_RUN.findall(haystack))
            return any(r.endswith(digits) for r in runs)
    if _BARE_DECIMAL.fullmatch(needle):  # ``1150.00`` = ``£1,150.00`` = ``1150``
        return Decimal(needle) in _numbers(haystack)
    short = _SHORT_YEAR_DATE.fullmatch(needle)
    if short is not None:  # ``18/06/26``: the year of this century, read as the full date
        day, sep, month, year = short.groups()
        return mentions(haystack, f"{day}{sep}{month}{sep}20{year}")
    folded = unicodedata.normalize("NFKC", needle)
    european = _GROUPED_QUANTITY.fullmatch(folded)
    if (
        european is not None
        and (" " in european["n"] or "," in european["n"])
        and (_DECIMAL_COMMA.search(european["n"]) or "," not in european["n"])
    ):
        number = re.sub(r"\s", "", european["n"]).replace(",", ".")
        return (
            Decimal(number) in _numbers(haystack)
            and european["unit"].casefold() in unicodedata.normalize("NFKC", haystack).casefold()
        )
    quantity = _QUANTITY.fullmatch(needle)
    return (
        quantity is not None
        and Decimal(quantity["n"].replace(",", "")) in _numbers(haystack)
        and quantity["unit"].casefold() in haystack.casefold()
    )


def _clock(time: re.Match[str]) -> tuple[int, int]:
    """A time's (hour, minute) on a 24-hour clock: ``09:15`` = ``9:15``, ``2:30 pm`` = ``14:30``."""
    hour, half = int(time["h"]), (time["half"] or "").casefold()
    if half and hour <= 12:
        hour = hour % 12 + (12 if half == "p" else 0)
    return hour, int(time["m"])


def _is_one_date(text: str) -> bool:
    entities = list(date_entities(text))
    return len(entities) == 1 and len(entities[0].text) >= len(text.strip(" ,.")) - 1


# --- words --------------------------------------------------------------------------------------


def stem(word: str) -> str:
    """A crude stem: ``shipped``, ``ships``, ``shipping`` -> ``ship``; ``applied`` -> ``apply``."""
    w = word.casefold()
    for suffix, repl in (
        ("ied", "y"),
        ("ies", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: len(w) - len(suffix)] + repl
            break
    w = w.removesuffix("e") if len(w) > 3 else w
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


def content_words(text: str) -> set[str]:
    """The stems of ``text``'s words of three letters or more, stop words left out."""
    return {stem(w) for w in _WORD.findall(_norm(text)) if len(w) >= 3 and w not in _STOPWORDS}


def key_tokens(description: str) -> list[str]:
    """The key tokens of an expected commitment or open question: its amounts, dates, e-mail
    addresses and identifier-like tokens (with a digit; bare numbers of one or two digits, such
    as "5 days", left out)."""
    found: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in _MONEY.finditer(description):
        found.append(m[0])
        spans.append(m.span())
    for e in date_entities(description):
        found.append(e.text)
        spans.append((e.start, e.start + len(e.text)))
    for m in re.finditer(r"\S+", description):
        if any(a < m.end() and m.start() < b for a, b in spans):
            continue
        token = m[0].strip(_TOKEN_EDGE)
        if "@" in token or (
            any(c.isdigit() for c in token) and not (token.isdigit() and len(token) <= 2)
        ):
            found.append(token)
    return list(dict.fromkeys(found))


def described_by(description: str, text: str) -> bool:
    """Whether ``text`` (one record item) matches an expected commitment or open question: it
    mentions at least half (rounded up) of the description's key tokens or, when the description
    has none, holds at least half of its content words (remarks in parentheses, such as "(asked,
    not answered)", are notes on the expectation, not its content)."""
    keys = key_tokens(description)
    if keys:
        return sum(mentions(text, k) for k in keys) >= math.ceil(len(keys) / 2)
    words = content_words(_REMARK.sub(" ", description))
    return bool(words) and len(words & content_words(text)) >= math.ceil(len(words) / 2)


def quotes(text: str, phrase: str, run: int = 5) -> bool:
    """Whether ``text`` repeats ``phrase``: they share a run of ``run`` consecutive words (all
    of ``phrase`` when it is shorter), case and punctuation aside."""
    words = _QUOTE_TOKEN.findall(_norm(phrase))
    have = _QUOTE_TOKEN.findall(_norm(text))
    n = min(run, len(words))
    if n == 0 or len(have) < n:
        return False
    grams = {tuple(have[i : i + n]) for i in range(len(have) - n + 1)}
    return any(tuple(words[i : i + n]) in grams for i in range(len(words) - n + 1))


# --- gold actions -------------------------------------------------------------------------------


def _key_strings(value: Any, key: str) -> Iterator[str]:
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _key_strings(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _key_strings(v, key)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        if _MONEY_KEYS.is_money_key(key) and value:
            yield f"${Decimal(str(value)):.2f}"
    else:
        text = str(value).strip()
        short_id = len(text) <= 20 and len(text.split()) <= 2 and any(c.isdigit() for c in text)
        if short_id or ("@" in text and " " not in text):
            yield text


def key_values(args: Mapping[str, Any]) -> list[str]:
    """The key argument values of a call: identifiers (short strings with a digit: order, item,
    payment method ids, dates, codes), e-mail addresses, and numbers under money-ish keys (as
    amounts). Free text, flags and other numbers are not key."""
    return list(dict.fromkeys(_key_strings(args, "")))


def performed(action: Mapping[str, Any], calls: Sequence[tuple[str, Mapping[str, Any]]]) -> bool:
    """Whether the session made the gold action: a call of the same name whose arguments hold
    every key value."""
    name, keys = action.get("name"), key_values(action.get("args") or {})
    return any(
        call == name and all(mentions(json.dumps(args, default=str), k) for k in keys)
        for call, args in calls
    )


def action_label(action: Mapping[str, Any]) -> str:
    """``name(key values)``, for reports."""
    return f"{action.get('name', '?')}({', '.join(key_values(action.get('args') or {}))})"


def _names_action(name: str, text: str, has_keys: bool) -> bool:
    words = [w.lower() for w in _NAME_WORD.findall(name)]
    if not words:
        return False
    if _literal(text, name):
        return True
    if not has_keys:  # nothing else ties the item to the action: its name, as a phrase
        phrase = r"[\s_-]+".join(re.escape(stem(w)) + "[a-z]*" for w in words)
        return re.search(f"(?<![0-9a-z_]){phrase}(?![0-9a-z_])", _norm(text)) is not None
    stems = {stem(w) for w in _WORD.findall(_norm(text))}
    verb, targets = words[0], [stem(w) for w in words[1:] if w not in _ACTION_STOP]
    v = stem(verb)
    said = (
        v in stems
        or stem(_IRREGULAR.get(verb, "\0")) in stems
        or (len(v) >= 4 and any(s.startswith(v) for s in stems))
    )
    return said or (verb in READ_VERBS and any(t in stems for t in targets))


def action_recalled(action: Mapping[str, Any], texts: Sequence[str]) -> bool:
    """Whether one of ``texts`` (a record's goal and items) recalls a gold action: it names the
    action (the tool's name as written; or its verb in any inflection, ``cancel`` ~
    ``cancelled``; or, for a read-only tool such as ``get_order_details``, a word of its target)
    and mentions every key argument value (:func:`key_values`). An action without key values
    must be named as a phrase, its words in order and the verb in any inflection
    (``toggle_airplane_mode``: "toggled airplane mode")."""
    name = str(action.get("name") or "")
    keys = key_values(action.get("args") or {})
    return any(
        _names_action(name, text, bool(keys)) and all(mentions(text, k) for k in keys)
        for text in texts
    )
