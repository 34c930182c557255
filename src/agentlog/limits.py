"""The input contract: what a JSON value, a state key and an identifier may be.

Every store and route checks input against these rules before anything is written, so a value
one store accepts is accepted by all of them, and a value that is accepted always loads again.

JSON values (state values, tool-call arguments and results, confirmation payloads, ...):

- numbers are finite: no NaN, no infinity, and nothing that reads as one. ``1e999`` parses as
  an infinity; an integer above the largest finite double (about ``1.8e308``) becomes one in
  every reader that parses numbers as doubles (JavaScript, most JSON libraries);
- strings and keys are valid Unicode: no lone surrogate (``"\\ud800"``), which cannot be
  written as UTF-8;
- containers nest at most :data:`MAX_DEPTH` deep;
- a state value's compact JSON (as the stores write it) is at most :data:`MAX_VALUE_BYTES`,
  and a stored event's whole payload at most :data:`MAX_EVENT_BYTES`.

Identifiers (app name, user id, session id, event id, invocation id, author) are non-empty,
valid Unicode, hold no NUL character (PostgreSQL's ``text`` cannot) and are at most
:data:`MAX_ID_BYTES` of UTF-8. State keys follow the same rules with :data:`MAX_KEY_BYTES`.
NUL is allowed inside values and texts: they are stored as JSON, where it is ``\\u0000``.

Why these numbers: PostgreSQL refuses a B-tree index entry over about 2,700 bytes, and the
largest key the stores index is ``user_state``'s ``(app_name, user_id, key)``: two identifiers
and a state key, at most ``512 + 512 + 1,024 = 2,048`` bytes. SQLite and the in-memory store
index anything; these limits hold for them too, so the three stores answer alike.

A violation raises a subclass of :class:`~agentlog.errors.InvalidValueError` (an
``InvalidEventError``) naming where it is, before anything is written: when an event is made
(``Event(...)`` and the models in it), and again in the stores' shared code
(:mod:`agentlog.sessions._plan`) for the ids, the state and the encoded event of every create,
append and read, whatever skipped validation on the way (``model_copy``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final

from pydantic import ValidationError

from agentlog._frozen import FrozenDict, FrozenList
from agentlog.errors import (
    InvalidUnicodeError,
    InvalidValueError,
    NonFiniteNumberError,
    NulCharacterError,
    ValueTooDeepError,
    ValueTooLargeError,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_EVENT_BYTES",
    "MAX_ID_BYTES",
    "MAX_KEY_BYTES",
    "MAX_VALUE_BYTES",
    "VALUE_ENCODER",
    "check_identifier",
    "check_state",
    "check_state_key",
    "check_text",
    "check_value",
    "contract_error",
    "sendable",
    "where_key",
]

MAX_ID_BYTES: Final = 512
"""Most UTF-8 bytes of an identifier: 512 ASCII characters, at least 128 of any script."""

MAX_KEY_BYTES: Final = 1_024
"""Most UTF-8 bytes of a state key, prefix (``app:``, ``user:``) included."""

MAX_VALUE_BYTES: Final = 1_048_576
"""Most bytes of one state value's compact JSON (1 MiB)."""

MAX_EVENT_BYTES: Final = 8_388_608
"""Most bytes of one stored event's JSON payload (8 MiB). Tool results over the runner's
``max_tool_result_chars`` are stored as artifacts, so an event rarely comes near it."""

MAX_DEPTH: Final = 64
"""Most containers (objects and arrays) nested in one value: ``[[1]]`` is 2 deep."""

VALUE_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
"""The compact JSON a value is stored as, and measured by (``agentlog.sessions.codec``)."""

_MAX_INT: Final = int(sys.float_info.max)
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_SHOWN_CHARS: Final = 40


def where_key(where: str, key: object) -> str:
    """``where[key]``, the key shown ASCII-safe and cut short, so a message can always be sent."""
    if isinstance(key, str) and len(key) > _SHOWN_CHARS:
        return f"{where}[{key[:_SHOWN_CHARS]!a}...]"
    return f"{where}[{key!a}]"


def check_text(text: str, where: str) -> None:
    """Refuse a string that is not valid Unicode (a lone surrogate cannot be stored)."""
    if not text.isascii() and _SURROGATE.search(text) is not None:
        raise _unicode_error(where)


