"""AnthropicLlm through the real ``anthropic`` SDK against a local wire-format server."""

from __future__ import annotations

import importlib
import socket
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anthropic
import pytest

from agentlog.events import (
    ArtifactRef,
    CodeExecutionResult,
    Content,
    ErrorCode,
    FunctionCall,
    Part,
    Usage,
)
from agentlog.models.anthropic import AnthropicLlm
from agentlog.models.base import (
    BaseLlm,
    GenerationConfig,
    LlmRequest,
    LlmResponse,
    ModelError,
    ToolDeclaration,
    response_text,
)

from .anthropic_server import (
    MODEL,
    AnthropicServer,
    Reply,
    StreamReply,
    TextChunks,
    ToolChunks,
    block_events,
    error_body,
    message,
    message_end,
    message_start,
    stream,
    text_block,
    tool_use_block,
)

API_KEY = "sk-ant-test-0123456789"

WEATHER = ToolDeclaration(
    name="get_weather",
    description="Current weather for a city.",
    parameters={
        "type": "object",
        "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
        "required": ["city"],
    },
)


@pytest.fixture(scope="module")
def _running() -> Iterator[AnthropicServer]:
    server = AnthropicServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(_running: AnthropicServer) -> Iterator[AnthropicServer]:
    _running.reset()
    yield _running
    assert not _running.unexpected, _running.unexpected
    assert not _running.replies, "replies queued but never requested"


@pytest.fixture
async def llm(server: AnthropicServer) -> AsyncIterator[AnthropicLlm]:
    adapter = AnthropicLlm(MODEL, api_key=API_KEY, base_url=server.base_url, max_retries=0)
    yield adapter
    await adapter.aclose()


def ask(text: str = "Hi", **kwargs: Any) -> LlmRequest:
    return LlmRequest(contents=(Content.from_text(text),), **kwargs)


async def collect(llm: AnthropicLlm, request: LlmRequest, *, stream: bool) -> list[LlmResponse]:
    return [r async for r in llm.generate(request, stream=stream)]


async def failure(llm: AnthropicLlm, request: LlmRequest, *, stream: bool) -> ModelError:
    with pytest.raises(ModelError) as caught:
        await collect(llm, request, stream=stream)
    return caught.value


async def drain(llm: AnthropicLlm, request: LlmRequest, seen: list[str]) -> None:
    async for response in llm.generate(request, stream=True):
        seen.append(response_text(response))


def calls(response: LlmResponse) -> list[FunctionCall]:
    assert response.content is not None
    return [p.function_call for p in response.content.parts if p.function_call is not None]


# --- plain text ---------------------------------------------------------------------------------


async def test_plain_text(server: AnthropicServer, llm: AnthropicLlm) -> None:
    server.queue(Reply(message([text_block("Hello there.")], input_tokens=12, output_tokens=4)))

    responses = await collect(llm, ask("Hi", system_instruction="Be brief."), stream=False)

    assert len(responses) == 1
    (response,) = responses
    assert not response.partial
    assert response.content == Content(role="model", parts=(Part(text="Hello there."),))
    assert response.usage == Usage(input_tokens=12, output_tokens=4)
    assert response.model == MODEL
    assert response.error_code is None
    (received,) = server.requests
    assert (received.method, received.path) == ("POST", "/v1/messages")
    assert received.headers["authorization"] == f"Bearer {API_KEY}"
    assert "anthropic-version" in received.headers
    assert received.body == {
        "model": MODEL,
        "max_tokens": 4096,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
        "stream": False,
    }


