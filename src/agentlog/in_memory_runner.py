"""``InMemoryRunner``: a runner with its own in-memory stores, for scripts, notebooks and tests.

Nothing it stores outlives the process. With ``auto_create_session=True`` a turn on a session
that does not exist yet creates it first, so a script needs no ``create_session`` call (and,
with ``run_sync``, no ``await`` at all).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import suppress
from typing import Any

from agentlog.agents.base import BaseAgent
from agentlog.artifacts import InMemoryArtifactService
from agentlog.compaction.config import EventsCompactionConfig
from agentlog.errors import SessionExistsError
from agentlog.events import Content, Event
from agentlog.run_config import RunConfig
from agentlog.runner import Runner
from agentlog.sessions.memory import InMemorySessionService

__all__ = ["InMemoryRunner"]


class InMemoryRunner(Runner):
    """A ``Runner`` over a new ``InMemorySessionService`` and ``InMemoryArtifactService``.

    Args:
        agent: the root agent.
        app_name: the app the sessions belong to.
        auto_create_session: create the session a turn names when it does not exist yet
            (otherwise such a turn raises ``SessionNotFoundError``, as ``Runner``'s does).
        redactor: rewrites each event before it is stored or streamed.
        max_tool_result_chars: a longer tool result is stored as an artifact.
        compaction_config: compact each session's history as it grows.
    """

    def __init__(
        self,
        agent: BaseAgent,
        *,
        app_name: str = "agentlog",
        auto_create_session: bool = False,
        redactor: Callable[[Event], Event] | None = None,
        max_tool_result_chars: int = 16_000,
        compaction_config: EventsCompactionConfig | None = None,
    ) -> None:
        super().__init__(
            agent=agent,
            session_service=InMemorySessionService(),
            app_name=app_name,
            artifact_service=InMemoryArtifactService(),
            redactor=redactor,
            max_tool_result_chars=max_tool_result_chars,
            compaction_config=compaction_config,
        )
        self.auto_create_session = auto_create_session

    def run_async(
        self,
        *,
        user_id: str,
        session_id: str,
        new_message: Content,
        run_config: RunConfig | None = None,
        state_delta: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[Event]:
        """``Runner.run_async``, creating the session first if asked to."""
        turn: dict[str, Any] = {
            "user_id": user_id,
            "session_id": session_id,
            "new_message": new_message,
            "run_config": run_config,
            "state_delta": state_delta,
        }
        if not self.auto_create_session:
            return super().run_async(**turn)
        return self._creating_session(turn)

    async def _creating_session(self, turn: dict[str, Any]) -> AsyncIterator[Event]:
        with suppress(SessionExistsError):  # made by an earlier turn: the usual case
            await self.session_service.create_session(
                app_name=self.app_name, user_id=turn["user_id"], session_id=turn["session_id"]
            )
        async for event in super().run_async(**turn):
            yield event
