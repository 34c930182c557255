"""The mapper between events and stored rows: JSON payloads with a format version.

A payload is the event's JSON; its format version is stored beside it. Reading a payload of an
older version runs the upgraders in turn, so a log written today loads in every later release;
a payload from a newer release, or one that does not parse, is a ``CorruptRecordError``.
"""

from __future__ import annotations

import functools
import gc
import json
import json.encoder
import re
from collections.abc import Callable, Iterable
from typing import Any, Final

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError, SchemaSerializer, core_schema

from agentlog._frozen import freeze
from agentlog.errors import CorruptRecordError, NonFiniteNumberError
from agentlog.events import REMOVED, STORED, Event, EventActions
from agentlog.limits import VALUE_ENCODER
from agentlog.logs import get_logger

__all__ = [
    "EVENT_FORMAT_VERSION",
    "UPGRADERS",
    "decode_event",
    "decode_events",
    "decode_state",
    "decode_value",
    "encode_event",
    "encode_value",
    "encode_values",
]

EVENT_FORMAT_VERSION: Final = 1
"""The format this release writes."""

Upgrader = Callable[[dict[str, Any]], dict[str, Any]]

UPGRADERS: dict[int, Upgrader] = {}
"""``UPGRADERS[n]`` turns a format-``n`` payload (parsed JSON) into format ``n + 1``."""

_logger = get_logger(__name__)


def encode_event(event: Event) -> str:
    """The event as a JSON payload of format :data:`EVENT_FORMAT_VERSION`.

    Fields left at their defaults are left out, so payloads stay small; reading fills them in.
    """
    # ``exclude_defaults`` would do the same but calls every default factory to compare (a new
    # ULID, a new EventActions and two Python-level ``__eq__``s per event), more than half of
    # an append's Python time. Every default here is None, empty or False, so ``exclude_none``
    # and an exclusion of the empty ones write the same payload; the exclusion is built into
    # a serializer per shape (which fields are empty), cached, as an ``exclude`` argument
    # costs pydantic a filter lookup per field on every call.
    # The fields read from the models' __dict__: an attribute costs several times an item.
    fields = event.__dict__
    actions = fields["actions"].__dict__
    shape = (
        not fields["long_running_tool_ids"],
        not actions["state_delta"],
        not actions["artifact_delta"],
        not actions["escalate"],
        not actions["skip_summarization"],
        not actions["requested_auth_configs"],
        not actions["requested_tool_confirmations"],
        actions["transfer_to_agent"] is None and actions["compaction"] is None,
    )
    to_json = _serializers.get(shape)
    if to_json is None:
        to_json = _serializers.setdefault(shape, _serializer_for(shape))
    return to_json(event, exclude_none=True, fallback=_removed_as_null).decode()


_EMPTY_BY_DEFAULT: Final = (
    "state_delta",
    "artifact_delta",
    "escalate",
    "skip_summarization",
    "requested_auth_configs",
    "requested_tool_confirmations",
)
"""The fields of ``EventActions`` whose defaults are empty or False rather than None."""

_serializers: dict[tuple[bool, ...], Callable[..., bytes]] = {}


def _skip_for(shape: tuple[bool, ...]) -> dict[str, Any]:
    """What ``encode_event`` leaves out of an event of ``shape``, as pydantic's ``exclude``."""
    no_long_running, *empty, nothing_else = shape
    skip: dict[str, Any] = {}
    if no_long_running:
        skip["long_running_tool_ids"] = True
    if all(empty) and nothing_else:
        skip["actions"] = True
    else:
        skip["actions"] = {n for n, e in zip(_EMPTY_BY_DEFAULT, empty, strict=True) if e}
    return skip


class _UnknownSchema(Exception):
    """Event's core schema is not laid out as :func:`_built_for` expects."""


def _serializer_for(shape: tuple[bool, ...]) -> Callable[..., bytes]:
    """``to_json`` writing an event of ``shape``: :func:`_built_for`'s, or, when pydantic lays
    its core schema out otherwise (the layout is pydantic's internal business, and may change
    in a release), ``Event``'s own serializer with the exclusion as an argument: the same
    bytes, only slower."""
    try:
        return _built_for(shape)
    except (_UnknownSchema, KeyError, TypeError) as error:
        _logger.debug("encode_event: Event's own serializer for shape %s (%s)", shape, error)
        return functools.partial(Event.__pydantic_serializer__.to_json, exclude=_skip_for(shape))


