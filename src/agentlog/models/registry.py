"""Models named by a string, ``provider:model``, as ``LlmAgent(model=...)`` and the command line
take them.

``openai:gpt-4o-mini`` (any OpenAI-compatible server, given its ``base_url``),
``anthropic:claude-...``, ``gemini:gemini-...``. Each key comes from its SDK's usual environment
variable unless given. Everything that can be known before the first call is checked when the
model is made, so a wrong string fails where it is written: ``InvalidConfigError`` for a string
that names no model, an unknown provider, a provider whose extra is not installed, and a missing
key (naming the variable to set). ``scripted`` is refused too: a ``ScriptedLlm`` needs its
steps, so it is built in code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agentlog.errors import InvalidConfigError, ModelError
from agentlog.events import ErrorCode
from agentlog.models.base import BaseLlm

__all__ = ["PROVIDERS", "model_from_spec"]


@dataclass(frozen=True, slots=True)
class _Provider:
    example: str
    """A model string to show in messages."""
    key_variable: str
    """Where the SDK looks for a key when none is given."""
    make: Callable[[str, str | None, str | None], BaseLlm]
    """``(model name, api_key, base_url)`` to the adapter."""


def _openai(name: str, api_key: str | None, base_url: str | None) -> BaseLlm:
    from agentlog.models.openai import OpenAIChatLlm

    return OpenAIChatLlm(name, api_key=api_key, base_url=base_url)


def _anthropic(name: str, api_key: str | None, base_url: str | None) -> BaseLlm:
    from agentlog.models.anthropic import AnthropicLlm

    llm = AnthropicLlm(name, api_key=api_key, base_url=base_url)
    # The SDK finds no credentials only at the first request; the adapter's own check, now.
    llm._check_credentials()
    return llm


def _gemini(name: str, api_key: str | None, base_url: str | None) -> BaseLlm:
    from agentlog.models.gemini import GeminiLlm

    return GeminiLlm(name, api_key=api_key, base_url=base_url)


PROVIDERS: dict[str, _Provider] = {
    "openai": _Provider("openai:gpt-4o-mini", "OPENAI_API_KEY", _openai),
    "anthropic": _Provider("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY", _anthropic),
    "gemini": _Provider("gemini:gemini-2.5-flash", "GEMINI_API_KEY", _gemini),
}
"""The providers a model string may name, in the order messages list them."""


def _choices() -> str:
    return ", ".join(f"'{p.example}'" for p in PROVIDERS.values())


def model_from_spec(
    spec: str, *, base_url: str | None = None, api_key: str | None = None
) -> BaseLlm:
    """The model ``spec`` (``provider:model``) names, checked as far as it can be offline.

    Raises ``InvalidConfigError`` saying what to write or set instead.
    """
    provider_name, colon, name = spec.strip().partition(":")
    if provider_name == "scripted" and not colon:
        raise InvalidConfigError(
            "'scripted' names no model: a ScriptedLlm needs its steps, so pass "
            "ScriptedLlm([...]) as the model (the command line's offline script is the default "
            "when no model is given)"
        )
    provider = PROVIDERS.get(provider_name)
    if provider is None:
        if not colon:
            raise InvalidConfigError(
                f"model {spec!r} is not 'provider:model'; write for example {_choices()}"
            )
        raise InvalidConfigError(
            f"unknown model provider {provider_name!r} in {spec!r}: use one of {_choices()}"
        )
    if not name.strip():
        raise InvalidConfigError(f"model {spec!r} names no model; write e.g. {provider.example!r}")
    try:
        return provider.make(name.strip(), api_key, base_url)
    except ImportError as exc:
        raise InvalidConfigError(str(exc)) from exc
    except ModelError as exc:
        if exc.error_code is not ErrorCode.AUTHENTICATION or api_key is not None:
            raise InvalidConfigError(f"cannot use {spec!r}: {exc}") from exc
        local = " (any value, for a local server that checks none)" if base_url else ""
        raise InvalidConfigError(
            f"{spec!r} needs an API key: set {provider.key_variable}{local}"
        ) from exc
