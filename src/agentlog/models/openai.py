"""``OpenAIChatLlm``: the Chat Completions API through the official ``openai`` SDK.

Works with OpenAI and with any server that speaks the same API (vLLM, Ollama, llama.cpp server,
...) through ``base_url``. The wire mapping lives in :mod:`agentlog.models.openai_wire`.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping

try:
    import openai
except ImportError as exc:  # pragma: no cover - exercised by a test that hides the SDK
    raise ImportError("OpenAIChatLlm needs the openai SDK: pip install 'agentlog[openai]'") from exc

from agentlog.errors import ModelError
from agentlog.events import ErrorCode
from agentlog.models._secrets import redact_exception, redact_secrets
from agentlog.models._stream import StreamAccumulator
from agentlog.models.base import LlmRequest, LlmResponse
from agentlog.models.openai_wire import ChunkReader, MaxTokensParam, build_args, from_completion

__all__ = ["OpenAIChatLlm"]

# Servers word an oversized prompt differently: OpenAI's code, llama.cpp's type, vLLM's message.
_CONTEXT_TOO_LONG = re.compile(
    r"context[ _](length|window|size)|exceed_context_size|prompt is too long", re.IGNORECASE
)


class OpenAIChatLlm:
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        model: The model name sent with every request (unless the request names one).
        api_key: The key; when ``None`` the SDK reads ``OPENAI_API_KEY``. Servers that need no key
            still want a non-empty one (any string).
        base_url: The API root, e.g. ``http://localhost:8000/v1`` for vLLM.
        timeout: Seconds before a request (or a silent stream) times out.
        max_retries: The SDK's own retries of rate limits, timeouts and 5xx answers.
        client: A ready ``AsyncOpenAI`` client, instead of the settings above.
        organization: Passed to the SDK's client.
        project: Passed to the SDK's client.
        default_headers: Passed to the SDK's client.
        extra_body: Fields added to every request body (server-specific options).
        strict_output: Ask for strict schema adherence with ``output_schema`` (OpenAI then
            accepts only schemas whose objects list every property and forbid extra ones).
        max_tokens_param: The field that carries ``max_output_tokens``; servers that predate
            ``max_completion_tokens`` need ``"max_tokens"``.
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        client: openai.AsyncOpenAI | None = None,
        organization: str | None = None,
        project: str | None = None,
        default_headers: Mapping[str, str] | None = None,
        extra_body: Mapping[str, object] | None = None,
        strict_output: bool = True,
        max_tokens_param: MaxTokensParam = "max_completion_tokens",
    ) -> None:
        if not model:
            raise ValueError("model must be a non-empty model name")
        if client is not None and (
            api_key or base_url or organization or project or default_headers
        ):
            raise ValueError("pass either client or the settings to build one, not both")
        if client is None:
            try:
                client = openai.AsyncOpenAI(
                    api_key=api_key,
                    base_url=base_url,
                    timeout=timeout,
                    max_retries=max_retries,
                    organization=organization,
                    project=project,
                    default_headers=default_headers,
                )
            except openai.OpenAIError as exc:  # no key given and none in the environment
                redact_exception(exc, api_key)
                raise ModelError(
                    ErrorCode.AUTHENTICATION, redact_secrets(str(exc), api_key)
                ) from exc
            self._owns_client = True
        else:
            self._owns_client = False
        self._model = model
        self._client = client
        self._extra_body = dict(extra_body or {})
        self._strict_output = strict_output
        self._max_tokens_param: MaxTokensParam = max_tokens_param

    @property
    def model(self) -> str:
        """The model name sent with requests."""
        return self._model

    async def aclose(self) -> None:
        """Close the HTTP client, if this adapter created it."""
        if self._owns_client:
            await self._client.close()

    async def generate(
        self, request: LlmRequest, *, stream: bool = False
    ) -> AsyncIterator[LlmResponse]:
        """Call the model; see :class:`~agentlog.models.base.BaseLlm`."""
        args = build_args(
            request,
            model=self._model,
            strict_output=self._strict_output,
            max_tokens_param=self._max_tokens_param,
            extra_body=self._extra_body,
        )
        if not stream:
            try:
                completion = await self._client.chat.completions.create(**args, stream=False)
            except openai.OpenAIError as exc:
                raise _translate(exc, self._client.api_key) from exc
            yield from_completion(completion, args["model"])
            return

        reader = ChunkReader(StreamAccumulator(model=args["model"]))
        try:
            chunks = await self._client.chat.completions.create(
                **args, stream=True, stream_options={"include_usage": True}
            )
        except openai.OpenAIError as exc:
            raise _translate(exc, self._client.api_key) from exc
        try:
            iterator = aiter(chunks)
            while True:
                # Errors can arrive mid-stream (an error event, a dropped connection); only the
                # SDK's iteration is guarded so the consumer's own exceptions pass untouched.
                try:
                    chunk = await anext(iterator)
                except StopAsyncIteration:
                    break
                except openai.OpenAIError as exc:
                    raise _translate(exc, self._client.api_key) from exc
                except ValueError as exc:  # an event whose data is not JSON
                    message = redact_secrets(
                        f"unreadable stream event: {exc}", self._client.api_key
                    )
                    redact_exception(exc, self._client.api_key)
                    raise ModelError(ErrorCode.PROVIDER_ERROR, message) from exc
                partial = reader.add(chunk)
                if partial is not None:
                    yield partial
        finally:
            await chunks.close()
        if not reader.finished:
            raise ModelError(
                ErrorCode.PROVIDER_ERROR,
                "the stream ended before the model finished",
                retryable=True,
            )
        yield reader.final()


def _translate(exc: openai.OpenAIError, api_key: str | None) -> ModelError:
    """The :class:`ModelError` for an SDK exception (the caller chains the original)."""
    message = redact_secrets(str(exc), api_key)
    redact_exception(exc, api_key)
    if isinstance(exc, openai.APITimeoutError):
        return ModelError(ErrorCode.TIMEOUT, message, retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        return ModelError(ErrorCode.PROVIDER_ERROR, message, retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status == 429:
            # An exhausted quota is also a 429, but waiting does not fix it.
            return ModelError(
                ErrorCode.RATE_LIMITED, message, retryable=exc.code != "insufficient_quota"
            )
        if status in (401, 403):
            return ModelError(ErrorCode.AUTHENTICATION, message)
        if status == 408:
            return ModelError(ErrorCode.TIMEOUT, message, retryable=True)
        if status >= 500:
            return ModelError(ErrorCode.PROVIDER_ERROR, message, retryable=True)
    if isinstance(exc, openai.APIError):
        if _CONTEXT_TOO_LONG.search(f"{exc.code} {exc.type} {exc.message}"):
            return ModelError(ErrorCode.CONTEXT_TOO_LONG, message)
        if exc.code == "content_filter":  # Azure OpenAI's filter on the prompt
            return ModelError(ErrorCode.SAFETY, message)
        if not isinstance(exc, openai.APIStatusError):
            # An error event inside a stream: no HTTP status, usually a server fault.
            retryable = exc.type != "invalid_request_error"
            return ModelError(ErrorCode.PROVIDER_ERROR, message, retryable=retryable)
    return ModelError(ErrorCode.PROVIDER_ERROR, message)
