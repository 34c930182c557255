"""``BaseToolset``: tools an agent finds when it runs (an MCP server's), not when it is made."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from agentlog.tools.base import BaseTool

__all__ = ["BaseToolset"]


class BaseToolset(ABC):
    """A group of tools listed at run time.

    An ``LlmAgent`` given a toolset in ``tools`` lists it when each of its runs starts (the
    toolset may cache the list) and offers those tools beside its own, under the same rules:
    schema, confirmation, callbacks, errors reported to the model.
    """

    @abstractmethod
    async def get_tools(self) -> Sequence[BaseTool]:
        """The tools on offer now."""

    async def close(self) -> None:  # noqa: B027 - a toolset that holds nothing has nothing to do
        """Release what the toolset holds (a connection, a process); the next use opens again."""
