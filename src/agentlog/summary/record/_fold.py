"""Lower-casing and case folding, fast for text that is ASCII but for a few characters.

CPython lower-cases an ASCII-only string in a tight loop, but looks every character of any
wider string up in the Unicode tables, several times slower. A record is mostly ASCII made
wide by a few curly quotes, dashes and ``…`` marks, none of which has a case. So the text is
lower-cased as UTF-8, where ``bytes.lower`` changes ASCII letters only, whenever no other
character of it changes case; otherwise the usual way. Surrogates pass through, as everywhere
the summary code encodes text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["casefold_utf8", "lower"]

_ASCII: Final = bytes(range(128))


def _caseless(raw: bytes, change: Callable[[str], str]) -> bool:
    # Both mappings are per character, but for a final sigma, which a capital sigma never
    # maps to itself; so when every non-ASCII character is unchanged alone, it is in place.
    wide = raw.translate(None, _ASCII).decode("utf-8", "surrogatepass")
    return change(wide) == wide


def lower(text: str) -> str:
    """``text.lower()``."""
    if text.isascii():
        return text.lower()
    raw = text.encode("utf-8", "surrogatepass")
    if not _caseless(raw, str.lower):
        return text.lower()
    return raw.lower().decode("utf-8", "surrogatepass")


def casefold_utf8(text: str, raw: bytes | None = None) -> bytes:
    """``text.casefold()`` as UTF-8 (``raw`` is ``text`` as UTF-8, if encoded already)."""
    if raw is None:
        raw = text.encode("utf-8", "surrogatepass")
    if text.isascii() or _caseless(raw, str.casefold):
        return raw.lower()  # ASCII letters fold to their lower case
    return text.casefold().encode("utf-8", "surrogatepass")
