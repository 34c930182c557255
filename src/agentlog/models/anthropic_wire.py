"""The Anthropic Messages API wire format: requests out, replies, stream events and errors in.

Pure translation with no I/O; :mod:`agentlog.models.anthropic` owns the client. Written against
the 2.x SDK, which sends ``anthropic-version: 2026-10-21``.
"""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

try:
    import anthropic
    import httpx2
    from anthropic.types import (
        AssistantMessageParam,
        InputJSONDelta,
        Message,
        MessageDeltaUsage,
        MessageParam,
        OutputConfigParam,
        RawContentBlockDeltaEvent,
        RawContentBlockStartEvent,
        RawMessageDeltaEvent,
        RawMessageStartEvent,
        RawMessageStopEvent,
        RawMessageStreamEvent,
        RefusalStopDetails,
        TextBlock,
        TextBlockParam,
        TextDelta,
        ToolParam,
        ToolResultBlockParam,
        ToolUseBlock,
        ToolUseBlockParam,
        UserMessageParam,
    )
    from anthropic.types import Usage as AnthropicUsage
    from anthropic.types.message_create_params import MessageCreateParamsBase
except ImportError as exc:  # pragma: no cover - covered by a test that hides the SDK
    raise ImportError(
        "agentlog's Anthropic adapter needs the anthropic SDK: pip install 'agentlog[anthropic]'"
    ) from exc

from agentlog._frozen import thaw
from agentlog.events import Content, ErrorCode, Part, Usage
from agentlog.models._secrets import redact_exception, redact_secrets
from agentlog.models._stream import StreamAccumulator, ToolCallDraft, new_call_id
from agentlog.models.base import LlmRequest, LlmResponse, ModelError, ToolDeclaration

__all__ = [
    "StreamTranslator",
    "build_request",
    "response_from_message",
    "stop_error",
    "to_messages",
    "to_model_error",
]

_Role: TypeAlias = Literal["user", "assistant"]
_Block: TypeAlias = TextBlockParam | ToolUseBlockParam | ToolResultBlockParam

_STOP_ERRORS: Mapping[str, ErrorCode] = {
    "max_tokens": ErrorCode.MAX_TOKENS,
    "refusal": ErrorCode.REFUSAL,
    # Prompt plus output filled the window: shortening the history is the fix, not max_tokens.
    "model_context_window_exceeded": ErrorCode.CONTEXT_TOO_LONG,
    # "pause_turn" only follows server tools, which this adapter never declares.
}

_CONTEXT_MARKERS = ("prompt is too long", "exceed context limit")


# --- request ------------------------------------------------------------------------------------


def build_request(request: LlmRequest, *, model: str, max_tokens: int) -> MessageCreateParamsBase:
    """The ``messages.create`` arguments for a request (``model``/``max_tokens`` are defaults)."""
    config = request.config
    if config.temperature is not None or config.top_p is not None:
        # The SDK dropped these arguments and API version 2026-10-21 answers 400 to them, even at
        # their defaults; failing every call over a tuning hint would be worse than ignoring it.
        warnings.warn(
            "AnthropicLlm ignores temperature and top_p: the Anthropic API no longer accepts them",
            UserWarning,
            stacklevel=3,
        )
    params = MessageCreateParamsBase(
        model=request.model or model,
        max_tokens=config.max_output_tokens or max_tokens,
        messages=to_messages(request.contents),
    )
    if request.system_instruction:
        params["system"] = request.system_instruction
    if request.tools:
        params["tools"] = [_tool(t) for t in request.tools]
    if request.output_schema is not None:
        params["output_config"] = _output_config(request.output_schema)
    if config.stop:
        params["stop_sequences"] = list(config.stop)
    return params


def to_messages(contents: Sequence[Content]) -> list[MessageParam]:
    """History as alternating user/assistant messages; same-role neighbours are merged."""
    turns: list[tuple[_Role, list[_Block]]] = []
    for content in contents:
        for part in content.parts:
            mapped = _block(content.role, part)
            if mapped is None:
                continue
            role, block = mapped
            if turns and turns[-1][0] == role:
                turns[-1][1].append(block)
            else:
                turns.append((role, [block]))
    return [_message(role, blocks) for role, blocks in turns]


