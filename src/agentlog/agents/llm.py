"""``LlmAgent``: an agent whose steps are model calls and the tool calls they ask for.

One step: build the request from state and history, call the model, emit its event; if it
called tools, run them and emit their responses, then step again. The turn ends on an answer
(text without calls), a transfer, an error, or a pause for a human.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from pydantic import BaseModel, ValidationError

from agentlog import tracing
from agentlog._streams import closing
from agentlog.agents.base import AgentCallback, BaseAgent, resolve
from agentlog.agents.history import HistoryCache, current_turn
from agentlog.agents.instructions import fill_instruction
from agentlog.agents.tool_calls import (
    AfterToolCallback,
    BeforeToolCallback,
    CallsOutcome,
    run_calls,
)
from agentlog.agents.transfer import TransferToAgentTool, transfer_targets
from agentlog.context import CallbackContext, InvocationContext, ResumeInfo
from agentlog.errors import InvalidConfigError
from agentlog.events import Content, ErrorCode, Event, EventActions, Part
from agentlog.logs import get_logger
from agentlog.models.base import (
    BaseLlm,
    GenerationConfig,
    LlmRequest,
    LlmResponse,
    ModelError,
    response_text,
)
from agentlog.models.registry import model_from_spec
from agentlog.run_config import StreamingMode
from agentlog.tools.base import BaseTool
from agentlog.tools.function import as_tool
from agentlog.tools.toolset import BaseToolset

__all__ = ["AfterModelCallback", "BeforeModelCallback", "LlmAgent"]

logger = get_logger("agentlog.agents")

BeforeModelCallback: TypeAlias = Callable[
    [CallbackContext, LlmRequest], LlmResponse | Awaitable[LlmResponse | None] | None
]
"""Runs before each model call; a returned response is used instead of calling the model."""
AfterModelCallback: TypeAlias = Callable[
    [CallbackContext, LlmResponse], LlmResponse | Awaitable[LlmResponse | None] | None
]
"""Runs after each model call; a returned response replaces the model's."""

InstructionProvider: TypeAlias = Callable[[Mapping[str, Any]], str]


@dataclass
class _Attempt:
    """One model call's final response and what to do about it."""

    response: LlmResponse
    problem: str | None = None
    parsed: Any = None
    event_id: str | None = None
    """The id for the event made of the response (none when rejected)."""


