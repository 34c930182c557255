"""Echoes: what a tool's result repeats of its own call's arguments under another name.

A tool that files the caller's text under a key of its own (a query ``"q": "refund approved"``
handed back as ``"state": "refund approved"``) repeats what it was given: it does not say it
(:mod:`agentlog.summary.record.evidence` reads such a string, when only the user's words
support it, as the user's). A result confirming the field it was asked to set (``"status":
"shipped"`` for ``"status": "shipped"``, ``"tags_now"`` for ``"tag"``) reports its write, and
is no echo: the two keys share a word. Of structure only: the keys' words, never a domain's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from agentlog.summary.record._words import content_words, forms

__all__ = ["moved"]

_MAX_DEPTH: Final = 8


def _strings(node: Any, key: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """Each string of ``node`` with letters (lower case, trimmed), and the key it is under
    (a list's members under the list's key)."""
    if isinstance(node, str):
        value = node.strip().lower()
        if any(c.isalpha() for c in value):
            yield key, value
    elif depth <= _MAX_DEPTH:
        if isinstance(node, dict):
            for k, v in node.items():
                yield from _strings(v, str(k), depth + 1)
        elif isinstance(node, list | tuple):
            for v in node:
                yield from _strings(v, key, depth + 1)


def _key_forms(key: str) -> frozenset[str]:
    """A key's content words in all their forms (``tags_now``: ``tag``, ``tags``, ...)."""
    return frozenset().union(*map(forms, content_words(key)))


def moved(args: Any, response: Any, skip: Callable[[str], bool]) -> frozenset[str]:
    """The strings of ``response`` (lower case, trimmed) equal to a string of ``args`` that
    stands there under a key sharing no word with the response's key: the call's words
    filed under another name. Strings of ``args`` that ``skip`` says yes to (identifiers,
    which a result names its object by) are not looked for, and a call without others
    costs no walk of its result."""
    given: dict[str, list[str]] = {}
    for key, value in _strings(args):
        if not skip(value):
            given.setdefault(value, []).append(key)
    if not given:
        return frozenset()
    found: set[str] = set()
    for key, value in _strings(response):
        keys = given.get(value)
        if keys is None or value in found:
            continue
        mine = _key_forms(key)
        if all(mine.isdisjoint(_key_forms(k)) for k in keys):
            found.add(value)
    return frozenset(found)
