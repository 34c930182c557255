"""What every part of the session conformance suite shares: the backend's hooks, the ``store``
fixture and the events the tests append."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from agentlog.events import (
    ArtifactRef,
    CodeExecutionResult,
    Content,
    CredentialRequest,
    ErrorCode,
    Event,
    EventActions,
    EventCompaction,
    FunctionCall,
    Part,
    ToolConfirmation,
    Usage,
)
from agentlog.sessions.base import Session, SessionService
from agentlog.testing._workers import ServiceSpec

__all__ = ["APP", "ConformanceBase", "rich_event"]

APP = "conformance"


def _event(author: str = "agent", text: str = "hello", **actions: Any) -> Event:
    return Event(
        invocation_id="inv-1",
        author=author,
        content=Content.from_text(text, role="user" if author == "user" else "model"),
        actions=EventActions(**actions),
    )


def _compaction_event(covered: list[Event], summary: str) -> Event:
    return Event(
        invocation_id="compaction",
        author="agentlog_compactor",
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=covered[0].timestamp,
                end_timestamp=covered[-1].timestamp,
                event_ids=tuple(e.id for e in covered),
                summary=Content.from_text(summary, role="model"),
            )
        ),
    )


def rich_event(call_id: str = "call-1") -> Event:
    """An event with every field set, for round trips."""
    return Event(
        invocation_id="inv-rich",
        author="refund_agent",
        content=Content(
            role="model",
            parts=(
                Part(text="Checking order A-1001 (£12.50, naïve café ✓)."),
                Part(
                    function_call=FunctionCall(
                        id=call_id, name="lookup_order", args={"order": "A-1001", "n": [1, 2.5]}
                    ),
                    provider_metadata={"gemini_thought_signature": "c2lnbmF0dXJl+/8="},
                ),
                Part(code_execution_result=CodeExecutionResult(outcome="ok", output="42")),
                Part(artifact_ref=ArtifactRef(name="receipt.pdf", version=2, size=10)),
            ),
        ),
        partial=False,
        turn_complete=True,
        interrupted=False,
        error_code=ErrorCode.MAX_TOKENS,
        error_message="cut short",
        long_running_tool_ids=frozenset({call_id}),
        branch="root.refunds",
        usage=Usage(input_tokens=120, output_tokens=30),
        model="scripted",
        actions=EventActions(
            state_delta={"order": {"id": "A-1001", "items": [1, 2]}, "user:tier": "gold"},
            artifact_delta={"receipt.pdf": 2},
            transfer_to_agent="billing",
            escalate=True,
            skip_summarization=True,
            requested_auth_configs={call_id: CredentialRequest(auth_type="api_key", hint="key")},
            requested_tool_confirmations={
                call_id: ToolConfirmation(hint="Refund $12.50?", payload={"amount": 12.5})
            },
            compaction=EventCompaction(
                start_timestamp=1.0,
                end_timestamp=2.0,
                event_ids=("a", "b"),
                summary=Content.from_text("earlier: the user asked for a refund", role="model"),
            ),
        ),
    )


class ConformanceBase:
    """The hooks a backend implements and the fixtures every conformance test uses."""

    async def make_service(self) -> SessionService:
        """A new, empty store."""
        raise NotImplementedError

    async def dispose_service(self, service: SessionService) -> None:
        """Release a store made by ``make_service`` (default: close it)."""
        await service.close()

    def service_spec(self, service: SessionService) -> ServiceSpec | None:
        """How another process opens the same store; ``None`` if it cannot."""
        return None

    async def corrupt_event(self, service: SessionService, session: Session, event_id: str) -> None:
        """Overwrite the stored payload of one event with bytes that do not parse."""
        pytest.skip("this store keeps no serialised form to corrupt")

    # --- fixtures -----------------------------------------------------------------------------

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[SessionService]:
        service = await self.make_service()
        try:
            yield service
        finally:
            await self.dispose_service(service)

    @pytest.fixture
    async def store(self) -> AsyncIterator[SessionService]:
        async with self._open() as service:
            yield service

    @staticmethod
    async def _reload(store: SessionService, session: Session) -> Session:
        return await store.get_session(
            app_name=session.app_name, user_id=session.user_id, session_id=session.id
        )
