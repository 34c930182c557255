"""A turn with no tracer provider configured: decided once, it costs no check per event."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import Content, InMemorySessionService, tracing
from agentlog.agents import LlmAgent
from agentlog.models.scripted import ScriptedLlm
from agentlog.run_config import RunConfig, StreamingMode
from agentlog.runner import Runner

pytest.importorskip("opentelemetry")

APP = "desk-app"
USER = "ana"


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order."""
    return {"order_id": order_id, "status": "delivered"}


async def test_an_untraced_turn_looks_the_provider_up_once_per_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lookups: list[None] = []

    def no_provider() -> None:
        lookups.append(None)

    # As with the API installed and no provider set (whatever another test module set).
    monkeypatch.setattr(tracing, "_tracer", no_provider)
    desk = ScriptedLlm(
        [
            ScriptedLlm.call("lookup_order", {"order_id": "A-1001"}, call_id="call-1"),
            ScriptedLlm.text("A-1001 was delivered yesterday, as the tracking shows."),
        ]
    )
    agent = LlmAgent(name="desk", model=desk, tools=[lookup_order])
    store = InMemorySessionService()
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    with desk:
        events = [
            event
            async for event in runner.run_async(
                user_id=USER,
                session_id=session.id,
                new_message=Content.from_text("Where is A-1001?"),
                run_config=RunConfig(streaming_mode=StreamingMode.SSE),
            )
        ]
    assert len(events) > 4  # the message, drafts, the call, its result, the answer
    # Once as the turn starts, once for the lease's write of its message: not per event,
    # model call, tool call or append (9 in this turn before).
    assert len(lookups) <= 2
