"""The event router, on hand-built events: one case per kind of payload."""

from __future__ import annotations

from agentlog import (
    Content,
    CredentialRequest,
    ErrorCode,
    Event,
    EventActions,
    EventCompaction,
    FunctionCall,
    Part,
    ToolConfirmation,
)
from agentlog.agents.history import REQUEST_CONFIRMATION, REQUEST_CREDENTIAL
from agentlog.router import USER_MESSAGES, route, turn_end, user_message

INV = "inv-1"


def model_event(*parts: Part, **fields: object) -> Event:
    return Event(
        invocation_id=INV,
        author="refunds",
        content=Content(role="model", parts=parts) if parts else None,
        **fields,  # type: ignore[arg-type]
    )


def test_partial_text_is_a_draft_keyed_by_the_turn() -> None:
    event = model_event(Part(text="Order A-10"), partial=True)
    [draft] = route(event)
    assert (draft.kind, draft.text, draft.id) == ("draft", "Order A-10", INV)


def test_a_final_with_calls_is_tool_calls_not_an_answer() -> None:
    event = model_event(
        Part(text="Let me check."),
        Part.from_function_call("lookup_order", {"order_id": "A-1001"}, "c1"),
        Part.from_function_call("lookup_order", {"order_id": "B-2040"}, "c2"),
    )
    routed = route(event)
    assert [m.kind for m in routed] == ["tool_call", "tool_call"]
    assert routed[0].data == {"name": "lookup_order", "args": {"order_id": "A-1001"}}
    assert routed[0].text == 'lookup_order(order_id="A-1001")'
    assert all(m.id == event.id for m in routed)


def test_a_final_with_text_is_the_answer() -> None:
    event = model_event(Part(text="Your refund is on its way."))
    [answer] = route(event)
    assert (answer.kind, answer.text, answer.id) == (
        "answer",
        "Your refund is on its way.",
        event.id,
    )


def test_tool_results_and_a_transfer() -> None:
    event = Event(
        invocation_id=INV,
        author="desk",
        content=Content(
            role="user",
            parts=(Part.from_function_response("transfer_to_agent", {"ok": True}, "c3"),),
        ),
        actions=EventActions(transfer_to_agent="refund_flow"),
    )
    routed = route(event)
    assert [m.kind for m in routed] == ["tool_result", "handoff"]
    assert routed[0].data == {"name": "transfer_to_agent", "result": {"ok": True}}
    assert routed[1].data == {"to": "refund_flow"}


def test_a_confirmation_request_needs_approval() -> None:
    args = {"order_id": "A-1001", "amount": 12.5}
    event = model_event(
        Part.from_function_call(
            REQUEST_CONFIRMATION,
            {"function_call_id": "call-9", "hint": "Allow the refund?", "payload": args},
            "confirm-1",
        ),
        long_running_tool_ids=frozenset({"confirm-1"}),
        actions=EventActions(
            requested_tool_confirmations={"call-9": ToolConfirmation(hint="x", payload=args)}
        ),
    )
    [ask] = route(event)
    assert ask.kind == "needs_approval"
    assert ask.text == "Allow the refund?"
    assert ask.data == {"request_id": "confirm-1", "function_call_id": "call-9", "payload": args}


def test_a_credential_request_needs_approval() -> None:
    event = model_event(
        Part.from_function_call(
            REQUEST_CREDENTIAL,
            {"function_call_id": "call-7", "auth_type": "api_key", "hint": "CRM key"},
            "cred-1",
        ),
        long_running_tool_ids=frozenset({"cred-1"}),
    )
    [ask] = route(event)
    assert (ask.kind, ask.data["credential"], ask.data["auth_type"]) == (
        "needs_approval",
        True,
        "api_key",
    )


def test_an_error_reads_as_a_sentence_never_the_code() -> None:
    for code in ErrorCode:
        event = model_event(error_code=code, error_message="provider said: finish_reason=SAFETY")
        [error] = route(event)
        assert error.kind == "error"
        assert error.text == USER_MESSAGES[code] == user_message(code)
        assert error.text.endswith(".")
        assert len(error.text.split()) > 4  # a sentence, not a code
        assert "finish_reason" not in error.text
        assert error.data == {"error_code": code.value}
    assert user_message(None) == USER_MESSAGES[ErrorCode.INTERNAL]


