"""The Chat Completions wire format (``POST /chat/completions``): requests out, responses in.

Pure mapping between agentlog's model types and the JSON the OpenAI API (and compatible servers
such as vLLM, Ollama or llama.cpp) speaks; no I/O. The SDK's types are used for type checking
only, so this module imports without the ``openai`` extra.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from agentlog._frozen import thaw
from agentlog.events import ErrorCode, FunctionCall, FunctionResponse, Part, Usage
from agentlog.models._stream import StreamAccumulator, ToolCallDraft, new_call_id
from agentlog.models.base import LlmRequest, LlmResponse, ToolDeclaration

if TYPE_CHECKING:
    from openai.types import CompletionUsage
    from openai.types.chat import (
        ChatCompletion,
        ChatCompletionChunk,
        ChatCompletionContentPartTextParam,
        ChatCompletionFunctionToolParam,
        ChatCompletionMessageFunctionToolCallParam,
        ChatCompletionMessageParam,
    )
    from openai.types.shared_params import ResponseFormatJSONSchema

__all__ = ["ChatArgs", "ChunkReader", "build_args", "from_completion", "to_messages"]

MaxTokensParam = Literal["max_completion_tokens", "max_tokens"]
"""The request field that caps output: OpenAI's current name, or the older one some servers need."""

_SCHEMA_NAME = re.compile(r"[^a-zA-Z0-9_-]")


class ChatArgs(TypedDict):
    """Keyword arguments for ``chat.completions.create`` (all but ``stream``)."""

    model: str
    messages: list[ChatCompletionMessageParam]
    tools: NotRequired[list[ChatCompletionFunctionToolParam]]
    response_format: NotRequired[ResponseFormatJSONSchema]
    temperature: NotRequired[float]
    top_p: NotRequired[float]
    max_completion_tokens: NotRequired[int]
    max_tokens: NotRequired[int]
    stop: NotRequired[list[str]]
    extra_body: NotRequired[dict[str, object]]


def build_args(
    request: LlmRequest,
    *,
    model: str,
    strict_output: bool = True,
    max_tokens_param: MaxTokensParam = "max_completion_tokens",
    extra_body: Mapping[str, object] | None = None,
) -> ChatArgs:
    """The request as Chat Completions arguments; settings left as ``None`` are not sent."""
    args = ChatArgs(model=request.model or model, messages=to_messages(request))
    if request.tools:
        args["tools"] = [_tool(tool) for tool in request.tools]
    if request.output_schema is not None:
        args["response_format"] = _response_format(request.output_schema, strict=strict_output)
    config = request.config
    if config.temperature is not None:
        args["temperature"] = config.temperature
    if config.top_p is not None:
        args["top_p"] = config.top_p
    if config.max_output_tokens is not None:
        args[max_tokens_param] = config.max_output_tokens
    if config.stop:
        args["stop"] = list(config.stop)
    if extra_body:
        args["extra_body"] = dict(extra_body)
    return args


def to_messages(request: LlmRequest) -> list[ChatCompletionMessageParam]:
    """The system prompt and history as Chat Completions messages.

    A model turn becomes one ``assistant`` message holding its text and ``tool_calls``. Function
    responses become ``tool`` messages, placed before the user's own text because the API wants
    every answer right after the assistant message that made the calls.
    """
    messages: list[ChatCompletionMessageParam] = []
    if request.system_instruction:
        messages.append({"role": "system", "content": request.system_instruction})
    for content in request.contents:
        texts = [text for text in map(_as_text, content.parts) if text]
        calls = [p.function_call for p in content.parts if p.function_call is not None]
        answers = [p.function_response for p in content.parts if p.function_response is not None]
        if content.role == "model":
            if texts or calls:
                messages.append(_assistant("".join(texts), calls))
            messages.extend(_tool_message(answer) for answer in answers)
        else:
            if calls:
                messages.append(_assistant("", calls))
            messages.extend(_tool_message(answer) for answer in answers)
            if texts:
                messages.append({"role": "user", "content": _user_text(texts)})
    return messages


def _as_text(part: Part) -> str | None:
    # Parts the wire format has no slot for are passed as text rather than silently dropped.
    if part.text is not None:
        return part.text
    if part.code_execution_result is not None:
        result = part.code_execution_result
        return f"[code execution {result.outcome}]\n{result.output}"
    if part.artifact_ref is not None:
        return f"[artifact {part.artifact_ref.name!r} version {part.artifact_ref.version}]"
    return None


def _user_text(texts: list[str]) -> str | list[ChatCompletionContentPartTextParam]:
    if len(texts) == 1:
        return texts[0]
    return [{"type": "text", "text": text} for text in texts]


def _assistant(text: str, calls: list[FunctionCall]) -> ChatCompletionMessageParam:
    tool_calls: list[ChatCompletionMessageFunctionToolCallParam] = [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(thaw(call.args))},
        }
        for call in calls
    ]
    if not tool_calls:
        return {"role": "assistant", "content": text}
    if not text:
        return {"role": "assistant", "tool_calls": tool_calls}
    return {"role": "assistant", "content": text, "tool_calls": tool_calls}


