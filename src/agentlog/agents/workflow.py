"""Agents that run other agents: ``SequentialAgent`` and ``LoopAgent``.

Both stop as soon as the invocation ends (an error, or a pause for a human). When a paused
invocation resumes, they skip ahead to the sub-agent that holds the pending request.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from agentlog._streams import closing
from agentlog.agents.base import AgentCallback, BaseAgent
from agentlog.context import InvocationContext
from agentlog.events import Event

__all__ = ["LoopAgent", "SequentialAgent"]


def _resume_index(agent: BaseAgent, ctx: InvocationContext) -> int:
    if ctx.resume is None:
        return 0
    for i, sub in enumerate(agent.sub_agents):
        if sub.contains(ctx.resume.agent_name):
            return i
    return 0


class SequentialAgent(BaseAgent):
    """Runs its sub-agents once each, in order."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        for sub in self.sub_agents[_resume_index(self, ctx) :]:
            async with closing(sub.run_async(ctx)) as source:
                async for event in source:
                    yield event
            if ctx.end_invocation:
                return


class LoopAgent(BaseAgent):
    """Runs its sub-agents in order, again and again, until one escalates or
    ``max_iterations`` rounds have run (``None``: no limit)."""

    def __init__(
        self,
        *,
        name: str,
        sub_agents: Sequence[BaseAgent] = (),
        max_iterations: int | None = None,
        description: str = "",
        before_agent_callback: AgentCallback | None = None,
        after_agent_callback: AgentCallback | None = None,
    ) -> None:
        if max_iterations is not None and max_iterations < 1:
            raise ValueError("max_iterations must be at least 1")
        super().__init__(
            name=name,
            description=description,
            sub_agents=sub_agents,
            before_agent_callback=before_agent_callback,
            after_agent_callback=after_agent_callback,
        )
        self.max_iterations = max_iterations

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        start = _resume_index(self, ctx)
        iteration = 0
        while self.max_iterations is None or iteration < self.max_iterations:
            for sub in self.sub_agents[start:]:
                async with closing(sub.run_async(ctx)) as source:
                    async for event in source:
                        yield event
                        if event.actions.escalate and not event.partial:
                            return
                if ctx.end_invocation:
                    return
            start = 0
            iteration += 1
