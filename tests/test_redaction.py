"""PatternRedactor: what it rewrites, what it keeps, and that the result is still a valid event."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from agentlog.errors import ImmutableError
from agentlog.events import (
    REMOVED,
    ArtifactRef,
    CodeExecutionResult,
    Content,
    CredentialRequest,
    Event,
    EventActions,
    EventCompaction,
    FunctionCall,
    FunctionResponse,
    Part,
    ToolConfirmation,
)
from agentlog.redaction import DEFAULT_PATTERNS, PatternRedactor, Redactor
from agentlog.sessions.codec import decode_event, encode_event

CARD = "4111 1111 1111 1111"
ORDER = "1234 5678 9012 3456"  # 16 digits that fail the Luhn check
redact = PatternRedactor()


def _event(*parts: Part, **actions: Any) -> Event:
    return Event(
        invocation_id="inv-1",
        author="agent",
        content=Content(role="model", parts=parts) if parts else None,
        actions=EventActions(**actions),
    )


def test_card_in_a_nested_function_response_is_redacted() -> None:
    response = {"orders": [{"id": ORDER, "payments": [[{"card": CARD, "amount": 12.5}]]}]}
    event = _event(Part.from_function_response("lookup", response, "call-1"))
    (part,) = redact(event).function_responses()
    assert part.response == {
        "orders": [{"id": ORDER, "payments": [[{"card": "[REDACTED:card]", "amount": 12.5}]]}]
    }
    assert (part.id, part.name) == ("call-1", "lookup")


def test_card_in_text_and_state_delta_is_redacted() -> None:
    event = _event(
        Part(text=f"Charge 4111-1111-1111-1111 or {CARD} now"),
        state_delta={"user:card": "5555555555554444", "note": {"x": [CARD]}, "gone": REMOVED},
    )
    out = redact(event)
    assert out.text() == "Charge [REDACTED:card] or [REDACTED:card] now"
    assert out.actions.state_delta == {
        "user:card": "[REDACTED:card]",
        "note": {"x": ["[REDACTED:card]"]},
        "gone": REMOVED,
    }


@pytest.mark.parametrize(
    "card",
    ["4111111111111111", "378282246310005", "4222222222222", "6304000000000000018", CARD],
)
def test_luhn_valid_lengths_13_to_19(card: str) -> None:
    assert redact.redact_text(f"pay {card}.") == "pay [REDACTED:card]."


@pytest.mark.parametrize(
    "text",
    [
        f"Order {ORDER} shipped",
        "Order 1234567890123456 shipped",
        "tracking 41111111111111110000",  # 20 digits in one run: not a card
        "call +1 415 555 2671",
        "a 411111111111 b",  # 12 digits
    ],
)
def test_luhn_invalid_and_short_numbers_are_kept(text: str) -> None:
    event = _event(Part(text=text), state_delta={"order": text})
    assert redact(event) is event


def test_card_followed_by_more_digits_is_still_found() -> None:
    assert redact.redact_text(f"{CARD} 12 and {CARD}-99") == (
        "[REDACTED:card] 12 and [REDACTED:card]-99"
    )


def test_email_and_ssn_by_default() -> None:
    text = "Mail ana.lopez+refunds@example.co.uk, SSN 078-05-1120; not 078-05-11200."
    assert redact.redact_text(text) == (
        "Mail [REDACTED:email], SSN [REDACTED:us_ssn]; not 078-05-11200."
    )


def test_unchanged_event_is_returned_as_is() -> None:
    event = _event(
        Part(text="nothing to see"),
        Part.from_function_call("f", {"a": [1, "b", {"c": None}]}, "c1"),
        state_delta={"k": "v"},
    )
    assert redact(event) is event
    empty = Event(invocation_id="i", author="user")
    assert redact(empty) is empty


def test_identity_and_every_other_field_survive() -> None:
    event = _event(
        Part(text=f"card {CARD}"),
        Part(artifact_ref=ArtifactRef(name="receipt.pdf", version=1)),
        state_delta={"k": 1},
        transfer_to_agent="billing",
    ).model_copy(update={"error_message": f"failed for {CARD}", "branch": "root.a"})
    out = redact(event)
    assert out is not event
    assert (out.id, out.invocation_id, out.author, out.timestamp) == (
        event.id,
        event.invocation_id,
        event.author,
        event.timestamp,
    )
    assert out.error_message == "failed for [REDACTED:card]"
    assert out.model_dump(exclude={"content", "error_message"}) == event.model_dump(
        exclude={"content", "error_message"}
    )
    assert out.content is not None
    assert out.content.parts[1] is event.content.parts[1]  # type: ignore[union-attr]


def test_result_is_a_valid_frozen_event() -> None:
    event = _event(
        Part.from_function_call("pay", {"cards": [CARD]}, "c1"), state_delta={"c": [CARD]}
    )
    out = redact(event)
    assert isinstance(out, Event)
    cards: Any = out.function_calls()[0].args["cards"]
    delta: Any = out.actions.state_delta["c"]
    assert cards == delta == ["[REDACTED:card]"]
    with pytest.raises(ImmutableError):
        cards.append("x")
    with pytest.raises(ImmutableError):
        delta.append("x")
    assert decode_event(encode_event(out), 1, session_id="s") == out
    assert Event.model_validate(out.model_dump()) == out


def test_actions_payloads_error_message_and_summaries() -> None:
    secret = "ana@example.com"
    event = Event(
        invocation_id="i",
        author="agent",
        error_message=f"tool failed for {secret}",
        content=Content(
            role="model",
            parts=(Part(code_execution_result=CodeExecutionResult(outcome="ok", output=secret)),),
        ),
        actions=EventActions(
            requested_tool_confirmations={
                "c1": ToolConfirmation(hint=f"Refund {secret}?", payload={"to": [secret]})
            },
            requested_auth_configs={
                "c2": CredentialRequest(auth_type="oauth2", hint=secret, params={"u": secret})
            },
            compaction=EventCompaction(
                start_timestamp=1.0,
                end_timestamp=2.0,
                event_ids=("a",),
                summary=Content.from_text(f"user {secret} asked", role="model"),
            ),
        ),
    )
    out = redact(event)
    assert secret not in out.model_dump_json()
    confirmation = out.actions.requested_tool_confirmations["c1"]
    assert confirmation.hint == "Refund [REDACTED:email]?"
    assert confirmation.payload == {"to": ["[REDACTED:email]"]}
    assert out.actions.requested_auth_configs["c2"].auth_type == "oauth2"


def _string_leaves(value: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _string_leaves(v, f"{path}.{k}")]
    if isinstance(value, list | tuple | frozenset):
        return [leaf for v in value for leaf in _string_leaves(v, path)]
    return []


def test_only_identifiers_and_keys_are_left_alone() -> None:
    # A secret in every string field; what survives must be an identifier, never a payload.
    s = "leak@example.com"
    event = Event(
        id=s,
        invocation_id=s,
        author=s,
        branch=s,
        model=s,
        error_message=s,
        long_running_tool_ids=frozenset({s}),
        content=Content(
            role="model",
            parts=(
                Part(text=s),
                Part(
                    function_call=FunctionCall(id=s, name=s, args={s: s}),
                    # Opaque provider data (a Gemini thought signature): rewriting it would
                    # break the next request, so it is left alone like an identifier.
                    provider_metadata={s: s},
                ),
                Part(function_response=FunctionResponse(id=s, name=s, response={s: [s]})),
                Part(code_execution_result=CodeExecutionResult(outcome="ok", output=s)),
                Part(artifact_ref=ArtifactRef(name=s, version=0, mime_type=s)),
            ),
        ),
        actions=EventActions(
            state_delta={s: s},
            artifact_delta={s: 0},
            transfer_to_agent=s,
            requested_auth_configs={s: CredentialRequest(auth_type=s, hint=s, params={s: s})},
            requested_tool_confirmations={s: ToolConfirmation(hint=s, payload=s)},
            compaction=EventCompaction(
                start_timestamp=1.0,
                end_timestamp=1.0,
                event_ids=(s,),
                summary=Content.from_text(s),
            ),
        ),
    )
    out = redact(event)
    kept = {path.replace(s, "*") for path, value in _string_leaves(out.model_dump()) if s in value}
    assert kept == {
        ".id",
        ".invocation_id",
        ".author",
        ".branch",
        ".model",
        ".long_running_tool_ids",
        ".content.parts.function_call.id",
        ".content.parts.function_call.name",
        ".content.parts.provider_metadata.*",
        ".content.parts.function_response.id",
        ".content.parts.function_response.name",
        ".content.parts.artifact_ref.name",
        ".content.parts.artifact_ref.mime_type",
        ".actions.transfer_to_agent",
        ".actions.requested_auth_configs.*.auth_type",
        ".actions.compaction.event_ids",
    }
    assert out.function_calls()[0].args == {s: "[REDACTED:email]"}


def test_custom_patterns_and_replacement() -> None:
    only_keys = PatternRedactor({"api_key": r"sk-[A-Za-z0-9]{8,}"}, replacement="<{name}>")
    text = f"key sk-abcDEF123456 for ana@example.com, card {CARD}"
    assert only_keys.redact_text(text) == f"key <api_key> for ana@example.com, card {CARD}"
    both = PatternRedactor(
        {**DEFAULT_PATTERNS, "api_key": re.compile(r"sk-\w+")}, replacement="***"
    )
    assert both.redact_text(f"{text}, order {ORDER}") == (
        f"key *** for ***, card ***, order {ORDER}"
    )
    no_luhn = PatternRedactor({"digits": r"\d{4}(?: \d{4}){3}"})
    assert no_luhn.redact_text(ORDER) == "[REDACTED:digits]"
    hook: Redactor = only_keys
    event = _event(Part(text="sk-abcdefgh1"))
    assert hook(event).text() == "<api_key>"


def test_redact_value_keeps_keys_and_shape() -> None:
    value = {CARD: [CARD, 1, None, True, ("a", CARD)], "n": 2.5}
    assert redact.redact_value(value) == {
        CARD: ["[REDACTED:card]", 1, None, True, ("a", "[REDACTED:card]")],
        "n": 2.5,
    }
    plain = {"a": [1, "b"], "c": ("d",)}
    assert redact.redact_value(plain) is plain
    assert redact.redact_value(7) == 7


def test_long_digit_runs_stay_fast() -> None:
    text = "1 " * 20_000 + "-".join(["1234"] * 5_000)
    started = time.perf_counter()
    redact.redact_text(text)
    assert time.perf_counter() - started < 2.0
