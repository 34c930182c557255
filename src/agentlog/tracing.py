"""OpenTelemetry spans for a turn, named and attributed after the GenAI semantic conventions.

The tree one turn makes (a transfer nests the target agent's run in the caller's)::

    invocation                      the runner's turn
    ├── append_event                each stored event          agentlog.event.id
    ├── invoke_agent {agent}        each agent run             gen_ai.agent.name
    │   ├── chat {model}            each model call            gen_ai.request.model, usage
    │   ├── execute_tool {tool}     each tool call             gen_ai.tool.name, .call.id
    │   └── invoke_agent {target}
    └── append_event ...

Every span carries ``agentlog.session.id`` and ``agentlog.invocation.id`` (the invocation
span from its first stored event on), so a trace joins the log: an ``append_event`` span and a
``chat`` span name the event they stored or produced (``agentlog.event.id``), a tool span the
function call it answered (``gen_ai.tool.call.id``). A span that ended in an error has status
``ERROR`` and ``error.type``: the :class:`~agentlog.events.ErrorCode` value for a model or turn
that stopped short, the exception's class name for one that raised. Model and tool payloads are
never recorded (the log holds them, redacted).

Spans go to the global tracer provider (``opentelemetry.trace.set_tracer_provider``). Without
the ``otel`` extra every hook here is a no-op, decided once at import. With the API, whether a
turn is traced is decided once, when the runner starts it (:func:`turn_tracer`): its context
carries the answer (``InvocationContext.tracer``), so a turn with no provider configured pays
no check per event and no span layer around its streams. (Hooks given a context the runner did
not make look the provider up themselves.)

A stream (the runner's turn, an agent's run, a model's output) is an async generator that
yields to its consumer. Its span is current only while the stream is being stepped, never
across a yield: the consumer's own work between events is not attributed to it, and a consumer
that stops reading early (its generator then closed in another context) detaches nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING, Any, Final, TypeVar

from agentlog.ids import new_event_id

if TYPE_CHECKING:
    from agentlog.agents.base import BaseAgent
    from agentlog.context import InvocationContext, ToolContext
    from agentlog.events import ErrorCode, Event
    from agentlog.models.base import BaseLlm, LlmRequest, LlmResponse
    from agentlog.sessions.base import Session, SessionService
    from agentlog.tools.base import BaseTool

try:
    from opentelemetry import context as otel_context
    from opentelemetry import trace as otel_trace
    from opentelemetry.trace import ProxyTracerProvider, SpanKind, StatusCode

    ENABLED = True
    """Whether OpenTelemetry is installed (decided once, at import)."""
except ImportError:  # the otel extra is not installed: every hook below is a no-op
    ENABLED = False

__all__ = [
    "ENABLED",
    "UNDECIDED",
    "ModelCall",
    "ToolCall",
    "model_call",
    "store_append",
    "store_append_to",
    "tool_call",
    "trace_agent",
    "trace_turn",
    "turn_tracer",
]

T = TypeVar("T")

INSTRUMENTATION: Final = "agentlog"

# Attribute names, as the GenAI conventions (opentelemetry-semantic-conventions 0.66b2,
# ``gen_ai_attributes`` and ``error_attributes``) spell them, and agentlog's own.
OPERATION: Final = "gen_ai.operation.name"
PROVIDER: Final = "gen_ai.provider.name"
CONVERSATION: Final = "gen_ai.conversation.id"
AGENT_NAME: Final = "gen_ai.agent.name"
AGENT_DESCRIPTION: Final = "gen_ai.agent.description"
REQUEST_MODEL: Final = "gen_ai.request.model"
REQUEST_TEMPERATURE: Final = "gen_ai.request.temperature"
REQUEST_MAX_TOKENS: Final = "gen_ai.request.max_tokens"
REQUEST_TOP_P: Final = "gen_ai.request.top_p"
REQUEST_STOP: Final = "gen_ai.request.stop_sequences"
RESPONSE_MODEL: Final = "gen_ai.response.model"
INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
TOOL_NAME: Final = "gen_ai.tool.name"
TOOL_CALL_ID: Final = "gen_ai.tool.call.id"
TOOL_DESCRIPTION: Final = "gen_ai.tool.description"
TOOL_TYPE: Final = "gen_ai.tool.type"
ERROR_TYPE: Final = "error.type"
APP: Final = "agentlog.app.name"
SESSION: Final = "agentlog.session.id"
INVOCATION: Final = "agentlog.invocation.id"
EVENT: Final = "agentlog.event.id"
AUTHOR: Final = "agentlog.event.author"
BRANCH: Final = "agentlog.agent.branch"
STORE: Final = "agentlog.store"
REJECTED: Final = "agentlog.output.rejected"
CONFIRMED: Final = "agentlog.tool.confirmed"

# The provider a model adapter speaks to, by the module that defines it; any other model
# may say so itself with a ``provider_name`` attribute.
_PROVIDERS: Final = {
    "agentlog.models.openai": "openai",
    "agentlog.models.anthropic": "anthropic",
    "agentlog.models.gemini": "gcp.gen_ai",
    "agentlog.models.scripted": "agentlog.scripted",
}

_cached: tuple[Any, Any] | None = None

UNDECIDED: Final[Any] = object()
"""``InvocationContext.tracer`` of a context the runner did not make: each hook then looks the
global provider up itself."""


def turn_tracer() -> Any:
    """The tracer a turn starting now records its spans with; ``None``: the turn is not traced
    (OpenTelemetry is not installed, or no provider is configured)."""
    return _tracer() if ENABLED else None


def _of(ctx: InvocationContext) -> Any:
    """The tracer of the turn ``ctx`` belongs to (``None``: not traced)."""
    tracer = ctx.tracer
    return _tracer() if tracer is UNDECIDED else tracer


def _tracer() -> Any:
    """The tracer of the global provider; ``None`` while no provider is configured."""
    global _cached
    provider = otel_trace.get_tracer_provider()
    if isinstance(provider, ProxyTracerProvider):
        return None
    cached = _cached
    if cached is not None and cached[0] is provider:
        return cached[1]
    from agentlog import __version__

    tracer = provider.get_tracer(INSTRUMENTATION, __version__)
    _cached = (provider, tracer)
    return tracer


def _fail(span: Any, error_type: str, description: str | None = None) -> None:
    span.set_attribute(ERROR_TYPE, error_type)
    span.set_status(StatusCode.ERROR, description)


def _raised(span: Any, exc: BaseException) -> None:
    # GeneratorExit: the consumer stopped reading, which is no failure of the stream.
    if not isinstance(exc, GeneratorExit):
        span.record_exception(exc)
        _fail(span, type(exc).__qualname__, str(exc)[:500] or None)


class _Watch:
    """A stream's span and what it learns from the stream's items."""

    def __init__(self, span: Any) -> None:
        self.span = span

    def seen(self, item: Any) -> None:
        """Look at one item of the stream."""

    def ended(self) -> None:
        """The stream was read to its end."""


async def _stepped(
    stream: AsyncIterator[T], start: Callable[[], _Watch], *, end: bool = True
) -> AsyncIterator[T]:
    """``stream``'s items, with a span current while the stream runs and not across yields.

    ``start`` makes the span when the stream is first read; with ``end`` the span ends with
    the stream (on exhaustion, an exception or close).
    """
    watch = start()
    current = otel_trace.set_span_in_context(watch.span)
    try:
        while True:
            token = otel_context.attach(current)
            try:
                item = await anext(stream)
            except StopAsyncIteration:
                break
            finally:
                otel_context.detach(token)
            watch.seen(item)
            yield item
        watch.ended()
    except GeneratorExit:
        # Closed by the consumer: close the inner stream now, under the span, so its own
        # cleanup runs where it would have had the stream been read to the end.
        close = getattr(stream, "aclose", None)
        if close is not None:
            token = otel_context.attach(current)
            try:
                await close()
            finally:
                otel_context.detach(token)
        raise
    except BaseException as exc:
        if end:
            _raised(watch.span, exc)
        raise
    finally:
        if end:
            watch.span.end()


# --- the turn ------------------------------------------------------------------------------


def trace_turn(
    stream: AsyncIterator[Event], *, app_name: str, session_id: str, tracer: Any = UNDECIDED
) -> AsyncIterator[Event]:
    """The runner's turn as an ``invocation`` span around its event stream, recorded with
    ``tracer`` (the turn's :func:`turn_tracer`; by default, looked up now)."""
    if tracer is UNDECIDED:
        tracer = turn_tracer()
    if tracer is None:
        return stream

    def start() -> _Watch:
        span = tracer.start_span(
            "invocation",
            kind=SpanKind.INTERNAL,
            attributes={APP: app_name, SESSION: session_id, CONVERSATION: session_id},
        )
        return _TurnWatch(span)

    return _stepped(stream, start)


class _TurnWatch(_Watch):
    def __init__(self, span: Any) -> None:
        super().__init__(span)
        self.last: Event | None = None
        self.first = True

    def seen(self, item: Event) -> None:
        if self.first:
            self.first = False
            self.span.set_attribute(INVOCATION, item.invocation_id)
        if not item.partial:
            self.last = item

    def ended(self) -> None:
        # The turn's last stored event says whether it stopped short (a typed error event).
        last = self.last
        if last is not None and last.error_code is not None:
            _fail(self.span, last.error_code.value, last.error_message)


# --- an agent's run ------------------------------------------------------------------------


def trace_agent(
    agent: BaseAgent, ctx: InvocationContext, stream: AsyncIterator[Event]
) -> AsyncIterator[Event]:
    """An agent's run as an ``invoke_agent {name}`` span around its event stream."""
    tracer = _of(ctx) if ENABLED else None
    if tracer is None:
        return stream

    def start() -> _Watch:
        attributes: dict[str, Any] = {
            OPERATION: "invoke_agent",
            AGENT_NAME: agent.name,
            BRANCH: agent.path,
            **_ids(ctx.session.id, ctx.invocation_id),
        }
        if agent.description:
            attributes[AGENT_DESCRIPTION] = agent.description
        span = tracer.start_span(
            f"invoke_agent {agent.name}", kind=SpanKind.INTERNAL, attributes=attributes
        )
        return _AgentWatch(span, agent.name)

    return _stepped(stream, start)


class _AgentWatch(_Watch):
    def __init__(self, span: Any, name: str) -> None:
        super().__init__(span)
        self.name = name
        self.last: Event | None = None

    def seen(self, item: Event) -> None:
        if item.author == self.name and not item.partial:
            self.last = item

    def ended(self) -> None:
        # An agent whose own last event is a typed error stopped short.
        last = self.last
        if last is not None and last.error_code is not None:
            _fail(self.span, last.error_code.value, last.error_message)


def _ids(session_id: str, invocation_id: str) -> dict[str, Any]:
    return {SESSION: session_id, INVOCATION: invocation_id, CONVERSATION: session_id}


# --- a model call --------------------------------------------------------------------------


class ModelCall:
    """One model call's span (``chat {model}``), started when the model's stream starts.

    Without a tracer it only hands out event ids, so the caller's code is the same either way.
    """

    def __init__(self, tracer: Any, start: Callable[[Any], Any]) -> None:
        self._tracer = tracer
        self._start = start
        self._span: Any = None

    def stream(self, responses: AsyncIterator[LlmResponse]) -> AsyncIterator[LlmResponse]:
        """The model's stream, run under this call's span."""
        if self._tracer is None:
            return responses
        self._span = span = self._start(self._tracer)
        return _stepped(responses, lambda: _Watch(span), end=False)

    def failed(self, error_code: ErrorCode, message: str) -> str:
        """The call failed before answering; returns the id for the error event it becomes."""
        event_id = new_event_id()
        if self._span is not None:
            self._span.set_attribute(EVENT, event_id)
            _fail(self._span, error_code.value, message[:500])
            self._close()
        return event_id

    def finished(self, response: LlmResponse, *, rejected: str | None = None) -> str | None:
        """The call answered (``response``, after the after-model callback). Returns the id for
        the event that holds the answer, or ``None`` when ``rejected`` (the output check
        failed: no event is made of it, and the model is asked again)."""
        event_id = None if rejected is not None else new_event_id()
        span = self._span
        if span is not None:
            if response.model:
                span.set_attribute(RESPONSE_MODEL, response.model)
            if response.usage is not None:
                span.set_attribute(INPUT_TOKENS, response.usage.input_tokens)
                span.set_attribute(OUTPUT_TOKENS, response.usage.output_tokens)
            if event_id is not None:
                span.set_attribute(EVENT, event_id)
            if rejected is not None:
                span.set_attribute(REJECTED, True)
                _fail(span, "malformed_output", rejected[:500])
            elif response.error_code is not None:
                _fail(span, response.error_code.value, (response.error_message or "")[:500] or None)
            self._close()
        return event_id

    def _close(self) -> None:
        if self._span is not None:
            self._span.end()
            self._span = None

    def __enter__(self) -> ModelCall:
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, _tb: object) -> None:
        if self._span is not None and exc is not None:
            _raised(self._span, exc)
        self._close()


