"""For the google-adk tests: a canned ADK model, and stores for ``AgentlogSessionService``."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from pydantic import PrivateAttr

Step = Callable[[LlmRequest], LlmResponse]
"""One canned model call: the request in, the response out."""


class CannedLlm(BaseLlm):
    """An ADK model that answers each call with the next step, records every request, and
    fails on a call past the last step (so a test also sees a model called too often)."""

    model: str = "canned"
    _steps: list[Step] = PrivateAttr(default_factory=list)
    _requests: list[LlmRequest] = PrivateAttr(default_factory=list)

    def __init__(self, steps: list[Step], **data: Any) -> None:
        super().__init__(**data)
        self._steps = list(steps)

    @property
    def requests(self) -> list[LlmRequest]:
        """The requests seen, in order."""
        return self._requests

    @property
    def unused(self) -> int:
        """Steps not called yet."""
        return len(self._steps)

    def add(self, *steps: Step) -> None:
        """Queue more steps."""
        self._steps.extend(steps)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self._requests.append(llm_request)
        if not self._steps:
            raise AssertionError(f"model called {len(self._requests)} times, more than scripted")
        yield self._steps.pop(0)(llm_request)


def says(text: str) -> Step:
    """A step answering ``text``."""

    def step(_: LlmRequest) -> LlmResponse:
        return LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text=text)]),
            usage_metadata=types.GenerateContentResponseUsageMetadata(
                prompt_token_count=7, candidates_token_count=3, total_token_count=10
            ),
        )

    return step


def calls(name: str, call_id: str, **args: Any) -> Step:
    """A step calling the tool ``name`` with ``args``."""

    def step(_: LlmRequest) -> LlmResponse:
        call = types.FunctionCall(id=call_id, name=name, args=args)
        return LlmResponse(
            content=types.Content(role="model", parts=[types.Part(function_call=call)])
        )

    return step


def texts(request: LlmRequest) -> list[str]:
    """Every text part the model was sent, in order."""
    return [p.text for c in request.contents for p in c.parts or () if p.text]


def user_text(text: str) -> types.Content:
    """A user message."""
    return types.Content(role="user", parts=[types.Part(text=text)])
