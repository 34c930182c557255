"""``BaseAgent``: the tree of agents and the agent contract (an async stream of events).

A custom agent subclasses ``BaseAgent`` and implements ``_run_async_impl``, yielding events
made with ``self.new_event``; the runner stores each non-partial event before the agent
resumes, so every step sees the state the previous one wrote.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeAlias

from agentlog import tracing
from agentlog._streams import closing
from agentlog.context import CallbackContext, InvocationContext
from agentlog.events import Content, Event, EventActions, unchecked

__all__ = ["AgentCallback", "BaseAgent"]

AgentCallback: TypeAlias = Callable[[CallbackContext], Content | Awaitable[Content | None] | None]
"""Runs before or after an agent. Returning content makes an event of it; before the agent,
that also skips the agent's own run."""


async def resolve(value: Any) -> Any:
    """Await ``value`` if it is awaitable (callbacks may be sync or async)."""
    return await value if inspect.isawaitable(value) else value


class BaseAgent(ABC):
    """An agent: a name, optional sub-agents, and a stream of events per invocation."""

    def __init__(
        self,
        *,
        name: str,
        description: str = "",
        sub_agents: Sequence[BaseAgent] = (),
        before_agent_callback: AgentCallback | None = None,
        after_agent_callback: AgentCallback | None = None,
    ) -> None:
        if not name.isidentifier() or name == "user":
            raise ValueError(f"agent name {name!r} must be an identifier other than 'user'")
        self.name = name
        self.description = description
        self.parent_agent: BaseAgent | None = None
        self.sub_agents: tuple[BaseAgent, ...] = tuple(sub_agents)
        self.before_agent_callback = before_agent_callback
        self.after_agent_callback = after_agent_callback
        for sub in self.sub_agents:
            if sub.parent_agent is not None:
                raise ValueError(f"agent {sub.name!r} already belongs to {sub.parent_agent.name!r}")
            sub.parent_agent = self
        names = [a.name for a in self._walk()]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"agent names must be unique in a tree: {duplicates}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    # --- the tree -------------------------------------------------------------------------

    def _walk(self) -> list[BaseAgent]:
        out: list[BaseAgent] = [self]
        for sub in self.sub_agents:
            out.extend(sub._walk())
        return out

    @property
    def root_agent(self) -> BaseAgent:
        """The top of this agent's tree."""
        agent = self
        while agent.parent_agent is not None:
            agent = agent.parent_agent
        return agent

    @property
    def path(self) -> str:
        """Dotted names from the root, e.g. ``desk.refunds``; used as the event ``branch``."""
        names = []
        agent: BaseAgent | None = self
        while agent is not None:
            names.append(agent.name)
            agent = agent.parent_agent
        return ".".join(reversed(names))

    def find_agent(self, name: str) -> BaseAgent | None:
        """This agent or a descendant with that name."""
        for agent in self._walk():
            if agent.name == name:
                return agent
        return None

    def contains(self, name: str) -> bool:
        """Whether the named agent is this one or below it."""
        return self.find_agent(name) is not None

    # --- running --------------------------------------------------------------------------

    def new_event(
        self,
        ctx: InvocationContext,
        *,
        content: Content | None = None,
        actions: EventActions | None = None,
        **fields: Any,
    ) -> Event:
        """An event of this invocation, authored by this agent."""
        if actions is not None:
            fields["actions"] = actions
        # Without actions the event's default is used: one shared empty ``EventActions``, not
        # a new one validated for every event and draft.
        return Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            branch=self.path,
            content=content,
            **fields,
        )

    def new_draft(
        self, ctx: InvocationContext, content: Content | None, model: str | None
    ) -> Event:
        """A partial event of this agent's: a model's draft, never stored. Made of values
        already checked (the model's response holds them) without validating them again: a
        turn streams a dozen of them (:func:`agentlog.events.unchecked`)."""
        return unchecked(
            Event,
            invocation_id=ctx.invocation_id,
            author=self.name,
            branch=self.path,
            content=content,
            partial=True,
            model=model,
        )

    def run_async(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        """Run this agent for the invocation: callbacks around ``_run_async_impl``.

        When a paused invocation resumes into this agent (or below it), the before-agent
        callback is not run again: it ran when the turn started. With OpenTelemetry the run
        is an ``invoke_agent`` span (:mod:`agentlog.tracing`).
        """
        if self.before_agent_callback is None and self.after_agent_callback is None:
            # Nothing to run around it: ``_run_async_impl``'s own stream, one generator fewer
            # for each of the run's events (its drafts among them) to pass through.
            return tracing.trace_agent(self, ctx, self._run_async_impl(ctx))
        return tracing.trace_agent(self, ctx, self._run_with_callbacks(ctx))

    async def _run_with_callbacks(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        resuming = ctx.resume is not None and self.contains(ctx.resume.agent_name)
        if self.before_agent_callback is not None and not resuming:
            event = await self._callback_event(ctx, self.before_agent_callback)
            if event is not None:
                yield event
                if event.content is not None:
                    return
        async with closing(self._run_async_impl(ctx)) as source:
            async for event in source:
                yield event
        if self.after_agent_callback is not None and not ctx.end_invocation:
            event = await self._callback_event(ctx, self.after_agent_callback)
            if event is not None:
                yield event

    async def _callback_event(
        self, ctx: InvocationContext, callback: AgentCallback
    ) -> Event | None:
        callback_context = CallbackContext(ctx, self)
        content = await resolve(callback(callback_context))
        actions = callback_context.actions()
        if content is None and actions.is_empty():
            return None
        return self.new_event(ctx, content=content, actions=actions)

    @abstractmethod
    def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        """This agent's own work: yield events."""