def _block(role: Literal["user", "model"], part: Part) -> tuple[_Role, _Block] | None:
    speaker: _Role = "assistant" if role == "model" else "user"
    if part.function_call is not None:
        call = part.function_call
        return "assistant", ToolUseBlockParam(
            type="tool_use", id=call.id, name=call.name, input=thaw(call.args)
        )
    if part.function_response is not None:
        result = part.function_response
        return "user", ToolResultBlockParam(
            type="tool_result",
            tool_use_id=result.id,
            content=json.dumps(thaw(result.response), ensure_ascii=False),
        )
    text = _part_text(part)
    # The API rejects empty and whitespace-only text blocks.
    if not text.strip():
        return None
    return speaker, TextBlockParam(type="text", text=text)


def _part_text(part: Part) -> str:
    if part.text is not None:
        return part.text
    if part.code_execution_result is not None:
        result = part.code_execution_result
        return f"[code execution {result.outcome}]\n{result.output}"
    if part.artifact_ref is not None:
        return f"[artifact {part.artifact_ref.name!r} version {part.artifact_ref.version}]"
    return ""


def _message(role: _Role, blocks: list[_Block]) -> MessageParam:
    if role == "assistant":
        return AssistantMessageParam(role="assistant", content=blocks)
    # A user turn that answers tool calls must open with its tool_result blocks.
    ordered = sorted(blocks, key=lambda block: block["type"] != "tool_result")
    return UserMessageParam(role="user", content=ordered)


def _tool(tool: ToolDeclaration) -> ToolParam:
    param = ToolParam(name=tool.name, input_schema=thaw(tool.parameters))
    if tool.description:
        param["description"] = tool.description
    return param


def _output_config(schema: Mapping[str, Any]) -> OutputConfigParam:
    """Native structured output: ``output_config.format`` with a JSON schema."""
    plain: dict[str, Any] = thaw(schema)
    # The SDK's own adapter to the schema subset the API accepts (closed objects, unsupported
    # keywords moved into descriptions), as `messages.parse` uses. A shape it does not know (no
    # type, a list of types) goes as is, for the API to judge.
    with contextlib.suppress(ValueError, AssertionError):
        plain = anthropic.transform_schema(plain)
    return OutputConfigParam(format={"type": "json_schema", "schema": plain})


# --- replies ------------------------------------------------------------------------------------


def response_from_message(message: Message) -> LlmResponse:
    """The one non-partial response for a whole (non-streamed) message."""
    acc = StreamAccumulator(model=message.model)
    for block in message.content:
        if isinstance(block, TextBlock):
            acc.text.append(block.text)
        elif isinstance(block, ToolUseBlock):
            acc.calls.append(_draft(block.id, block.name, block.input))
    usage = message.usage
    acc.usage = _usage(
        usage.input_tokens,
        usage.cache_creation_input_tokens,
        usage.cache_read_input_tokens,
        usage.output_tokens,
    )
    acc.error_code, acc.error_message = stop_error(message.stop_reason, message.stop_details)
    return acc.final()


def _draft(call_id: str, name: str, arguments: object) -> ToolCallDraft:
    if isinstance(arguments, dict):
        return ToolCallDraft(id=call_id or new_call_id(), name=name, arguments=dict(arguments))
    # Not an object: keep it as JSON text so StreamAccumulator reports MALFORMED_OUTPUT.
    return ToolCallDraft(
        id=call_id or new_call_id(), name=name, arguments_json=json.dumps(arguments)
    )


def stop_error(
    stop_reason: str | None, details: RefusalStopDetails | None = None
) -> tuple[ErrorCode | None, str | None]:
    """The error code (and detail) a stop reason means; ``(None, None)`` for a normal stop."""
    code = _STOP_ERRORS.get(stop_reason or "")
    if code is None:
        return None, None
    message = f"stop_reason {stop_reason!r}"
    if details is not None:
        detail = ", ".join(d for d in (details.category, details.explanation) if d)
        message += f": {detail}" if detail else ""
    return code, message


def _usage(
    input_tokens: int | None,
    cache_creation: int | None,
    cache_read: int | None,
    output_tokens: int | None,
) -> Usage:
    # The API counts cached prompt tokens apart from input_tokens; the prompt is all three.
    prompt = (input_tokens or 0) + (cache_creation or 0) + (cache_read or 0)
    return Usage(input_tokens=prompt, output_tokens=output_tokens or 0)


