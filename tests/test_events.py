"""The event contract of SPEC 1: finality, immutability, validation and JSON round trips."""

from __future__ import annotations

import inspect
import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

import agentlog
from agentlog import (
    REMOVED,
    CodeExecutionResult,
    Content,
    Event,
    EventActions,
    ImmutableError,
    Part,
    ToolConfirmation,
)
from agentlog.errors import NonFiniteNumberError
from agentlog.ids import new_event_id, new_invocation_id
from agentlog.testing.sessions import rich_event


def make(parts: tuple[Part, ...] = (), **fields: Any) -> Event:
    content = Content(role="model", parts=parts) if parts else None
    return Event(invocation_id="inv", author="agent", content=content, **fields)


CALL = Part.from_function_call("lookup_order", {"order": "1182"}, "c1")
RESULT = Part.from_function_response("lookup_order", {"status": "broken"}, "c1")
TEXT = Part.from_text("Your refund is on its way.")
CODE = Part(code_execution_result=CodeExecutionResult(outcome="ok", output="2"))


@pytest.mark.parametrize(
    ("event", "final"),
    [
        (make((TEXT,)), True),
        (make(), True),
        (make((TEXT,), partial=True), False),
        (make((CALL,)), False),
        (make((TEXT, CALL)), False),
        (make((RESULT,)), False),
        (make((TEXT, CODE)), False),
        (make((CODE, TEXT)), True),
        (make((RESULT,), actions=EventActions(skip_summarization=True)), True),
        (make((CALL,), long_running_tool_ids=frozenset({"c1"})), True),
        (make((TEXT,), partial=True, actions=EventActions(skip_summarization=True)), True),
    ],
    ids=[
        "text",
        "empty",
        "partial-text",
        "call",
        "text-and-call",
        "response",
        "ends-with-code-result",
        "code-result-then-text",
        "skip-summarization",
        "long-running",
        "skip-beats-partial",
    ],
)
def test_is_final_response(event: Event, final: bool) -> None:
    assert event.is_final_response() is final


def test_helpers() -> None:
    event = make((TEXT, CALL, RESULT, Part.from_text(" Bye.")))
    assert event.text() == "Your refund is on its way. Bye."
    assert [c.name for c in event.function_calls()] == ["lookup_order"]
    assert [r.response["status"] for r in event.function_responses()] == ["broken"]
    assert make().text() == ""
    assert make().function_calls() == []


def test_events_are_frozen_all_the_way_down() -> None:
    event = rich_event()
    with pytest.raises(ValidationError, match="frozen"):
        event.author = "someone"  # type: ignore[misc]
    with pytest.raises(ImmutableError):
        event.actions.state_delta["x"] = 1
    order: Any = event.actions.state_delta["order"]
    with pytest.raises(ImmutableError):
        order["items"].append(3)
    with pytest.raises(ImmutableError):
        event.function_calls()[0].args.clear()
    with pytest.raises(ImmutableError):
        event.actions.requested_tool_confirmations.pop("call-1")
    with pytest.raises(AttributeError):
        event.long_running_tool_ids.add("x")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        event.content.parts[0] = TEXT  # type: ignore[index, union-attr]


def _public_models() -> list[type[BaseModel]]:
    return [
        obj
        for name in agentlog.__all__
        if inspect.isclass(obj := getattr(agentlog, name)) and issubclass(obj, BaseModel)
    ]


@pytest.mark.parametrize("model", _public_models(), ids=lambda m: m.__name__)
def test_every_public_model_is_frozen_and_strict(model: type[BaseModel]) -> None:
    assert model.model_config.get("frozen") is True
    assert model.model_config.get("extra") == "forbid"


def test_unknown_fields_rejected() -> None:
    with pytest.raises(ValidationError, match="extra"):
        Event(invocation_id="i", author="a", colour="red")  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="extra"):
        Event.model_validate_json('{"invocation_id": "i", "author": "a", "actions": {"x": 1}}')