class LlmAgent(BaseAgent):
    """An agent driven by a model, with tools, sub-agents and optional structured output.

    Args:
        name: unique in the agent tree; the author of its events.
        model: the model, or a string naming one (``"openai:gpt-4o-mini"``, resolved now by
            :func:`agentlog.models.registry.model_from_spec`; ``InvalidConfigError`` if it
            cannot be); ``None`` uses the nearest ancestor ``LlmAgent``'s.
        instruction: system prompt; ``{key}`` / ``{key?}`` placeholders read state.
        tools: ``BaseTool``s, plain functions, or toolsets (``BaseToolset``, such as
            :class:`agentlog.tools.mcp.McpToolset`) whose tools are listed as each run starts.
        output_schema: a pydantic model the final answer must parse as (one retry with the
            validation error, then a ``MALFORMED_OUTPUT`` error event).
        output_key: state key that receives the final answer (parsed, with a schema).
        include_contents: ``"default"`` (the history) or ``"none"`` (only this turn).
        disallow_transfer_to_parent: forbid ``transfer_to_agent`` to the parent.
        disallow_transfer_to_peers: forbid ``transfer_to_agent`` to sibling agents.
        generate_content_config: sampling settings.
    """

    def __init__(
        self,
        *,
        name: str,
        model: BaseLlm | str | None = None,
        instruction: str | InstructionProvider = "",
        description: str = "",
        tools: Sequence[BaseTool | BaseToolset | Callable[..., Any]] = (),
        sub_agents: Sequence[BaseAgent] = (),
        output_schema: type[BaseModel] | None = None,
        output_key: str | None = None,
        include_contents: Literal["default", "none"] = "default",
        disallow_transfer_to_parent: bool = False,
        disallow_transfer_to_peers: bool = False,
        generate_content_config: GenerationConfig | None = None,
        before_model_callback: BeforeModelCallback | None = None,
        after_model_callback: AfterModelCallback | None = None,
        before_tool_callback: BeforeToolCallback | None = None,
        after_tool_callback: AfterToolCallback | None = None,
        before_agent_callback: AgentCallback | None = None,
        after_agent_callback: AgentCallback | None = None,
    ) -> None:
        super().__init__(
            name=name,
            description=description,
            sub_agents=sub_agents,
            before_agent_callback=before_agent_callback,
            after_agent_callback=after_agent_callback,
        )
        if include_contents not in ("default", "none"):
            raise ValueError("include_contents is 'default' or 'none'")
        self._model = _resolve_model(name, model)
        self.instruction = instruction
        self.toolsets = tuple(t for t in tools if isinstance(t, BaseToolset))
        self.tools: tuple[BaseTool, ...] = tuple(
            as_tool(t) for t in tools if not isinstance(t, BaseToolset)
        )
        self._listed: tuple[BaseTool, ...] = ()
        names = [t.name for t in self.tools]
        if len(set(names)) != len(names):
            raise ValueError(f"agent {name!r} has two tools with one name: {names}")
        self.output_schema = output_schema
        self.output_key = output_key
        self.include_contents = include_contents
        self.disallow_transfer_to_parent = disallow_transfer_to_parent
        self.disallow_transfer_to_peers = disallow_transfer_to_peers
        self.generate_content_config = generate_content_config or GenerationConfig()
        self.before_model_callback = before_model_callback
        self.after_model_callback = after_model_callback
        self.before_tool_callback = before_tool_callback
        self.after_tool_callback = after_tool_callback
        self._history = HistoryCache()

    @property
    def model(self) -> BaseLlm:
        """This agent's model, or the nearest ancestor's."""
        agent: BaseAgent | None = self
        while agent is not None:
            if isinstance(agent, LlmAgent) and agent._model is not None:
                return agent._model
            agent = agent.parent_agent
        raise ValueError(f"agent {self.name!r} has no model and no ancestor with one")

    def tools_by_name(self) -> dict[str, BaseTool]:
        """The tools on offer (the toolsets' as last listed), the transfer tool included when
        there are targets."""
        tools = {t.name: t for t in (*self.tools, *self._listed)}
        targets = transfer_targets(self)
        if targets:
            tools[TransferToAgentTool.NAME] = TransferToAgentTool([a.name for a in targets])
        return tools

    # --- the request ----------------------------------------------------------------------

    def build_request(self, ctx: InvocationContext, extra: Sequence[Content] = ()) -> LlmRequest:
        """The request for this agent's next model call."""
        state = ctx.state()
        if callable(self.instruction):
            instruction = self.instruction(state)
        else:
            instruction = fill_instruction(self.instruction, state)
        targets = transfer_targets(self)
        if targets:
            listing = "\n".join(f"- {a.name}: {a.description}" for a in targets)
            instruction += (
                "\n\nYou can hand the conversation to another agent with the "
                f"`{TransferToAgentTool.NAME}` tool when it is better placed to help:\n{listing}"
            )
        session = ctx.session
        events = session.events
        if self.include_contents == "none":
            events = tuple(current_turn(events))
        key = (session.app_name, session.user_id, session.id)
        return LlmRequest(
            model=self.model.model,
            system_instruction=instruction.strip(),
            contents=(*self._history.build(key, events, self.name), *extra),
            tools=tuple(t.declaration() for t in self.tools_by_name().values()),
            output_schema=(
                self.output_schema.model_json_schema() if self.output_schema is not None else None
            ),
            config=self.generate_content_config,
        )

    # --- the loop -------------------------------------------------------------------------

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        turn = _Turn()
        if self.toolsets:
            await self._list_toolsets()
        if ctx.resume is not None and ctx.resume.agent_name == self.name:
            resume, ctx.resume = ctx.resume, None
            outcome = await self._resume(ctx, resume)
            async with closing(self._emit_calls(ctx, outcome, turn)) as source:
                async for event in source:
                    yield event
            if not turn.stop and self._still_waiting(ctx):
                ctx.paused = ctx.end_invocation = turn.stop = True
        while not (turn.stop or ctx.end_invocation):
            async with closing(self._step(ctx, turn)) as source:
                async for event in source:
                    yield event

    async def _step(self, ctx: InvocationContext, turn: _Turn) -> AsyncIterator[Event]:
        callback_context = CallbackContext(ctx, self)
        extra: list[Content] = []
        attempt: _Attempt | None = None
        for tries_left in (1, 0):
            attempt = None
            async with closing(self._call_model(ctx, callback_context, extra)) as source:
                async for item in source:
                    if isinstance(item, Event):
                        yield item
                    else:
                        attempt = item
            if attempt is None:  # the call failed and an error event went out
                turn.stop = True
                return
            if attempt.problem is None:
                break
            logger.warning(
                "model output rejected (%d retries left): %s", tries_left, attempt.problem
            )
            if tries_left:
                if attempt.response.content is not None:
                    extra.append(attempt.response.content)
                extra.append(_correction(attempt.problem))
                continue
            ctx.end_invocation = turn.stop = True
            yield self.new_event(
                ctx,
                error_code=ErrorCode.MALFORMED_OUTPUT,
                error_message=f"model output rejected twice: {attempt.problem}"[:2000],
            )
            return
        if attempt is None:
            return
        response = attempt.response
        delta = dict(callback_context.delta)
        if self.output_key and response.error_code is None and not _calls(response):
            delta[self.output_key] = (
                attempt.parsed if self.output_schema is not None else response_text(response)
            )
        artifact_delta = callback_context.actions_artifact_delta
        event = self.new_event(
            ctx,
            content=response.content,
            # Nothing to record: the shared empty actions (None), not a new one validated.
            actions=(
                EventActions(state_delta=delta, artifact_delta=artifact_delta)
                if delta or artifact_delta
                else None
            ),
            usage=response.usage,
            model=response.model,
            error_code=response.error_code,
            error_message=response.error_message,
            **({"id": attempt.event_id} if attempt.event_id else {}),
        )
        yield event
        if response.error_code is not None:
            ctx.end_invocation = turn.stop = True
            return
        calls = event.function_calls()
        if not calls:
            turn.stop = True
            return
        outcome = await run_calls(self, ctx, calls)
        async with closing(self._emit_calls(ctx, outcome, turn)) as source:
            async for item in source:
                yield item

    async def _call_model(
        self, ctx: InvocationContext, callback_context: CallbackContext, extra: Sequence[Content]
    ) -> AsyncIterator[Event | _Attempt]:
        request = self.build_request(ctx, extra)
        response: LlmResponse | None = None
        if self.before_model_callback is not None:
            response = await resolve(self.before_model_callback(callback_context, request))
        with tracing.model_call(ctx, self, self.model, request) as call:
            if response is None:
                if ctx.llm_calls >= ctx.run_config.max_llm_calls:
                    ctx.end_invocation = True
                    yield self.new_event(
                        ctx,
                        error_code=ErrorCode.MAX_LLM_CALLS,
                        error_message=f"reached max_llm_calls={ctx.run_config.max_llm_calls}",
                    )
                    return
                ctx.llm_calls += 1
                stream = ctx.run_config.streaming_mode is StreamingMode.SSE
                try:
                    async with closing(
                        call.stream(self.model.generate(request, stream=stream))
                    ) as source:
                        async for item in source:
                            if item.partial:
                                yield self.new_draft(ctx, item.content, item.model)
                            else:
                                response = item
                except ModelError as exc:
                    ctx.end_invocation = True
                    event_id = call.failed(exc.error_code, str(exc))
                    yield self.new_event(
                        ctx, id=event_id, error_code=exc.error_code, error_message=str(exc)
                    )
                    return
                if response is None:
                    ctx.end_invocation = True
                    message = "the model's stream ended without a final response"
                    event_id = call.failed(ErrorCode.PROVIDER_ERROR, message)
                    yield self.new_event(
                        ctx, id=event_id, error_code=ErrorCode.PROVIDER_ERROR, error_message=message
                    )
                    return
            if self.after_model_callback is not None:
                replaced = await resolve(self.after_model_callback(callback_context, response))
                if replaced is not None:
                    response = replaced
            attempt = self._check(response)
            # The id is given inside the call's span, which records it: the trace names the
            # event that holds the answer.
            attempt.event_id = call.finished(attempt.response, rejected=attempt.problem)
        yield attempt

    def _check(self, response: LlmResponse) -> _Attempt:
        if response.error_code is ErrorCode.MALFORMED_OUTPUT:
            return _Attempt(response, problem=response.error_message or "malformed output")
        if response.error_code is not None or self.output_schema is None or _calls(response):
            return _Attempt(response)
        text = _strip_fences(response_text(response))
        try:
            parsed = self.output_schema.model_validate_json(text)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'output'}: {e['msg']}"
                for e in exc.errors()[:10]
            )
            return _Attempt(response, problem=f"output does not match the schema: {problems}")
        value = parsed.model_dump(mode="json")
        canonical = LlmResponse(
            content=Content(role="model", parts=(Part(text=json.dumps(value)),)),
            usage=response.usage,
            model=response.model,
        )
        return _Attempt(canonical, parsed=value)

    async def _list_toolsets(self) -> None:
        """List the toolsets' tools (a toolset connects on first use) for this run."""
        listed = [tool for toolset in self.toolsets for tool in await toolset.get_tools()]
        names = [t.name for t in (*self.tools, *listed)]
        if transfer_targets(self):
            names.append(TransferToAgentTool.NAME)
        clashes = sorted({n for n in names if names.count(n) > 1})
        if clashes:
            raise InvalidConfigError(
                f"agent {self.name!r}: its toolsets offer tools whose names are taken: {clashes}"
            )
        self._listed = tuple(listed)

    # --- after tool calls -----------------------------------------------------------------

    async def _resume(self, ctx: InvocationContext, resume: ResumeInfo) -> CallsOutcome:
        waiting = set(resume.confirmations) | set(resume.credentials)
        for event in reversed(ctx.session.events):
            calls = [c for c in event.function_calls() if c.id in waiting]
            if event.author == self.name and calls:
                return await run_calls(self, ctx, calls, resume)
        raise LookupError(f"agent {self.name!r} holds none of the calls {sorted(waiting)}")

    async def _emit_calls(
        self, ctx: InvocationContext, outcome: CallsOutcome, turn: _Turn
    ) -> AsyncIterator[Event]:
        if outcome.response_event is not None:
            yield outcome.response_event
        for error in outcome.error_events:
            yield error
        if outcome.request_event is not None:
            yield outcome.request_event
        if outcome.waiting:
            ctx.paused = ctx.end_invocation = turn.stop = True
            return
        response = outcome.response_event
        if response is None:
            return
        target_name = response.actions.transfer_to_agent
        if target_name:
            target = self.root_agent.find_agent(target_name)
            if target is not None:
                turn.stop = True
                async with closing(target.run_async(ctx)) as source:
                    async for event in source:
                        yield event
                return
        if response.actions.skip_summarization:
            turn.stop = True

    def _still_waiting(self, ctx: InvocationContext) -> bool:
        """Whether a request this agent made in this invocation is still unanswered."""
        answered: set[str] = set()
        for event in reversed(ctx.session.events):
            if event.invocation_id != ctx.invocation_id:
                continue
            answered.update(r.id for r in event.function_responses())
            if event.author == self.name and any(
                i not in answered for i in event.long_running_tool_ids
            ):
                return True
        return False


class _Turn:
    """Whether this agent's turn is over."""

    def __init__(self) -> None:
        self.stop = False


def _resolve_model(agent_name: str, model: BaseLlm | str | None) -> BaseLlm | None:
    if isinstance(model, str):
        return model_from_spec(model)
    if model is not None and not isinstance(model, BaseLlm):
        raise InvalidConfigError(
            f"agent {agent_name!r}: model must be a BaseLlm or a 'provider:model' string such as "
            f"'openai:gpt-4o-mini', not {type(model).__name__}"
        )
    return model


def _calls(response: LlmResponse) -> bool:
    return response.content is not None and any(
        p.function_call is not None for p in response.content.parts
    )


def _strip_fences(text: str) -> str:
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        if stripped.rstrip().endswith("```"):
            stripped = stripped.rstrip()[:-3]
    return stripped.strip()


def _correction(problem: str) -> Content:
    return Content(
        role="user",
        parts=(
            Part(
                text=(
                    "Your previous reply could not be used: "
                    f"{problem}\nReply again, correcting exactly that."
                )
            ),
        ),
    )
