"""``OpenAIChatLlm`` through the real ``openai`` SDK against a local wire-format server."""

from __future__ import annotations

import importlib
import socket
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import openai
import pytest

from agentlog.errors import ModelError
from agentlog.events import (
    ArtifactRef,
    CodeExecutionResult,
    Content,
    ErrorCode,
    FunctionCall,
    Part,
    Usage,
)
from agentlog.models.base import BaseLlm, GenerationConfig, LlmRequest, LlmResponse, ToolDeclaration
from agentlog.models.openai import OpenAIChatLlm

from .openai_server import (
    MODEL,
    OpenAIServer,
    chunk,
    completion,
    error_body,
    running_server,
    text_chunks,
    tool_call,
    usage_chunk,
)

API_KEY = "sk-test-4f9c2b7e1d8a6f3c5b0e9d2a"

WEATHER = ToolDeclaration(
    name="get_weather",
    description="Current weather in a city.",
    parameters={
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
)


@pytest.fixture(scope="module")
def module_server() -> Iterator[OpenAIServer]:
    with running_server() as server:
        yield server


@pytest.fixture
def server(module_server: OpenAIServer) -> Iterator[OpenAIServer]:
    module_server.reset()
    yield module_server
    assert module_server.pending == 0, "a scripted reply was never asked for"
    assert module_server.unexpected == [], "the adapter made an unscripted request"


@pytest.fixture
async def llm(server: OpenAIServer) -> AsyncIterator[OpenAIChatLlm]:
    adapter = OpenAIChatLlm(
        "gpt-4o-mini", api_key=API_KEY, base_url=server.base_url, max_retries=0, timeout=5
    )
    yield adapter
    await adapter.aclose()


def ask(text: str, **kwargs: Any) -> LlmRequest:
    return LlmRequest(contents=(Content.from_text(text),), **kwargs)


async def collect(
    llm: OpenAIChatLlm,
    request: LlmRequest,
    *,
    stream: bool,
    into: list[LlmResponse] | None = None,
) -> list[LlmResponse]:
    """Every response of one call; ``into`` keeps those seen before an exception."""
    seen = [] if into is None else into
    async for response in llm.generate(request, stream=stream):
        seen.append(response)
    return seen


def model_says(text: str) -> LlmResponse:
    return LlmResponse(
        content=Content(role="model", parts=(Part(text=text),)), partial=True, model=MODEL
    )


# --- plain text ---------------------------------------------------------------------------------


async def test_plain_text(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.reply(completion("Hello there!", prompt_tokens=19, completion_tokens=10))

    request = ask("Hi", system_instruction="Be brief.")
    responses = await collect(llm, request, stream=False)

    assert responses == [
        LlmResponse(
            content=Content.from_text("Hello there!", role="model"),
            usage=Usage(input_tokens=19, output_tokens=10),
            model=MODEL,
        )
    ]
    sent = server.requests[0]
    assert (sent.method, sent.path) == ("POST", "/v1/chat/completions")
    assert sent.headers["authorization"] == f"Bearer {API_KEY}"
    assert sent.body == {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi"},
        ],
        "stream": False,
    }


async def test_text_streaming(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream([*text_chunks("Hel", "lo", " world"), usage_chunk(21, 3)])

    responses = await collect(llm, ask("Hi"), stream=True)

    assert responses == [
        model_says("Hel"),
        model_says("Hello"),
        model_says("Hello world"),
        LlmResponse(
            content=Content.from_text("Hello world", role="model"),
            usage=Usage(input_tokens=21, output_tokens=3),
            model=MODEL,
        ),
    ]
    body = server.last_body
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}


async def test_request_mapping(server: OpenAIServer) -> None:
    llm = OpenAIChatLlm(
        "gpt-4o-mini",
        api_key=API_KEY,
        base_url=server.base_url,
        max_retries=0,
        extra_body={"top_k": 20},
        default_headers={"X-Team": "agents"},
    )
    server.reply(completion("ok"))
    request = LlmRequest(
        model="gpt-4.1",
        system_instruction="You help.",
        contents=(
            Content.from_text("Weather in Paris and Rome?"),
            Content(
                role="model",
                parts=(
                    Part(text="Checking."),
                    Part.from_function_call("get_weather", {"city": "Paris"}, "call_p"),
                    Part.from_function_call("get_weather", {"city": "Rome"}, "call_r"),
                ),
            ),
            Content(
                role="user",
                parts=(
                    Part.from_function_response("get_weather", {"temp_c": 18}, "call_p"),
                    Part.from_function_response("get_weather", {"temp_c": 24}, "call_r"),
                    Part(text="Also, "),
                    Part(text="which is warmer?"),
                ),
            ),
        ),
        tools=(WEATHER, ToolDeclaration(name="now")),
        config=GenerationConfig(temperature=0.2, top_p=0.9, max_output_tokens=256, stop=("END",)),
    )

    await collect(llm, request, stream=False)
    await llm.aclose()

    assert server.requests[0].headers["x-team"] == "agents"
    body = server.last_body
    assert body["model"] == "gpt-4.1"
    assert body["messages"] == [
        {"role": "system", "content": "You help."},
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "call_p",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call_r",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_p", "content": '{"temp_c": 18}'},
        {"role": "tool", "tool_call_id": "call_r", "content": '{"temp_c": 24}'},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Also, "},
                {"type": "text", "text": "which is warmer?"},
            ],
        },
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather in a city.",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            },
        },
        {
            "type": "function",
            "function": {"name": "now", "parameters": {"type": "object", "properties": {}}},
        },
    ]
    assert body["temperature"] == 0.2
    assert body["top_p"] == 0.9
    assert body["max_completion_tokens"] == 256
    assert "max_tokens" not in body
    assert body["stop"] == ["END"]
    assert body["top_k"] == 20
    assert "response_format" not in body


