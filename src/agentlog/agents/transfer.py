"""Handing a conversation to another agent: the ``transfer_to_agent`` tool and who it may reach."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from agentlog.context import ToolContext
from agentlog.models.base import ToolDeclaration
from agentlog.tools.base import BaseTool, ToolArgumentsError

if TYPE_CHECKING:
    from agentlog.agents.base import BaseAgent
    from agentlog.agents.llm import LlmAgent

__all__ = ["TransferToAgentTool", "transfer_targets"]


def transfer_targets(agent: LlmAgent) -> list[BaseAgent]:
    """The agents ``agent`` may transfer to: its sub-agents, and its parent and peers unless
    disallowed (peers only under an ``LlmAgent`` parent, which routes between them)."""
    from agentlog.agents.llm import LlmAgent

    targets: list[BaseAgent] = list(agent.sub_agents)
    parent = agent.parent_agent
    if parent is not None and isinstance(parent, LlmAgent):
        if not agent.disallow_transfer_to_parent:
            targets.append(parent)
        if not agent.disallow_transfer_to_peers:
            targets.extend(p for p in parent.sub_agents if p is not agent)
    return targets


class TransferToAgentTool(BaseTool):
    """Sets ``transfer_to_agent`` on the response event; the flow then runs that agent."""

    NAME: ClassVar[str] = "transfer_to_agent"

    def __init__(self, agent_names: Sequence[str]) -> None:
        super().__init__(
            name=self.NAME,
            description="Hand the conversation to another agent, named by agent_name.",
        )
        self.agent_names = list(agent_names)

    def declaration(self) -> ToolDeclaration:
        """One parameter, ``agent_name``, limited to the reachable agents."""
        return _declaration(self.name, self.description, tuple(self.agent_names))

    async def run(self, args: Mapping[str, Any], tool_context: ToolContext) -> Any:
        """Record the transfer. Whether the agent may reach it is checked where every
        transfer is (``tool_calls.run_calls``), so any tool's transfer meets the same rule."""
        name = args.get("agent_name")
        if not isinstance(name, str) or not name:
            raise ToolArgumentsError("agent_name must be the name of an agent")
        tool_context.transfer_to_agent = name
        return {"transferred_to": name}


@functools.lru_cache(maxsize=256)
def _declaration(name: str, description: str, agent_names: tuple[str, ...]) -> ToolDeclaration:
    # A frozen value, made once per set of targets: every model request of an agent with
    # targets declares the tool, and validating its schema anew cost more than the rest.
    return ToolDeclaration(
        name=name,
        description=description,
        parameters={
            "type": "object",
            "properties": {
                "agent_name": {
                    "type": "string",
                    "enum": list(agent_names),
                    "description": "The agent to hand over to.",
                }
            },
            "required": ["agent_name"],
        },
    )
