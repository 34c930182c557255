"""``ScriptedLlm``: a model that replays fixed steps, for tests and the offline demo.

It records every request it saw, fails loudly on a call it has no step for, and reports
steps left unused, so a test cannot pass while the agent made fewer or more calls than meant.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from agentlog.errors import AgentlogError
from agentlog.events import Content, ErrorCode, FunctionCall, Part, Usage, unchecked
from agentlog.models._stream import new_call_id
from agentlog.models.base import LlmRequest, LlmResponse, ModelError

__all__ = ["ScriptError", "ScriptedLlm", "Step"]

Step: TypeAlias = LlmResponse | ModelError | Callable[[LlmRequest], LlmResponse]
"""A canned response, an error to raise, or a function of the request."""


class ScriptError(AgentlogError, AssertionError):
    """The script and the calls made disagree: one call too many, or steps left unused."""


class ScriptedLlm:
    """Replays ``steps`` in order, one per call.

    With ``stream=True`` a text response is sent as partials of ``chunk_size`` characters
    (each carrying the text so far), then the whole response. Usage is estimated as
    characters / 4 unless the step sets it.
    """

    def __init__(
        self, steps: Iterable[Step] = (), *, model: str = "scripted", chunk_size: int = 12
    ) -> None:
        self._steps: list[Step] = list(steps)
        self._model = model
        self._chunk_size = max(1, chunk_size)
        self._next = 0
        self.requests: list[LlmRequest] = []
        """Every request received, in order."""

    @property
    def model(self) -> str:
        """The name recorded on events."""
        return self._model

    @property
    def unused_steps(self) -> int:
        """Steps not yet replayed."""
        return len(self._steps) - self._next

    def add(self, *steps: Step) -> None:
        """Append steps to the script."""
        self._steps.extend(steps)

    def verify(self) -> None:
        """Raise :class:`ScriptError` if steps are left unused."""
        if self.unused_steps:
            raise ScriptError(
                f"{self.unused_steps} scripted step(s) left unused after {self._next} call(s)"
            )

    def __enter__(self) -> ScriptedLlm:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.verify()

    async def generate(
        self, request: LlmRequest, *, stream: bool = False
    ) -> AsyncIterator[LlmResponse]:
        """Replay the next step."""
        self.requests.append(request)
        if self._next >= len(self._steps):
            last = _last_text(request)
            raise ScriptError(
                f"unexpected model call #{self._next + 1}: the script has {len(self._steps)} "
                f"step(s); the request ends with {last!r}"
            )
        step = self._steps[self._next]
        self._next += 1
        if isinstance(step, ModelError):
            raise step
        response = step(request) if callable(step) else step
        update: dict[str, Any] = {}
        if response.usage is None:
            update["usage"] = Usage(
                input_tokens=request.prompt_chars() // 4,
                output_tokens=_response_chars(response) // 4,
            )
        if response.model is None:
            update["model"] = self._model
        if update:  # one copy for both
            response = response.model_copy(update=update)
        if stream and response.content is not None and response.error_code is None:
            text = "".join(p.text for p in response.content.parts if p.text is not None)
            for end in range(self._chunk_size, len(text), self._chunk_size):
                # The start of a checked text is checked: the draft's content is made as is.
                part = unchecked(Part, text=text[:end])
                yield LlmResponse(
                    content=unchecked(Content, role="model", parts=(part,)),
                    partial=True,
                    model=response.model,
                )
        yield response

    # --- step builders ---------------------------------------------------------------------

    @staticmethod
    def text(text: str) -> LlmResponse:
        """A step answering with text."""
        return LlmResponse(content=Content(role="model", parts=(Part(text=text),)))

    @staticmethod
    def call(
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        call_id: str | None = None,
        text: str | None = None,
    ) -> LlmResponse:
        """A step calling one tool (optionally with text before the call)."""
        return ScriptedLlm.calls(
            [(name, args or {})], ids=[call_id] if call_id else None, text=text
        )

    @staticmethod
    def calls(
        calls: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        ids: Sequence[str] | None = None,
        text: str | None = None,
    ) -> LlmResponse:
        """A step calling several tools at once."""
        parts = [Part(text=text)] if text else []
        for i, (name, args) in enumerate(calls):
            call_id = ids[i] if ids else new_call_id()
            parts.append(Part(function_call=FunctionCall(id=call_id, name=name, args=dict(args))))
        return LlmResponse(content=Content(role="model", parts=tuple(parts)))

    @staticmethod
    def json(value: Any) -> LlmResponse:
        """A step answering with ``value`` as JSON text (structured output)."""
        return ScriptedLlm.text(json.dumps(value))

    @staticmethod
    def error(code: ErrorCode, message: str = "scripted failure") -> LlmResponse:
        """A step whose response stops with ``code`` (e.g. a safety stop)."""
        return LlmResponse(error_code=code, error_message=message)


def _response_chars(response: LlmResponse) -> int:
    if response.content is None:
        return 0
    total = 0
    for part in response.content.parts:
        if part.text is not None:
            total += len(part.text)
        elif part.function_call is not None:
            total += len(part.function_call.name) + len(json.dumps(dict(part.function_call.args)))
    return total


def _last_text(request: LlmRequest) -> str:
    for content in reversed(request.contents):
        for part in reversed(content.parts):
            if part.text:
                return part.text[:120]
            if part.function_response is not None:
                return f"<result of {part.function_response.name}>"
    return ""