async def test_older_servers_get_max_tokens(server: OpenAIServer) -> None:
    llm = OpenAIChatLlm(
        "llama3",
        api_key="unused",
        base_url=server.base_url,
        max_retries=0,
        max_tokens_param="max_tokens",
    )
    server.reply(completion("ok"))

    await collect(llm, ask("Hi", config=GenerationConfig(max_output_tokens=64)), stream=False)
    await llm.aclose()

    assert server.last_body["max_tokens"] == 64
    assert "max_completion_tokens" not in server.last_body


async def test_parts_without_a_wire_slot_go_as_text(
    llm: OpenAIChatLlm, server: OpenAIServer
) -> None:
    server.reply(completion("ok"))
    request = LlmRequest(
        contents=(
            Content(
                role="user",
                parts=(
                    Part(artifact_ref=ArtifactRef(name="report.pdf", version=2)),
                    Part(code_execution_result=CodeExecutionResult(outcome="ok", output="42")),
                ),
            ),
        )
    )

    await collect(llm, request, stream=False)

    assert server.last_body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "[artifact 'report.pdf' version 2]"},
                {"type": "text", "text": "[code execution ok]\n42"},
            ],
        }
    ]


# --- tool calls ---------------------------------------------------------------------------------


def calls_of(response: LlmResponse) -> list[FunctionCall]:
    assert response.content is not None
    return [p.function_call for p in response.content.parts if p.function_call is not None]


async def test_tool_call(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.reply(
        completion(
            tool_calls=[tool_call("call_abc123", "get_weather", '{"city":"Paris"}')],
            finish_reason="tool_calls",
        )
    )

    [response] = await collect(llm, ask("Weather in Paris?", tools=(WEATHER,)), stream=False)

    assert response.error_code is None
    assert response.content == Content(
        role="model",
        parts=(Part.from_function_call("get_weather", {"city": "Paris"}, "call_abc123"),),
    )


async def test_tool_call_streaming(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream(
        [
            chunk(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_abc123",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": ""},
                        }
                    ],
                    "refusal": None,
                }
            ),
            *(
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
                for piece in ['{"', "city", '":"', "Par", 'is"}']
            ),
            chunk({}, finish_reason="tool_calls"),
            usage_chunk(40, 17),
        ]
    )

    responses = await collect(llm, ask("Weather?", tools=(WEATHER,)), stream=True)

    assert responses == [
        LlmResponse(
            content=Content(
                role="model",
                parts=(Part.from_function_call("get_weather", {"city": "Paris"}, "call_abc123"),),
            ),
            usage=Usage(input_tokens=40, output_tokens=17),
            model=MODEL,
        )
    ]


