"""``GeminiLlm``: the Gemini Developer API through the official ``google-genai`` SDK.

Needs the ``gemini`` extra (``pip install 'agentlog[gemini]'``). Requests go to
``POST /v1beta/models/{model}:generateContent`` or ``:streamGenerateContent?alt=sse`` with the
key in the ``x-goog-api-key`` header. The wire mapping lives in
:mod:`agentlog.models.gemini_wire`.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing

try:
    from google import genai
    from google.genai import types as gt
except ImportError as exc:  # pragma: no cover - covered by a test that hides the SDK
    raise ImportError(
        "GeminiLlm needs the google-genai SDK: pip install 'agentlog[gemini]'"
    ) from exc

from agentlog.events import ErrorCode
from agentlog.models._secrets import redact_exception, redact_secrets
from agentlog.models._stream import StreamAccumulator
from agentlog.models.base import LlmRequest, LlmResponse, ModelError
from agentlog.models.gemini_wire import absorb, build_config, build_contents, translate_error

__all__ = ["GeminiLlm"]

# The SDK defaults to v1; responseJsonSchema and function-call ids are v1beta features.
_API_VERSION = "v1beta"
_KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")
"""Where the SDK looks for a key when none is passed (``GOOGLE_API_KEY`` first)."""


class GeminiLlm:
    """A :class:`~agentlog.models.base.BaseLlm` over the Gemini Developer API.

    ``api_key`` None lets the SDK read ``GOOGLE_API_KEY`` or ``GEMINI_API_KEY``. ``timeout`` is
    in seconds, per HTTP request. ``max_retries`` becomes the SDK's ``HttpRetryOptions``
    (attempts = retries + 1, exponential backoff from 1 s) and covers 408, 429 and 5xx answers
    and connection failures before a response starts; a stream that fails midway is not
    retried. With ``client`` given, that client's own key, URL, timeout and retries apply and
    the other arguments are ignored; :meth:`aclose` leaves it open.
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        client: genai.Client | None = None,
    ) -> None:
        if not model:
            raise ValueError("model must be a non-empty name")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be zero or more, got {max_retries}")
        self._model = model
        self._owns_client = client is None
        self._client = (
            client if client is not None else _make_client(api_key, base_url, timeout, max_retries)
        )
        self._api_key = api_key or _client_key(self._client)

    @property
    def model(self) -> str:
        """The default model name, used when a request names none."""
        return self._model

    async def aclose(self) -> None:
        """Close the HTTP connections of the client this adapter created."""
        if self._owns_client:
            await self._client.aio.aclose()

    async def generate(
        self, request: LlmRequest, *, stream: bool = False
    ) -> AsyncIterator[LlmResponse]:
        """Call Gemini. Raises :class:`ModelError` (never a raw SDK exception).

        Without ``stream`` yields one response; with it, a partial response per text chunk
        (carrying all text so far) and then one aggregated, non-partial response.
        """
        model = request.model or self._model
        contents = build_contents(request.contents)
        config = build_config(request)
        acc = StreamAccumulator(model=model)
        if stream:
            async with aclosing(self._stream(model, contents, config)) as chunks:
                async for chunk in chunks:
                    for partial in absorb(acc, chunk):
                        yield partial
        else:
            try:
                response = await self._client.aio.models.generate_content(
                    model=model, contents=contents, config=config
                )
            except Exception as exc:
                raise translate_error(exc, self._api_key) from exc
            absorb(acc, response)
        yield acc.final()

    async def _stream(
        self, model: str, contents: list[gt.ContentUnion], config: gt.GenerateContentConfig
    ) -> AsyncGenerator[gt.GenerateContentResponse, None]:
        """The SDK's chunks, with every SDK exception (also mid-stream) translated."""
        try:
            chunks = await self._client.aio.models.generate_content_stream(
                model=model, contents=contents, config=config
            )
        except Exception as exc:
            raise translate_error(exc, self._api_key) from exc
        try:
            while True:
                try:
                    chunk = await anext(chunks)
                except StopAsyncIteration:
                    return
                except Exception as exc:
                    raise translate_error(exc, self._api_key) from exc
                yield chunk
        finally:
            # Releases the HTTP response when the caller stops reading early.
            aclose = getattr(chunks, "aclose", None)
            if aclose is not None:
                await aclose()


def _make_client(
    api_key: str | None, base_url: str | None, timeout: float, max_retries: int
) -> genai.Client:
    http_options = gt.HttpOptions(
        base_url=base_url,
        api_version=_API_VERSION,
        timeout=max(1, round(timeout * 1000)),  # the SDK counts milliseconds
        retry_options=gt.HttpRetryOptions(attempts=max_retries + 1) if max_retries else None,
    )
    if not (api_key or any(os.environ.get(name) for name in _KEY_VARIABLES)):
        # Refused before the SDK's constructor runs: a client whose constructor raises is left
        # half built, and collected later inside a running loop it schedules a close that
        # fails ("Task exception was never retrieved", in whatever turn runs then).
        raise ModelError(
            ErrorCode.AUTHENTICATION,
            "cannot create the Gemini client: no API key (pass api_key or set "
            + " or ".join(_KEY_VARIABLES)
            + ")",
        )
    try:
        # vertexai=False so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute calls.
        return genai.Client(vertexai=False, api_key=api_key, http_options=http_options)
    except ValueError as exc:
        code = ErrorCode.AUTHENTICATION if api_key is None else ErrorCode.PROVIDER_ERROR
        message = redact_secrets(f"cannot create the Gemini client: {exc}", api_key)
        redact_exception(exc, api_key)
        raise ModelError(code, message) from exc


def _client_key(client: genai.Client) -> str | None:
    # The SDK keeps the key it settled on (from the environment, or a caller's client) only on
    # its private API client; without it such a key is masked only if it has Google's shape.
    key = getattr(getattr(client, "_api_client", None), "api_key", None)
    return key if isinstance(key, str) else None
