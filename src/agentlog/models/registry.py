"""Models named by a spec string, for the command line: ``provider:model``.

``scripted`` (the offline script), ``openai:gpt-4o-mini`` (any OpenAI-compatible server with a
base URL), ``anthropic:claude-...``, ``gemini:gemini-...``. Keys come from each SDK's usual
environment variable unless given.
"""

from __future__ import annotations

from agentlog.models.base import BaseLlm

__all__ = ["model_from_spec"]


def model_from_spec(
    spec: str, *, base_url: str | None = None, api_key: str | None = None
) -> BaseLlm:
    """The model a spec names. Raises ``ValueError`` for an unknown provider."""
    provider, _, name = spec.partition(":")
    if not name:
        raise ValueError(f"model spec {spec!r} is not 'provider:model'")
    if provider == "openai":
        from agentlog.models.openai import OpenAIChatLlm

        return OpenAIChatLlm(name, api_key=api_key, base_url=base_url)
    if provider == "anthropic":
        from agentlog.models.anthropic import AnthropicLlm

        return AnthropicLlm(name, api_key=api_key, base_url=base_url)
    if provider == "gemini":
        from agentlog.models.gemini import GeminiLlm

        return GeminiLlm(name, api_key=api_key, base_url=base_url)
    raise ValueError(f"unknown model provider {provider!r}: use openai, anthropic or gemini")