def parallel_stream() -> list[dict[str, Any] | str]:
    def opening(index: int, call_id: str) -> dict[str, Any]:
        return chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call_id,
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ]
            }
        )

    def args(index: int, piece: str) -> dict[str, Any]:
        return chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})

    return [
        chunk({"role": "assistant", "content": "Let me check.", "refusal": None}),
        opening(0, "call_p"),
        args(0, '{"city":'),
        args(0, ' "Paris"}'),
        opening(1, "call_r"),
        args(1, '{"city": "Ro'),
        args(1, 'me"}'),
        chunk({}, finish_reason="tool_calls"),
        usage_chunk(50, 30),
    ]


@pytest.mark.parametrize("stream", [False, True])
async def test_parallel_tool_calls(llm: OpenAIChatLlm, server: OpenAIServer, stream: bool) -> None:
    if stream:
        server.stream(parallel_stream())
    else:
        server.reply(
            completion(
                "Let me check.",
                tool_calls=[
                    tool_call("call_p", "get_weather", '{"city": "Paris"}'),
                    tool_call("call_r", "get_weather", '{"city": "Rome"}'),
                ],
                finish_reason="tool_calls",
            )
        )

    responses = await collect(llm, ask("Paris and Rome?", tools=(WEATHER,)), stream=stream)

    final = responses[-1]
    assert not final.partial
    assert final.content == Content(
        role="model",
        parts=(
            Part(text="Let me check."),
            Part.from_function_call("get_weather", {"city": "Paris"}, "call_p"),
            Part.from_function_call("get_weather", {"city": "Rome"}, "call_r"),
        ),
    )
    assert responses[:-1] == ([model_says("Let me check.")] if stream else [])


async def test_function_call_round_trip_keeps_ids(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.reply(
        completion(
            tool_calls=[tool_call("call_Xy9", "get_weather", '{"city":"Oslo"}')],
            finish_reason="tool_calls",
        )
    )
    server.reply(completion("It is 3°C in Oslo."))
    question = Content.from_text("Weather in Oslo?")

    [first] = await collect(llm, ask("Weather in Oslo?", tools=(WEATHER,)), stream=False)
    [call] = calls_of(first)
    answer = Content(
        role="user",
        parts=(Part.from_function_response(call.name, {"temp_c": 3, "sky": "snow"}, call.id),),
    )
    assert first.content is not None
    follow_up = LlmRequest(contents=(question, first.content, answer), tools=(WEATHER,))
    [second] = await collect(llm, follow_up, stream=False)

    assert second.content == Content.from_text("It is 3°C in Oslo.", role="model")
    assert server.last_body["messages"] == [
        {"role": "user", "content": "Weather in Oslo?"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call_Xy9",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_Xy9", "content": '{"temp_c": 3, "sky": "snow"}'},
    ]


@pytest.mark.parametrize("stream", [False, True])
async def test_calls_without_ids_get_one(
    llm: OpenAIChatLlm, server: OpenAIServer, stream: bool
) -> None:
    # Some OpenAI-compatible servers send tool calls with no id (and, streaming, no index).
    nameless: dict[str, Any] = {"type": "function", "function": {"name": "now", "arguments": "{}"}}
    if stream:
        server.stream([chunk({"tool_calls": [nameless]}), chunk({}, finish_reason="tool_calls")])
    else:
        server.reply(completion(tool_calls=[nameless], finish_reason="tool_calls"))

    responses = await collect(llm, ask("Time?"), stream=stream)

    [call] = calls_of(responses[-1])
    assert call.name == "now"
    assert call.id.startswith("call-")


# --- structured output --------------------------------------------------------------------------


async def test_structured_output(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    schema = {
        "title": "City Report",
        "type": "object",
        "properties": {"city": {"type": "string"}, "temp_c": {"type": "number"}},
        "required": ["city", "temp_c"],
        "additionalProperties": False,
    }
    server.reply(completion('{"city":"Oslo","temp_c":3}'))

    [response] = await collect(llm, ask("Report", output_schema=schema), stream=False)

    assert response.content == Content.from_text('{"city":"Oslo","temp_c":3}', role="model")
    assert server.last_body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "City_Report", "schema": schema, "strict": True},
    }


