"""Running the tool calls of one model event, and asking a human where a tool needs it.

The outcome is one event with the function responses (and the state, artifact and flow
changes the tools made); an error event for each call the flow could not honour; then, if any
call waits for a person, one request event whose long-running calls pause the turn. A waiting
call gets no response until it is answered.

A call the flow cannot honour (a tool the agent does not have, ``TOOL_NOT_FOUND``; a transfer
to an agent that does not exist or may not be reached from this one, ``AGENT_NOT_FOUND``) is
answered with an error result that tells the model what it may do instead, so it can recover,
and is reported in an error event with the code, so a client sees it too. The turn carries
on with the same agent; an unreachable transfer is never recorded as a handoff.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from agentlog import tracing
from agentlog._frozen import thaw
from agentlog.agents.base import resolve
from agentlog.agents.transfer import transfer_targets
from agentlog.approvals import REQUEST_CONFIRMATION, REQUEST_CREDENTIAL
from agentlog.context import InvocationContext, ResumeInfo, ToolContext
from agentlog.errors import ToolError
from agentlog.events import (
    Content,
    CredentialRequest,
    ErrorCode,
    Event,
    EventActions,
    FunctionCall,
    Part,
    ToolConfirmation,
)
from agentlog.ids import new_event_id
from agentlog.logs import get_logger
from agentlog.tools.base import BaseTool, ToolArgumentsError

if TYPE_CHECKING:
    from agentlog.agents.llm import LlmAgent

__all__ = ["AfterToolCallback", "BeforeToolCallback", "CallsOutcome", "run_calls"]

logger = get_logger("agentlog.tools")

BeforeToolCallback: TypeAlias = Callable[
    [BaseTool, dict[str, Any], ToolContext],
    dict[str, Any] | Awaitable[dict[str, Any] | None] | None,
]
"""Runs before a tool; a returned dict is used as the result and the tool is skipped (the
after-tool callback still sees that result, as it would the tool's)."""
AfterToolCallback: TypeAlias = Callable[
    [BaseTool, dict[str, Any], ToolContext, dict[str, Any]],
    dict[str, Any] | Awaitable[dict[str, Any] | None] | None,
]
"""Runs after a tool; a returned dict replaces the result."""

DECLINED: dict[str, Any] = {"error": "The user declined this action.", "declined": True}


@dataclass
class CallsOutcome:
    """What the calls produced."""

    response_event: Event | None = None
    error_events: list[Event] = field(default_factory=list)
    """One per call the flow could not honour (an unknown tool, an unreachable agent)."""
    request_event: Event | None = None
    waiting: dict[str, str] = field(default_factory=dict)
    """Call id to tool name, for calls that wait for a person."""


async def run_calls(
    agent: LlmAgent,
    ctx: InvocationContext,
    calls: Sequence[FunctionCall],
    answers: ResumeInfo | None = None,
) -> CallsOutcome:
    """Run ``calls`` in order; return the response event and the request event, if any."""
    tools = agent.tools_by_name()
    reachable = [a.name for a in transfer_targets(agent)]
    parts: list[Part] = []
    delta: dict[str, Any] = {}
    artifact_delta: dict[str, int] = {}
    transfer: str | None = None
    escalate = False
    skips: list[bool] = []
    confirmations: dict[str, ToolConfirmation] = {}
    credentials: dict[str, CredentialRequest] = {}
    outcome = CallsOutcome()

    for call in calls:
        args = thaw(call.args)
        tool = tools.get(call.name)
        if tool is None:
            available = ", ".join(sorted(tools)) or "none"
            result: dict[str, Any] = {
                "error": f"There is no tool named {call.name!r}. Available tools: {available}."
            }
            logger.warning("model called unknown tool %r", call.name)
            parts.append(Part.from_function_response(call.name, result, call.id))
            outcome.error_events.append(
                agent.new_event(
                    ctx,
                    error_code=ErrorCode.TOOL_NOT_FOUND,
                    error_message=(
                        f"call {call.id!r}: agent {agent.name!r} has no tool named "
                        f"{call.name!r} (it has: {available})"
                    ),
                )
            )
            continue
        confirmation = answers.confirmations.get(call.id) if answers else None
        credential = answers.credentials.get(call.id) if answers else None
        if confirmation is not None and not confirmation.confirmed:
            parts.append(Part.from_function_response(call.name, DECLINED, call.id))
            continue
        if confirmation is None and tool.needs_confirmation(args):
            confirmations[call.id] = ToolConfirmation(
                hint=f"Allow {call.name} with {json.dumps(args, ensure_ascii=False)}?",
                payload=args,
            )
            outcome.waiting[call.id] = call.name
            continue

        tool_context = ToolContext(
            ctx, agent, call.id, tool_confirmation=confirmation, credential=credential
        )
        result = await _call_tool(agent, tool, args, tool_context)
        if tool_context.requested_confirmation is not None and confirmation is None:
            confirmations[call.id] = tool_context.requested_confirmation
            outcome.waiting[call.id] = call.name
            continue
        if tool_context.requested_credential is not None and credential is None:
            credentials[call.id] = tool_context.requested_credential
            outcome.waiting[call.id] = call.name
            continue
        target = tool_context.transfer_to_agent
        if target and target not in reachable:
            # The transfer does not happen, so the result that reports it is replaced.
            choices = ", ".join(reachable) or "none"
            result = {"error": f"cannot transfer to {target!r}; choose one of: {choices}"}
            logger.warning("agent %r cannot transfer to %r", agent.name, target)
            outcome.error_events.append(
                agent.new_event(
                    ctx,
                    error_code=ErrorCode.AGENT_NOT_FOUND,
                    error_message=(
                        f"call {call.id!r}: agent {agent.name!r} cannot transfer to "
                        f"{target!r} (it may reach: {choices})"
                    ),
                )
            )
            target = None
        parts.append(Part.from_function_response(call.name, result, call.id))
        delta.update(tool_context.delta)
        artifact_delta.update(tool_context.actions_artifact_delta)
        transfer = target or transfer
        escalate = escalate or tool_context.escalate
        skips.append(tool_context.skip_summarization)

    if parts or delta or artifact_delta:
        outcome.response_event = agent.new_event(
            ctx,
            content=Content(role="user", parts=tuple(parts)) if parts else None,
            actions=EventActions(
                state_delta=delta,
                artifact_delta=artifact_delta,
                transfer_to_agent=transfer,
                escalate=escalate,
                skip_summarization=bool(skips) and all(skips),
            ),
        )
    if confirmations or credentials:
        outcome.request_event = _request_event(agent, ctx, confirmations, credentials)
    return outcome


async def _call_tool(
    agent: LlmAgent, tool: BaseTool, args: dict[str, Any], tool_context: ToolContext
) -> dict[str, Any]:
    with tracing.tool_call(tool, tool_context) as span:
        early = None
        if agent.before_tool_callback is not None:
            early = await resolve(agent.before_tool_callback(tool, args, tool_context))
        if early is not None:
            result: dict[str, Any] = dict(early)
        else:
            result = await _run_tool(tool, args, tool_context, span)
        if agent.after_tool_callback is not None:
            replaced = await resolve(agent.after_tool_callback(tool, args, tool_context, result))
            if replaced is not None:
                result = dict(replaced)
    return result


async def _run_tool(
    tool: BaseTool, args: dict[str, Any], tool_context: ToolContext, span: tracing.ToolCall
) -> dict[str, Any]:
    try:
        raw = await tool.run(args, tool_context)
        return raw if isinstance(raw, dict) else {"result": raw}
    except (ToolArgumentsError, ToolError) as exc:
        # The tool's own words, meant for the model.
        span.failed(exc)
        return {"error": str(exc)}
    except Exception as exc:
        # The model sees the failure as the tool's result and may try another way; the log
        # keeps it in the function response.
        logger.warning("tool %s raised %s: %s", tool.name, type(exc).__name__, exc)
        span.failed(exc)
        return {"error": f"{type(exc).__name__}: {exc}"}


def _request_event(
    agent: LlmAgent,
    ctx: InvocationContext,
    confirmations: Mapping[str, ToolConfirmation],
    credentials: Mapping[str, CredentialRequest],
) -> Event:
    parts: list[Part] = []
    for call_id, confirmation in confirmations.items():
        args = {
            "function_call_id": call_id,
            "hint": confirmation.hint,
            "payload": thaw(confirmation.payload),
        }
        parts.append(
            Part.from_function_call(REQUEST_CONFIRMATION, args, "confirm-" + new_event_id())
        )
    for call_id, request in credentials.items():
        args = {"function_call_id": call_id, "auth_type": request.auth_type, "hint": request.hint}
        parts.append(Part.from_function_call(REQUEST_CREDENTIAL, args, "cred-" + new_event_id()))
    return agent.new_event(
        ctx,
        content=Content(role="model", parts=tuple(parts)),
        long_running_tool_ids=frozenset(p.function_call.id for p in parts if p.function_call),
        actions=EventActions(
            requested_tool_confirmations=dict(confirmations),
            requested_auth_configs=dict(credentials),
        ),
    )
