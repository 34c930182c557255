"""GeminiLlm through the real google-genai SDK against a local Gemini wire-format server."""

from __future__ import annotations

import asyncio
import base64
import gc
import importlib
import logging
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from google import genai
from google.genai import errors as genai_errors
from google.genai import types as gt

from agentlog.events import (
    ArtifactRef,
    CodeExecutionResult,
    Content,
    ErrorCode,
    FunctionCall,
    FunctionResponse,
    Part,
    Usage,
)
from agentlog.models.base import (
    BaseLlm,
    GenerationConfig,
    LlmRequest,
    LlmResponse,
    ModelError,
    ToolDeclaration,
    response_text,
)
from agentlog.models.gemini import GeminiLlm

from .gemini_server import (
    GeminiServer,
    call_part,
    candidate,
    response_body,
    running_server,
    usage,
)

MODEL = "gemini-test"
KEY = "test-key-0123456789"
GENERATE = f"/v1beta/models/{MODEL}:generateContent"
STREAM = f"/v1beta/models/{MODEL}:streamGenerateContent"

WEATHER = ToolDeclaration(
    name="get_weather",
    description="Weather for a city.",
    parameters={
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
)


@pytest.fixture(scope="module")
def shared_server() -> Iterator[GeminiServer]:
    with running_server() as server:
        yield server


@pytest.fixture
def server(shared_server: GeminiServer) -> Iterator[GeminiServer]:
    shared_server.reset()
    yield shared_server
    assert shared_server.unexpected == 0, "the adapter made more requests than scripted"
    assert shared_server.unused() == 0, "scripted replies were left unused"


LlmFactory = Callable[..., GeminiLlm]


@pytest.fixture(scope="module")
def adapters() -> Iterator[dict[tuple[tuple[str, Any], ...], GeminiLlm]]:
    # Building a genai.Client loads CA bundles (about 0.2 s), so each setting gets one adapter
    # for the module. The SDK keeps a connection pool per event loop and drops those of closed
    # loops, so sharing an adapter across the tests' loops is supported.
    cache: dict[tuple[tuple[str, Any], ...], GeminiLlm] = {}
    yield cache
    for llm in cache.values():
        asyncio.run(llm.aclose())


@pytest.fixture
def make_llm(
    server: GeminiServer, adapters: dict[tuple[tuple[str, Any], ...], GeminiLlm]
) -> LlmFactory:
    def make(**kwargs: Any) -> GeminiLlm:
        settings = {
            "api_key": KEY,
            "base_url": server.base_url,
            "max_retries": 0,  # error tests check the first failure, not the SDK's retries
            "timeout": 5.0,
            **kwargs,
        }
        key = tuple(sorted(settings.items()))
        if key not in adapters:
            adapters[key] = GeminiLlm(MODEL, **settings)
        return adapters[key]

    return make


@pytest.fixture
def llm(make_llm: LlmFactory) -> GeminiLlm:
    return make_llm()


def ask(text: str = "Hi", **kwargs: Any) -> LlmRequest:
    return LlmRequest(contents=(Content.from_text(text),), **kwargs)


async def drain(stream: AsyncIterator[LlmResponse], into: list[LlmResponse]) -> None:
    async for response in stream:
        into.append(response)


async def collect(
    llm: GeminiLlm, request: LlmRequest, *, stream: bool = False
) -> list[LlmResponse]:
    return [r async for r in llm.generate(request, stream=stream)]


def calls(response: LlmResponse) -> list[FunctionCall]:
    assert response.content is not None
    return [p.function_call for p in response.content.parts if p.function_call is not None]


def field(obj: dict[str, Any], camel: str, snake: str) -> Any:
    """A request field the SDK may spell either way (the API accepts both)."""
    return obj[camel] if camel in obj else obj[snake]


# --- plain calls --------------------------------------------------------------------------------


async def test_plain_text_maps_request_and_response(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply(response_body(candidate([{"text": "Hello!"}]), usage_metadata=usage(7, 3)))
    request = ask(
        "Hi",
        system_instruction="Be brief.",
        config=GenerationConfig(temperature=0.2, max_output_tokens=50, top_p=0.9, stop=("END",)),
    )

    [response] = await collect(llm, request)

    assert response == LlmResponse(
        content=Content(role="model", parts=(Part(text="Hello!"),)),
        partial=False,
        usage=Usage(input_tokens=7, output_tokens=3),
        model=MODEL,
    )
    [sent] = server.requests
    assert (sent.method, sent.path, sent.query) == ("POST", GENERATE, "")
    assert sent.headers["x-goog-api-key"] == KEY
    assert sent.body["contents"] == [{"role": "user", "parts": [{"text": "Hi"}]}]
    assert sent.body["systemInstruction"]["parts"] == [{"text": "Be brief."}]
    assert sent.body["generationConfig"] == {
        "temperature": 0.2,
        "maxOutputTokens": 50,
        "topP": 0.9,
        "stopSequences": ["END"],
    }
    assert "tools" not in sent.body


async def test_minimal_request_sends_no_optional_fields(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply(response_body(candidate([{"text": "ok"}])))
    [response] = await collect(llm, ask())
    assert response.usage is None
    [sent] = server.requests
    assert set(sent.body) <= {"contents", "generationConfig"}
    assert sent.body.get("generationConfig", {}) == {}


async def test_request_model_overrides_the_adapter_default(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply(response_body(candidate([{"text": "ok"}])))
    [response] = await collect(llm, ask(model="gemini-other"))
    assert server.requests[0].path == "/v1beta/models/gemini-other:generateContent"
    assert response.model == "gemini-other"
    assert llm.model == MODEL


def test_is_a_base_llm(llm: GeminiLlm) -> None:
    assert isinstance(llm, BaseLlm)


async def test_uses_a_client_passed_in(server: GeminiServer, make_llm: LlmFactory) -> None:
    client = genai.Client(
        api_key="other-key",
        http_options=gt.HttpOptions(base_url=server.base_url, api_version="v1beta"),
    )
    llm = GeminiLlm(MODEL, client=client)
    server.reply(response_body(candidate([{"text": "ok"}])))
    [response] = await collect(llm, ask())
    assert response_text(response) == "ok"
    assert server.requests[0].headers["x-goog-api-key"] == "other-key"
    await llm.aclose()  # leaves the caller's client open
    await client.aio.aclose()


async def test_usage_counts_thinking_as_output(server: GeminiServer, llm: GeminiLlm) -> None:
    thought = {"text": "Let me think...", "thought": True}
    server.reply(
        response_body(
            candidate([thought, {"text": "42"}]), usage_metadata=usage(10, 2, thoughts=30)
        )
    )
    [response] = await collect(llm, ask())
    assert response_text(response) == "42"  # thought summaries are not the answer
    assert response.usage == Usage(input_tokens=10, output_tokens=32)


# --- streaming ----------------------------------------------------------------------------------


async def test_text_streaming_yields_text_so_far_then_one_final(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply_stream(
        response_body(candidate([{"text": "Hel"}], None), usage_metadata=usage(5, 1)),
        response_body(candidate([{"text": "lo, "}], None), usage_metadata=usage(5, 2)),
        response_body(candidate([{"text": "world"}], "STOP"), usage_metadata=usage(5, 4)),
    )

    responses = await collect(llm, ask(), stream=True)

    assert [(r.partial, response_text(r)) for r in responses] == [
        (True, "Hel"),
        (True, "Hello, "),
        (True, "Hello, world"),
        (False, "Hello, world"),
    ]
    final = responses[-1]
    assert final.content == Content(role="model", parts=(Part(text="Hello, world"),))
    assert final.usage == Usage(input_tokens=5, output_tokens=4)
    assert final.error_code is None
    assert all(r.usage is None for r in responses[:-1])
    [sent] = server.requests
    assert (sent.path, sent.query) == (STREAM, "alt=sse")
    assert sent.headers["x-goog-api-key"] == KEY


async def test_stream_with_empty_last_chunk(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply_stream(
        response_body(candidate([{"text": "Done."}], None)),
        response_body(candidate([{"text": ""}], "STOP"), usage_metadata=usage(2, 2)),
    )
    responses = await collect(llm, ask(), stream=True)
    assert [(r.partial, response_text(r)) for r in responses] == [(True, "Done."), (False, "Done.")]


async def test_stopping_early_releases_the_stream(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply_stream(
        response_body(candidate([{"text": "a"}], None)),
        response_body(candidate([{"text": "b"}], "STOP")),
    )
    stream = llm.generate(ask(), stream=True)
    first = await anext(stream)
    await stream.aclose()  # type: ignore[attr-defined]
    assert response_text(first) == "a"


# --- function calls -----------------------------------------------------------------------------


async def test_function_call_without_id_gets_one(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply(
        response_body(
            candidate([call_part("get_weather", {"city": "Paris"})]), usage_metadata=usage(20, 5)
        )
    )
    [response] = await collect(llm, ask("Weather in Paris?", tools=(WEATHER,)))

    [call] = calls(response)
    assert (call.name, call.args) == ("get_weather", {"city": "Paris"})
    assert call.id.startswith("call-")
    assert response.usage == Usage(input_tokens=20, output_tokens=5)
    [tool] = server.requests[0].body["tools"]
    [declaration] = tool["functionDeclarations"]
    assert declaration["name"] == "get_weather"
    assert declaration["description"] == "Weather for a city."
    assert field(declaration, "parametersJsonSchema", "parameters_json_schema") == {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    }


async def test_function_call_id_from_the_api_is_kept(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply(
        response_body(
            candidate(
                [{"text": "Checking."}, call_part("get_weather", {"city": "Oslo"}, call_id="fc-9")]
            )
        )
    )
    [response] = await collect(llm, ask(tools=(WEATHER,)))
    assert response_text(response) == "Checking."
    assert [(c.id, c.name) for c in calls(response)] == [("fc-9", "get_weather")]


async def test_function_call_streaming(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply_stream(
        response_body(candidate([{"text": "Let me check."}], None)),
        response_body(
            candidate([call_part("get_weather", {"city": "Rome"})], "STOP"),
            usage_metadata=usage(30, 8),
        ),
    )
    responses = await collect(llm, ask(tools=(WEATHER,)), stream=True)

    assert [(r.partial, response_text(r)) for r in responses] == [
        (True, "Let me check."),
        (False, "Let me check."),
    ]
    assert calls(responses[0]) == []
    [call] = calls(responses[-1])
    assert (call.name, call.args) == ("get_weather", {"city": "Rome"})
    assert responses[-1].usage == Usage(input_tokens=30, output_tokens=8)


@pytest.mark.parametrize("stream", [False, True])
async def test_parallel_function_calls(server: GeminiServer, llm: GeminiLlm, stream: bool) -> None:
    body = response_body(
        candidate(
            [
                call_part("get_weather", {"city": "Paris"}),
                call_part("get_weather", {"city": "Tokyo"}),
            ]
        )
    )
    if stream:
        server.reply_stream(body)
    else:
        server.reply(body)
    [response] = await collect(llm, ask(tools=(WEATHER,)), stream=stream)
    found = calls(response)
    assert [c.args["city"] for c in found] == ["Paris", "Tokyo"]
    assert len({c.id for c in found}) == 2


async def test_conversation_with_function_response(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply(response_body(candidate([{"text": "It is sunny in Paris."}])))
    history = (
        Content.from_text("Weather in Paris?"),
        Content(
            role="model",
            parts=(Part.from_function_call("get_weather", {"city": "Paris"}, "call-1"),),
        ),
        Content(
            role="user",
            parts=(Part.from_function_response("get_weather", {"sky": "sunny"}, "call-1"),),
        ),
    )
    [response] = await collect(llm, LlmRequest(contents=history, tools=(WEATHER,)))

    assert response_text(response) == "It is sunny in Paris."
    contents = server.requests[0].body["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    assert contents[1]["parts"] == [
        {"functionCall": {"id": "call-1", "name": "get_weather", "args": {"city": "Paris"}}}
    ]
    assert contents[2]["parts"] == [
        {"functionResponse": {"id": "call-1", "name": "get_weather", "response": {"sky": "sunny"}}}
    ]


# --- thought signatures ------------------------------------------------------------------------

# Opaque bytes, as base64 on the wire; "+" and "/" make sure the alphabet survives.
SIGNATURE = base64.b64encode(b"\xfb\xff\xbe-sig-\x00\x01").decode()
TEXT_SIGNATURE = base64.b64encode(b"text-sig\xfe").decode()
SIGNED = {"gemini_thought_signature": SIGNATURE}


def signed_call_part(name: str, args: dict[str, Any], signature: str) -> dict[str, Any]:
    return {**call_part(name, args, call_id="fc-1"), "thoughtSignature": signature}


def signature_bytes(part: dict[str, Any]) -> bytes:
    """The ``thoughtSignature`` of a request part; the SDK may send either base64 alphabet."""
    value = field(part, "thoughtSignature", "thought_signature")
    return base64.urlsafe_b64decode(value.replace("+", "-").replace("/", "_"))


@pytest.mark.parametrize("stream", [False, True])
async def test_thought_signatures_are_kept_and_sent_back(
    server: GeminiServer, llm: GeminiLlm, stream: bool
) -> None:
    parts = [
        {"text": "Checking.", "thoughtSignature": TEXT_SIGNATURE},
        signed_call_part("get_weather", {"city": "Paris"}, SIGNATURE),
        call_part("get_weather", {"city": "Tokyo"}, call_id="fc-2"),  # only the first is signed
    ]
    if stream:
        server.reply_stream(
            response_body(candidate(parts[:1], None)),
            response_body(candidate(parts[1:], "STOP")),
        )
    else:
        server.reply(response_body(candidate(parts)))
    responses = await collect(llm, ask("Weather?", tools=(WEATHER,)), stream=stream)

    final = responses[-1]
    assert final.content is not None
    text, first, second = final.content.parts
    assert text.text == "Checking."
    assert text.provider_metadata == {"gemini_thought_signature": TEXT_SIGNATURE}
    assert first.function_call is not None
    assert first.function_call.id == "fc-1"
    assert first.provider_metadata == SIGNED
    assert second.provider_metadata is None
    assert all(r.content is None or r.partial for r in responses[:-1])

    # The model's content goes back unchanged in the next request, signatures with it.
    server.reply(response_body(candidate([{"text": "Sunny and rainy."}])))
    history = (
        Content.from_text("Weather?"),
        final.content,
        Content(
            role="user",
            parts=(
                Part.from_function_response("get_weather", {"sky": "sunny"}, "fc-1"),
                Part.from_function_response("get_weather", {"sky": "rain"}, "fc-2"),
            ),
        ),
    )
    await collect(llm, LlmRequest(contents=history, tools=(WEATHER,)))
    sent = server.requests[1].body["contents"][1]["parts"]
    assert sent[0]["text"] == "Checking."
    assert signature_bytes(sent[0]) == base64.b64decode(TEXT_SIGNATURE)
    assert field(sent[1], "functionCall", "function_call")["name"] == "get_weather"
    assert signature_bytes(sent[1]) == base64.b64decode(SIGNATURE)
    assert set(sent[2]) <= {"functionCall", "function_call"}


async def test_signature_on_an_empty_closing_text_chunk_is_kept(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply_stream(
        response_body(candidate([{"text": "Hello"}], None)),
        response_body(candidate([{"text": "", "thoughtSignature": TEXT_SIGNATURE}], "STOP")),
    )
    responses = await collect(llm, ask(), stream=True)
    assert responses[-1].content is not None
    [part] = responses[-1].content.parts
    assert (part.text, part.provider_metadata) == (
        "Hello",
        {"gemini_thought_signature": TEXT_SIGNATURE},
    )


async def test_unsigned_parts_and_foreign_metadata_send_no_signature(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply(response_body(candidate([{"text": "ok"}])))
    history = (
        Content.from_text("Hi"),
        Content(
            role="model",
            parts=(
                Part(text="plain"),
                Part(text="other provider", provider_metadata={"openai_something": "x"}),
                Part(text="not base64", provider_metadata={"gemini_thought_signature": "%%%"}),
            ),
        ),
        Content.from_text("Again"),
    )
    [response] = await collect(llm, LlmRequest(contents=history))
    assert response.content is not None
    assert response.content.parts[0].provider_metadata is None
    sent = server.requests[0].body["contents"][1]["parts"]
    assert sent == [{"text": "plain"}, {"text": "other provider"}, {"text": "not base64"}]


async def test_parts_gemini_has_no_place_for_travel_as_text(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply(response_body(candidate([{"text": "ok"}])))
    content = Content(
        role="user",
        parts=(
            Part(code_execution_result=CodeExecutionResult(outcome="ok", output="4")),
            Part(artifact_ref=ArtifactRef(name="report.pdf", version=2)),
        ),
    )
    await collect(llm, LlmRequest(contents=(content,)))
    parts = server.requests[0].body["contents"][0]["parts"]
    assert parts == [
        {"text": "Code execution result (ok):\n4"},
        {"text": "[artifact 'report.pdf', version 2]"},
    ]


async def test_function_response_content_is_sent_as_user_turn(
    server: GeminiServer, llm: GeminiLlm
) -> None:
    server.reply(response_body(candidate([{"text": "ok"}])))
    answer = FunctionResponse(id="c", name="get_weather", response={"sky": "grey"})
    content = Content(role="model", parts=(Part(function_response=answer),))
    await collect(llm, LlmRequest(contents=(Content.from_text("q"), content)))
    assert server.requests[0].body["contents"][1]["role"] == "user"


# --- structured output --------------------------------------------------------------------------


async def test_structured_output(server: GeminiServer, llm: GeminiLlm) -> None:
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "integer"}},
        "required": ["answer"],
    }
    server.reply(response_body(candidate([{"text": '{"answer": 42}'}])))
    [response] = await collect(llm, ask("6 * 7?", output_schema=schema))
    assert response_text(response) == '{"answer": 42}'
    config = server.requests[0].body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == schema
    assert "responseSchema" not in config


# --- finish reasons -----------------------------------------------------------------------------

FINISH_REASONS = [
    ("STOP", None),
    ("MAX_TOKENS", ErrorCode.MAX_TOKENS),
    ("SAFETY", ErrorCode.SAFETY),
    ("PROHIBITED_CONTENT", ErrorCode.SAFETY),
    ("BLOCKLIST", ErrorCode.SAFETY),
    ("SPII", ErrorCode.SAFETY),
    ("RECITATION", ErrorCode.RECITATION),
    ("MALFORMED_FUNCTION_CALL", ErrorCode.MALFORMED_OUTPUT),
    ("CONTINUATION", ErrorCode.MAX_TOKENS),
    ("OTHER", ErrorCode.PROVIDER_ERROR),
    pytest.param(
        "REASON_FROM_THE_FUTURE",
        ErrorCode.PROVIDER_ERROR,
        marks=pytest.mark.filterwarnings("ignore:.*is not a valid FinishReason"),
        id="unknown-reason",
    ),
]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("reason", "code"), FINISH_REASONS)
async def test_finish_reason_becomes_error_code(
    server: GeminiServer, llm: GeminiLlm, reason: str, code: ErrorCode | None, stream: bool
) -> None:
    body = response_body(
        candidate([{"text": "partial answer"}], reason), usage_metadata=usage(3, 9)
    )
    if stream:
        server.reply_stream(body)
    else:
        server.reply(body)
    final = (await collect(llm, ask(), stream=stream))[-1]
    assert not final.partial
    assert final.error_code is code
    assert response_text(final) == "partial answer"
    assert final.usage == Usage(input_tokens=3, output_tokens=9)
    if code is not None:
        assert final.error_message is not None
        assert reason in final.error_message


@pytest.mark.parametrize("stream", [False, True])
async def test_blocked_prompt_is_safety(server: GeminiServer, llm: GeminiLlm, stream: bool) -> None:
    body = response_body(
        prompt_feedback={
            "blockReason": "SAFETY",
            "safetyRatings": [
                {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}
            ],
        },
        usage_metadata={"promptTokenCount": 12, "totalTokenCount": 12},
    )
    if stream:
        server.reply_stream(body)
    else:
        server.reply(body)
    responses = await collect(llm, ask("something dangerous"), stream=stream)
    assert len(responses) == 1
    [final] = responses
    assert final.error_code is ErrorCode.SAFETY
    assert final.content is None
    assert final.error_message is not None
    assert "blocked" in final.error_message
    assert final.usage == Usage(input_tokens=12, output_tokens=0)


# --- errors -------------------------------------------------------------------------------------

HTTP_ERRORS = [
    (429, "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED", None,
     ErrorCode.RATE_LIMITED, True),
    (401, "Request had invalid authentication credentials.", "UNAUTHENTICATED", None,
     ErrorCode.AUTHENTICATION, False),
    (403, "Method doesn't allow unregistered callers.", "PERMISSION_DENIED", None,
     ErrorCode.AUTHENTICATION, False),
    (400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT", "API_KEY_INVALID",
     ErrorCode.AUTHENTICATION, False),
    (400, "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
     "INVALID_ARGUMENT", None, ErrorCode.CONTEXT_TOO_LONG, False),
    (400, "Invalid JSON payload received.", "INVALID_ARGUMENT", None,
     ErrorCode.PROVIDER_ERROR, False),
    (404, "models/gemini-test is not found for API version v1beta.", "NOT_FOUND", None,
     ErrorCode.PROVIDER_ERROR, False),
    (500, "An internal error has occurred.", "INTERNAL", None, ErrorCode.PROVIDER_ERROR, True),
    (503, "The model is overloaded. Please try again later.", "UNAVAILABLE", None,
     ErrorCode.PROVIDER_ERROR, True),
    (504, "Deadline expired before operation could complete.", "DEADLINE_EXCEEDED", None,
     ErrorCode.TIMEOUT, True),
]  # fmt: skip


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("status", "message", "status_name", "reason", "code", "retryable"), HTTP_ERRORS
)
async def test_http_errors_become_model_errors(
    server: GeminiServer,
    llm: GeminiLlm,
    status: int,
    message: str,
    status_name: str,
    reason: str | None,
    code: ErrorCode,
    retryable: bool,
    stream: bool,
) -> None:
    server.reply_error(status, message, status_name, reason=reason)
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask(), stream=stream)
    error = caught.value
    assert error.error_code is code
    assert error.retryable is retryable
    assert isinstance(error.__cause__, genai_errors.APIError)
    assert message in str(error)
    assert len(server.requests) == 1  # max_retries=0: no retry


async def test_error_messages_never_carry_the_api_key(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply_error(401, f"API key {KEY} was revoked.", "UNAUTHENTICATED")
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask())
    assert KEY not in str(caught.value)
    assert "[redacted]" in str(caught.value)


async def test_a_short_key_is_masked_too(server: GeminiServer, make_llm: LlmFactory) -> None:
    llm = make_llm(api_key="k3y9z")  # shorter than a real key, long enough to hide
    server.reply_error(400, "API key k3y9z not valid.", "INVALID_ARGUMENT")
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask())
    assert "k3y9z" not in str(caught.value)
    assert "API key [redacted] not valid." in str(caught.value)


async def test_a_key_from_the_environment_is_masked(
    server: GeminiServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.setenv("GOOGLE_API_KEY", "env-key-0123456789")
    llm = GeminiLlm(MODEL, base_url=server.base_url, max_retries=0)
    server.reply_error(401, "API key env-key-0123456789 was revoked.", "UNAUTHENTICATED")
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask())
    await llm.aclose()
    assert "env-key-0123456789" not in str(caught.value)
    assert "[redacted]" in str(caught.value)


async def test_retries_follow_max_retries(server: GeminiServer, make_llm: LlmFactory) -> None:
    llm = make_llm(max_retries=1)
    server.reply_error(503, "The model is overloaded.", "UNAVAILABLE")
    server.reply(response_body(candidate([{"text": "second time lucky"}])))
    [response] = await collect(llm, ask())
    assert response_text(response) == "second time lucky"
    assert len(server.requests) == 2


@pytest.mark.parametrize("stream", [False, True])
async def test_timeout(server: GeminiServer, make_llm: LlmFactory, stream: bool) -> None:
    llm = make_llm(timeout=0.2)
    body = response_body(candidate([{"text": "too late"}]))
    if stream:
        server.reply_stream(body, delay=1.0)  # headers at once, then silence
    else:
        server.reply(body, delay=1.0)
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask(), stream=stream)
    assert caught.value.error_code is ErrorCode.TIMEOUT
    assert caught.value.retryable
    assert caught.value.__cause__ is not None


async def test_error_event_mid_stream(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply_stream(
        response_body(candidate([{"text": "The answer"}], None)),
        {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}},
    )
    seen: list[LlmResponse] = []
    with pytest.raises(ModelError) as caught:
        await drain(llm.generate(ask(), stream=True), seen)
    assert [(r.partial, response_text(r)) for r in seen] == [(True, "The answer")]
    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable
    assert isinstance(caught.value.__cause__, genai_errors.ServerError)


async def test_connection_dropped_mid_stream(server: GeminiServer, llm: GeminiLlm) -> None:
    server.reply_stream(response_body(candidate([{"text": "The ans"}], None)), drop=True)
    seen: list[LlmResponse] = []
    with pytest.raises(ModelError) as caught:
        await drain(llm.generate(ask(), stream=True), seen)
    assert [response_text(r) for r in seen] == ["The ans"]
    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable


async def test_unreachable_server(make_llm: LlmFactory) -> None:
    llm = make_llm(base_url="http://127.0.0.1:9")  # discard port: nothing listens
    with pytest.raises(ModelError) as caught:
        await collect(llm, ask())
    assert caught.value.error_code is ErrorCode.PROVIDER_ERROR
    assert caught.value.retryable


# --- construction -------------------------------------------------------------------------------


def test_missing_api_key_is_an_authentication_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    with pytest.raises(ModelError) as caught:
        GeminiLlm(MODEL)
    assert caught.value.error_code is ErrorCode.AUTHENTICATION


async def test_a_refused_client_leaves_no_task_behind(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The SDK's client, when its constructor raises, is left half built; collected later
    # inside a running loop, it schedules a close that fails ("Task exception was never
    # retrieved", logged in whatever test or turn happens to run then).
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    for _ in range(3):
        with pytest.raises(ModelError):
            GeminiLlm(MODEL)
    gc.collect()
    for _ in range(3):
        await asyncio.sleep(0)
    gc.collect()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.mark.parametrize(
    "kwargs", [{"timeout": 0}, {"max_retries": -1}], ids=["timeout", "max_retries"]
)
def test_rejects_bad_settings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        GeminiLlm(MODEL, api_key=KEY, **kwargs)


@pytest.mark.parametrize("module", ["agentlog.models.gemini", "agentlog.models.gemini_wire"])
def test_import_without_the_sdk_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    import google

    for name in ("agentlog.models.gemini", "agentlog.models.gemini_wire"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delattr(google, "genai", raising=False)
    monkeypatch.setitem(sys.modules, "google.genai", None)
    with pytest.raises(ImportError, match=r"pip install 'agentlog\[gemini\]'"):
        importlib.import_module(module)