async def test_structured_output_not_strict(server: OpenAIServer) -> None:
    llm = OpenAIChatLlm(
        "qwen", api_key="unused", base_url=server.base_url, max_retries=0, strict_output=False
    )
    server.reply(completion("{}"))

    await collect(llm, ask("Report", output_schema={"type": "object"}), stream=False)
    await llm.aclose()

    assert server.last_body["response_format"]["json_schema"] == {
        "name": "response",
        "schema": {"type": "object"},
        "strict": False,
    }


# --- usage and finish reasons -------------------------------------------------------------------


async def test_streamed_usage_comes_from_the_last_chunk(
    llm: OpenAIChatLlm, server: OpenAIServer
) -> None:
    server.stream([*text_chunks("ok"), usage_chunk(1234, 56)])

    responses = await collect(llm, ask("Hi"), stream=True)

    assert [r.usage for r in responses] == [None, Usage(input_tokens=1234, output_tokens=56)]


async def test_stream_without_usage_has_none(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream(text_chunks("ok"))  # servers that ignore stream_options send no usage chunk

    responses = await collect(llm, ask("Hi"), stream=True)

    assert responses[-1].usage is None
    assert responses[-1].content == Content.from_text("ok", role="model")


FINISHES = [
    pytest.param("length", None, ErrorCode.MAX_TOKENS, id="length"),
    pytest.param("content_filter", None, ErrorCode.SAFETY, id="content_filter"),
    pytest.param("stop", "I can't help with that.", ErrorCode.REFUSAL, id="refusal"),
    pytest.param("stop", None, None, id="stop"),
]


@pytest.mark.parametrize(("finish_reason", "refusal", "code"), FINISHES)
async def test_finish_reasons(
    llm: OpenAIChatLlm,
    server: OpenAIServer,
    finish_reason: str,
    refusal: str | None,
    code: ErrorCode | None,
) -> None:
    text = None if refusal else "Partial answ"
    server.reply(completion(text, refusal=refusal, finish_reason=finish_reason))

    [response] = await collect(llm, ask("Hi"), stream=False)

    assert response.error_code == code
    assert (response.error_message is None) == (code is None)
    if refusal:
        assert response.content is None
        assert refusal in (response.error_message or "")


@pytest.mark.parametrize(("finish_reason", "refusal", "code"), FINISHES)
async def test_finish_reasons_streaming(
    llm: OpenAIChatLlm,
    server: OpenAIServer,
    finish_reason: str,
    refusal: str | None,
    code: ErrorCode | None,
) -> None:
    if refusal:
        events: list[dict[str, Any] | str] = [
            chunk({"role": "assistant", "content": None, "refusal": ""}),
            chunk({"refusal": refusal[:7]}),
            chunk({"refusal": refusal[7:]}),
            chunk({}, finish_reason=finish_reason),
        ]
    else:
        events = list(text_chunks("Partial", " answ", finish_reason=finish_reason))
    server.stream([*events, usage_chunk(5, 2)])

    responses = await collect(llm, ask("Hi"), stream=True)

    final = responses[-1]
    assert [r.partial for r in responses] == [True] * (len(responses) - 1) + [False]
    assert all(r.error_code is None for r in responses[:-1])
    assert final.error_code == code
    assert final.usage == Usage(input_tokens=5, output_tokens=2)
    if refusal:
        assert responses == [final]
        assert refusal in (final.error_message or "")
    else:
        assert final.content == Content.from_text("Partial answ", role="model")


@pytest.mark.parametrize("arguments", ['{"city": "Par', "[1, 2]", "not json"])
@pytest.mark.parametrize("stream", [False, True])
async def test_malformed_arguments(
    llm: OpenAIChatLlm, server: OpenAIServer, stream: bool, arguments: str
) -> None:
    if stream:
        server.stream(
            [
                chunk({"tool_calls": [{"index": 0, **tool_call("call_1", "get_weather", "")}]}),
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments}}]}),
                chunk({}, finish_reason="tool_calls"),
            ]
        )
    else:
        server.reply(
            completion(
                tool_calls=[tool_call("call_1", "get_weather", arguments)],
                finish_reason="tool_calls",
            )
        )

    responses = await collect(llm, ask("Weather?", tools=(WEATHER,)), stream=stream)

    [final] = responses
    assert final.error_code is ErrorCode.MALFORMED_OUTPUT
    assert "get_weather" in (final.error_message or "")
    assert final.content is None


