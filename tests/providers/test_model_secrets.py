"""The key masking every model adapter applies to its error messages."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from urllib.parse import quote

import pytest

from agentlog.models._secrets import (
    MIN_SECRET_LENGTH,
    REDACTED,
    redact_exception,
    redact_secrets,
)
from agentlog.models.base import ModelError

OPENAI_KEY = "sk-proj-Q2x9Lm4Rt7Vb1Nc8Kd3Fh6Jw0Pz5YsT_Ue"
ANTHROPIC_KEY = "sk-ant-api03-Zr8Tq1Wv4Xb7Nm2Lk5Hj9Gf3Dc6Sa0Pe-Yu7IoAA"
GOOGLE_KEY = "AIzaSyD4x7Qm2Lr9Tb1Vn8Kc3Fh6Jw0Pz5YsRt"
CUSTOM_KEY = "local-proxy-token-42"  # no provider's shape: only the configured key finds it


def test_a_configured_key_is_masked_wherever_it_appears() -> None:
    message = f"bad key {CUSTOM_KEY}; retried with {CUSTOM_KEY} (x{CUSTOM_KEY}y)"

    assert redact_secrets(message, CUSTOM_KEY) == (
        f"bad key {REDACTED}; retried with {REDACTED} (x{REDACTED}y)"
    )


def test_a_key_in_a_nested_exception_message() -> None:
    inner = ConnectionError(f"proxy refused credentials {CUSTOM_KEY}")
    outer = RuntimeError("the request failed")
    outer.__cause__ = inner
    logged = "".join(traceback.format_exception(outer))

    masked = redact_secrets(logged, CUSTOM_KEY)

    assert CUSTOM_KEY not in masked
    assert f"ConnectionError: proxy refused credentials {REDACTED}" in masked
    assert "RuntimeError: the request failed" in masked


def test_a_key_in_a_url_query_string() -> None:
    url = f"https://example.test/v1beta/models/m:streamGenerateContent?key={CUSTOM_KEY}&alt=sse"

    masked = redact_secrets(f"Client error '400 Bad Request' for url '{url}'", CUSTOM_KEY)

    assert masked == (
        "Client error '400 Bad Request' for url "
        f"'https://example.test/v1beta/models/m:streamGenerateContent?key={REDACTED}&alt=sse'"
    )


@pytest.mark.parametrize("name", ["key", "api_key", "apikey", "api-key", "access_token", "KEY"])
def test_a_credential_query_parameter_is_masked_without_knowing_the_key(name: str) -> None:
    message = f"GET /v1/models?alt=sse&{name}=not-configured-anywhere#top failed"

    assert redact_secrets(message) == f"GET /v1/models?alt=sse&{name}={REDACTED}#top failed"


def test_other_query_parameters_are_kept() -> None:
    message = "GET /v1/files?monkey=banana&keys=3&page_token=abc"

    assert redact_secrets(message) == message


def test_a_percent_encoded_key_is_masked() -> None:
    key = "abc/def+ghi=="
    message = f"for url 'https://example.test/v1?token={quote(key, safe='')}'"

    assert redact_secrets(message, key) == f"for url 'https://example.test/v1?token={REDACTED}'"


def test_a_short_key_is_masked_even_inside_a_word() -> None:
    key = "t0ps"
    assert len(key) == MIN_SECRET_LENGTH

    assert redact_secrets(f"key {key} rejected (was {key}ecret)", key) == (
        f"key {REDACTED} rejected (was {REDACTED}ecret)"
    )


@pytest.mark.parametrize("key", ["x", "no", "dev"])
def test_a_shorter_placeholder_key_leaves_words_alone_but_not_urls(key: str) -> None:
    message = f"no model named devstral; x-request-id 7 for /v1/models?key={key}&alt=sse"

    assert redact_secrets(message, key) == (
        f"no model named devstral; x-request-id 7 for /v1/models?key={REDACTED}&alt=sse"
    )


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        (OPENAI_KEY, "sk-"),
        ("sk-" + "a1B2c3D4" * 6, "sk-"),  # the older, project-less shape
        ("sk-proj-abcd****wxyz", "sk-"),  # what OpenAI echoes of a wrong key
        ("sk-abcd...wxyz", "sk-"),
        (ANTHROPIC_KEY, "sk-ant-"),
        ("sk-ant-api03-Zr8T\u2026o0AA", "sk-ant-"),
        (GOOGLE_KEY, "AIza"),
    ],
)
def test_provider_key_shapes_are_masked_without_being_configured(key: str, shown: str) -> None:
    message = f"Incorrect API key provided: {key}. Check it."

    assert redact_secrets(message) == f"Incorrect API key provided: {shown}{REDACTED}. Check it."


@pytest.mark.parametrize(
    "text",
    ["risk-free retries", "a disk-backed cache", "task-sk-1 failed", "the sk-v2 model", "AIzawl"],
)
def test_text_that_only_resembles_a_key_is_kept(text: str) -> None:
    assert redact_secrets(text) == text


def test_overlapping_secrets_are_masked_whole_and_the_mask_is_not_remasked() -> None:
    # "dact" also occurs in REDACTED; masking must not run over its own replacement.
    assert redact_secrets("key dact-1234 and dact", "dact", "dact-1234") == (
        f"key {REDACTED} and {REDACTED}"
    )


def test_nothing_to_mask_leaves_the_message_alone() -> None:
    message = "HTTP 500 server_error: try again (request-id req_0123456789)"

    assert redact_secrets(message, None, "") == message


# --- the adapters -------------------------------------------------------------------------------


def _through_openai(text: str, key: str) -> ModelError:
    openai = pytest.importorskip("openai")
    httpx2 = pytest.importorskip("httpx2")
    from agentlog.models.openai import _translate

    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    exc = openai.APIConnectionError(message=text, request=request)
    error: ModelError = _translate(exc, key)
    error.__cause__ = exc  # as the adapter's ``raise ... from exc`` does
    return error


def _through_anthropic(text: str, key: str) -> ModelError:
    anthropic = pytest.importorskip("anthropic")
    httpx2 = pytest.importorskip("httpx2")
    from agentlog.models.anthropic_wire import to_model_error

    # The SDK's own message is a bare "Connection error."; the adapter reports the wrapped cause.
    exc = anthropic.APIConnectionError(request=httpx2.Request("POST", "http://127.0.0.1/v1"))
    exc.__cause__ = httpx2.ConnectError(text)
    error: ModelError = to_model_error(exc, key)
    error.__cause__ = exc
    return error


def _through_gemini(text: str, key: str) -> ModelError:
    pytest.importorskip("google.genai")
    from agentlog.models.gemini_wire import translate_error

    exc = ConnectionError(text)
    error: ModelError = translate_error(exc, key)
    error.__cause__ = exc
    return error


@pytest.mark.parametrize(
    "translate",
    [_through_openai, _through_anthropic, _through_gemini],
    ids=["openai", "anthropic", "gemini"],
)
def test_every_adapter_masks_the_same_keys(translate: Callable[[str, str], ModelError]) -> None:
    text = (
        f"proxy said {CUSTOM_KEY!r} is unknown at /v1?key={CUSTOM_KEY}; "
        f"it also saw {OPENAI_KEY}, {ANTHROPIC_KEY} and {GOOGLE_KEY}"
    )

    message = str(translate(text, CUSTOM_KEY))

    for key in (CUSTOM_KEY, OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY):
        assert key not in message
    assert (
        f"proxy said '{REDACTED}' is unknown at /v1?key={REDACTED}; "
        f"it also saw sk-{REDACTED}, sk-ant-{REDACTED} and AIza{REDACTED}"
    ) in message


@pytest.mark.parametrize(
    "translate",
    [_through_openai, _through_anthropic, _through_gemini],
    ids=["openai", "anthropic", "gemini"],
)
def test_a_logged_traceback_shows_no_key_in_the_chained_sdk_errors(
    translate: Callable[[str, str], ModelError],
) -> None:
    error = translate(f"proxy refused {CUSTOM_KEY} and {OPENAI_KEY}", CUSTOM_KEY)

    logged = "".join(traceback.format_exception(error))

    assert error.__cause__ is not None  # callers can still inspect the SDK's exception
    assert CUSTOM_KEY not in logged
    assert OPENAI_KEY not in logged
    assert f"proxy refused {REDACTED}" in logged


def test_redact_exception_follows_causes_and_contexts_once() -> None:
    inner = ValueError(f"token {CUSTOM_KEY}", 42)
    middle = RuntimeError(f"wrapped {CUSTOM_KEY}")
    middle.__context__ = inner
    outer = ConnectionError("outer")
    outer.__cause__ = middle
    inner.__context__ = outer  # a cycle must not loop

    redact_exception(outer, CUSTOM_KEY)

    assert inner.args == (f"token {REDACTED}", 42)
    assert middle.args == (f"wrapped {REDACTED}",)
    assert outer.args == ("outer",)