def _built_for(shape: tuple[bool, ...]) -> Callable[..., bytes]:
    """``to_json`` of a serializer writing an event of ``shape`` as ``Event``'s own does with
    :func:`_skip_for`'s exclusion, the exclusion built in.

    Built from ``Event``'s core schema, with two changes: the fields left out are marked so,
    and ``state_delta``'s values are written by their type (pydantic's ``JsonValue`` union
    picks each value's serializer through a Python function; ``REMOVED``, the one value not
    of a JSON type, goes to :func:`_removed_as_null`). Each model whose fields change gets a
    stand-in class: pydantic reuses a model class's own serializer, whatever the schema says.
    """
    # Copied along the paths changed only, the rest shared (it is read, never written).
    schema: dict[str, Any] = dict(Event.__pydantic_core_schema__)
    event = schema
    if schema["type"] == "definitions":
        event = schema["schema"] = dict(schema["schema"])
    if event["type"] != "model" or event["cls"] is not Event:
        raise _UnknownSchema("Event's core schema is not the model schema encode_event expects")
    event["cls"] = type("StoredEvent", (), {})
    event_fields = _copied_fields(event)
    for name, excluded in _skip_for(shape).items():
        field = event_fields[name] = dict(event_fields[name])
        if excluded is True:
            field["serialization_exclude"] = True
            continue
        default = field["schema"] = dict(field["schema"])
        actions = default["schema"] = dict(default["schema"])
        if actions["type"] != "model" or actions["cls"] is not EventActions:
            raise _UnknownSchema("EventActions' core schema is not the one encode_event expects")
        actions["cls"] = type("StoredActions", (), {})
        action_fields = _copied_fields(actions)
        for name in excluded:
            action_fields[name] = {**action_fields[name], "serialization_exclude": True}
        action_fields["state_delta"] = {
            **action_fields["state_delta"],
            "schema": core_schema.dict_schema(core_schema.str_schema(), core_schema.any_schema()),
        }
    to_json: Callable[..., bytes] = SchemaSerializer(schema).to_json
    return to_json


