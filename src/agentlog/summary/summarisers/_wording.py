"""How the extractive summariser words a call: its arguments as ``(key, value)`` pairs, the
values they show, and the sentence of an action on an object (``Cancelled order #W1: reason
no longer needed``)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, Final

from agentlog.summary.record._extract import clip, fields_text, payload_text, scalar
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.learned import is_id_key

__all__ = ["act", "arguments", "each", "said_in"]

_ARG_CHARS: Final = 60
"""An argument's free text is cut to about this many characters (the call shows it all)."""


def arguments(
    args: Any, entities: Collection[str], limit: int, patterns: EntityPatterns, *, cut: bool = True
) -> list[tuple[str, str]]:
    """A call's arguments as ``(key, value)`` (nested ones as their telling leaves, free text
    cut short unless not ``cut``); ``limit`` is an item's."""
    if not isinstance(args, dict):
        return [("", payload_text(args, limit // 2, entities))] if args else []
    parts: list[tuple[str, str]] = []
    for key, value in args.items():
        shown = scalar(value)
        if shown is None and value not in (None, "", False):
            shown = payload_text(value, limit // 3, entities, patterns)
        if shown and shown != "True":
            parts.append((str(key), clip(shown, _ARG_CHARS) if cut else shown))
    return parts


def said_in(args: Any) -> set[str]:
    """The values a call's arguments show."""
    if not isinstance(args, dict):
        return set()
    return {v for v in map(scalar, args.values()) if v}


def act(
    action: str,
    values: list[tuple[str, str]],
    result: Sequence[tuple[str, str]] = (),
    target: tuple[str, str] | None = None,
) -> str:
    """``<action> <object id>: <other arguments, what the result says>`` (the object:
    ``target``, or the first argument under an identifier's key)."""
    if target is None:
        target = next(((k, v) for k, v in values if is_id_key(k)), None)
    rest = [kv for kv in values if kv != target]
    head = f"{action} {target[1]}" if target else action
    changes = fields_text([*rest, *result])
    return head + (f": {changes}" if changes else "")


def each(values: Iterable[str]) -> set[str]:
    """Shown values, and each of a joined list's (``IPX4, IPX7``): each is said."""
    return {part for v in values for part in (v, *v.split(", "))}
