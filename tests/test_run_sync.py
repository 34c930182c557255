"""``Runner.run_sync`` and ``InMemoryRunner``: the synchronous way in, for scripts and
notebooks, answering as ``run_async`` does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from agentlog import (
    Content,
    Event,
    InMemoryRunner,
    RunConfig,
    Runner,
    SessionNotFoundError,
    SqliteSessionService,
    StreamingMode,
    confirmation_answer,
    pending_requests,
)
from agentlog._sync import run_sync
from agentlog.agents import LlmAgent
from agentlog.compaction import EventsCompactionConfig, LlmEventSummarizer
from agentlog.models.scripted import ScriptedLlm
from agentlog.tools import FunctionTool


def refund(order_id: str) -> dict[str, Any]:
    """Refund an order.

    Args:
        order_id: The order.
    """
    return {"order_id": order_id, "refunded": True}


def _agent(*steps: Any) -> LlmAgent:
    return LlmAgent(
        name="desk",
        model=ScriptedLlm(list(steps), chunk_size=4),
        instruction="You refund orders.",
        tools=[FunctionTool(refund, require_confirmation=True)],
    )


def _steps() -> list[Any]:
    return [ScriptedLlm.call("refund", {"order_id": "A-1"}), ScriptedLlm.text("Refunded A-1.")]


def _shape(events: list[Event]) -> list[tuple[Any, ...]]:
    """What a turn said and did, without ids and times."""
    return [
        (
            e.author,
            e.partial,
            e.text(),
            [(c.name, dict(c.args)) for c in e.function_calls() if c.name == "refund"],
            [r.name for r in e.function_responses()],
        )
        for e in events
    ]


def _confirmed_turns(runner: Runner, session_id: str, *, sync: bool) -> list[list[Event]]:
    sse = RunConfig(streaming_mode=StreamingMode.SSE)
    first_message = Content.from_text("Refund A-1, please.")

    def turn(message: Content) -> list[Event]:
        if sync:
            return runner.run_sync(
                user_id="ana", session_id=session_id, new_message=message, run_config=sse
            )

        async def collect() -> list[Event]:
            return [
                e
                async for e in runner.run_async(
                    user_id="ana", session_id=session_id, new_message=message, run_config=sse
                )
            ]

        return asyncio.run(collect())

    first = turn(first_message)
    (request,) = [r for e in first for r in pending_requests(e)]
    return [first, turn(confirmation_answer(request.request_id, confirmed=True))]


def test_run_sync_yields_what_run_async_yields(tmp_path: Path) -> None:
    shapes = []
    for sync in (False, True):
        store = SqliteSessionService(tmp_path / f"{sync}.db")
        runner = Runner(agent=_agent(*_steps()), session_service=store, app_name="shop")
        session = asyncio.run(store.create_session(app_name="shop", user_id="ana"))
        turns = _confirmed_turns(runner, session.id, sync=sync)
        shapes.append([_shape(t) for t in turns])
        stored = asyncio.run(
            store.get_session(app_name="shop", user_id="ana", session_id=session.id)
        )
        assert [e.id for t in turns for e in t if not e.partial] == [e.id for e in stored.events]
        asyncio.run(store.close())
    assert shapes[0] == shapes[1]
    assert any(partial for _, partial, *_ in shapes[1][1])  # drafts were streamed
    assert shapes[1][1][-1][2] == "Refunded A-1."


async def test_run_sync_works_inside_a_running_loop() -> None:
    runner = InMemoryRunner(_agent(ScriptedLlm.text("Hello.")), auto_create_session=True)
    events = runner.run_sync(user_id="ana", session_id="s1", new_message=Content.from_text("Hi"))
    assert [e.text() for e in events] == ["Hi", "Hello."]


def test_in_memory_runner_creates_the_session_on_first_use_only_when_asked() -> None:
    runner = InMemoryRunner(
        _agent(ScriptedLlm.text("One."), ScriptedLlm.text("Two.")),
        app_name="shop",
        auto_create_session=True,
    )
    for text in ("first", "second"):
        runner.run_sync(user_id="ana", session_id="s1", new_message=Content.from_text(text))
    stored = run_sync(
        runner.session_service.get_session(app_name="shop", user_id="ana", session_id="s1")
    )
    assert [e.text() for e in stored.events] == ["first", "One.", "second", "Two."]

    strict = InMemoryRunner(_agent(), app_name="shop")
    with pytest.raises(SessionNotFoundError):
        strict.run_sync(user_id="ana", session_id="s1", new_message=Content.from_text("hi"))


def test_run_sync_returns_once_the_turns_compaction_is_stored() -> None:
    summarizer = LlmEventSummarizer(ScriptedLlm([ScriptedLlm.text("They said hello.")]))
    runner = InMemoryRunner(
        _agent(ScriptedLlm.text("Hello.")),
        auto_create_session=True,
        compaction_config=EventsCompactionConfig(
            compaction_interval=1, overlap_size=0, summarizer=summarizer
        ),
    )
    runner.run_sync(user_id="ana", session_id="s1", new_message=Content.from_text("hi"))
    stored = run_sync(
        runner.session_service.get_session(app_name="agentlog", user_id="ana", session_id="s1")
    )
    assert [e.actions.compaction is not None for e in stored.events] == [False, False, True]


def test_a_sync_call_from_the_shared_loop_refuses_rather_than_hang() -> None:
    async def inner() -> int:
        return 1

    async def outer() -> int:
        return run_sync(inner())

    with pytest.raises(RuntimeError, match="await the async method"):
        run_sync(outer())


@pytest.mark.postgres
def test_run_sync_keeps_a_postgres_pool_across_calls(
    postgres_dsn: str, postgres_schema: str
) -> None:
    from agentlog.sessions.postgres import PostgresSessionService

    store = PostgresSessionService(postgres_dsn, schema=postgres_schema)
    runner = Runner(agent=_agent(*_steps()), session_service=store, app_name="shop")
    session = run_sync(store.create_session(app_name="shop", user_id="ana"))
    turns = _confirmed_turns(runner, session.id, sync=True)
    assert turns[1][-1].text() == "Refunded A-1."
    run_sync(store.close())