def model_call(
    ctx: InvocationContext, agent: BaseAgent, model: BaseLlm, request: LlmRequest
) -> ModelCall:
    """The span of one model call, to use as ``with model_call(...) as call:``."""
    tracer = _of(ctx) if ENABLED else None
    if tracer is None:
        return ModelCall(None, _no_span)
    name = request.model or model.model

    def start(tracer: Any) -> Any:
        attributes: dict[str, Any] = {
            OPERATION: "chat",
            PROVIDER: _provider(model),
            REQUEST_MODEL: name,
            AGENT_NAME: agent.name,
            **_ids(ctx.session.id, ctx.invocation_id),
        }
        config = request.config
        if config.temperature is not None:
            attributes[REQUEST_TEMPERATURE] = config.temperature
        if config.max_output_tokens is not None:
            attributes[REQUEST_MAX_TOKENS] = config.max_output_tokens
        if config.top_p is not None:
            attributes[REQUEST_TOP_P] = config.top_p
        if config.stop:
            attributes[REQUEST_STOP] = list(config.stop)
        return tracer.start_span(f"chat {name}", kind=SpanKind.CLIENT, attributes=attributes)

    return ModelCall(tracer, start)


def _no_span(_tracer: Any) -> None:
    return None


def _provider(model: BaseLlm) -> str:
    declared = getattr(model, "provider_name", None)
    if isinstance(declared, str) and declared:
        return declared
    kind = type(model)
    return _PROVIDERS.get(kind.__module__, kind.__name__)


