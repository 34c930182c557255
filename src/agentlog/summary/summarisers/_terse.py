"""What the extractive summariser leaves out of an item because the cited events say it and a
reader needs it less than a short record: free text without an entity, the sentences of a
prose result that hold none, an amount said twice."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from agentlog.summary.record._extract import holds, words_of
from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._sentences import sentences
from agentlog.summary.record.entities import EntityPatterns

__all__ = [
    "key_sentences",
    "named_numbers",
    "no_free_text",
    "no_twice_said_amounts",
    "with_currency",
]

_FREE_WORDS: Final = 5
"""A value of this many words and no digit is free text (a note, a case summary), not a field
(an address has a number)."""
_LONG_WORDS: Final = 12
"""A value of this many words is free text, digits or not."""


def no_free_text(
    values: Sequence[tuple[str, str]], entities: Collection[str]
) -> list[tuple[str, str]]:
    """``values`` without the free text that holds no entity the record must keep: the call
    shows it, and a record that copies a customer's words has to label them as theirs."""
    return [(k, v) for k, v in values if not _free(v) or holds(v, entities)]


def _free(value: str) -> bool:
    words = len(value.split())
    return words >= _LONG_WORDS or (words >= _FREE_WORDS and not any(c.isdigit() for c in value))


_NUMBER: Final = re.compile(r"[+-]?\d+(?:\.\d+)?")


_PAGING: Final = frozenset({"limit", "page", "offset", "size", "max", "top", "per", "cursor"})
"""Words of a key whose number only pages a listing (``limit``, ``page_size``)."""
_STAMP_DIGITS: Final = 9
"""An integer of this many digits is a timestamp or a serial, which no reader reads."""


def named_numbers(
    name: str, values: Sequence[tuple[str, str]], entities: Collection[str]
) -> list[tuple[str, str]]:
    """A lookup's arguments with each number that is no entity named by its key (``seats
    15``), a page size or a timestamp left out: shown bare ("Previewed proration sub_1 15
    1781049600") they say nothing a reader can use. A key the tool's name says already
    (``find_user_by_zip``: ``zip``) is not said again."""
    tool = set(words_of(name).split())
    out: list[tuple[str, str]] = []
    for k, v in values:
        if _NUMBER.fullmatch(v) is None or holds(v, entities):
            out.append((k, v))
            continue
        words = words_of(k).split()
        if not _PAGING.isdisjoint(words) or len(v.lstrip("+-")) >= _STAMP_DIGITS:
            continue
        out.append((k, v) if set(words) <= tool else (k, f"{' '.join(words)} {v}"))
    return out


def key_sentences(prose: str, named: Collection[str]) -> str:
    """A prose result's sentences that hold one of ``named`` (an entity, an argument's value),
    or all of it if none does: the rest ("Driver Gary is en route") is the cited result's to
    show."""
    said = sentences(prose)
    kept = [s for s in said if holds(s, named)]
    return " ".join(kept) if kept else prose


def no_twice_said_amounts(
    values: Sequence[tuple[str, str]],
    result: Sequence[tuple[str, str]],
    patterns: EntityPatterns,
) -> list[tuple[str, str]]:
    """A call's arguments without an amount its result shows again (``amount 89.0`` beside
    the result's ``amount €89.00``): the result's is what happened."""
    shown = {k for _, v in result for k in patterns.summary_keys(v) if k.startswith("money:")}
    if not shown:
        return list(values)
    return [
        (k, v)
        for k, v in values
        if not (patterns.is_money_key(k) and amount_key(v.lstrip("$£€")) in shown)
    ]


_CODE: Final = re.compile(r"[A-Za-z]{3}")


def with_currency(
    pairs: Sequence[tuple[str, str]], patterns: EntityPatterns
) -> list[tuple[str, str]]:
    """``pairs`` with a currency field (``currency EUR``) said with the amount before it
    (``amount 540.00 EUR``)."""
    out: list[tuple[str, str]] = []
    for k, v in pairs:
        words = words_of(k).split()
        if words[-1:] == ["currency"] and _CODE.fullmatch(v):
            at = next(
                (i for i in range(len(out) - 1, -1, -1) if patterns.is_money_key(out[i][0])), None
            )
            if at is not None and _NUMBER.fullmatch(out[at][1]):
                out[at] = (out[at][0], f"{out[at][1]} {v}")
                continue
        out.append((k, v))
    return out
