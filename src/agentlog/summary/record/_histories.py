"""Histories: a key holding what happened to things, one entry after another, and whose it is.

A result about order A-1001 may hold its customer's record, and in it the customer's history
of refunds: ``{"customer": {"refund_history": {"last": "approved"}}}``. The refund it says was
approved is the customer's last one, of any order: "Refund approved for A-1001" naming the
``refund`` of that key launders it (issue 13, round 8's open shape; round 11 in four domains:
``"owner": {"unlock_history": ...}``, ``"holder": {"fee_waiver_history": ...}``,
``"household": {"vip_history": ...}``). A history is its owner's: the object holding the
history's key, or the top object (what the tool was asked about) for a key at the top
(``"refund_history": [...]`` of the order looked up), under a key the item or the tool's name
names (``"refund": {"history": [...]}``: the refund's; ``"order"`` of ``lookup_order``), or in
an object holding one of the item's identifiers. Of English keys and JSON structure only.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from typing import Any, Final

from agentlog.summary.record._values import any_scalar, bare_id

__all__ = ["HISTORIES", "nested_history_words", "of_another_history"]

HISTORIES: Final = frozenset(
    {"history", "histories", "log", "logs", "timeline", "ledger", "trail", "audit"}
)
"""Words of a key saying it holds what happened, one entry after another: a history."""
_NO_OWNER: Final = frozenset(
    {"data", "details", "detail", "info", "information", "record", "records", "result"}
    | {"results", "response", "body", "payload", "item", "items", "entry", "entries"}
)
"""Words of a key holding a history that name no owner of it: a wrapper (``data``,
``details``, ``result``): the history is the object's above it."""
_MAX_DEPTH: Final = 8

_RUN: Final = re.compile(r"[a-z]+")
_CAMEL: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")


@lru_cache(maxsize=4096)
def _runs(key: str) -> frozenset[str]:
    """A key's letter runs in lower case, camel case split (``refundHistory``)."""
    return frozenset(_RUN.findall(_CAMEL.sub(" ", key).lower()))


def of_another_history(
    source: Any,
    alternatives: Collection[str],
    named: Collection[str],
    ids: Collection[str],
) -> bool:
    """Whether every key of ``source`` (a tool's payload) holding one of ``alternatives`` (an
    item's word in its forms) is a history's key (:data:`HISTORIES`) in an object under a key
    neither the item nor the tool's name says (``named``: their words in their forms), holding
    none of the item's identifiers (``ids``, case folded), while the item says no word of a
    history itself ("history", "log"): the word is of another thing's history."""
    if not HISTORIES.isdisjoint(named):
        return False
    found: list[bool] = []
    _find(source, None, frozenset(alternatives), frozenset(named), frozenset(ids), found, 0, False)
    return bool(found) and all(found)


def nested_history_words(source: Any) -> frozenset[str]:
    """The letter runs of every key of ``source`` that is a history's key below its top, or a
    key inside such a history: the only keys :func:`of_another_history` may find another's.
    An item word none of them holds is said of no other thing's history (read once per
    payload, before the walk per word)."""
    found: set[str] = set()
    _collect(source, 0, False, found)
    return frozenset(found)


def _collect(node: Any, depth: int, inside: bool, found: set[str]) -> None:
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            runs = _runs(str(key))
            history = inside or (depth > 0 and not runs.isdisjoint(HISTORIES))
            if history:
                found.update(runs)
            if isinstance(value, dict | list | tuple):
                _collect(value, depth + 1, history, found)
    elif isinstance(node, list | tuple):
        for value in node:
            _collect(value, depth + 1, inside, found)


def _find(
    node: Any,
    owner: frozenset[str] | None,
    words: frozenset[str],
    named: frozenset[str],
    ids: frozenset[str],
    found: list[bool],
    depth: int,
    inside: bool,
) -> None:
    """Append to ``found``, for each key of ``node`` holding one of ``words``, whether it is
    a history's key, or a key inside one (``inside``), whose owner (``owner``: the runs of
    the key over the history; ``None`` for the top object, or an owner the item names) is
    another than the item's thing."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            runs = _runs(str(key))
            history = inside or not runs.isdisjoint(HISTORIES)
            held = owner
            if history and not inside and held is not None and _holds(value, ids, depth):
                held = None  # an entry names the item's identifier: the item's history
            if not runs.isdisjoint(words):
                found.append(held is not None and history)
            if isinstance(value, dict | list | tuple):
                inner = held if history else _owner_of(str(key), runs, owner, named)
                if inner is not None and isinstance(value, dict) and _names(value, ids):
                    inner = None  # "order": {"order_id": "A-1001", ...}: the item's thing
                _find(value, inner, words, named, ids, found, depth + 1, history)
    elif isinstance(node, list | tuple):
        for value in node:
            _find(value, owner, words, named, ids, found, depth + 1, inside)


def _holds(node: Any, ids: frozenset[str], depth: int) -> bool:
    """Whether a value holds one of the item's identifiers as a string anywhere inside."""
    return any_scalar(
        node, lambda value: isinstance(value, str) and bare_id(value) in ids, _MAX_DEPTH, depth
    )


def _names(node: dict[Any, Any], ids: frozenset[str]) -> bool:
    """Whether an object holds one of the item's identifiers as a value of its own."""
    return any(isinstance(v, str) and bare_id(v) in ids for v in node.values())


def _owner_of(
    key: str, runs: frozenset[str], owner: frozenset[str] | None, named: frozenset[str]
) -> frozenset[str] | None:
    """The owner of what a key (``runs``: its letter runs) holds: a history's or a wrapper's
    is the owner above it; any other key's is the thing its head noun (its last word:
    ``holder`` of ``account_holder``) names, the item's own (``None``) when the item or the
    tool names that noun."""
    if runs <= _NO_OWNER or not runs.isdisjoint(HISTORIES):
        return owner
    head = _RUN.findall(_CAMEL.sub(" ", key).lower())[-1:]
    if not head or head[0] in named:
        return None
    return runs