async def test_arguments_cut_by_the_token_limit_report_max_tokens(
    llm: OpenAIChatLlm, server: OpenAIServer
) -> None:
    server.reply(
        completion(
            tool_calls=[tool_call("call_1", "get_weather", '{"city": "Par')],
            finish_reason="length",
        )
    )

    [response] = await collect(llm, ask("Weather?", tools=(WEATHER,)), stream=False)

    assert response.error_code is ErrorCode.MAX_TOKENS
    assert "get_weather" in (response.error_message or "")


# --- errors -------------------------------------------------------------------------------------

ERRORS = [
    pytest.param(
        429,
        error_body(
            "Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min (TPM): "
            "Limit 200000, Used 199000, Requested 2000. Please try again in 300ms.",
            type="tokens",
            code="rate_limit_exceeded",
        ),
        ErrorCode.RATE_LIMITED,
        True,
        id="429",
    ),
    pytest.param(
        429,
        error_body(
            "You exceeded your current quota, please check your plan and billing details.",
            type="insufficient_quota",
            code="insufficient_quota",
        ),
        ErrorCode.RATE_LIMITED,
        False,
        id="429-quota",
    ),
    pytest.param(
        401,
        error_body(
            "Incorrect API key provided: sk-test-****9d2a. You can find your API key at "
            "https://platform.openai.com/account/api-keys.",
            type="invalid_request_error",
            code="invalid_api_key",
        ),
        ErrorCode.AUTHENTICATION,
        False,
        id="401",
    ),
    pytest.param(
        403,
        error_body(
            "Project `proj_abc` does not have access to model `gpt-4o-mini`",
            type="invalid_request_error",
            code="model_not_found",
        ),
        ErrorCode.AUTHENTICATION,
        False,
        id="403",
    ),
    pytest.param(
        500,
        error_body(
            "The server had an error while processing your request. Sorry about that!",
            type="server_error",
        ),
        ErrorCode.PROVIDER_ERROR,
        True,
        id="500",
    ),
    pytest.param(
        400,
        error_body(
            "This model's maximum context length is 128000 tokens. However, your messages "
            "resulted in 131072 tokens. Please reduce the length of the messages.",
            type="invalid_request_error",
            code="context_length_exceeded",
            param="messages",
        ),
        ErrorCode.CONTEXT_TOO_LONG,
        False,
        id="400-context",
    ),
    pytest.param(
        400,
        {
            "object": "error",
            "message": "This model's maximum context length is 8192 tokens. However, you "
            "requested 9000 tokens (8000 in the messages, 1000 in the completion).",
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        },
        ErrorCode.CONTEXT_TOO_LONG,
        False,
        id="400-context-vllm",
    ),
    pytest.param(
        400,
        {
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": 5000,
                "n_ctx": 4096,
            }
        },
        ErrorCode.CONTEXT_TOO_LONG,
        False,
        id="400-context-llamacpp",
    ),
    pytest.param(
        400,
        error_body(
            "Invalid value for 'temperature': must be at most 2.",
            type="invalid_request_error",
            code="invalid_value",
            param="temperature",
        ),
        ErrorCode.PROVIDER_ERROR,
        False,
        id="400",
    ),
    pytest.param(
        400,
        error_body(
            "The response was filtered due to the prompt triggering Azure OpenAI's content "
            "management policy.",
            type="invalid_request_error",
            code="content_filter",
            param="prompt",
        ),
        ErrorCode.SAFETY,
        False,
        id="400-azure-filter",
    ),
    pytest.param(
        404,
        error_body(
            "The model `gpt-9` does not exist or you do not have access to it.",
            type="invalid_request_error",
            code="model_not_found",
        ),
        ErrorCode.PROVIDER_ERROR,
        False,
        id="404",
    ),
]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("status", "body", "code", "retryable"), ERRORS)
async def test_http_errors(
    llm: OpenAIChatLlm,
    server: OpenAIServer,
    stream: bool,
    status: int,
    body: dict[str, Any],
    code: ErrorCode,
    retryable: bool,
) -> None:
    server.reply(body, status=status)

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=stream)

    error = caught.value
    assert error.error_code is code
    assert error.retryable is retryable
    assert isinstance(error.__cause__, openai.APIStatusError)
    assert error.__cause__.status_code == status
    assert str(status) in str(error)