def _tool_message(answer: FunctionResponse) -> ChatCompletionMessageParam:
    return {
        "role": "tool",
        "tool_call_id": answer.id,
        "content": json.dumps(thaw(answer.response), ensure_ascii=False),
    }


def _tool(tool: ToolDeclaration) -> ChatCompletionFunctionToolParam:
    param: ChatCompletionFunctionToolParam = {
        "type": "function",
        "function": {"name": tool.name, "parameters": thaw(tool.parameters)},
    }
    if tool.description:
        param["function"]["description"] = tool.description
    return param


def _response_format(schema: Mapping[str, Any], *, strict: bool) -> ResponseFormatJSONSchema:
    title = schema.get("title")
    name = _SCHEMA_NAME.sub("_", title)[:64] if isinstance(title, str) and title else "response"
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": thaw(schema), "strict": strict},
    }


# --- responses ----------------------------------------------------------------------------------


def finish_error(finish_reason: str | None, refusal: str) -> tuple[ErrorCode | None, str | None]:
    """The typed reason a choice stopped short, from its finish reason and refusal text."""
    if refusal:
        return ErrorCode.REFUSAL, f"the model refused: {refusal}"
    if finish_reason == "content_filter":
        return ErrorCode.SAFETY, "the provider's content filter stopped the output"
    if finish_reason == "length":
        return ErrorCode.MAX_TOKENS, "the output reached its token limit"
    return None, None


def _usage(usage: CompletionUsage | None) -> Usage | None:
    if usage is None:
        return None
    return Usage(input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0)


def _finish(acc: StreamAccumulator, finish_reason: str | None, refusal: str) -> LlmResponse:
    code, message = finish_error(finish_reason, refusal)
    acc.error_code, acc.error_message = code, message
    response = acc.final()
    if code is not None and response.error_code is ErrorCode.MALFORMED_OUTPUT:
        # Arguments cut off by the token limit do not parse; the limit is the cause to report.
        response = response.model_copy(
            update={"error_code": code, "error_message": f"{message}; {response.error_message}"}
        )
    return response


def from_completion(completion: ChatCompletion, model: str) -> LlmResponse:
    """The one response to a non-streaming call; ``model`` if the server names none."""
    acc = StreamAccumulator(model=completion.model or model, usage=_usage(completion.usage))
    if not completion.choices:
        return _finish(acc, None, "")
    choice = completion.choices[0]
    message = choice.message
    if message.content:
        acc.text.append(message.content)
    for call in message.tool_calls or ():
        if call.type == "custom":  # only function tools are declared
            continue
        acc.calls.append(
            ToolCallDraft(
                id=call.id or new_call_id(),
                name=call.function.name,
                arguments_json=call.function.arguments or "",
            )
        )
    return _finish(acc, choice.finish_reason, message.refusal or "")


@dataclass
class ChunkReader:
    """Folds ``chat.completion.chunk`` objects into partial responses and one final response."""

    acc: StreamAccumulator
    finish_reason: str | None = None
    refusal: list[str] = field(default_factory=list)
    _drafts: dict[int | str, ToolCallDraft] = field(default_factory=dict)
    _last_key: int | str | None = None

    @property
    def finished(self) -> bool:
        """Whether a finish reason arrived (a stream cut short has none)."""
        return self.finish_reason is not None

    def add(self, chunk: ChatCompletionChunk) -> LlmResponse | None:
        """Take one chunk; return a partial response when it added text."""
        if chunk.model:
            self.acc.model = chunk.model
        if chunk.usage is not None:
            self.acc.usage = _usage(chunk.usage)
        partial = None
        for choice in chunk.choices:
            if choice.index:  # only one choice is requested; some servers leave index out
                continue
            delta = choice.delta
            if delta.refusal:
                self.refusal.append(delta.refusal)
            for fragment in delta.tool_calls or ():
                self._add_call_fragment(
                    fragment.index,
                    fragment.id,
                    fragment.function.name if fragment.function else None,
                    fragment.function.arguments if fragment.function else None,
                )
            if delta.content:
                partial = self.acc.add_text(delta.content)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
        return partial

    def _add_call_fragment(
        self, index: int | None, call_id: str | None, name: str | None, arguments: str | None
    ) -> None:
        # The first fragment of a call carries its id and name, the rest only its index and a
        # piece of the arguments. Some compatible servers omit the index and send whole calls.
        key: int | str | None = index if index is not None else call_id or self._last_key
        draft = self._drafts.get(key) if key is not None else None
        if draft is None or (call_id and call_id != draft.id):
            draft = ToolCallDraft(id=call_id or new_call_id(), name=name or "")
            key = key if key is not None else draft.id
            self._drafts[key] = draft
            self.acc.calls.append(draft)
        elif name and not draft.name:
            draft.name = name
        draft.arguments_json += arguments or ""
        self._last_key = key

    def final(self) -> LlmResponse:
        """The aggregated response, with the finish reason mapped to an error code."""
        return _finish(self.acc, self.finish_reason, "".join(self.refusal))