def test_user_text_and_answers_to_requests() -> None:
    said = Event(invocation_id=INV, author="user", content=Content.from_text("refund it"))
    [message] = route(said)
    assert (message.kind, message.text) == ("user_message", "refund it")
    answer = Event(
        invocation_id=INV,
        author="user",
        content=Content(
            role="user",
            parts=(
                Part.from_function_response(
                    REQUEST_CONFIRMATION, {"confirmed": False, "payload": None}, "confirm-1"
                ),
                Part.from_function_response(
                    REQUEST_CREDENTIAL, {"credential": "[withheld]"}, "cred-1"
                ),
            ),
        ),
    )
    declined, credential = route(answer)
    assert (declined.kind, declined.text, declined.data) == (
        "approval_answer",
        "Declined",
        {"request_id": "confirm-1", "confirmed": False},
    )
    assert credential.data == {"request_id": "cred-1", "credential": True}


def test_a_compaction_is_a_marker_not_an_answer() -> None:
    event = Event(
        invocation_id=INV,
        author="agentlog",
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=1.0,
                end_timestamp=2.0,
                event_ids=("e1", "e2"),
                summary=Content.from_text("They asked about A-1001.", role="model"),
            )
        ),
    )
    [marker] = route(event)
    assert (marker.kind, marker.text, marker.data) == (
        "compaction",
        "They asked about A-1001.",
        {"event_ids": ["e1", "e2"]},
    )


def test_a_pending_long_running_call_with_text_is_final() -> None:
    call = FunctionCall(id="job-1", name="start_job", args={})
    event = model_event(
        Part(text="Started."), Part(function_call=call), long_running_tool_ids=frozenset({"job-1"})
    )
    assert [m.kind for m in route(event)] == ["tool_call", "answer"]


def test_the_turn_end_is_its_own_message() -> None:
    end = turn_end(INV, "desk")
    assert (end.kind, end.id, end.invocation_id) == ("turn_end", INV, INV)


def test_a_confirmation_only_in_the_actions_needs_approval() -> None:
    # As a custom BaseAgent writes it: no request call, the request keyed by its own id.
    event = Event(
        invocation_id=INV,
        author="policy",
        actions=EventActions(
            requested_tool_confirmations={
                "refund-A-1001": ToolConfirmation(hint="Refund $12.50?", payload={"n": 1})
            }
        ),
    )
    [ask] = route(event)
    assert (ask.kind, ask.text, ask.id) == ("needs_approval", "Refund $12.50?", event.id)
    assert ask.data == {
        "request_id": "refund-A-1001",
        "function_call_id": "refund-A-1001",
        "payload": {"n": 1},
    }


def test_a_credential_request_only_in_the_actions_needs_approval() -> None:
    event = Event(
        invocation_id=INV,
        author="crm",
        actions=EventActions(
            requested_auth_configs={"crm-key": CredentialRequest(auth_type="api_key", hint="CRM")}
        ),
    )
    [ask] = route(event)
    assert (ask.kind, ask.text) == ("needs_approval", "CRM")
    assert ask.data == {
        "request_id": "crm-key",
        "function_call_id": "crm-key",
        "credential": True,
        "auth_type": "api_key",
    }


def test_a_request_with_its_call_is_surfaced_once() -> None:
    event = model_event(
        Part.from_function_call(
            REQUEST_CREDENTIAL,
            {"function_call_id": "call-7", "auth_type": "api_key", "hint": "CRM key"},
            "cred-1",
        ),
        long_running_tool_ids=frozenset({"cred-1"}),
        actions=EventActions(
            requested_auth_configs={"call-7": CredentialRequest(auth_type="api_key")}
        ),
    )
    assert [m.data["request_id"] for m in route(event)] == ["cred-1"]


def test_an_error_message_without_a_code_is_an_error() -> None:
    event = model_event(error_message="the policy service timed out")
    [error] = route(event)
    assert (error.kind, error.text) == ("error", USER_MESSAGES[ErrorCode.INTERNAL])
    assert error.data == {"error_code": "internal"}
    assert "policy service" not in error.text


def test_a_request_call_keeps_its_payload_when_the_stored_request_has_none() -> None:
    args = {"order_id": "A-1001"}
    event = model_event(
        Part.from_function_call(
            REQUEST_CONFIRMATION,
            {"function_call_id": "call-9", "hint": "Allow?", "payload": args},
            "confirm-1",
        ),
        long_running_tool_ids=frozenset({"confirm-1"}),
        actions=EventActions(requested_tool_confirmations={"call-9": ToolConfirmation()}),
    )
    [ask] = route(event)
    assert ask.data["payload"] == args
