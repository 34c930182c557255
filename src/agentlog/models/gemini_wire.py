"""Gemini wire mapping: ``LlmRequest`` to google-genai types, and responses and errors back.

Pure functions, no I/O; :mod:`agentlog.models.gemini` drives the SDK with them.
"""

from __future__ import annotations

import base64
import binascii
import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

try:
    from google.genai import errors as genai_errors
    from google.genai import types as gt
except ImportError as exc:  # pragma: no cover - covered by a test that hides the SDK
    raise ImportError(
        "the Gemini adapter needs the google-genai SDK: pip install 'agentlog[gemini]'"
    ) from exc

from agentlog._frozen import thaw
from agentlog.events import Content, ErrorCode, Part, Usage
from agentlog.models._secrets import redact_exception, redact_secrets
from agentlog.models._stream import StreamAccumulator, ToolCallDraft, new_call_id
from agentlog.models.base import LlmRequest, LlmResponse, ModelError

__all__ = [
    "THOUGHT_SIGNATURE_KEY",
    "absorb",
    "build_config",
    "build_contents",
    "finish_error",
    "translate_error",
]

THOUGHT_SIGNATURE_KEY = "gemini_thought_signature"
"""The ``Part.provider_metadata`` key holding a part's ``thoughtSignature`` (base64 text).

Gemini 2.5 and 3 sign function-call parts (and sometimes text parts) and Gemini 3 rejects a
request whose history lacks a signature it handed out (``MISSING_THOUGHT_SIGNATURE``), so the
signature is kept on the stored part and sent back with it.
"""

# --- request ------------------------------------------------------------------------------------


def build_contents(contents: Sequence[Content]) -> list[gt.ContentUnion]:
    """The history as Gemini contents; tool results always travel in a user turn."""
    out: list[gt.ContentUnion] = []
    for content in contents:
        role = content.role
        if any(p.function_response is not None for p in content.parts):
            role = "user"
        out.append(gt.Content(role=role, parts=[_part(p) for p in content.parts]))
    return out


def _part(part: Part) -> gt.Part:
    signature = _signature_from(part.provider_metadata)
    if part.text is not None:
        return gt.Part(text=part.text, thought_signature=signature)
    if part.function_call is not None:
        call = part.function_call
        return gt.Part(
            function_call=gt.FunctionCall(id=call.id, name=call.name, args=thaw(call.args)),
            thought_signature=signature,
        )
    if part.function_response is not None:
        resp = part.function_response
        return gt.Part(
            function_response=gt.FunctionResponse(
                id=resp.id, name=resp.name, response=thaw(resp.response)
            )
        )
    # Gemini only accepts a codeExecutionResult right after the executableCode that produced
    # it, which agentlog does not keep, and has no artifact part: both travel as text.
    if part.code_execution_result is not None:
        result = part.code_execution_result
        return gt.Part(text=f"Code execution result ({result.outcome}):\n{result.output}")
    ref = part.artifact_ref
    if ref is None:  # pragma: no cover - Part guarantees exactly one payload
        raise ValueError("empty part")
    return gt.Part(text=f"[artifact {ref.name!r}, version {ref.version}]")


