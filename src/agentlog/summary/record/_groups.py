"""Groups of records in a tool payload: a list of objects (orders, decisions), or an object
whose keys list values (``{"approved": ["R-1"], "denied": ["R-2"]}``), each read as its records'
rendered text, and a payload with only some records of each group kept."""

from __future__ import annotations

from typing import Any, Final

from agentlog.transcript import render_payload

__all__ = ["about", "may_group", "record_lists", "two_lists"]

_CONTAINERS: Final = (dict, list, tuple)


def may_group(text: str) -> bool:
    """Whether a rendered payload may hold a group of records (:func:`record_lists`): a list
    of objects, or two lists of strings (numbers are amounts, not records of a group)."""
    return "[{" in text or two_lists(text)


def two_lists(text: str) -> bool:
    """Whether a rendered payload holds two lists of strings (a map of lists may be a group)."""
    first = text.find('": ["')
    return first >= 0 and text.find('": ["', first + 1) >= 0


def scalars(value: Any) -> bool:
    """Whether ``value`` is a list of scalars, none empty (``["R-1", "R-3"]``)."""
    # The first value tells: a list mixes scalars and objects rarely, and never in a group.
    return (
        isinstance(value, list | tuple) and bool(value) and isinstance(value[0], str | int | float)
    )


def record_lists(value: Any, maps: bool = True) -> dict[int, list[str]]:
    """Each group of two records or more in ``value``, at any depth, by its ``id``, as its
    records' rendered text in lower case: a list of objects (orders, decisions), or an object
    whose keys list values (``{"approved": ["R-1"], "denied": ["R-2"]}``: each key and its
    list is a record)."""
    found: dict[int, list[str]] = {}
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            listed = [(k, v) for k, v in node.items() if scalars(v)] if maps else []
            if len(listed) >= 2:
                found[id(node)] = [
                    render_payload({k: v}, 1 << 40, 1 << 40).lower()[1:-1] for k, v in listed
                ]
            stack.extend(v for v in node.values() if isinstance(v, _CONTAINERS))
        elif isinstance(node, list | tuple):
            records = [v for v in node if isinstance(v, dict)]
            if len(records) >= 2:
                found[id(node)] = _record_texts(node, records)
            stack.extend(v for v in node if isinstance(v, _CONTAINERS))
    return found


def _record_texts(node: list[Any] | tuple[Any, ...], records: list[Any]) -> list[str]:
    """The rendered text, in lower case, of each of ``records`` (the objects of ``node``): one
    encoding of the list cut between its objects when that gives one piece each (no object
    nests another list of objects), else one encoding per object."""
    if len(records) == len(node):
        pieces = render_payload(node, 1 << 40, 1 << 40).lower()[1:-1].split("}, {")
        if len(pieces) == len(records):
            return pieces
    return [render_payload(v, 1 << 40, 1 << 40).lower() for v in records]


def about(value: Any, drop: dict[int, list[bool]]) -> Any:
    """``value`` (a container) with, in each list of records that ``drop`` names by its
    ``id``, only the records it marks as holding the item's identifiers."""
    held = drop.get(id(value))
    if isinstance(value, dict):
        if held is not None:  # one mark per key that lists values, in order
            marks = iter(held)
            value = {k: v for k, v in value.items() if not scalars(v) or next(marks)}
        return {k: about(v, drop) if isinstance(v, _CONTAINERS) else v for k, v in value.items()}
    if held is not None:
        marks = iter(held)  # one mark per object of the list, in order
        value = [v for v in value if not isinstance(v, dict) or next(marks)]
    return [about(v, drop) if isinstance(v, _CONTAINERS) else v for v in value]