def check_identifier(value: object, where: str) -> None:
    """Refuse an identifier that is not a non-empty string of valid Unicode, without NUL, of
    at most :data:`MAX_ID_BYTES`."""
    if (
        value.__class__ is not str
        or not value
        or not value.isascii()
        or len(value) > MAX_ID_BYTES
        or "\x00" in value
    ):
        _check_name(value, where, MAX_ID_BYTES, empty_ok=False)


def check_state_key(key: object, where: str) -> None:
    """Refuse a state key that is not valid Unicode, holds NUL, or is over
    :data:`MAX_KEY_BYTES`. (Whether a key may be empty is the event contract's to say.)"""
    _check_name(key, where, MAX_KEY_BYTES, empty_ok=True)


def _check_name(value: object, where: str, max_bytes: int, *, empty_ok: bool) -> None:
    if not isinstance(value, str) or not (value or empty_ok):
        raise InvalidValueError(where, "must be a non-empty string")
    if "\x00" in value:
        raise _nul_error(where)
    check_text(value, where)
    # A character is at most 4 bytes of UTF-8: only a long string needs encoding to be measured.
    if len(value) * 4 > max_bytes and (size := len(value.encode())) > max_bytes:
        raise ValueTooLargeError(where, size, max_bytes)


def check_state(delta: Mapping[str, Any], where: str = "state") -> None:
    """Check a state delta or initial state: each key (:func:`check_state_key`) and each value
    (:func:`check_value`, up to :data:`MAX_VALUE_BYTES`). ``None`` and ``REMOVED`` delete."""
    for key, value in delta.items():
        if (
            key.__class__ is not str
            or not key.isascii()
            or len(key) > MAX_KEY_BYTES
            or "\x00" in key
        ):
            check_state_key(key, where_key(where, key))
        cls = value.__class__
        if cls is int or cls is bool or value is None:
            if cls is not int or -_MAX_INT <= value <= _MAX_INT:
                continue  # the usual small values, without a walk
        elif cls is str and value.isascii() and len(value) <= _SHORT_ASCII:
            continue
        _check_value(value, where, key, MAX_VALUE_BYTES)


_SHORT_ASCII: Final = MAX_VALUE_BYTES // 6
"""An ASCII string this long or shorter is under the value limit whatever it escapes."""


def check_value(value: object, where: str, *, max_bytes: int | None = None) -> None:
    """Check a JSON value: finite numbers, valid Unicode, at most :data:`MAX_DEPTH` deep, and
    with ``max_bytes``, a compact JSON encoding of at most that many bytes.

    Types other than JSON's are left alone, for the caller's schema to refuse; this walk never
    goes deeper than the limit, so a value nested a million deep fails here, not in a
    ``RecursionError``.
    """
    _check_value(value, where, _NO_KEY, max_bytes)


_NO_KEY: Final = object()


def _check_value(value: object, where: str, key: object, max_bytes: int | None) -> None:
    """:func:`check_value` of ``where[key]`` (of ``where`` itself for ``_NO_KEY``), the place
    spelled out only when there is something to say about it."""
    try:
        bound = _walk(value, 0)
    except _Refusal as refusal:
        place = where if key is _NO_KEY else where_key(where, key)
        for step in reversed(refusal.path[-_SHOWN_STEPS:]):
            place = f"{place}[{step}]" if isinstance(step, int) else where_key(place, step)
        if len(refusal.path) > _SHOWN_STEPS:
            place += "..."
        raise refusal.error(place) from None
    if max_bytes is not None and bound > max_bytes:
        # The walk's bound is loose (a character may take 6 bytes); measure what is stored.
        try:
            size = len(VALUE_ENCODER.encode(value).encode())
        except (TypeError, ValueError):
            return  # not JSON: the caller's schema refuses it
        if size > max_bytes:
            raise ValueTooLargeError(
                where if key is _NO_KEY else where_key(where, key), size, max_bytes
            )


_SHOWN_STEPS: Final = 8
"""A place deeper than this many steps into a value is shown cut short."""


class _Refusal(Exception):
    """A rule broken inside a value; the path to it (innermost first) is collected on the
    way out, so that nothing is spent on naming places while every value is fine."""

    def __init__(self, error: Callable[[str], InvalidValueError]) -> None:
        self.error = error
        self.path: list[object] = []