async def test_error_messages_never_carry_the_key(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    # A compatible server that echoes the whole key back.
    message = f"Invalid key {API_KEY}; OpenAI would show sk-proj-abcd****wxyz"
    server.reply(error_body(message, type="invalid_request_error"), status=401)

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=False)

    assert caught.value.error_code is ErrorCode.AUTHENTICATION
    assert API_KEY not in str(caught.value)
    assert "sk-proj-abcd" not in str(caught.value)
    assert "Invalid key" in str(caught.value)


async def test_timeout(server: OpenAIServer) -> None:
    llm = OpenAIChatLlm("m", api_key=API_KEY, base_url=server.base_url, max_retries=0, timeout=0.2)
    server.reply(completion("too late"), delay=1.0)

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=False)
    await llm.aclose()

    assert caught.value.error_code is ErrorCode.TIMEOUT
    assert caught.value.retryable
    assert isinstance(caught.value.__cause__, openai.APITimeoutError)


async def test_stream_that_goes_silent_times_out(server: OpenAIServer) -> None:
    llm = OpenAIChatLlm("m", api_key=API_KEY, base_url=server.base_url, max_retries=0, timeout=0.2)
    server.stream(text_chunks("Hel", "lo"), stall_after=2, stall=1.0)

    seen: list[LlmResponse] = []
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=True, into=seen)
    await llm.aclose()

    assert seen == [model_says("Hel")]
    assert caught.value.error_code is ErrorCode.TIMEOUT


async def test_error_event_mid_stream(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream(
        [
            *text_chunks("Hel")[:2],
            error_body(
                "The server had an error while processing your request.", type="server_error"
            ),
        ],
        done=False,
    )

    seen: list[LlmResponse] = []
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=True, into=seen)

    assert seen == [model_says("Hel")]
    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable
    assert "server had an error" in str(caught.value)
    assert isinstance(caught.value.__cause__, openai.APIError)


async def test_connection_dropped_mid_stream(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream(text_chunks("Hel", "lo"), drop_after=2)

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=True)

    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable
    assert isinstance(caught.value.__cause__, openai.APIConnectionError)


async def test_stream_that_ends_before_finishing(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream(text_chunks("Hel", "lo")[:2], done=False)

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=True)

    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable


async def test_unreadable_stream_event(llm: OpenAIChatLlm, server: OpenAIServer) -> None:
    server.stream([text_chunks("Hel")[1], "{not json"])

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=True)

    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR


async def test_unreachable_server() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again before the request: nothing listens
    llm = OpenAIChatLlm("m", api_key=API_KEY, base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)

    with pytest.raises(ModelError) as caught:
        await collect(llm, ask("Hi"), stream=False)
    await llm.aclose()

    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable
    assert isinstance(caught.value.__cause__, openai.APIConnectionError)


# --- construction -------------------------------------------------------------------------------


async def test_is_a_base_llm_and_accepts_a_ready_client(server: OpenAIServer) -> None:
    client = openai.AsyncOpenAI(api_key=API_KEY, base_url=server.base_url, max_retries=0)
    llm = OpenAIChatLlm("gpt-4o-mini", client=client)
    server.reply(completion("hi"))

    [response] = await collect(llm, ask("Hi"), stream=False)
    await llm.aclose()  # not ours to close

    assert isinstance(llm, BaseLlm)
    assert llm.model == "gpt-4o-mini"
    assert response.content == Content.from_text("hi", role="model")
    assert not client.is_closed()
    await client.close()


def test_client_and_settings_are_exclusive() -> None:
    client = openai.AsyncOpenAI(api_key=API_KEY)
    with pytest.raises(ValueError, match="not both"):
        OpenAIChatLlm("m", client=client, base_url="http://127.0.0.1:1/v1")


def test_missing_key_is_an_authentication_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_ADMIN_KEY", raising=False)
    with pytest.raises(ModelError) as caught:
        OpenAIChatLlm("m")
    assert caught.value.error_code is ErrorCode.AUTHENTICATION


def test_import_without_the_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)  # makes `import openai` fail
    monkeypatch.delitem(sys.modules, "agentlog.models.openai")
    with pytest.raises(ImportError, match=r"pip install 'agentlog\[openai\]'"):
        importlib.import_module("agentlog.models.openai")