@dataclass
class StreamTranslator:
    """Turns raw Messages stream events into partial responses and one final response."""

    model: str
    finished: bool = field(default=False, init=False)
    _acc: StreamAccumulator = field(init=False)
    _drafts: dict[int, ToolCallDraft] = field(default_factory=dict, init=False)
    _tokens: dict[str, int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._acc = StreamAccumulator(model=self.model)

    def feed(self, event: RawMessageStreamEvent) -> LlmResponse | None:
        """Take one event; return a partial response when the text grew."""
        if isinstance(event, RawContentBlockDeltaEvent):
            delta = event.delta
            if isinstance(delta, TextDelta):
                return self._acc.add_text(delta.text)
            if isinstance(delta, InputJSONDelta) and event.index in self._drafts:
                self._drafts[event.index].arguments_json += delta.partial_json
        elif isinstance(event, RawContentBlockStartEvent):
            block = event.content_block
            if isinstance(block, ToolUseBlock):
                # The start block carries `input: {}`; the arguments follow as JSON fragments.
                draft = ToolCallDraft(id=block.id or new_call_id(), name=block.name)
                self._drafts[event.index] = draft
                self._acc.calls.append(draft)
            elif isinstance(block, TextBlock):
                return self._acc.add_text(block.text)
        elif isinstance(event, RawMessageStartEvent):
            self._acc.model = event.message.model or self.model
            self._count(event.message.usage)
        elif isinstance(event, RawMessageDeltaEvent):
            self._count(event.usage)
            self._acc.error_code, self._acc.error_message = stop_error(
                event.delta.stop_reason, event.delta.stop_details
            )
        elif isinstance(event, RawMessageStopEvent):
            self.finished = True
        return None

    def _count(self, usage: AnthropicUsage | MessageDeltaUsage) -> None:
        # message_delta counts are cumulative and may leave out the input side; keep the newest.
        counts = {
            "input_tokens": usage.input_tokens,
            "cache_creation_input_tokens": usage.cache_creation_input_tokens,
            "cache_read_input_tokens": usage.cache_read_input_tokens,
            "output_tokens": usage.output_tokens,
        }
        self._tokens.update({name: n for name, n in counts.items() if n is not None})

    def final(self) -> LlmResponse:
        """The aggregated, non-partial response."""
        t = self._tokens
        self._acc.usage = _usage(
            t.get("input_tokens"),
            t.get("cache_creation_input_tokens"),
            t.get("cache_read_input_tokens"),
            t.get("output_tokens"),
        )
        return self._acc.final()


# --- errors -------------------------------------------------------------------------------------


def to_model_error(exc: Exception, *secrets: str | None) -> ModelError:
    """Translate an SDK or transport exception, masking ``secrets`` and key-shaped text."""
    code, retryable, message = _classify(exc)
    redact_exception(exc, *secrets)
    return ModelError(code, redact_secrets(message, *secrets), retryable=retryable)


def _classify(exc: Exception) -> tuple[ErrorCode, bool, str]:
    if isinstance(exc, anthropic.APITimeoutError | httpx2.TimeoutException):
        return ErrorCode.TIMEOUT, True, "the Anthropic API did not answer in time"
    if isinstance(exc, anthropic.APIConnectionError | httpx2.TransportError):
        cause = exc.__cause__ or exc  # the SDK's "Connection error." wraps the transport's reason
        return (
            ErrorCode.PROVIDER_ERROR,
            True,
            f"could not reach the Anthropic API: {type(cause).__name__}: {cause}",
        )
    if isinstance(exc, anthropic.APIStatusError):
        return _classify_status(exc)
    if isinstance(exc, anthropic.CredentialsError):
        return ErrorCode.AUTHENTICATION, False, f"Anthropic credentials: {exc}"
    return ErrorCode.PROVIDER_ERROR, False, f"Anthropic SDK: {type(exc).__name__}: {exc}"


def _classify_status(exc: anthropic.APIStatusError) -> tuple[ErrorCode, bool, str]:
    status, kind = exc.status_code, exc.type or ""
    text = exc.api_message or str(exc)
    # An `error` event inside a 200 stream arrives with the stream's status.
    where = "mid-stream" if status < 400 else f"HTTP {status}"
    message = f"Anthropic API {where} {kind or 'error'}: {text}"
    if exc.request_id:
        message += f" (request-id {exc.request_id})"
    if status == 429 or kind == "rate_limit_error":
        return ErrorCode.RATE_LIMITED, True, message
    if status in (401, 403) or kind in ("authentication_error", "permission_error"):
        return ErrorCode.AUTHENTICATION, False, message
    if (status in (400, 413) or kind == "invalid_request_error") and any(
        marker in text.lower() for marker in _CONTEXT_MARKERS
    ):
        return ErrorCode.CONTEXT_TOO_LONG, False, message
    if status in (408, 504) or kind == "timeout_error":
        return ErrorCode.TIMEOUT, True, message
    if status >= 500 or kind in ("api_error", "overloaded_error"):
        return ErrorCode.PROVIDER_ERROR, True, message
    return ErrorCode.PROVIDER_ERROR, False, message