async def test_text_streaming_yields_text_so_far_then_one_final(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(
        StreamReply(stream(TextChunks(["Hel", "lo", " world"]), input_tokens=7, output_tokens=3))
    )

    responses = await collect(llm, ask(), stream=True)

    assert [(r.partial, response_text(r)) for r in responses] == [
        (True, "Hel"),
        (True, "Hello"),
        (True, "Hello world"),
        (False, "Hello world"),
    ]
    final = responses[-1]
    assert final.content == Content(role="model", parts=(Part(text="Hello world"),))
    assert final.usage == Usage(input_tokens=7, output_tokens=3)
    assert final.model == MODEL
    assert final.error_code is None
    assert all(r.usage is None for r in responses[:-1])
    assert server.bodies[0]["stream"] is True


async def test_request_model_overrides_the_adapter_default(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(Reply(message([text_block("ok")], model="claude-other")))

    (response,) = await collect(llm, ask(model="claude-other"), stream=False)

    assert server.bodies[0]["model"] == "claude-other"
    assert response.model == "claude-other"
    assert llm.model == MODEL
    assert isinstance(llm, BaseLlm)


@pytest.mark.parametrize("streamed", [False, True])
async def test_usage_counts_cached_prompt_tokens_as_input(
    server: AnthropicServer, llm: AnthropicLlm, streamed: bool
) -> None:
    if streamed:
        start = message_start(5, cache_creation=100, cache_read=1000)
        events = [start, *block_events(0, TextChunks(["ok"])), *message_end(output_tokens=9)]
        server.queue(StreamReply(events))
    else:
        whole = message(
            [text_block("ok")], input_tokens=5, output_tokens=9, cache_creation=100, cache_read=1000
        )
        server.queue(Reply(whole))

    responses = await collect(llm, ask(), stream=streamed)

    assert responses[-1].usage == Usage(input_tokens=1105, output_tokens=9)


# --- tools --------------------------------------------------------------------------------------


async def test_tool_call(server: AnthropicServer, llm: AnthropicLlm) -> None:
    server.queue(
        Reply(
            message(
                [
                    text_block("Let me check."),
                    tool_use_block("toolu_01", "get_weather", {"city": "Paris"}),
                ],
                stop_reason="tool_use",
            )
        )
    )

    (response,) = await collect(llm, ask("Weather in Paris?", tools=(WEATHER,)), stream=False)

    assert response.content == Content(
        role="model",
        parts=(
            Part(text="Let me check."),
            Part.from_function_call("get_weather", {"city": "Paris"}, "toolu_01"),
        ),
    )
    assert response.error_code is None
    assert server.bodies[0]["tools"] == [
        {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "input_schema": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
                "required": ["city"],
            },
        }
    ]
    assert "tool_choice" not in server.bodies[0]


async def test_tool_call_streaming_joins_input_json_fragments(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    fragments = ['{"ci', 'ty": "Pa', 'ris", "un', 'it": "C"}']
    server.queue(
        StreamReply(
            stream(
                TextChunks(["Checking", "."]),
                ToolChunks("toolu_02", "get_weather", fragments),
                stop_reason="tool_use",
            )
        )
    )

    responses = await collect(llm, ask(tools=(WEATHER,)), stream=True)

    assert [r.partial for r in responses] == [True, True, False]
    final = responses[-1]
    assert response_text(final) == "Checking."
    assert calls(final) == [
        FunctionCall(id="toolu_02", name="get_weather", args={"city": "Paris", "unit": "C"})
    ]
    assert final.error_code is None


@pytest.mark.parametrize("streamed", [False, True])
async def test_parallel_tool_calls(
    server: AnthropicServer, llm: AnthropicLlm, streamed: bool
) -> None:
    if streamed:
        server.queue(
            StreamReply(
                stream(
                    ToolChunks("toolu_a", "get_weather", ['{"city":', ' "Oslo"}']),
                    ToolChunks("toolu_b", "get_weather", ['{"city": "Rome"}']),
                    stop_reason="tool_use",
                )
            )
        )
    else:
        blocks = [
            tool_use_block("toolu_a", "get_weather", {"city": "Oslo"}),
            tool_use_block("toolu_b", "get_weather", {"city": "Rome"}),
        ]
        server.queue(Reply(message(blocks, stop_reason="tool_use")))

    responses = await collect(llm, ask(tools=(WEATHER,)), stream=streamed)

    assert len(responses) == 1  # no text, so no partials
    assert calls(responses[0]) == [
        FunctionCall(id="toolu_a", name="get_weather", args={"city": "Oslo"}),
        FunctionCall(id="toolu_b", name="get_weather", args={"city": "Rome"}),
    ]


async def test_tool_use_and_results_go_back_with_their_ids(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(Reply(message([text_block("Oslo 3C, Rome 18C.")])))
    history = (
        Content.from_text("Weather in Oslo and Rome?"),
        Content(
            role="model",
            parts=(
                Part(text="Checking both."),
                Part.from_function_call("get_weather", {"city": "Oslo"}, "toolu_a"),
            ),
        ),
        Content(role="model", parts=(Part.from_function_call("get_weather", {}, "toolu_b"),)),
        Content(role="user", parts=(Part.from_text("  "),)),
        Content(
            role="user", parts=(Part.from_function_response("get_weather", {"t": 3}, "toolu_a"),)
        ),
        Content(
            role="user", parts=(Part.from_function_response("get_weather", {"t": 18}, "toolu_b"),)
        ),
        Content.from_text("Thanks, and Paris?"),
    )

    await collect(llm, LlmRequest(contents=history, tools=(WEATHER,)), stream=False)

    assert server.bodies[0]["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Weather in Oslo and Rome?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Checking both."},
                {
                    "type": "tool_use",
                    "id": "toolu_a",
                    "name": "get_weather",
                    "input": {"city": "Oslo"},
                },
                {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": '{"t": 3}'},
                {"type": "tool_result", "tool_use_id": "toolu_b", "content": '{"t": 18}'},
                {"type": "text", "text": "Thanks, and Paris?"},
            ],
        },
    ]


async def test_tool_results_lead_a_merged_user_turn(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(Reply(message([text_block("ok")])))
    history = (
        Content.from_text("Go."),
        Content(role="model", parts=(Part.from_function_call("get_weather", {}, "toolu_1"),)),
        Content(
            role="user",
            parts=(
                Part.from_text("Also, hurry."),
                Part.from_function_response("get_weather", {"t": 1}, "toolu_1"),
            ),
        ),
    )

    await collect(llm, LlmRequest(contents=history), stream=False)

    last = server.bodies[0]["messages"][-1]
    assert [block["type"] for block in last["content"]] == ["tool_result", "text"]


async def test_other_parts_reach_the_model_as_text(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(Reply(message([text_block("ok")])))
    history = (
        Content(
            role="user",
            parts=(
                Part(artifact_ref=ArtifactRef(name="report.pdf", version=2)),
                Part(code_execution_result=CodeExecutionResult(outcome="ok", output="42")),
            ),
        ),
    )

    await collect(llm, LlmRequest(contents=history), stream=False)

    assert server.bodies[0]["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "[artifact 'report.pdf' version 2]"},
                {"type": "text", "text": "[code execution ok]\n42"},
            ],
        }
    ]


async def test_leaving_a_stream_early_closes_it(server: AnthropicServer, llm: AnthropicLlm) -> None:
    server.queue(
        StreamReply(stream(TextChunks(["one", "two"]))), Reply(message([text_block("next")]))
    )

    responses = llm.generate(ask(), stream=True)
    assert isinstance(responses, AsyncGenerator)
    first = await anext(responses)
    await responses.aclose()
    (after,) = await collect(llm, ask(), stream=False)

    assert response_text(first) == "one"
    assert response_text(after) == "next"


# --- structured output and generation config ----------------------------------------------------


async def test_structured_output_uses_native_json_schema(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "string"}, "score": {"type": "integer", "minimum": 0}},
        "required": ["answer", "score"],
    }
    server.queue(Reply(message([text_block('{"answer": "yes", "score": 3}')])))

    (response,) = await collect(llm, ask(output_schema=schema, tools=(WEATHER,)), stream=False)

    assert response_text(response) == '{"answer": "yes", "score": 3}'
    body = server.bodies[0]
    assert body["output_config"] == {
        "format": {
            "type": "json_schema",
            "schema": {
                "type": "object",
                "properties": {
                    "answer": {"type": "string"},
                    "score": {"type": "integer", "description": "{minimum: 0}"},
                },
                "additionalProperties": False,
                "required": ["answer", "score"],
            },
        }
    }
    assert [t["name"] for t in body["tools"]] == ["get_weather"]
    assert "tool_choice" not in body