def _copied_fields(model: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``model``'s schema, copied into a copy of its fields schema."""
    fields_schema = model["schema"] = dict(model["schema"])
    fields: dict[str, Any] = dict(fields_schema["fields"])
    fields_schema["fields"] = fields
    return fields


def _removed_as_null(value: Any) -> None:
    """What a payload holds for a value of no JSON type: ``null`` for ``REMOVED``, which reads
    back as ``REMOVED``; anything else fails as pydantic fails it."""
    if value is REMOVED:
        return None
    raise PydanticSerializationError(f"Unable to serialize unknown type: {type(value)}")


_event_validator: Final = Event.__pydantic_validator__


def _validate_json(payload: str | bytes) -> Event:
    """Parse and validate one current-format payload; the one entry both decoders use."""
    event: Event = _event_validator.validate_json(payload, context=STORED)
    return event


def decode_event(
    payload: str | bytes, format_version: int, *, session_id: str, event_id: str | None = None
) -> Event:
    """Parse a stored payload, upgrading older formats."""
    try:
        if format_version == EVENT_FORMAT_VERSION:
            return _validate_json(payload)
        if format_version > EVENT_FORMAT_VERSION or format_version < 1:
            raise CorruptRecordError(
                session_id,
                event_id,
                f"format version {format_version} is not one this release reads "
                f"(it reads 1 to {EVENT_FORMAT_VERSION})",
            )
        data = json.loads(payload)
        for version in range(format_version, EVENT_FORMAT_VERSION):
            data = UPGRADERS[version](data)
        return Event.model_validate(data, context=STORED)
    except (ValidationError, ValueError, KeyError, TypeError) as exc:
        if isinstance(exc, CorruptRecordError):
            raise
        raise CorruptRecordError(session_id, event_id, _reason(exc)) from exc


def decode_events(
    rows: Iterable[tuple[str, int, str | bytes]], *, session_id: str
) -> tuple[Event, ...]:
    """Parse ``(event id, format version, payload)`` rows, in order.

    The cyclic garbage collector is paused meanwhile: decoding allocates many small objects
    and no cycles, and in a process holding many objects a collection pass per few thousand
    allocations costs more than the decoding itself.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        events = []
        for event_id, fmt, payload in rows:
            if fmt != EVENT_FORMAT_VERSION:
                events.append(decode_event(payload, fmt, session_id=session_id, event_id=event_id))
                continue
            # The common case without decode_event's layers: this loop runs once per stored
            # event on every load.
            try:
                events.append(_validate_json(payload))
            except (ValidationError, ValueError) as exc:
                raise CorruptRecordError(session_id, event_id, _reason(exc)) from exc
        return tuple(events)
    finally:
        if paused:
            gc.enable()


# One encoder for every value (``VALUE_ENCODER``): ``json.dumps`` with options builds a new
# one per call, which cost ten times the encoding of a small value. It refuses NaN and
# infinities rather than writing a row its reader (``decode_value``) refuses.


def _c_encoder() -> Callable[[Any], str] | None:
    """``VALUE_ENCODER.encode`` without its Python layers, or ``None`` where it cannot be had.

    ``JSONEncoder.encode`` builds C's encoder (and a closure) on every call, then joins the
    chunks it hands back; an append encodes two or three lists that way. This builds the C
    encoder with ``VALUE_ENCODER``'s settings directly: a fresh circular-reference table per
    call, as ``encode`` makes. Checked against ``VALUE_ENCODER`` once, and not used if it
    writes anything else (another Python's ``c_make_encoder`` may take other arguments).
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    escape = getattr(json.encoder, "c_encode_basestring", None)
    if make is None or escape is None:
        return None
    enc = VALUE_ENCODER
    join = "".join

    def encode(value: Any) -> str:
        chunks = make(
            {},
            enc.default,
            escape,
            None,
            enc.key_separator,
            enc.item_separator,
            False,
            False,
            False,
        )(value, 0)
        return join(chunks)

    sample = [1, 'é"\n', {"a": [True, None, 1.5, -0.0]}, 10**30]
    try:
        if encode(sample) != enc.encode(sample):
            return None
        encode([float("nan")])
    except ValueError:
        return encode  # refuses NaN, as VALUE_ENCODER does
    except Exception:  # another signature: the plain encoder
        return None
    return None


_fast_encode: Final = _c_encoder() or VALUE_ENCODER.encode
_escape: Final[Callable[[str], str]] = json.encoder.encode_basestring
"""A string as ``VALUE_ENCODER`` writes it (``ensure_ascii=False``)."""


def encode_value(value: Any) -> str:
    """A state value as compact JSON."""
    # The usual scalars without the encoder's machinery, writing what it writes.
    cls = value.__class__
    if cls is int:
        return int.__repr__(value)
    if cls is bool:
        return "true" if value else "false"
    if cls is str:
        return _escape(value)  # what the encoder does with a string, without its method call
    try:
        return _fast_encode(value)
    except ValueError as exc:
        raise NonFiniteNumberError(
            "a state value", "holds NaN or an infinity, which JSON cannot carry"
        ) from exc


def encode_values(values: Iterable[Any]) -> str:
    """A JSON array of state values (or keys), as :func:`encode_value` writes the list."""
    # Element by element: building the C encoder costs more than writing a short list.
    return "[" + ",".join([encode_value(value) for value in values]) + "]"


def decode_value(
    text: str | bytes,
    *,
    key: str,
    session_id: str | None = None,
    table: str = "session_state",
    owner: str | None = None,
) -> Any:
    """A stored state value, frozen. One that does not parse, or holds NaN or an infinity, is a
    ``CorruptRecordError`` naming its row: ``table`` and ``key``, the ``owner`` (app name or
    user id) of an app or user state row, and the ``session_id`` being read, if any."""
    try:
        value = json.loads(text)
        if _SURROGATE_ESCAPE.search(text if isinstance(text, str) else text.decode()):
            # Only a lone surrogate is left one once parsed, and UTF-8 cannot carry it: the
            # value would load, then fail every response that shows it.
            try:
                json.dumps(value, ensure_ascii=False).encode()
            except UnicodeEncodeError:
                raise ValueError("holds a lone surrogate, which UTF-8 cannot carry") from None
        return freeze(value)
    except (ValueError, TypeError, RecursionError) as exc:
        raise CorruptRecordError(
            session_id, None, _reason(exc), table=table, key=key, owner=owner
        ) from exc


_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def decode_state(
    rows: Iterable[tuple[str, str | bytes]],
    *,
    table: str,
    session_id: str | None = None,
    owner: str | None = None,
    skip_corrupt: bool = False,
) -> dict[str, Any]:
    """One scope's stored ``(key, value)`` rows as a dict (see :func:`decode_value`).

    With ``skip_corrupt`` a row that does not decode is left out and logged as a warning
    instead of raising: for listings, where one bad row must not hide every other session.
    """
    state: dict[str, Any] = {}
    for key, text in rows:
        try:
            state[key] = decode_value(
                text, key=key, session_id=session_id, table=table, owner=owner
            )
        except CorruptRecordError as exc:
            if not skip_corrupt:
                raise
            _logger.warning("left out of a listing: %s", exc)
    return state


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        return f"{where}: {first['msg']}"
    return str(exc) or type(exc).__name__
