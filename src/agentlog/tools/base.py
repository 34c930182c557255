"""The tool contract: a declaration for the model and a ``run`` for the framework."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from agentlog.errors import AgentlogError
from agentlog.models.base import ToolDeclaration

if TYPE_CHECKING:
    from agentlog.context import ToolContext

__all__ = ["BaseTool", "ConfirmationPolicy", "ToolArgumentsError"]

ConfirmationPolicy = bool | Callable[[Mapping[str, Any]], bool]
"""Whether a call needs a human yes/no first: always, never, or decided from its arguments."""


class ToolArgumentsError(AgentlogError, ValueError):
    """The model's arguments do not fit the tool's parameters; the message goes back to it."""


class BaseTool(ABC):
    """A tool the model may call."""

    def __init__(
        self, *, name: str, description: str = "", require_confirmation: ConfirmationPolicy = False
    ) -> None:
        if not name.isidentifier():
            raise ValueError(f"tool name {name!r} must be an identifier")
        self.name = name
        self.description = description
        self.require_confirmation = require_confirmation

    def needs_confirmation(self, args: Mapping[str, Any]) -> bool:
        """Whether this call must be approved before it runs."""
        policy = self.require_confirmation
        return bool(policy(args)) if callable(policy) else policy

    @abstractmethod
    def declaration(self) -> ToolDeclaration:
        """How the model sees the tool."""

    @abstractmethod
    async def run(self, args: Mapping[str, Any], tool_context: ToolContext) -> Any:
        """Run the tool; the result (JSON-able) goes back to the model.

        Raises ``ToolArgumentsError`` when ``args`` do not fit; any other exception is reported
        to the model as the tool's error.
        """
