"""Compaction across restarts: a store closed and opened again between compactions."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from agentlog import Content, EventCompaction, GetSessionConfig, SqliteSessionService
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner
from agentlog.sessions.base import SessionService
from compaction_helpers import SUMMARY, FakeSummarizer, compaction_config, desk, texts, tool_turn

APP, USER = "refunds", "ana"

StoreFactory = Callable[[], SessionService]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StoreFactory]:
    """A function opening the same durable store anew each call."""
    if request.param == "sqlite":
        yield lambda: SqliteSessionService(tmp_path / "sessions.db")
        return
    # Asked for here, not as arguments, so that the SQLite run needs no server.
    dsn: str = request.getfixturevalue("postgres_dsn")
    schema: str = request.getfixturevalue("postgres_schema")
    from agentlog.sessions.postgres import PostgresSessionService

    yield lambda: PostgresSessionService(dsn, schema=schema)


async def run(runner: Runner, sid: str, *numbers: int) -> None:
    for n in numbers:
        async for _ in runner.run_async(
            user_id=USER, session_id=sid, new_message=Content.from_text(f"question {n}")
        ):
            pass
        await runner.wait_for_compactions()


async def test_compactions_survive_a_reload_and_the_next_one_builds_on_them(
    reopen: StoreFactory,
) -> None:
    first_summarizer, second_summarizer = FakeSummarizer("A"), FakeSummarizer("B")
    store = reopen()
    llm = ScriptedLlm([step for n in range(1, 5) for step in tool_turn(n)])
    with llm:
        runner = Runner(
            agent=desk(llm),
            session_service=store,
            app_name=APP,
            compaction_config=compaction_config(first_summarizer),
        )
        sid = (await store.create_session(app_name=APP, user_id=USER)).id
        await run(runner, sid, 1, 2, 3, 4)
    before = (await store.get_session(app_name=APP, user_id=USER, session_id=sid)).events
    await store.close()

    store = reopen()
    try:
        loaded = await store.get_session(
            app_name=APP,
            user_id=USER,
            session_id=sid,
            config=GetSessionConfig(from_latest_compaction=True),
        )
        compaction = loaded.events[0]
        assert isinstance(compaction.actions.compaction, EventCompaction)
        assert compaction == next(e for e in before if e.actions.compaction is not None)
        assert [e.text() for e in loaded.events[1:]] == ["question 4", "", "", "answer 4"]

        llm = ScriptedLlm([step for n in range(5, 7) for step in tool_turn(n)])
        with llm:
            runner = Runner(
                agent=desk(llm),
                session_service=store,
                app_name=APP,
                compaction_config=compaction_config(second_summarizer),
            )
            await run(runner, sid, 5)
            assert texts(llm.requests[0])[:2] == [
                ("user", SUMMARY + "summary A1"),
                ("user", "question 4"),
            ]
            await run(runner, sid, 6)
        # The new process's summariser got the reloaded summary A, then invocations 3-6.
        (given,) = second_summarizer.calls
        assert given[0] == compaction
        assert [e.text() for e in given[1:] if e.author == "user"] == [
            f"question {n}" for n in (3, 4, 5, 6)
        ]
    finally:
        await store.close()

    store = reopen()
    try:
        llm = ScriptedLlm(tool_turn(7))
        with llm:
            runner = Runner(
                agent=desk(llm),
                session_service=store,
                app_name=APP,
                compaction_config=compaction_config(FakeSummarizer()),
            )
            await run(runner, sid, 7)
        assert texts(llm.requests[0]) == [("user", SUMMARY + "summary B1"), ("user", "question 7")]
        everything = await store.get_session(app_name=APP, user_id=USER, session_id=sid)
        kinds = [
            type(e.actions.compaction).__name__ for e in everything.events if e.actions.compaction
        ]
        assert kinds == ["EventCompaction", "EventCompaction"]
    finally:
        await store.close()
