"""Tools: the ``BaseTool`` contract and ``FunctionTool`` for plain functions."""

from agentlog.tools.base import BaseTool, ConfirmationPolicy, ToolArgumentsError
from agentlog.tools.function import FunctionTool, as_tool

__all__ = ["BaseTool", "ConfirmationPolicy", "FunctionTool", "ToolArgumentsError", "as_tool"]
