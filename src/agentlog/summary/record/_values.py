"""What a payload's scalar value says, whatever its key: read once per value.

A short string value states its words (:func:`read_string`); what else it is, each a rule of
English writing, never a domain's words (issue 13, the red team's round in brackets):

- a **clause** (:func:`_clause`: a phrase naming its own subject, "refund approved",
  "manager approved full refund", or of three content words not written as a name) is said
  of its field only (5);
- a comment after a short value's state (:func:`_tail`: "approved (not really)", "approved
  - just kidding") binds only an item that says it too (6);
- a value written as a name (``"city": "Bristol"``) is what a thing is called, not a state of
  it (8);
- prose (a string of :data:`_PROSE_WORDS` words or more) and an identifier (:data:`ID_SHAPE`)
  state nothing: free text is :mod:`.evidence`'s to read.

A scalar may say no (:func:`no`: ``false``, a zero in any unit, a denial), a string may hold
JSON (:func:`json_in`), and a number is read as an amount key (:func:`amount_of`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, Final, NamedTuple

from agentlog.summary.record._payload import _DENIED
from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._words import STOP_WORDS, content_words

__all__ = [
    "ID_SHAPE",
    "IRREGULAR",
    "LETTER_RUN",
    "String",
    "ZERO",
    "amount_of",
    "any_scalar",
    "bare_id",
    "denies",
    "ident_of",
    "json_in",
    "no",
    "read_string",
    "value_words",
    "worded",
]

_NONE: Final[frozenset[str]] = frozenset()

IRREGULAR: Final = frozenset(
    {"paid", "sent", "done", "given", "taken", "made", "sold", "kept", "won", "written"}
    | {"shown", "told", "granted", "ok", "okd"}
)
"""English participles that do not end in ``-ed`` (and "OK'd"), for :func:`_clause` and a
key's acts (:func:`._keys.key_info`)."""

_BREAK: Final = re.compile(r"\s[-\u2013\u2014~]+\s|[(\[,;:?!/\u2026]|\.\.|\s\.\s")
"""Where a short value's state ends and a comment on it starts ("approved (not really)",
"approved - just kidding", "approved, or so they say", "approved... not")."""
_DENIAL: Final = re.compile(rf" *(?:{_DENIED})[ .!]*", re.IGNORECASE)

_PROSE_WORDS: Final = 7
"""Words from which a string value is prose: free text, stating nothing here."""

ID_SHAPE: Final = re.compile(r"(?=[^\s]*\d)[^\s]{3,64}")
"""A string value that reads as an identifier: one token of 3 to 64 characters with a digit."""


def bare_id(value: str) -> str:
    """An identifier as two spellings of it compare: spaces around it and a leading ``#``
    dropped, case folded (``" #W1"`` is ``w1``)."""
    return value.strip().lstrip("#").casefold()


def any_scalar(node: Any, test: Callable[[Any], bool], max_depth: int, depth: int = 0) -> bool:
    """Whether ``test`` holds of a scalar of ``node`` (itself, or one inside its objects and
    lists), containers below ``max_depth`` unread."""
    if isinstance(node, dict):
        values: Iterable[Any] = node.values()
    elif isinstance(node, list | tuple):
        values = node
    else:
        return test(node)
    if depth > max_depth:
        return False
    return any(any_scalar(value, test, max_depth, depth + 1) for value in values)


def ident_of(value: str) -> str | None:
    """A string that reads as an identifier (:data:`ID_SHAPE`), case folded, no ``#``."""
    return value.lstrip("#").casefold() if ID_SHAPE.fullmatch(value) else None


ZERO: Final = re.compile(
    r" *(?:zero|none|nil|[$\u20ac\u00a3\u00a5]? *0+(?:[.,]0+)? *(?:%|[^\W\d_]{1,5})?) *",
    re.IGNORECASE,
)
"""A string saying zero, in any unit or currency (``"$0.00"``, ``"0 USD"``, ``"0%"``)."""


def no(value: Any) -> bool:
    """A scalar that says no: ``false``, ``null``, zero, ``"no"`` or a denial."""
    if value is None or value is False:
        return True
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value == 0
    if isinstance(value, str):
        return not value.strip() or ZERO.fullmatch(value) is not None or denies(value)
    return False


@lru_cache(maxsize=4096)
def denies(value: str) -> bool:
    """Whether a string says no: a denial (:data:`._payload._DENIED`) or a plain "no"."""
    return _DENIAL.fullmatch(value) is not None or value.strip().lower() in _SAYS_NO


