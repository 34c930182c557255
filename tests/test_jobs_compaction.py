"""Compactions deferred as jobs: a runner given a ``compaction_queue`` defers each due
compaction once, and a worker with a compaction config stores it under the session lease."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

from agentlog.compaction import EventsCompactionConfig, compaction_event
from agentlog.events import Content, Event
from agentlog.runner import Runner
from agentlog.server.desk import refund_desk

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

APP = "agentlog"


class Counting:
    """Summarises a window as the number of events it covers, and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    async def summarize_events(self, events: Sequence[Event]) -> Event | None:
        self.calls += 1
        return compaction_event(events, f"{len(events)} earlier events")


@pytest.fixture
async def parts(postgres_dsn: str, postgres_schema: str) -> AsyncIterator[dict[str, Any]]:
    from agentlog.jobs.queue import JobQueue
    from agentlog.sessions.postgres import PostgresSessionService

    store = PostgresSessionService(postgres_dsn, schema=postgres_schema)
    queue = JobQueue(postgres_dsn, schema=postgres_schema)
    yield {"store": store, "queue": queue, "dsn": postgres_dsn, "schema": postgres_schema}
    await queue.close()
    await store.close()


async def jobs(parts: dict[str, Any]) -> list[tuple[str, str]]:
    from _postgres import execute

    rows = await execute(
        parts["dsn"],
        parts["schema"],
        "SELECT task_name, status::text FROM procrastinate_jobs ORDER BY id",
    )
    return [(str(name), str(status)) for name, status in rows]


async def test_a_deferred_compaction_is_run_by_a_worker_with_the_config(
    parts: dict[str, Any],
) -> None:
    from agentlog.jobs.compactions import CompactionJobServices
    from agentlog.jobs.summaries import SummaryJobServices
    from agentlog.jobs.worker import run_worker
    from agentlog.summary import ExtractiveSummarizer
    from agentlog.summary.stores.base import InMemorySummaryStore

    store, queue = parts["store"], parts["queue"]
    summarizer = Counting()
    config = EventsCompactionConfig(compaction_interval=2, overlap_size=0, summarizer=summarizer)
    runner = Runner(
        agent=refund_desk(), session_service=store, compaction_config=config, compaction_queue=queue
    )
    session = await store.create_session(app_name=APP, user_id="u")
    for text in ("my order A-1001?", "and B-2040?"):
        async for _ in runner.run_async(
            user_id="u", session_id=session.id, new_message=Content.from_text(text)
        ):
            pass
    await runner.wait_for_compactions()
    # Deferred, not run here: nothing is stored until a worker with the config takes it.
    assert summarizer.calls == 0
    assert await jobs(parts) == [("agentlog:compact_session", "todo")]

    plain = SummaryJobServices(
        sessions=store, store=InMemorySummaryStore(), summarizer=ExtractiveSummarizer()
    )
    # A worker without a compaction config never takes the job.
    without = asyncio.create_task(
        run_worker(queue, plain, heartbeat_s=0.2, stalled_after_s=5, install_signal_handlers=False)
    )
    await asyncio.sleep(1.0)
    without.cancel()
    await asyncio.gather(without, return_exceptions=True)
    assert await jobs(parts) == [("agentlog:compact_session", "todo")]

    compactions = CompactionJobServices(sessions=store, config=config)
    worker = asyncio.create_task(
        run_worker(
            queue,
            plain,
            heartbeat_s=0.2,
            stalled_after_s=5,
            install_signal_handlers=False,
            compactions=compactions,
        )
    )
    try:
        for _ in range(200):  # bounded: 20 s
            if await jobs(parts) == [("agentlog:compact_session", "succeeded")]:
                break
            await asyncio.sleep(0.1)
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
    assert await jobs(parts) == [("agentlog:compact_session", "succeeded")]
    stored = (await store.get_session(app_name=APP, user_id="u", session_id=session.id)).events
    compactions_stored = [e for e in stored if e.actions.compaction is not None]
    assert len(compactions_stored) == 1
    assert summarizer.calls == 1
    # The version that triggered it is not deferred again, whoever asks.
    from _postgres import execute

    [(version,)] = await execute(
        parts["dsn"], parts["schema"], "SELECT (args->>'version')::int FROM procrastinate_jobs"
    )
    again = await queue.enqueue_compaction(
        app_name=APP, user_id="u", session_id=session.id, version=version
    )
    assert again is False