@pytest.mark.parametrize(
    "payload",
    [
        {"author": "a"},
        {"invocation_id": "i", "author": ""},
        {"invocation_id": "i", "author": "a", "timestamp": float("nan")},
        {"invocation_id": "i", "author": "a", "timestamp": -1},
        {"invocation_id": "i", "author": "a", "error_code": "made_up"},
        {"invocation_id": "i", "author": "a", "content": {"role": "model", "parts": []}},
        {
            "invocation_id": "i",
            "author": "a",
            "content": {"role": "robot", "parts": [{"text": "x"}]},
        },
        {"invocation_id": "i", "author": "a", "actions": {"state_delta": {"": 1}}},
        {"invocation_id": "i", "author": "a", "actions": {"state_delta": {"k": object()}}},
        {"invocation_id": "i", "author": "a", "actions": {"artifact_delta": {"f": -1}}},
    ],
)
def test_invalid_events_rejected(payload: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Event.model_validate(payload)


@pytest.mark.parametrize("number", [float("inf"), float("-inf"), float("nan")])
def test_non_json_numbers_rejected(number: float) -> None:
    with pytest.raises(NonFiniteNumberError, match="JSON numbers are finite"):
        EventActions(state_delta={"k": {"nested": [number]}})
    with pytest.raises(NonFiniteNumberError, match="JSON numbers are finite"):
        Part.from_function_call("f", {"x": number}, "c1")


def test_part_holds_exactly_one_payload() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        Part(text="a", function_call=CALL.function_call)
    with pytest.raises(ValidationError, match="exactly one"):
        Part()


def test_provider_metadata_is_not_a_payload() -> None:
    signed = Part(text="a", provider_metadata={"gemini_thought_signature": "c2ln"})
    assert signed.text == "a"
    with pytest.raises(ValidationError, match="exactly one"):
        Part(provider_metadata={"gemini_thought_signature": "c2ln"})
    with pytest.raises(ValidationError, match="exactly one"):
        Part(text="a", function_call=CALL.function_call, provider_metadata={"k": "v"})
    with pytest.raises(ImmutableError):
        signed.provider_metadata["k"] = "v"  # type: ignore[index]
    assert Part.model_validate_json(signed.model_dump_json()) == signed


def test_removed_and_json_null() -> None:
    actions = EventActions(state_delta={"a": REMOVED, "b": None, "c": 0})
    assert actions.state_delta["a"] is REMOVED
    assert actions.state_delta["b"] is REMOVED
    assert json.loads(actions.model_dump_json())["state_delta"] == {"a": None, "b": None, "c": 0}
    assert EventActions.model_validate_json(actions.model_dump_json()) == actions
    assert pickle.loads(pickle.dumps(REMOVED)) is REMOVED
    assert repr(REMOVED) == "REMOVED"


def test_rich_event_round_trips_through_json_and_pickle() -> None:
    event = rich_event()
    assert Event.model_validate_json(event.model_dump_json()) == event
    assert Event.model_validate(event.model_dump()) == event
    assert pickle.loads(pickle.dumps(event)) == event


def test_ids_sort_in_creation_order() -> None:
    ids = [new_event_id() for _ in range(10_000)]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 26 for i in ids)
    assert new_invocation_id().startswith("inv-")


def test_confirmation_payload_is_frozen() -> None:
    confirmation = ToolConfirmation(hint="ok?", payload={"amount": [1, 2]})
    payload: Any = confirmation.payload
    with pytest.raises(ImmutableError):
        payload["amount"].append(3)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)
parts = st.one_of(
    st.builds(Part.from_text, st.text()),
    st.builds(
        Part.from_function_call,
        st.text(min_size=1),
        st.dictionaries(st.text(), json_values, max_size=3),
        st.text(min_size=1),
    ),
    st.builds(
        Part.from_function_response,
        st.text(min_size=1),
        st.dictionaries(st.text(), json_values, max_size=3),
        st.text(min_size=1),
    ),
)
names = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=64)
"""Identifiers and state keys: no NUL, within the size limits (agentlog.limits)."""
events = st.builds(
    Event,
    invocation_id=names,
    author=names,
    timestamp=st.floats(min_value=0, max_value=4e9),
    content=st.none()
    | st.builds(
        Content,
        role=st.sampled_from(["user", "model"]),
        parts=st.lists(parts, min_size=1, max_size=3).map(tuple),
    ),
    partial=st.none() | st.booleans(),
    long_running_tool_ids=st.frozensets(st.text(min_size=1), max_size=2),
    actions=st.builds(
        EventActions,
        state_delta=st.dictionaries(names.filter(lambda k: ":" not in k), json_values, max_size=4),
        escalate=st.booleans(),
        transfer_to_agent=st.none() | st.text(min_size=1),
    ),
)


@settings(max_examples=200, deadline=None)
@given(events)
def test_json_round_trip_is_identity(event: Event) -> None:
    assert Event.model_validate_json(event.model_dump_json()) == event
    assert Event.model_validate_json(event.model_dump_json(exclude_defaults=True)) == event
