"""``AnthropicLlm``: a :class:`~agentlog.models.base.BaseLlm` over Anthropic's Messages API.

Needs the ``anthropic`` extra (``pip install 'agentlog[anthropic]'``). The request mapping and
error translation live in :mod:`agentlog.models.anthropic_wire`.

Choices worth knowing:

- ``output_schema`` uses the API's native structured output (``output_config.format`` with a
  JSON schema, adapted by the SDK's ``transform_schema``), so tools stay usable alongside it; the
  answer is the JSON text of the reply.
- ``temperature`` and ``top_p`` are not sent (with a warning): the API version the SDK speaks
  rejects them.
- Usage counts cached prompt tokens as input tokens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

try:
    import anthropic
    import httpx2
    from anthropic.types.message_create_params import MessageCreateParamsBase
except ImportError as exc:  # pragma: no cover - covered by a test that hides the SDK
    raise ImportError(
        "agentlog's Anthropic adapter needs the anthropic SDK: pip install 'agentlog[anthropic]'"
    ) from exc

from agentlog.events import ErrorCode
from agentlog.models.anthropic_wire import (
    StreamTranslator,
    build_request,
    response_from_message,
    to_model_error,
)
from agentlog.models.base import LlmRequest, LlmResponse, ModelError

__all__ = ["AnthropicLlm"]


class AnthropicLlm:
    """Claude through the official ``anthropic`` SDK (``POST /v1/messages``).

    ``client`` replaces the SDK client this adapter would build; ``api_key``, ``base_url``,
    ``timeout`` and ``max_retries`` then go unused. ``max_tokens`` is the output cap when the
    request's ``GenerationConfig.max_output_tokens`` is unset (the API requires one).
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = 4096,
        client: anthropic.AsyncAnthropic | None = None,
    ) -> None:
        if not model:
            raise ValueError("model must be a non-empty model name")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be positive, got {max_tokens}")
        self._model = model
        self._max_tokens = max_tokens
        self._owns_client = client is None
        if client is None:
            try:
                client = anthropic.AsyncAnthropic(
                    api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
                )
            except anthropic.AnthropicError as exc:  # e.g. an unreadable credentials profile
                raise to_model_error(exc, api_key) from exc
        self._client = client

    @property
    def model(self) -> str:
        """The default model name; a request's ``model`` overrides it."""
        return self._model

    async def aclose(self) -> None:
        """Close the SDK client's connections, if this adapter built the client."""
        if self._owns_client:
            await self._client.close()

    async def generate(
        self, request: LlmRequest, *, stream: bool = False
    ) -> AsyncIterator[LlmResponse]:
        """Call the model. Raises :class:`ModelError` (never a raw SDK exception)."""
        params = build_request(request, model=self._model, max_tokens=self._max_tokens)
        self._check_credentials()
        try:
            if stream:
                async for response in self._stream(params):
                    yield response
            else:
                message = await self._client.messages.create(**params, stream=False)
                yield response_from_message(message)
        except (anthropic.AnthropicError, httpx2.HTTPError) as exc:
            raise to_model_error(exc, self._client.api_key, self._client.auth_token) from exc

    async def _stream(self, params: MessageCreateParamsBase) -> AsyncIterator[LlmResponse]:
        events = await self._client.messages.create(**params, stream=True)
        translator = StreamTranslator(model=params["model"])
        async with events:
            async for event in events:
                partial = translator.feed(event)
                if partial is not None:
                    yield partial
        if not translator.finished:
            # A dropped connection can end the body cleanly; without message_stop it is cut short.
            raise ModelError(
                ErrorCode.PROVIDER_ERROR,
                "the Anthropic stream ended before message_stop",
                retryable=True,
            )
        yield translator.final()

    def _check_credentials(self) -> None:
        # Without credentials the SDK raises a bare TypeError at request time.
        client = self._client
        if self._owns_client and not (client.api_key or client.auth_token or client.credentials):
            raise ModelError(
                ErrorCode.AUTHENTICATION,
                "no Anthropic credentials: pass api_key= or set ANTHROPIC_API_KEY",
            )
