"""Stored payloads carry a format version and are upgraded on read."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentlog import CorruptRecordError, Event
from agentlog.sessions import codec
from agentlog.testing.sessions import rich_event


def test_current_format_round_trips() -> None:
    event = rich_event()
    payload = codec.encode_event(event)
    assert codec.decode_event(payload, codec.EVENT_FORMAT_VERSION, session_id="s") == event


def test_older_formats_are_upgraded_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pretend this release writes format 3, and formats 1 and 2 stored the author as "by".
    def one_to_two(data: dict[str, Any]) -> dict[str, Any]:
        data["writer"] = data.pop("by")
        return data

    def two_to_three(data: dict[str, Any]) -> dict[str, Any]:
        data["author"] = data.pop("writer")
        return data

    monkeypatch.setattr(codec, "EVENT_FORMAT_VERSION", 3)
    monkeypatch.setattr(codec, "UPGRADERS", {1: one_to_two, 2: two_to_three})
    old = json.dumps({"id": "e1", "invocation_id": "i", "by": "user", "timestamp": 1.0})
    event = codec.decode_event(old, 1, session_id="s", event_id="e1")
    assert event == Event(id="e1", invocation_id="i", author="user", timestamp=1.0)


def test_version_1_payload_without_provider_metadata_loads() -> None:
    # Written before Part.provider_metadata existed: the field is additive, format stays 1.
    assert codec.EVENT_FORMAT_VERSION == 1
    old = json.dumps(
        {
            "id": "e1",
            "invocation_id": "i",
            "author": "agent",
            "timestamp": 1.0,
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Checking."},
                    {"function_call": {"id": "c1", "name": "lookup", "args": {"n": 1}}},
                ],
            },
        }
    )
    event = codec.decode_event(old, 1, session_id="s", event_id="e1")
    assert event.content is not None
    assert [p.provider_metadata for p in event.content.parts] == [None, None]
    assert event.function_calls()[0].args == {"n": 1}
    # A part without metadata is stored as before: no new key in the payload.
    assert "provider_metadata" not in codec.encode_event(event)


def test_provider_metadata_round_trips() -> None:
    event = rich_event()
    assert event.content is not None
    signed = [p for p in event.content.parts if p.provider_metadata is not None]
    assert signed, "rich_event should carry provider metadata"
    payload = codec.encode_event(event)
    decoded = codec.decode_event(payload, codec.EVENT_FORMAT_VERSION, session_id="s")
    assert decoded.content is not None
    assert [p.provider_metadata for p in decoded.content.parts] == [
        p.provider_metadata for p in event.content.parts
    ]


def test_newer_format_is_refused_by_name() -> None:
    payload = codec.encode_event(rich_event())
    with pytest.raises(CorruptRecordError, match="format version 99") as caught:
        codec.decode_event(payload, 99, session_id="s1", event_id="e9")
    assert (caught.value.session_id, caught.value.event_id) == ("s1", "e9")


@pytest.mark.parametrize("payload", ["{not json", '{"author": "x"}', "[]", ""])
def test_unparseable_payload_names_session_and_event(payload: str) -> None:
    with pytest.raises(CorruptRecordError, match="event 'e1' of session 's1'"):
        codec.decode_event(payload, codec.EVENT_FORMAT_VERSION, session_id="s1", event_id="e1")


def test_state_values() -> None:
    assert codec.decode_value(codec.encode_value({"a": [1, "é"]}), session_id="s", key="k") == {
        "a": [1, "é"]
    }
    with pytest.raises(CorruptRecordError, match="state key 'k'"):
        codec.decode_value("{", session_id="s", key="k")


def test_decode_events_pauses_the_collector_and_restores_it() -> None:
    import gc

    event = rich_event()
    rows = [("e1", codec.EVENT_FORMAT_VERSION, codec.encode_event(event))]
    assert gc.isenabled()
    assert codec.decode_events(rows, session_id="s") == (event,)
    assert gc.isenabled()
    with pytest.raises(CorruptRecordError):
        codec.decode_events([*rows, ("e2", codec.EVENT_FORMAT_VERSION, "{")], session_id="s")
    assert gc.isenabled()
    gc.disable()
    try:
        codec.decode_events(rows, session_id="s")
        assert not gc.isenabled()  # a caller's choice is left alone
    finally:
        gc.enable()


_ACTION_VARIANTS: list[dict[str, Any]] = [
    {},
    {"state_delta": {"k": 1, "gone": None}},
    {"artifact_delta": {"report.pdf": 2}},
    {"escalate": True},
    {"skip_summarization": True},
    {"transfer_to_agent": "billing"},
    {"requested_tool_confirmations": {"call-1": {"hint": "refund $12.50?"}}},
    {"requested_auth_configs": {"call-2": {"auth_type": "api_key"}}},
    {"state_delta": {"k": [1, {"x": 2}]}, "escalate": True, "artifact_delta": {"a": 0}},
]


@pytest.mark.parametrize("actions", _ACTION_VARIANTS)
@pytest.mark.parametrize("long_running", [(), ("call-1",)])
def test_payload_leaves_out_defaults_and_round_trips(
    actions: dict[str, Any], long_running: tuple[str, ...]
) -> None:
    event = Event.model_validate(
        {
            "invocation_id": "i",
            "author": "agent",
            "content": {"role": "model", "parts": [{"text": "hi"}]},
            "long_running_tool_ids": list(long_running),
            "actions": actions,
        }
    )
    for _ in range(2):  # the second time through the cached exclusion
        payload = codec.encode_event(event)
        assert codec.decode_event(payload, codec.EVENT_FORMAT_VERSION, session_id="s") == event
    stored = json.loads(payload)
    # Only what differs from a default is written.
    assert stored.get("actions", {}) == {
        k: v
        for k, v in json.loads(event.actions.model_dump_json(exclude_none=True)).items()
        if k in actions
    }
    assert ("long_running_tool_ids" in stored) == bool(long_running)
    assert "partial" not in stored
    assert "error_code" not in stored


def test_stored_session_is_the_session_model_construct_makes() -> None:
    from agentlog._frozen import FrozenDict
    from agentlog.sessions.base import Session, stored_session

    values: dict[str, Any] = {
        "id": "s",
        "app_name": "a",
        "user_id": "u",
        "state": FrozenDict({"k": 1}),
        "events": (rich_event(),),
        "version": 1,
        "last_update_time": 2.0,
        "create_time": 1.5,
        "lease_token": 3,
    }
    fast, slow = stored_session(**values), Session.model_construct(**values)
    assert fast == slow
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump() == slow.model_dump()
    assert Session.model_validate_json(fast.model_dump_json()) == fast


def _every_shape() -> list[Event]:
    """Events of every combination of ``encode_event``'s empty fields, with deletions,
    nested and non-ASCII state values and each kind of content."""
    import itertools

    from agentlog.events import REMOVED, EventActions

    rich = rich_event()
    full = rich.actions
    optional = {
        "state_delta": {"n": 1, "gone": REMOVED, "deep": {"a": [1, 2.5, None, "é"]}, "t": True},
        "artifact_delta": full.artifact_delta,
        "escalate": True,
        "skip_summarization": True,
        "requested_auth_configs": full.requested_auth_configs,
        "requested_tool_confirmations": full.requested_tool_confirmations,
    }
    events = []
    for chosen in itertools.product((False, True), repeat=len(optional) + 2):
        *given, long_running, other = chosen
        actions: dict[str, Any] = {
            k: v for (k, v), g in zip(optional.items(), given, strict=True) if g
        }
        if other:
            actions["transfer_to_agent"] = "billing"
            actions["compaction"] = full.compaction
        events.append(
            rich.model_copy(
                update={
                    "long_running_tool_ids": rich.long_running_tool_ids
                    if long_running
                    else frozenset(),
                    "actions": EventActions(**actions),
                }
            )
        )
    events.append(Event(invocation_id="i", author="user", timestamp=3.0))
    events.append(
        Event(invocation_id="i", author="a", actions=EventActions(state_delta={"x": "\u2603"}))
    )
    return events


def _shape_of(event: Event) -> tuple[bool, ...]:
    """The shape ``encode_event`` caches its serializers by: which fields are empty."""
    fields, actions = event.__dict__, event.actions.__dict__
    return (
        not fields["long_running_tool_ids"],
        *(not actions[name] for name in codec._EMPTY_BY_DEFAULT),
        actions["transfer_to_agent"] is None and actions["compaction"] is None,
    )


def test_payloads_are_what_pydantic_writes_with_the_exclusion() -> None:
    # encode_event's serializers build the exclusion in: the bytes are those of Event's own
    # serializer told what to leave out, for every shape of event.
    serializer = Event.__pydantic_serializer__
    for event in _every_shape():
        expected = serializer.to_json(
            event, exclude_none=True, exclude=codec._skip_for(_shape_of(event))
        )
        assert codec.encode_event(event) == expected.decode()
        decoded = codec.decode_event(codec.encode_event(event), 1, session_id="s")
        assert decoded == event


def test_a_value_of_no_json_type_fails_to_encode() -> None:
    from pydantic_core import PydanticSerializationError

    from agentlog.events import EventActions

    event = Event(invocation_id="i", author="a")
    odd = event.model_copy(
        update={"actions": EventActions.model_construct(state_delta={"k": object()})}
    )
    with pytest.raises(PydanticSerializationError):
        codec.encode_event(odd)


def test_an_unfamiliar_core_schema_falls_back_to_events_own_serializer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The core schema's layout is pydantic's internal business: a release laying it out
    # otherwise must cost speed, never an append.
    def unknown(shape: tuple[bool, ...]) -> Any:
        raise codec._UnknownSchema("a layout of another pydantic")

    monkeypatch.setattr(codec, "_built_for", unknown)
    monkeypatch.setattr(codec, "_serializers", {})
    serializer = Event.__pydantic_serializer__
    for event in _every_shape():
        expected = serializer.to_json(
            event, exclude_none=True, exclude=codec._skip_for(_shape_of(event))
        )
        assert codec.encode_event(event) == expected.decode()