_SAYS_NO: Final = frozenset({"no", "n", "false", "none", "null", "nil", "nope", "never", "off"})


def json_in(value: str) -> Any:
    """The object or list a string holds as JSON (``'{"refund": "denied"}'``), else ``None``."""
    text = value.strip()
    if len(text) < 2 or (text[0], text[-1]) not in (("{", "}"), ("[", "]")):
        return None
    try:
        inner = json.loads(text)
    except ValueError:
        return None
    return inner if isinstance(inner, dict | list) else None


@lru_cache(maxsize=8192, typed=True)
def amount_of(value: float) -> str | None:
    """A number value as an amount key (``money:12.50``), read once per number."""
    return amount_key(repr(value)) if value == value and abs(value) < 1e15 else None


class String(NamedTuple):
    """What a string value says, whatever its key (:func:`read_string`)."""

    words: frozenset[str]
    lower: str
    clause: bool
    tail: frozenset[str]
    state: bool
    """Whether it is short enough to be a state (:attr:`.leaves.Leaf.state`)."""
    currency: bool
    """Whether it may be a currency's code (three letters)."""
    name: bool
    """Whether it is written as a name: each word capitalised, none in capitals only
    (``"city": "Bristol"``), as a state is not (``"warranty": "expired"``)."""


@lru_cache(maxsize=16384)
def read_string(value: str) -> String | None:
    """A string value read once per value (a payload repeats a few values many times): its
    words and what they are, or ``None`` when it states no word (:func:`worded`)."""
    if not worded(value):
        return None
    words = value_words(value)
    if not words:
        return None
    lower = value.lower()
    state = len(lower.split()) <= 3 and not any(c.isdigit() for c in lower)
    return String(
        words,
        lower,
        _clause(value),
        _tail(value),
        state,
        len(value) == 3 and value.isalpha(),
        state and all(w[0].isupper() and not w.isupper() for w in LETTER_RUN.findall(value)),
    )


@lru_cache(maxsize=8192)
def _clause(value: str) -> bool:
    """Whether a phrase says something of a thing it names itself, so that it is said only of
    the field holding it: a participle after a word that is not an adverb ("refund approved",
    "manager approved full refund": a sentence, the subject before its verb), or three content
    words or more not written as a name ("manager approves full refund"; a name's words are
    capitalised: "Spring Peony Bouquet"). A state ("approved", "approved by manager",
    "ordered by mistake", "in transit", "crew neck") is what its field is, and may be said of
    what the field's object is about."""
    words = [w for w in LETTER_RUN.findall(value.lower()) if w not in STOP_WORDS]
    if len(words) < 2:
        return False
    for at, word in enumerate(words):
        participle = (word.endswith("ed") and len(word) > 4) or word in IRREGULAR
        if at and participle and any(not w.endswith("ly") for w in words[:at]):
            return True
    content = [w for w in words if len(w) > 2 and not w.endswith("ly")]  # not "W" of 65W
    if len(content) < 3:
        return False
    # A name's words start with a capital and go on in small letters (not "APPROVED").
    named = [
        w[0].isupper() and not w.isupper()
        for w in LETTER_RUN.findall(value)
        if w.lower() in content
    ]
    return not all(named)


LETTER_RUN: Final = re.compile(r"[^\W\d_]+")
"""A run of letters (no digit, no underscore): a word as written, in any script."""


@lru_cache(maxsize=8192)
def _tail(value: str) -> frozenset[str]:
    """The words of a short value that comment on its state, after a break (:data:`_BREAK`:
    "approved (not really)", "approved - just kidding", "approved, or so they say"); a plain
    state ("approved", "approved by manager", "shipped today", "in transit") has none."""
    cut = _BREAK.search(value)
    if cut is not None and cut.start() > 0:
        comment = value[cut.start() :]
        # Of grammar only ("or so they say"), its words still comment: none is an item's.
        return frozenset(content_words(comment) or LETTER_RUN.findall(comment.lower()))
    return _NONE


@lru_cache(maxsize=8192)
def worded(value: str) -> bool:
    """A string that may state words: not empty, not an identifier, not prose (free text is
    evidence's to read)."""
    return (
        bool(value)
        and len(value) <= 200
        and value.count(" ") < _PROSE_WORDS - 1
        and ID_SHAPE.fullmatch(value) is None
    )


@lru_cache(maxsize=8192)
def value_words(value: str) -> frozenset[str]:
    """A string value's content words, read once per value."""
    return frozenset(content_words(value))
