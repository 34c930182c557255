"""The model contract: ``LlmRequest`` in, a stream of ``LlmResponse`` out.

Adapters over provider SDKs translate both ways and translate every SDK exception into a
:class:`ModelError`; nothing provider-specific crosses this boundary.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from agentlog._frozen import FrozenJsonDict
from agentlog.errors import ModelError
from agentlog.events import Content, ErrorCode, Usage

__all__ = [
    "BaseLlm",
    "response_text",
    "GenerationConfig",
    "LlmRequest",
    "LlmResponse",
    "ModelError",
    "ToolDeclaration",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolDeclaration(_Frozen):
    """A tool as the model sees it."""

    name: str = Field(min_length=1, description="The name the model calls it by.")
    description: str = Field(default="", description="What it does, for the model.")
    parameters: FrozenJsonDict = Field(
        default_factory=lambda: {"type": "object", "properties": {}},
        validate_default=True,
        description="JSON schema of its arguments (an object).",
    )


class GenerationConfig(_Frozen):
    """Sampling settings; ``None`` leaves the provider's default."""

    temperature: float | None = Field(default=None, ge=0, description="Sampling temperature.")
    max_output_tokens: int | None = Field(default=None, gt=0, description="Output token cap.")
    top_p: float | None = Field(default=None, ge=0, le=1, description="Nucleus sampling.")
    stop: tuple[str, ...] = Field(default=(), description="Stop sequences.")


class LlmRequest(_Frozen):
    """One model call: instruction, history, tools and the shape the answer must take."""

    model: str | None = Field(default=None, description="Model name; None for the adapter's.")
    system_instruction: str = Field(default="", description="The system prompt.")
    contents: tuple[Content, ...] = Field(default=(), description="The history, in order.")
    tools: tuple[ToolDeclaration, ...] = Field(default=(), description="Tools on offer.")
    output_schema: FrozenJsonDict | None = Field(
        default=None, description="JSON schema the answer must match (structured output)."
    )
    config: GenerationConfig = Field(default_factory=GenerationConfig, description="Sampling.")

    def prompt_chars(self) -> int:
        """Characters in the prompt (instruction and text of every part), for estimates."""
        total = len(self.system_instruction)
        for content in self.contents:
            for part in content.parts:
                if part.text is not None:
                    total += len(part.text)
                elif part.function_call is not None:
                    total += len(part.function_call.name) + len(str(dict(part.function_call.args)))
                elif part.function_response is not None:
                    fr = part.function_response
                    total += len(fr.name) + len(str(dict(fr.response)))
        return total


class LlmResponse(_Frozen):
    """One item of a model's stream.

    With streaming, partial responses carry the text so far (not only the newest chunk), and
    one non-partial response with the whole content follows. Without streaming there is one
    non-partial response. A response with ``error_code`` set ends the stream.
    """

    content: Content | None = Field(default=None, description="What the model said.")
    partial: bool = Field(default=False, description="A draft; the text so far.")
    usage: Usage | None = Field(default=None, description="Tokens used (on the last response).")
    model: str | None = Field(default=None, description="The model that answered.")
    error_code: ErrorCode | None = Field(default=None, description="Why output stopped short.")
    error_message: str | None = Field(default=None, description="Provider detail, for logs.")


@runtime_checkable
class BaseLlm(Protocol):
    """A model: request in, stream of responses out."""

    @property
    def model(self) -> str:
        """The model's name, recorded on events it produces."""
        ...

    def generate(self, request: LlmRequest, *, stream: bool = False) -> AsyncIterator[LlmResponse]:
        """Call the model. Raises :class:`ModelError` (never a raw SDK exception)."""
        ...


def response_text(response: LlmResponse) -> str:
    """The text parts of a response, joined."""
    if response.content is None:
        return ""
    return "".join(p.text for p in response.content.parts if p.text is not None)