# --- a tool call ---------------------------------------------------------------------------


class ToolCall:
    """One tool call's span (``execute_tool {tool}``), current while the tool runs."""

    def __init__(self, span: Any) -> None:
        self._span = span

    def failed(self, exc: BaseException) -> None:
        """The tool raised; the model is told so in its result."""
        if self._span is not None:
            self._span.record_exception(exc)
            _fail(self._span, type(exc).__qualname__, str(exc)[:500] or None)


@contextlib.contextmanager
def tool_call(tool: BaseTool, tool_context: ToolContext) -> Iterator[ToolCall]:
    """The span of one tool call, current inside the ``with`` (the tool's own spans nest)."""
    tracer = _of(tool_context._ctx) if ENABLED else None
    if tracer is None:
        yield ToolCall(None)
        return
    attributes: dict[str, Any] = {
        OPERATION: "execute_tool",
        TOOL_NAME: tool.name,
        TOOL_CALL_ID: tool_context.function_call_id,
        TOOL_TYPE: "function",
        AGENT_NAME: tool_context.agent_name,
        **_ids(tool_context.session.id, tool_context.invocation_id),
    }
    if tool.description:
        attributes[TOOL_DESCRIPTION] = tool.description
    if tool_context.tool_confirmation is not None:
        attributes[CONFIRMED] = tool_context.tool_confirmation.confirmed
    with tracer.start_as_current_span(
        f"execute_tool {tool.name}",
        kind=SpanKind.INTERNAL,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            yield ToolCall(span)
        except BaseException as exc:
            _raised(span, exc)
            raise


# --- the store -----------------------------------------------------------------------------


def store_append(
    store: SessionService, session: Session, event: Event, *, tracer: Any = UNDECIDED
) -> contextlib.AbstractContextManager[None]:
    """The span of one ``append_event``, current inside the ``with`` (a driver's spans nest),
    recorded with ``tracer`` (the turn's; by default, looked up now)."""
    return store_append_to(store, session.id, event, tracer=tracer)


def store_append_to(
    store: object, session_id: str, event: Event, *, tracer: Any = UNDECIDED
) -> contextlib.AbstractContextManager[None]:
    """:func:`store_append` by the session's id: also the span of the write that takes a
    turn's lease and stores its message (``acquire_lease_and_append``)."""
    if tracer is UNDECIDED:
        tracer = turn_tracer()
    if tracer is None:
        return contextlib.nullcontext()
    return _append_span(tracer, store, session_id, event)


@contextlib.contextmanager
def _append_span(tracer: Any, store: object, session_id: str, event: Event) -> Iterator[None]:
    attributes: dict[str, Any] = {
        EVENT: event.id,
        AUTHOR: event.author,
        STORE: type(store).__name__,
        **_ids(session_id, event.invocation_id),
    }
    with tracer.start_as_current_span(
        "append_event",
        kind=SpanKind.INTERNAL,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            yield
        except BaseException as exc:
            _raised(span, exc)
            raise