def _unicode_error(where: str) -> InvalidValueError:
    return InvalidUnicodeError(where, "holds a lone surrogate, which is not valid Unicode")


def _nul_error(where: str) -> InvalidValueError:
    return NulCharacterError(where, "holds a NUL character, which no identifier or key may")


def _too_deep(where: str) -> InvalidValueError:
    return ValueTooDeepError(where, MAX_DEPTH)


def _walk(value: object, depth: int) -> int:
    """Check ``value``; return an upper bound of its compact JSON's size in bytes."""
    # One lookup for the usual classes: this runs for every value of every event made.
    kind = _KINDS.get(value.__class__) or _kind_of(value)
    if kind is str:
        text: str = value  # type: ignore[assignment]
        if not text.isascii() and _SURROGATE.search(text) is not None:
            raise _Refusal(_unicode_error)
        return 6 * len(text) + 2
    if kind is int:
        number: int = value  # type: ignore[assignment]
        if not -_MAX_INT <= number <= _MAX_INT:
            raise _Refusal(_int_error)
        return (number.bit_length() * 1233 >> 12) + 2  # its digits: log10(2) is about 1233/4096
    if kind is float:
        real: float = value  # type: ignore[assignment]
        if real - real != 0.0:  # true of NaN and the infinities only
            raise _Refusal(lambda where: _float_error(where, real))
        return 24
    if kind is not dict and kind is not list:
        return 5  # null, true, false; or not JSON, for the caller's schema to refuse
    if depth >= MAX_DEPTH:
        raise _Refusal(_too_deep)
    container: Any = value
    size = 1 + len(container)
    items = container.items() if kind is dict else enumerate(container)
    for key, item in items:
        if key.__class__ is str:
            if not key.isascii() and _SURROGATE.search(key) is not None:
                refusal = _Refusal(_unicode_error)
                refusal.path.append(key)
                raise refusal
            size += 6 * len(key) + 3
        # Plain scalars inline, without a call: most items of most values are.
        cls = item.__class__
        if cls is str:
            if item.isascii():
                size += 6 * len(item) + 2
                continue
        elif cls is int:
            if -_MAX_INT <= item <= _MAX_INT:
                size += (item.bit_length() * 1233 >> 12) + 2
                continue
        elif cls is float:
            if item - item == 0.0:
                size += 24
                continue
        elif cls is bool or item is None:
            size += 5
            continue
        try:
            size += _walk(item, depth + 1)
        except _Refusal as refusal:
            refusal.path.append(key)
            raise
    return size


_KINDS: Final[dict[type, type]] = {
    str: str,
    int: int,
    float: float,
    bool: bool,
    type(None): bool,
    dict: dict,
    FrozenDict: dict,
    list: list,
    FrozenList: list,
    tuple: list,
}
"""What kind of JSON value an instance of each usual class is."""


def _kind_of(value: object) -> type:
    """The JSON kind of a value of a subclass (a string enum, say); ``object`` if none."""
    if isinstance(value, bool):
        return bool
    for kind in (str, int, float, dict):
        if isinstance(value, kind):
            return kind
    return list if isinstance(value, list | tuple) else object


def _int_error(where: str) -> InvalidValueError:
    return NonFiniteNumberError(
        where, "is an integer over 1.8e308, which reads as Infinity: JSON numbers are finite"
    )


def _float_error(where: str, value: float) -> InvalidValueError:
    if value != value:
        return NonFiniteNumberError(where, "is NaN: JSON numbers are finite")
    sign = "-" if value < 0 else ""
    return NonFiniteNumberError(
        where, f"is {sign}Infinity (or reads as it, as 1e999 does): JSON numbers are finite"
    )


def contract_error(exc: ValidationError) -> InvalidValueError | None:
    """The :class:`InvalidValueError` a validator raised inside ``exc``, if any: pydantic wraps
    what validators raise, and callers are owed the typed error."""
    for error in exc.errors(include_url=False, include_input=False):
        cause = error.get("ctx", {}).get("error")
        if isinstance(cause, InvalidValueError):
            return cause
        if error["type"] == "string_unicode":
            # pydantic's own check of a constrained string (a minimum length, say) came first.
            where = ".".join(str(step) for step in error["loc"]) or "value"
            return _unicode_error(sendable(where))
    return None


def sendable(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (lone surrogates) written as ``\\uXXXX``."""
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
