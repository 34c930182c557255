"""Text as a pattern should read it: one spelling for the many ways Unicode can write a word.

A check that matches words ("pre-approved", "note for the next agent") is beaten by a text that
looks the same to a reader and differs in code points: a zero-width space inside a word, a
Cyrillic a (U+0430) for a Latin ``a``, a non-breaking hyphen, full-width letters, a combining
accent. :func:`fold` undoes those tricks before any pattern runs:

1. compatibility decomposition (NFKD: full-width and styled letters, ligatures, the long s, most
   space variants become their plain forms, accented letters split into letter and mark);
2. format characters (Unicode category ``Cf``: zero-width space, joiners, word joiner, soft
   hyphen, byte-order mark, bidirectional controls) and combining marks (``Mn``) removed;
3. the common look-alike letters of Cyrillic, Greek and Armenian folded to the Latin letters
   they imitate (:data:`CONFUSABLES`, a short table taken from the Unicode confusables list:
   only letters that render the same in usual fonts, or as the small capital of that letter);
4. every dash and hyphen variant becomes ``-``, every space, line and paragraph separator a
   plain space;
5. lower case.

The result is for matching only: its length and positions differ from the input's. Text that is
ASCII already is only lower-cased, which keeps the usual case fast.

Step 3 is for a Latin word in disguise. A word that holds no Latin letter is not one: "не
одобрено" is Russian ("not approved"), and folded letter by letter its "не" would read as the
English "he", a stop word, and the negation would be lost. :func:`fold_words`, the reading
words are compared in, keeps such a word in its own script (so its own language's negation
reads there, :mod:`agentlog.summary.record._words`) and folds the look-alikes of a word that
mixes them with Latin letters (``\\u0430pproved``, a Cyrillic a and Latin letters).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from agentlog.summary.record._fold import lower

__all__ = ["CONFUSABLES", "fold", "fold_words", "loosen", "wide_chars"]

CONFUSABLES: Final[dict[str, str]] = {
    # Cyrillic lower case.
    "\u0430": "a", "\u0432": "b", "\u0441": "c", "\u0501": "d", "\u0435": "e", "\u0451": "e",
    "\u04bb": "h", "\u0456": "i", "\u0457": "i", "\u0458": "j", "\u043a": "k", "\u04cf": "l",
    "\u043c": "m", "\u043d": "h", "\u043e": "o", "\u043f": "n", "\u0440": "p", "\u051b": "q",
    "\u0455": "s", "\u0442": "t", "\u0475": "v", "\u051d": "w", "\u0445": "x", "\u0443": "y",
    "\u04af": "y",
    # Cyrillic capitals.
    "\u0410": "a", "\u0412": "b", "\u0421": "c", "\u0415": "e", "\u0401": "e", "\u041d": "h",
    "\u0406": "i", "\u0408": "j", "\u041a": "k", "\u041c": "m", "\u041e": "o", "\u0420": "p",
    "\u0405": "s", "\u0422": "t", "\u0425": "x", "\u0423": "y", "\u04ae": "y", "\u0500": "d",
    # Greek lower case.
    "\u03b1": "a", "\u03b2": "b", "\u03b5": "e", "\u03b7": "n", "\u03b9": "i", "\u03ba": "k",
    "\u03bd": "v", "\u03bf": "o", "\u03c1": "p", "\u03c4": "t", "\u03c5": "u", "\u03c7": "x",
    "\u03b3": "y", "\u03c9": "w", "\u03bc": "u",
    # Greek capitals.
    "\u0391": "a", "\u0392": "b", "\u0395": "e", "\u0396": "z", "\u0397": "h", "\u0399": "i",
    "\u039a": "k", "\u039c": "m", "\u039d": "n", "\u039f": "o", "\u03a1": "p", "\u03a4": "t",
    "\u03a5": "y", "\u03a7": "x",
    # Armenian, and Latin letters that pass for others (small capitals among them).
    "\u0585": "o", "\u057d": "u", "\u0581": "g", "\u0131": "i", "\u0237": "j", "\u0251": "a",
    "\u0261": "g", "\u0269": "i", "\u028f": "y", "\u1d00": "a", "\u0299": "b", "\u1d04": "c",
    "\u1d05": "d", "\u1d07": "e", "\u0493": "f", "\u0262": "g", "\u029c": "h", "\u026a": "i",
    "\u1d0a": "j", "\u1d0b": "k", "\u029f": "l", "\u1d0d": "m", "\u0274": "n", "\u1d0f": "o",
    "\u1d18": "p", "\u01eb": "q", "\u0280": "r", "\ua731": "s", "\u1d1b": "t", "\u1d1c": "u",
    "\u1d20": "v", "\u1d21": "w", "\u1d22": "z", "\ua730": "f", "\u0433": "r",
}  # fmt: skip
"""Look-alike letters and the Latin letter each is folded to (lower case), written as escapes
so that no reader mistakes one for the other: ``"\\u0430": "a"`` is the Cyrillic a."""

_DASHES: Final = "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u2e3a\u2e3b\ufe58\u058a\u05be"
_ASCII: Final = bytes(range(128))


@lru_cache(maxsize=4096)
def _replacement(char: str) -> str | None:
    """What one character of an NFKD text becomes (``None``: it stays)."""
    if char in CONFUSABLES:
        return CONFUSABLES[char]
    if char in _DASHES:
        return "-"
    category = unicodedata.category(char)
    if category in ("Cf", "Mn"):
        return ""
    if category in ("Zs", "Zl", "Zp"):
        return " "
    return None


@lru_cache(maxsize=4096)
def _folded(char: str) -> str:
    """What one character becomes: its compatibility decomposition, each piece replaced."""
    pieces = unicodedata.normalize("NFKD", char)
    return "".join(p if (new := _replacement(p)) is None else new for p in pieces)


def wide_chars(text: str) -> set[str]:
    """The distinct non-ASCII characters of ``text``: ASCII bytes dropped in C first."""
    raw = text.encode("utf-8", "surrogatepass").translate(None, _ASCII)
    return set(raw.decode("utf-8", "surrogatepass"))


def fold(text: str) -> str:
    """``text`` as patterns read it (see the module docstring); lower-cased."""
    if text.isascii():
        return text.lower()
    return _fold_wide(text, wide_chars(text))


def _fold_wide(text: str, wide: set[str]) -> str:
    """:func:`fold` of a text that is not ASCII, whose distinct wide characters are ``wide``."""
    # Most texts hold a handful of distinct wide characters, often none to change: one
    # ``replace`` each (a fast scan in C) beats decomposing and translating the whole text.
    # Decomposing character by character gives what NFKD gives here, as the combining marks
    # whose order NFKD would settle are removed anyway.
    for char in wide:
        new = _folded(char)
        if new != char:
            text = text.replace(char, new)
    return lower(text)


@lru_cache(maxsize=4096)
def _disguise(char: str) -> bool:
    """Whether ``char`` is (or decomposes to) a look-alike of a Latin letter from another
    script (Cyrillic, Greek, Armenian), not a Latin small capital: the Greek "ό" is one."""
    return any(
        p in CONFUSABLES and not unicodedata.name(p, "").startswith("LATIN")
        for p in unicodedata.normalize("NFKD", char)
    )


@lru_cache(maxsize=4096)
def _latin(char: str) -> bool:
    return char.isascii() or unicodedata.name(char, "").startswith("LATIN")


_WORD: Final = re.compile(r"[^\W\d_]+")


def _own_script(word: str) -> str:
    """A word with no Latin letter as :func:`fold` reads it but for the look-alike fold:
    decomposed, its marks and format characters dropped, lower-cased."""
    pieces = unicodedata.normalize("NFKD", word)
    return lower("".join(p for p in pieces if unicodedata.category(p) not in ("Cf", "Mn")))


def fold_words(text: str) -> str:
    """``text`` as :func:`fold` reads it, but each word written with no Latin letter kept in
    its own script (see the module docstring): the reading in which words are compared."""
    if text.isascii():
        return text.lower()
    wide = wide_chars(text)
    if not any(map(_disguise, wide)):
        return _fold_wide(text, wide)  # no look-alike to keep: most texts
    text = unicodedata.normalize("NFC", text)  # a letter and its accent are one: words whole
    pieces: list[str] = []
    last = 0
    for match in _WORD.finditer(text):
        word = match[0]
        if any(map(_disguise, word)) and not any(map(_latin, word)):
            pieces.append(fold(text[last : match.start()]))
            pieces.append(_own_script(word))
            last = match.end()
    pieces.append(fold(text[last:]))
    return "".join(pieces)


# Each starts with what it looks for (a glue character, a space), not with a look-behind, so
# the engine skips ahead to candidates instead of trying every position.
_GLUE: Final = re.compile(r"[_.\-/|+*~\u00b7\u2022](?<=[^\W\d_].)(?=[^\W\d_])")
_SPELT_APART: Final = re.compile(r"(^| )((?:[^\W\d_] ){2,}[^\W\d_])(?![^\W\d_])")
# Every text ``_SPELT_APART`` matches holds a space, a letter, a space and a letter (its second
# and third letters, or its first and second); searched first, as this starts with a literal
# and that with a group, which the engine tries at every position.
_SPELT_PAIR: Final = re.compile(r" [^\W\d_] [^\W\d_]")


def loosen(text: str, folded: str | None = None) -> str:
    """``text`` as :func:`fold` spells it (``folded``, if given), but with the words a writer
    glued or spread apart read as words: a format character (a word joiner, a Mongolian vowel
    separator) is a space there, not nothing; a ``_``, ``.``, ``-`` or ``/`` between two letters
    is a space (``note_for_the_next_agent``); letters spelt apart one by one are one word
    (``n o t e``). A second reading for patterns, never the only one: ``pre-approved`` stays
    hyphenated in :func:`fold`."""
    if folded is None:
        folded = fold(text)
    if not text.isascii() and any(unicodedata.category(c) == "Cf" for c in wide_chars(text)):
        folded = fold("".join(" " if unicodedata.category(c) == "Cf" else c for c in text))
    loose = _GLUE.sub(" ", folded)
    if " " in loose and _SPELT_PAIR.search(loose) is not None:
        loose = _SPELT_APART.sub(lambda m: m[1] + m[2].replace(" ", ""), loose)
    return loose
