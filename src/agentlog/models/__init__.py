"""Models: the ``BaseLlm`` contract, ``ScriptedLlm`` and adapters over the official SDKs.

The adapters live in submodules that need their extra: :mod:`agentlog.models.openai`
(``openai``), :mod:`agentlog.models.anthropic` (``anthropic``), :mod:`agentlog.models.gemini`
(``gemini``).
"""

from agentlog.models.base import (
    BaseLlm,
    GenerationConfig,
    LlmRequest,
    LlmResponse,
    ModelError,
    ToolDeclaration,
    response_text,
)

__all__ = [
    "BaseLlm",
    "GenerationConfig",
    "LlmRequest",
    "LlmResponse",
    "ModelError",
    "ToolDeclaration",
    "response_text",
]
