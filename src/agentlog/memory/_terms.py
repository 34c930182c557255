"""Search terms: how entry text and queries are cut into words, the same way for every backend.

The library normalises text itself (accents dropped, case folded, split into runs of letters and
digits) and hands the databases only these words, space-separated. SQLite's and PostgreSQL's
own tokenisers would otherwise disagree on text such as ``A-1001`` or ``$12.50``, and the
backends would find different entries for the same query. An identifier joined by ``-``, ``.``,
``/`` or ``:`` also yields its parts glued together (``A-1001`` gives ``a``, ``1001`` and
``a1001``), so a search for the whole identifier ranks it above entries sharing one part.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Collection, Sequence
from typing import Final

__all__ = ["MAX_QUERY_TERMS", "index_terms", "overlap_scores", "query_terms"]

MAX_QUERY_TERMS: Final = 32
"""Words of a query beyond this many are ignored, which bounds the SQL a search sends."""

_MAX_TERM: Final = 100
_WORD: Final = re.compile(r"[^\W_]+")
_COMPOUND: Final = re.compile(r"[^\W_]+(?:[-./:][^\W_]+)+")


def _normalise(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").casefold()


def _terms(text: str) -> list[str]:
    text = _normalise(text)
    words = _WORD.findall(text)
    words += ("".join(_WORD.findall(m)) for m in _COMPOUND.findall(text))
    return [w for w in words if len(w) <= _MAX_TERM]


def index_terms(text: str) -> str:
    """The words of ``text`` (repeats kept), space-separated, with a space at each end."""
    return " " + " ".join(_terms(text)) + " "


def query_terms(query: str) -> list[str]:
    """The distinct words of ``query``, in order, at most ``MAX_QUERY_TERMS``."""
    return list(dict.fromkeys(_terms(query)))[:MAX_QUERY_TERMS]


def overlap_scores(
    terms: Sequence[str], candidates: Sequence[Collection[str]], total: int
) -> list[float]:
    """Score each candidate by the summed inverse document frequency of the query words it has.

    ``candidates`` must include every searched entry that has any of ``terms``, so document
    frequencies can be counted from it; ``total`` is how many entries were searched.
    """
    idf: dict[str, float] = {}
    for term in terms:
        df = sum(term in words for words in candidates)
        if df:
            idf[term] = math.log(1 + (total - df + 0.5) / (df + 0.5))
    return [sum(idf.get(term, 0.0) for term in terms if term in words) for words in candidates]
