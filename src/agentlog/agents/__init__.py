"""Agents: ``BaseAgent`` for custom agents, ``LlmAgent``, ``SequentialAgent``, ``LoopAgent``."""

from agentlog.agents.base import AgentCallback, BaseAgent
from agentlog.agents.llm import AfterModelCallback, BeforeModelCallback, LlmAgent
from agentlog.agents.workflow import LoopAgent, SequentialAgent
from agentlog.context import CallbackContext, InvocationContext, State, ToolContext

__all__ = [
    "AfterModelCallback",
    "AgentCallback",
    "BaseAgent",
    "BeforeModelCallback",
    "CallbackContext",
    "InvocationContext",
    "LlmAgent",
    "LoopAgent",
    "SequentialAgent",
    "State",
    "ToolContext",
]