async def test_generation_config(server: AnthropicServer, llm: AnthropicLlm) -> None:
    server.queue(Reply(message([text_block("ok")])))
    config = GenerationConfig(max_output_tokens=256, stop=("END", "STOP"))

    await collect(llm, ask(config=config), stream=False)

    body = server.bodies[0]
    assert body["max_tokens"] == 256
    assert body["stop_sequences"] == ["END", "STOP"]


async def test_temperature_and_top_p_are_not_sent(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(Reply(message([text_block("ok")])))
    config = GenerationConfig(temperature=0.2, top_p=0.9)

    with pytest.warns(UserWarning, match="temperature and top_p"):
        await collect(llm, ask(config=config), stream=False)

    assert not {"temperature", "top_p", "top_k"} & server.bodies[0].keys()


# --- stop reasons and malformed output ----------------------------------------------------------


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize(
    ("stop_reason", "expected"),
    [
        ("end_turn", None),
        ("tool_use", None),
        ("stop_sequence", None),
        ("pause_turn", None),
        ("max_tokens", ErrorCode.MAX_TOKENS),
        ("refusal", ErrorCode.REFUSAL),
        ("model_context_window_exceeded", ErrorCode.CONTEXT_TOO_LONG),
    ],
)
async def test_stop_reason_maps_to_error_code(
    server: AnthropicServer,
    llm: AnthropicLlm,
    streamed: bool,
    stop_reason: str,
    expected: ErrorCode | None,
) -> None:
    if streamed:
        server.queue(StreamReply(stream(TextChunks(["Partial"]), stop_reason=stop_reason)))
    else:
        server.queue(Reply(message([text_block("Partial")], stop_reason=stop_reason)))

    final = (await collect(llm, ask(), stream=streamed))[-1]

    assert not final.partial
    assert final.error_code == expected
    assert response_text(final) == "Partial"
    if expected is None:
        assert final.error_message is None
    else:
        assert final.error_message is not None
        assert stop_reason in final.error_message


@pytest.mark.parametrize("fragments", [['{"city": "Pa'], ["[1, ", "2]"]])
async def test_malformed_streamed_tool_input(
    server: AnthropicServer, llm: AnthropicLlm, fragments: list[str]
) -> None:
    server.queue(
        StreamReply(stream(ToolChunks("toolu_x", "get_weather", fragments), stop_reason="tool_use"))
    )

    (final,) = await collect(llm, ask(tools=(WEATHER,)), stream=True)

    assert final.error_code == ErrorCode.MALFORMED_OUTPUT
    assert final.error_message is not None
    assert "get_weather" in final.error_message
    assert final.content is None


async def test_malformed_tool_input_in_a_whole_message(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    blocks = [
        text_block("Calling."),
        tool_use_block("toolu_x", "get_weather", "Paris"),
    ]
    server.queue(Reply(message(blocks, stop_reason="tool_use")))

    (final,) = await collect(llm, ask(tools=(WEATHER,)), stream=False)

    assert final.error_code == ErrorCode.MALFORMED_OUTPUT
    assert final.error_message is not None
    assert "get_weather" in final.error_message
    assert response_text(final) == "Calling."


@pytest.mark.parametrize("streamed", [False, True])
async def test_tool_input_cut_by_max_tokens_reports_max_tokens(
    server: AnthropicServer, llm: AnthropicLlm, streamed: bool
) -> None:
    if streamed:
        tool = ToolChunks("toolu_x", "get_weather", ['{"city": "Pa'])
        server.queue(StreamReply(stream(tool, stop_reason="max_tokens")))
    else:
        blocks = [tool_use_block("toolu_x", "get_weather", '{"city": "Pa')]
        server.queue(Reply(message(blocks, stop_reason="max_tokens")))

    (final,) = await collect(llm, ask(tools=(WEATHER,)), stream=streamed)

    assert final.error_code == ErrorCode.MAX_TOKENS
    assert final.error_message is not None
    assert "max_tokens" in final.error_message


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize(
    ("status", "kind", "text", "code", "retryable"),
    [
        (429, "rate_limit_error", "Number of requests exceeded", ErrorCode.RATE_LIMITED, True),
        (401, "authentication_error", "invalid x-api-key", ErrorCode.AUTHENTICATION, False),
        (403, "permission_error", "not allowed", ErrorCode.AUTHENTICATION, False),
        (500, "api_error", "Internal server error", ErrorCode.PROVIDER_ERROR, True),
        (529, "overloaded_error", "Overloaded", ErrorCode.PROVIDER_ERROR, True),
        (
            400,
            "invalid_request_error",
            "prompt is too long: 208310 tokens > 200000 maximum",
            ErrorCode.CONTEXT_TOO_LONG,
            False,
        ),
        (400, "invalid_request_error", "messages: field required", ErrorCode.PROVIDER_ERROR, False),
        (404, "not_found_error", "model: claude-nope", ErrorCode.PROVIDER_ERROR, False),
    ],
)
async def test_http_errors_become_model_errors(
    server: AnthropicServer,
    llm: AnthropicLlm,
    streamed: bool,
    status: int,
    kind: str,
    text: str,
    code: ErrorCode,
    retryable: bool,
) -> None:
    server.queue(Reply(error_body(kind, text), status=status))

    error = await failure(llm, ask(), stream=streamed)

    assert error.error_code == code
    assert error.retryable is retryable
    assert isinstance(error.__cause__, anthropic.APIStatusError)
    assert error.__cause__.status_code == status
    assert text in str(error)
    assert len(server.requests) == 1  # max_retries=0


async def test_error_messages_never_carry_the_api_key(
    server: AnthropicServer, llm: AnthropicLlm
) -> None:
    server.queue(Reply(error_body("authentication_error", f"bad key {API_KEY}"), status=401))

    error = await failure(llm, ask(), stream=False)

    assert API_KEY not in str(error)
    assert "[redacted]" in str(error)


async def test_error_messages_never_carry_the_auth_token(server: AnthropicServer) -> None:
    token = "oauth-token-0123456789"
    client = anthropic.AsyncAnthropic(auth_token=token, base_url=server.base_url, max_retries=0)
    llm = AnthropicLlm(MODEL, client=client)
    server.queue(Reply(error_body("authentication_error", f"token {token} expired"), status=401))

    error = await failure(llm, ask(), stream=False)
    await client.close()

    assert token not in str(error)
    assert "token [redacted] expired" in str(error)


@pytest.mark.parametrize(
    ("kind", "code", "retryable"),
    [
        ("overloaded_error", ErrorCode.PROVIDER_ERROR, True),
        ("rate_limit_error", ErrorCode.RATE_LIMITED, True),
        ("invalid_request_error", ErrorCode.PROVIDER_ERROR, False),
    ],
)
async def test_error_event_mid_stream(
    server: AnthropicServer, llm: AnthropicLlm, kind: str, code: ErrorCode, retryable: bool
) -> None:
    events = [
        message_start(),
        *block_events(0, TextChunks(["Hello", " wor"]))[:-1],
        ("error", error_body(kind, "Overloaded")),
    ]
    server.queue(StreamReply(events))
    seen: list[str] = []

    with pytest.raises(ModelError) as caught:
        await drain(llm, ask(), seen)

    assert seen == ["Hello", "Hello wor"]
    assert caught.value.error_code == code
    assert caught.value.retryable is retryable
    assert "mid-stream" in str(caught.value)
    assert isinstance(caught.value.__cause__, anthropic.APIStatusError)


async def test_stream_cut_before_message_stop(server: AnthropicServer, llm: AnthropicLlm) -> None:
    server.queue(StreamReply([message_start(), *block_events(0, TextChunks(["Hi"]))]))

    error = await failure(llm, ask(), stream=True)

    assert error.error_code == ErrorCode.PROVIDER_ERROR
    assert error.retryable


async def test_timeout(server: AnthropicServer) -> None:
    server.queue(Reply(message([text_block("late")]), delay=1.0))
    llm = AnthropicLlm(MODEL, api_key=API_KEY, base_url=server.base_url, max_retries=0, timeout=0.2)

    error = await failure(llm, ask(), stream=False)
    await llm.aclose()

    assert error.error_code == ErrorCode.TIMEOUT
    assert error.retryable
    assert isinstance(error.__cause__, anthropic.APITimeoutError)


async def test_timeout_mid_stream(server: AnthropicServer) -> None:
    server.queue(StreamReply(stream(TextChunks(["a", "b"])), stall_after=4))
    llm = AnthropicLlm(MODEL, api_key=API_KEY, base_url=server.base_url, max_retries=0, timeout=0.2)

    error = await failure(llm, ask(), stream=True)
    await llm.aclose()

    assert error.error_code == ErrorCode.TIMEOUT
    assert error.retryable
    assert error.__cause__ is not None


async def test_connection_refused() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    llm = AnthropicLlm(MODEL, api_key=API_KEY, base_url=f"http://127.0.0.1:{port}", max_retries=0)

    error = await failure(llm, ask(), stream=False)
    await llm.aclose()

    assert error.error_code == ErrorCode.PROVIDER_ERROR
    assert error.retryable
    assert isinstance(error.__cause__, anthropic.APIConnectionError)


_CREDENTIAL_ENV = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_PROFILE",
    "ANTHROPIC_CONFIG_DIR",
    "ANTHROPIC_IDENTITY_TOKEN",
    "ANTHROPIC_IDENTITY_TOKEN_FILE",
    "ANTHROPIC_FEDERATION_RULE_ID",
)


async def test_missing_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in _CREDENTIAL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    llm = AnthropicLlm(MODEL, base_url="http://127.0.0.1:9", max_retries=0)

    error = await failure(llm, ask(), stream=False)
    await llm.aclose()

    assert error.error_code == ErrorCode.AUTHENTICATION
    assert not isinstance(error.__cause__, TypeError)


def test_unreadable_credentials_profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in _CREDENTIAL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ANTHROPIC_PROFILE", "missing")

    with pytest.raises(ModelError) as caught:
        AnthropicLlm(MODEL, base_url="http://127.0.0.1:9")

    assert caught.value.error_code == ErrorCode.AUTHENTICATION
    assert isinstance(caught.value.__cause__, anthropic.CredentialsError)


# --- construction and import --------------------------------------------------------------------


def test_constructor_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="model"):
        AnthropicLlm("")
    with pytest.raises(ValueError, match="max_tokens"):
        AnthropicLlm(MODEL, api_key=API_KEY, max_tokens=0)


async def test_a_given_client_is_used_and_left_open(server: AnthropicServer) -> None:
    server.queue(Reply(message([text_block("ok")])), Reply(message([text_block("again")])))
    async with anthropic.AsyncAnthropic(
        api_key=API_KEY, base_url=server.base_url, max_retries=0
    ) as client:
        llm = AnthropicLlm(MODEL, client=client, max_tokens=99)
        await collect(llm, ask(), stream=False)
        await llm.aclose()
        (response,) = await collect(llm, ask(), stream=False)

    assert response_text(response) == "again"
    assert [b["max_tokens"] for b in server.bodies] == [99, 99]


def test_import_without_the_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)
    monkeypatch.delitem(sys.modules, "agentlog.models.anthropic")
    monkeypatch.delitem(sys.modules, "agentlog.models.anthropic_wire")

    with pytest.raises(ImportError, match=r"pip install 'agentlog\[anthropic\]'"):
        importlib.import_module("agentlog.models.anthropic")
