"""Tools: the ``BaseTool`` contract, ``FunctionTool`` for plain functions, and ``BaseToolset``
for tools found at run time (``agentlog.tools.mcp.McpToolset``, with the ``mcp`` extra)."""

from agentlog.tools.base import BaseTool, ConfirmationPolicy, ToolArgumentsError
from agentlog.tools.function import FunctionTool, as_tool
from agentlog.tools.toolset import BaseToolset

__all__ = [
    "BaseTool",
    "BaseToolset",
    "ConfirmationPolicy",
    "FunctionTool",
    "ToolArgumentsError",
    "as_tool",
]
