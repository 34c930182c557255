"""The in-memory store against the shared conformance suite."""

from __future__ import annotations

from agentlog import InMemorySessionService
from agentlog.sessions.base import SessionService
from agentlog.testing.sessions import SessionServiceConformance


class TestInMemorySessionService(SessionServiceConformance):
    async def make_service(self) -> SessionService:
        return InMemorySessionService()
