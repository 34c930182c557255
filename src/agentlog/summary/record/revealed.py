"""Text hidden from a reader but not from a model, made plain for the instruction check.

:func:`.unicode_fold.fold` gives one spelling to what *looks* the same; this module undoes what
*reads* as something else to a model while a person, or a pattern, sees nothing or noise:

- **tag characters** (U+E0020-U+E007E) spell ASCII invisibly ("ASCII smuggling"): each
  becomes the character it stands for;
- **HTML character references** (``&#112;``, ``&#x69;``, ``&nbsp;``) are unescaped;
- a **base64** run (16 characters or more) that decodes to printable text is replaced by it;
- **Hangul fillers** (U+115F, U+1160, U+3164, U+FFA0) and the Braille blank (U+2800), letters
  by category that show as nothing, are removed;
- a **hyphen inside a word** (``ig-nore``) is removed.

:func:`revealed` is a second reading for patterns, never the text shown or stored.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
from typing import Final

from agentlog.summary.record.unicode_fold import wide_chars

__all__ = ["revealed"]

_TAGS: Final = {cp: cp - 0xE0000 for cp in range(0xE0020, 0xE007F)}
_BLANKS: Final = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800"))
_HIDING: Final = frozenset(map(chr, [*_TAGS, *_BLANKS]))
"""The characters :data:`_TAGS` and :data:`_BLANKS` change: a text holding none is not
translated (a translation by table reads every character of a long text in Python's loop)."""
_ENTITY: Final = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_BASE64: Final = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
_IN_WORD_HYPHEN: Final = re.compile(r"-(?<=[^\W\d_]-)(?=[^\W\d_])")  # "-" first: a fast scan


def _decoded(match: re.Match[str]) -> str:
    token = match[0]
    try:
        plain = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return token
    return f" {plain} " if plain.isprintable() and any(c.isalpha() for c in plain) else token


def revealed(text: str) -> str | None:
    """The lines of ``text`` that hide something, with it made plain (see the module
    docstring), or ``None`` when none does: only those are read again, as a long transcript
    holds many an ordinary hyphenated word."""
    shown = text
    if not text.isascii() and not _HIDING.isdisjoint(wide_chars(text)):
        shown = shown.translate(_TAGS).translate(_BLANKS)
    if "&" in shown and ";" in shown:
        shown = _ENTITY.sub(lambda m: html.unescape(m[0]), shown)
    shown = _BASE64.sub(_decoded, shown)
    if "-" in shown:
        shown = _IN_WORD_HYPHEN.sub("", shown)
    if shown == text:
        return None
    if "\n" not in text:
        return shown
    before = set(text.split("\n"))
    return "\n".join(line for line in shown.split("\n") if line not in before)
