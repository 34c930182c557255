"""The per-turn shortcuts of issue 15 write what the general code writes."""

from __future__ import annotations

import random

import pytest

from agentlog.ids import _ALPHABET, _RANDOM_BITS, _RANDOM_MAX, _random_chars, _time_chars


def _reference_encode(value: int) -> str:
    # The definition: 26 base32 digits, most significant first.
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def _encode(value: int) -> str:
    # An id as new_event_id writes it: its time's characters, then its random part's.
    return _time_chars(value >> _RANDOM_BITS) + _random_chars(value & _RANDOM_MAX)


def test_ulid_encoding_is_crockford_base32_of_26_digits() -> None:
    rng = random.Random(15)
    values = [0, 1, 31, 32, 1023, 1024, (1 << 128) - 1, 1 << 127, (1 << 80) - 1]
    values += [rng.getrandbits(rng.choice((8, 48, 80, 127, 128))) for _ in range(5000)]
    for value in values:
        assert _encode(value) == _reference_encode(value), value
    assert _encode(0) == "0" * 26
    assert _encode((1 << 128) - 1) == "7" + "Z" * 25


def test_an_event_id_is_its_millisecond_and_random_part_encoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # new_event_id keeps the time's characters for the millisecond: an id is still the
    # encoding of (time << 80) | random, including when a full millisecond spills into the next.
    from agentlog import ids

    made = ids.new_event_id()
    assert made == _reference_encode((ids._last_ms << 80) | ids._last_random)
    ahead = ids._last_ms + 60_000  # a millisecond the clock has not reached, used up
    monkeypatch.setattr(ids, "_last_ms", ahead)
    monkeypatch.setattr(ids, "_last_prefix", ids._time_chars(ahead))
    monkeypatch.setattr(ids, "_last_random", ids._RANDOM_MAX)
    spilled = ids.new_event_id()
    assert spilled > made
    assert spilled == _reference_encode((ahead + 1) << 80)


def test_an_unchecked_model_equals_and_dumps_as_the_validated_one() -> None:
    from agentlog.events import Content, Event, Part, Usage, unchecked

    content = unchecked(Content, role="model", parts=(unchecked(Part, text="so far"),))
    validated = Content(role="model", parts=(Part(text="so far"),))
    assert content == validated
    assert content.model_dump_json() == validated.model_dump_json()
    assert content.model_fields_set == validated.model_fields_set

    fields = {"invocation_id": "inv-1", "author": "desk", "branch": "desk", "model": "m"}
    draft = unchecked(Event, content=content, partial=True, usage=Usage(), **fields)
    made = Event(content=content, partial=True, usage=Usage(), **fields)
    # The factories' fields are made anew, in their place among the fields.
    assert draft.id < made.id  # made first
    assert draft.timestamp <= made.timestamp
    assert list(draft.__dict__) == list(made.__dict__)
    same = {"id": made.id, "timestamp": made.timestamp}
    assert draft.model_copy(update=same) == made
    assert draft.model_dump_json(exclude=set(same)) == made.model_dump_json(exclude=set(same))
    assert draft.model_fields_set == made.model_fields_set


async def test_scripted_drafts_equal_validated_drafts() -> None:
    from agentlog.events import Content, Part
    from agentlog.models.base import LlmRequest
    from agentlog.models.scripted import ScriptedLlm

    text = "A text streamed in drafts of twelve characters, ünïcode too."
    model = ScriptedLlm([ScriptedLlm.text(text)])
    responses = [r async for r in model.generate(LlmRequest(model="scripted"), stream=True)]
    drafts = [r for r in responses if r.partial]
    assert [d.content for d in drafts] == [
        Content(role="model", parts=(Part(text=text[:end]),)) for end in range(12, len(text), 12)
    ]
    assert responses[-1].content == Content(role="model", parts=(Part(text=text),))


def test_the_transfer_tool_is_declared_once_per_set_of_targets() -> None:
    from agentlog.agents.transfer import TransferToAgentTool
    from agentlog.models.base import ToolDeclaration

    first = TransferToAgentTool(["refunds", "desk"]).declaration()
    assert TransferToAgentTool(("refunds", "desk")).declaration() is first
    assert first == ToolDeclaration(
        name="transfer_to_agent",
        description="Hand the conversation to another agent, named by agent_name.",
        parameters={
            "type": "object",
            "properties": {
                "agent_name": {
                    "type": "string",
                    "enum": ["refunds", "desk"],
                    "description": "The agent to hand over to.",
                }
            },
            "required": ["agent_name"],
        },
    )
    other = TransferToAgentTool(["desk"]).declaration()
    assert other is not first
    assert list(other.parameters["properties"]["agent_name"]["enum"]) == ["desk"]


def test_an_event_with_the_shared_empty_actions_is_stored_as_one_with_new_empty_actions() -> None:
    from agentlog.events import Content, Event, EventActions
    from agentlog.sessions.codec import encode_event

    fields = {"id": "01J0000000000000000000000A", "timestamp": 1.0, "invocation_id": "inv-1"}
    content = Content.from_text("Done.", role="model")
    shared = Event(author="desk", content=content, **fields)
    made = Event(
        author="desk",
        content=content,
        actions=EventActions(state_delta={}, artifact_delta={}),
        **fields,
    )
    assert shared == made
    assert encode_event(shared) == encode_event(made)


def test_a_delta_is_marked_checked_only_when_its_event_was_validated_with_the_checks() -> None:
    # A store skips check_state for a CheckedDelta: only validation with the contract's checks
    # makes one. Read back from a store (checks off), or put in without validation, a delta
    # is a plain FrozenDict, which a store checks (test_input_contract's bypasses).
    from agentlog._frozen import FrozenDict
    from agentlog.events import CheckedDelta, Event, EventActions
    from agentlog.sessions.codec import decode_event, encode_event
    from agentlog.state import strip_temp

    made = Event(
        invocation_id="i", author="a", actions=EventActions(state_delta={"k": 1, "temp:t": 2})
    )
    assert made.actions.state_delta.__class__ is CheckedDelta
    assert strip_temp(made).actions.state_delta.__class__ is CheckedDelta
    loaded = decode_event(encode_event(made), 1, session_id="s")
    assert loaded == made
    assert loaded.actions.state_delta.__class__ is FrozenDict
    forged = made.model_copy(
        update={"actions": made.actions.model_copy(update={"state_delta": FrozenDict(k=1)})}
    )
    assert forged.actions.state_delta.__class__ is FrozenDict
