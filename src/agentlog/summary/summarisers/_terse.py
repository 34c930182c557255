"""What the extractive summariser leaves out of an item because the cited events say it and a
reader needs it less than a short record: free text without an entity, the sentences of a
prose result that hold none, the words of a write's prose result that only say the call again,
an amount said twice."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from agentlog.summary.record._extract import holds, words_of
from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._sentences import sentences
from agentlog.summary.record._words import STOP_WORDS, forms
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.learned import is_id_key
from agentlog.summary.summarisers._pending import upper_first, whole_in

__all__ = [
    "key_sentences",
    "not_said_again",
    "says_no_more",
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
    values: Sequence[tuple[str, str]],
    entities: Collection[str],
    shown: str = "",
    whole: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """``values`` without the free text that holds no entity the record must keep, or only
    ones the items so far (``shown``) say already (an agent's note to the next team that
    repeats what was found): the call shows it, and a record that copies a customer's words
    has to label them as theirs. ``whole``: each value before it was cut short, which says
    whether it is free text (a note cut to a few words may look like a field)."""
    new = [e for e in entities if not whole_in(shown, e)] if shown else entities
    return [
        (k, v)
        for (k, v), w in zip(values, whole or [v for _, v in values], strict=True)
        if not _free(w) or holds(v, new)
    ]


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


_GLUE: Final = frozenset(
    {"a", "an", "the", "to", "for", "of", "in", "at", "by", "with", "from", "and", "is", "are"}
    | {"was", "were", "has", "have", "been", "be", "successfully", "successful", "success"}
)
"""Words that join a sentence's parts, or say only that it worked (which a decision says): no
"on", "off", "no" or "not", which are what a result may answer."""
_LINK: Final = re.compile(
    r"^(?:(?:is|are|was|were|has been|have been) )?(?:(?:now|currently|still) )?"
    r"(?:(?:set|changed|updated|switched|turned) )?(?:to: ?|to (?![a-z]))?:? ?"
)
"""What joins a subject to what it now is ("is now", "set to:", "is turned", ":"); "to" only
before a colon or a value, not before a phrase ("to the billing team")."""
_TOKEN_EDGES: Final = "\"'.,;:!?()[]…"
_STEM: Final = 6
"""Words sharing this many first letters are one word's forms ("preferred", "preference")."""


def not_said_again(
    prose: str,
    name: str,
    did: str,
    values: Sequence[tuple[str, str]],
    *,
    echoes: bool = True,
) -> str:
    """A prose result without what only says the call again: with ``echoes`` (a write's), a
    sentence whose every word is the call's own (its tool name's words, ``did`` (the action's
    past: "sent"), its arguments' keys and values) or glue ("Payment request sent to the
    customer for bill B-1" for ``send_payment_request(customer_id, bill_id="B-1")``); and a
    sentence's opening subject of the tool name's words before a link ("Airplane Mode is now
    OFF." for ``toggle_airplane_mode``: "OFF"). The item says the action and its arguments and
    cites the result; what is left is what the result adds."""
    named = {*words_of(name).split(), did.casefold()}
    own = set(named)
    shown: set[str] = set()
    for k, v in values:
        own.update(words_of(k).split())
        shown.update(t.casefold() for t in _tokens(v))
        shown.add(v.casefold())
    # A value the decision would show but for this prose (no identifier: those lead it) is
    # better said by the result, which establishes it, than by the call, which only asked.
    values_said = [v for k, v in values if not is_id_key(k)]
    kept: list[str] = []
    for sentence in sentences(prose):
        tokens = _tokens(sentence)
        if (
            echoes
            and not any(v in sentence for v in values_said)
            and all(
                t.casefold() in shown or t.casefold() in _GLUE or _one_of(t, own) for t in tokens
            )
        ):
            continue
        subject = 0
        while subject < len(tokens) and _one_of(tokens[subject], named):
            subject += 1
        if subject:
            rest = _after_words(sentence, subject)
            link = _LINK.match(rest)
            if link is not None and link.end() and rest[link.end() :].strip(" ."):
                sentence = rest[link.end() :]
                if " " not in sentence.strip():
                    sentence = sentence.rstrip(".")  # a value alone, as a field shows it
                elif sentence.split(None, 1)[0].isalpha():  # a word, not a value as written
                    sentence = upper_first(sentence)
        kept.append(sentence)
    return " ".join(kept)


def _tokens(text: str) -> list[str]:
    """``text``'s words, punctuation around them and hyphens inside a word left out
    ("re-seated", "Wi-Fi" are "reseated", "WiFi")."""
    out = []
    for raw in text.split():
        token = raw.strip(_TOKEN_EDGES)
        if token.replace("-", "").isalpha():
            token = token.replace("-", "")
        if token:
            out.append(token)
    return out


def _after_words(text: str, n: int) -> str:
    """``text`` after its first ``n`` words and the punctuation that ends the last."""
    parts = text.split(None, n)
    rest = parts[n] if len(parts) > n else ""
    cut = parts[n - 1] if len(parts) >= n else ""
    return (": " + rest if cut.endswith(":") else rest).lstrip(" ")


def _one_of(token: str, words: Collection[str]) -> bool:
    """Whether a (letters only) ``token`` is one of ``words`` in some form."""
    if not token.isalpha():
        return False
    word = token.casefold()
    if word in words:
        return True
    found = forms(word)
    return any(
        w in found
        or not forms(w).isdisjoint(found)
        or (len(w) >= _STEM and w[:_STEM] == word[:_STEM])
        for w in words
    )


_SAYS_MORE: Final = 3
"""An answer of fewer words than this ("OFF") may be any tool's: it is never taken as another's."""


def says_no_more(answer: str, other: str) -> bool:
    """Whether ``answer`` says nothing ``other`` does not: each of its words (grammar left
    out) is one of ``other``'s in some form, each value (a number, a code) one of its values
    as written; and it has at least :data:`_SAYS_MORE` of them."""
    mine = [t for t in _tokens(answer) if t.casefold() not in STOP_WORDS]
    if len(mine) < _SAYS_MORE:
        return False
    theirs = _tokens(other)
    words = {t.casefold() for t in theirs if t.isalpha()}
    values = {t.casefold() for t in theirs if not t.isalpha()}
    return all(_one_of(t, words) if t.isalpha() else t.casefold() in values for t in mine)
