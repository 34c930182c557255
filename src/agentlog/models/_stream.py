"""Building ``LlmResponse``s from a provider's stream, the same way for every adapter."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentlog.events import Content, ErrorCode, FunctionCall, Part, Usage
from agentlog.ids import new_event_id
from agentlog.models.base import LlmResponse

__all__ = ["StreamAccumulator", "ToolCallDraft", "new_call_id", "parse_arguments"]


def new_call_id() -> str:
    """A function-call id for providers that do not send one."""
    return "call-" + new_event_id().lower()


def parse_arguments(raw: str | None) -> dict[str, Any]:
    """Tool-call arguments from the model's JSON text; ``ValueError`` if not a JSON object."""
    if raw is None or not raw.strip():
        return {}
    value = json.loads(raw)
    if not isinstance(value, dict):
        raise ValueError(f"arguments must be a JSON object, got {type(value).__name__}")
    return value


@dataclass
class ToolCallDraft:
    """A tool call being streamed: its arguments may arrive as JSON fragments."""

    id: str
    name: str
    arguments_json: str = ""
    arguments: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    """Becomes the final part's ``provider_metadata`` (opaque data the provider needs back)."""


@dataclass
class StreamAccumulator:
    """Collects text and tool calls as they stream; makes the partial and final responses.

    ``text_metadata`` becomes the ``provider_metadata`` of the final text part (the streamed
    text is joined into one part, so it carries the metadata seen last).
    """

    model: str
    text: list[str] = field(default_factory=list)
    text_metadata: dict[str, Any] | None = None
    calls: list[ToolCallDraft] = field(default_factory=list)
    usage: Usage | None = None
    error_code: ErrorCode | None = None
    error_message: str | None = None

    def add_text(self, chunk: str) -> LlmResponse | None:
        """Add a text chunk; return the partial response carrying all text so far."""
        if not chunk:
            return None
        self.text.append(chunk)
        return LlmResponse(
            content=Content(role="model", parts=(Part(text="".join(self.text)),)),
            partial=True,
            model=self.model,
        )

    def final(self) -> LlmResponse:
        """The aggregated response. Arguments that do not parse make a ``MALFORMED_OUTPUT``."""
        parts: list[Part] = []
        text = "".join(self.text)
        if text:
            parts.append(Part(text=text, provider_metadata=self.text_metadata))
        error_code, error_message = self.error_code, self.error_message
        for draft in self.calls:
            try:
                args = (
                    draft.arguments
                    if draft.arguments is not None
                    else parse_arguments(draft.arguments_json)
                )
            except ValueError as exc:
                # A finish reason already set (a token limit that cut the arguments off) is
                # the better explanation; keep it.
                if error_code is None:
                    error_code = ErrorCode.MALFORMED_OUTPUT
                detail = (
                    f"arguments of tool call {draft.name!r} are not a JSON object: {exc}; "
                    f"received: {draft.arguments_json[:500]!r}"
                )
                error_message = f"{error_message}; {detail}" if error_message else detail
                continue
            call = FunctionCall(id=draft.id, name=draft.name, args=args)
            parts.append(Part(function_call=call, provider_metadata=draft.metadata))
        return LlmResponse(
            content=Content(role="model", parts=tuple(parts)) if parts else None,
            partial=False,
            usage=self.usage,
            model=self.model,
            error_code=error_code,
            error_message=error_message,
        )