def _signature_from(metadata: Mapping[str, Any] | None) -> bytes | None:
    """The thought signature kept in a part's metadata; None if absent or not base64."""
    value = metadata.get(THOUGHT_SIGNATURE_KEY) if metadata is not None else None
    if not isinstance(value, str) or not value:
        return None
    try:
        # The API's JSON uses standard base64; the SDK writes the URL-safe alphabet: take both.
        return base64.b64decode(value.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None


def _signature_metadata(signature: bytes | None) -> dict[str, Any] | None:
    """A response part's thought signature as ``provider_metadata``."""
    if not signature:
        return None
    return {THOUGHT_SIGNATURE_KEY: base64.b64encode(signature).decode("ascii")}


def build_config(request: LlmRequest) -> gt.GenerateContentConfig:
    """Instruction, tools, output schema and sampling as one ``GenerateContentConfig``."""
    settings = request.config
    config = gt.GenerateContentConfig(
        system_instruction=request.system_instruction or None,
        temperature=settings.temperature,
        max_output_tokens=settings.max_output_tokens,
        top_p=settings.top_p,
        stop_sequences=list(settings.stop) or None,
        # agentlog runs the tools itself; the SDK must never call them.
        automatic_function_calling=gt.AutomaticFunctionCallingConfig(disable=True),
    )
    if request.tools:
        declarations = [
            gt.FunctionDeclaration(
                name=tool.name,
                description=tool.description or None,
                parameters_json_schema=thaw(tool.parameters),
            )
            for tool in request.tools
        ]
        config.tools = [gt.Tool(function_declarations=declarations)]
    if request.output_schema is not None:
        config.response_mime_type = "application/json"
        config.response_json_schema = thaw(request.output_schema)
    return config


# --- response -----------------------------------------------------------------------------------

_FINISH_ERRORS: Mapping[str, ErrorCode] = {
    "MAX_TOKENS": ErrorCode.MAX_TOKENS,
    # The SDK resumes a CONTINUATION itself; one that reaches us was cut short all the same.
    "CONTINUATION": ErrorCode.MAX_TOKENS,
    "SAFETY": ErrorCode.SAFETY,
    "PROHIBITED_CONTENT": ErrorCode.SAFETY,
    "BLOCKLIST": ErrorCode.SAFETY,
    "SPII": ErrorCode.SAFETY,
    "IMAGE_SAFETY": ErrorCode.SAFETY,
    "IMAGE_PROHIBITED_CONTENT": ErrorCode.SAFETY,
    "MODEL_ARMOR": ErrorCode.SAFETY,
    "RECITATION": ErrorCode.RECITATION,
    "IMAGE_RECITATION": ErrorCode.RECITATION,
    "MALFORMED_FUNCTION_CALL": ErrorCode.MALFORMED_OUTPUT,
    "MALFORMED_RESPONSE": ErrorCode.MALFORMED_OUTPUT,
    "UNEXPECTED_TOOL_CALL": ErrorCode.MALFORMED_OUTPUT,
}
_NORMAL_FINISH = frozenset({"STOP", "FINISH_REASON_UNSPECIFIED"})


def finish_error(reason: object) -> ErrorCode | None:
    """The error code for a ``finishReason``; None for a normal stop.

    A reason not listed (``OTHER``, ``LANGUAGE``, ``TOO_MANY_TOOL_CALLS``, new ones) is a
    ``PROVIDER_ERROR``: output stopped short and we cannot say why more precisely.
    """
    if reason is None:
        return None
    name = str(getattr(reason, "value", reason)).upper()
    if name in _NORMAL_FINISH:
        return None
    return _FINISH_ERRORS.get(name, ErrorCode.PROVIDER_ERROR)


def absorb(acc: StreamAccumulator, response: gt.GenerateContentResponse) -> list[LlmResponse]:
    """Fold one response (or streamed chunk) into ``acc``; return the partials its text made."""
    partials: list[LlmResponse] = []
    feedback = response.prompt_feedback
    if feedback is not None and feedback.block_reason is not None:
        acc.error_code = ErrorCode.SAFETY
        acc.error_message = _join(
            f"prompt blocked: {_name(feedback.block_reason)}", feedback.block_reason_message
        )
    if response.usage_metadata is not None:
        acc.usage = _usage(response.usage_metadata)
    if not response.candidates:
        return partials
    # agentlog asks for one candidate (the default), so only the first is read.
    cand = response.candidates[0]
    parts = cand.content.parts if cand.content is not None else None
    for part in parts or ():
        if part.thought:
            continue  # a thinking summary, not part of the answer
        if part.text is not None:
            # Text is joined into one part, which keeps the last signature seen; Gemini may
            # sign an empty closing text chunk, so this comes before add_text drops it.
            metadata = _signature_metadata(part.thought_signature)
            if metadata is not None:
                acc.text_metadata = metadata
            partial = acc.add_text(part.text)
            if partial is not None:
                partials.append(partial)
        elif part.function_call is not None:
            call = part.function_call
            if not call.name:
                acc.error_code = ErrorCode.MALFORMED_OUTPUT
                acc.error_message = "Gemini sent a function call without a name"
                continue
            acc.calls.append(
                ToolCallDraft(
                    id=call.id or new_call_id(),
                    name=call.name,
                    arguments=dict(call.args or {}),
                    metadata=_signature_metadata(part.thought_signature),
                )
            )
    code = finish_error(cand.finish_reason)
    if code is not None:
        acc.error_code = code
        acc.error_message = _join(f"finish reason {_name(cand.finish_reason)}", cand.finish_message)
    return partials


def _usage(meta: gt.GenerateContentResponseUsageMetadata) -> Usage:
    # Thinking tokens are generated and billed as output, as OpenAI's completion_tokens are.
    return Usage(
        input_tokens=meta.prompt_token_count or 0,
        output_tokens=(meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0),
    )


def _name(value: object) -> str:
    return str(getattr(value, "value", value))


def _join(head: str, detail: str | None) -> str:
    return f"{head}: {detail}" if detail else head


# --- errors -------------------------------------------------------------------------------------


def _exception_classes(*qualified: str) -> tuple[type[Exception], ...]:
    """Exception classes from transports that may or may not be installed."""
    found: list[type[Exception]] = []
    for name in qualified:
        module, _, attr = name.rpartition(".")
        try:
            found.append(getattr(importlib.import_module(module), attr))
        except (ImportError, AttributeError):
            continue
    return tuple(found)


# The SDK's async transport is httpx2 by default, httpx or aiohttp when configured so.
# aiohttp's timeouts are asyncio.TimeoutError, that is TimeoutError.
_TIMEOUTS: tuple[type[Exception], ...] = (
    TimeoutError,
    *_exception_classes("httpx.TimeoutException", "httpx2.TimeoutException"),
)
_TRANSPORT: tuple[type[Exception], ...] = (
    ConnectionError,
    *_exception_classes("httpx.TransportError", "httpx2.TransportError", "aiohttp.ClientError"),
)


def translate_error(exc: Exception, *secrets: str | None) -> ModelError:
    """The :class:`ModelError` for an SDK exception, ``secrets`` and key shapes masked."""
    code, message, retryable = _classify(exc)
    redact_exception(exc, *secrets)
    return ModelError(code, redact_secrets(message, *secrets), retryable=retryable)


def _classify(exc: Exception) -> tuple[ErrorCode, str, bool]:
    if isinstance(exc, genai_errors.APIError):
        return _classify_api_error(exc)
    if isinstance(exc, _TIMEOUTS):
        return ErrorCode.TIMEOUT, f"Gemini did not answer in time ({type(exc).__name__})", True
    if isinstance(exc, _TRANSPORT):
        return (
            ErrorCode.PROVIDER_ERROR,
            f"connection to Gemini failed: {type(exc).__name__}: {exc}",
            True,
        )
    if isinstance(exc, genai_errors.UnknownApiResponseError):
        return ErrorCode.PROVIDER_ERROR, "Gemini sent a response that is not JSON", False
    return ErrorCode.PROVIDER_ERROR, f"Gemini SDK failed: {type(exc).__name__}: {exc}", False


def _classify_api_error(exc: genai_errors.APIError) -> tuple[ErrorCode, str, bool]:
    status = exc.status or ""
    code = exc.code if isinstance(exc.code, int) else 0
    text = exc.message or ""
    head = " ".join(part for part in (str(code) if code else "", status) if part)
    message = f"Gemini API error {head}: {text}"
    if code == 429 or status == "RESOURCE_EXHAUSTED":
        return ErrorCode.RATE_LIMITED, message, True
    if (
        code in (401, 403)
        or status in ("UNAUTHENTICATED", "PERMISSION_DENIED")
        or "API_KEY_INVALID" in _reasons(exc.details)
    ):
        return ErrorCode.AUTHENTICATION, message, False
    if code in (408, 504) or status == "DEADLINE_EXCEEDED":
        return ErrorCode.TIMEOUT, message, True
    if code == 400 and "exceeds the maximum number of tokens" in text.lower():
        return ErrorCode.CONTEXT_TOO_LONG, message, False
    return ErrorCode.PROVIDER_ERROR, message, code >= 500 or code == 0


def _reasons(details: Any) -> set[str]:
    """The ``ErrorInfo`` reasons in a Google error body."""
    error = details.get("error", details) if isinstance(details, Mapping) else {}
    items = error.get("details") if isinstance(error, Mapping) else None
    if not isinstance(items, Iterable):
        return set()
    return {str(item["reason"]) for item in items if isinstance(item, Mapping) and "reason" in item}
