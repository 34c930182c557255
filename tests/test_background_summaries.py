"""The background summariser's scan: it reads two lists, loads only the sessions due, and with
a queue it only enqueues, each session version once per process."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import Content, Event, InMemorySessionService, Session
from agentlog.summary import BackgroundSummarizer, ExtractiveSummarizer, InMemorySummaryStore
from agentlog.summary.example import refund_session_events

APP, USER = "desk", "ana"


class CountingLoads(InMemorySessionService):
    """An in-memory store that counts full session loads."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []

    async def get_session(self, **kwargs: Any) -> Session:
        self.loads.append(kwargs["session_id"])
        return await super().get_session(**kwargs)


class RecordingQueue:
    """A ``SummaryQueue`` that records what it was given, refusing a second wait like the real
    queue's ``queueing_lock``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    async def enqueue_summary(
        self, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> bool:
        self.calls.append((session_id, version))
        return self.calls.count((session_id, version)) == 1


async def add_sessions(store: InMemorySessionService, *ids: str) -> None:
    for sid in ids:
        session = await store.create_session(app_name=APP, user_id=USER, session_id=sid)
        for event in refund_session_events():
            session = await store.append_event(session, event)


async def one_more_event(store: InMemorySessionService, sid: str) -> None:
    session = await store.get_session(app_name=APP, user_id=USER, session_id=sid)
    event = Event(invocation_id="late", author="user", content=Content.from_text("Any news?"))
    await store.append_event(session, event)


async def test_a_scan_loads_only_the_sessions_not_yet_summarised() -> None:
    sessions = CountingLoads()
    await add_sessions(sessions, "s1", "s2", "s3")
    background = BackgroundSummarizer(
        ExtractiveSummarizer(), session_service=sessions, store=InMemorySummaryStore(),
        app_name=APP, idle_after=0,
    )  # fmt: skip
    assert {s.session_id for s in await background.run_once()} == {"s1", "s2", "s3"}
    assert sorted(sessions.loads) == ["s1", "s2", "s3"]
    sessions.loads.clear()
    for _ in range(3):
        assert await background.run_once() == []
    assert sessions.loads == []  # summarised at their length: never loaded again
    await one_more_event(sessions, "s2")
    sessions.loads.clear()
    (again,) = await background.run_once()
    assert (again.session_id, again.session_version) == ("s2", len(refund_session_events()) + 1)
    assert sessions.loads == ["s2"]


async def test_with_a_queue_a_scan_only_enqueues_each_version_once() -> None:
    sessions = CountingLoads()
    await add_sessions(sessions, "s1", "s2")
    store = InMemorySummaryStore()
    queue = RecordingQueue()
    background = BackgroundSummarizer(
        None, session_service=sessions, store=store, app_name=APP, idle_after=0, queue=queue
    )
    n = len(refund_session_events())
    for _ in range(3):
        assert await background.run_once() == []
    assert sorted(queue.calls) == [("s1", n), ("s2", n)]
    assert sessions.loads == []
    assert await store.list(app_name=APP) == []  # the worker's job, not the server's
    # A worker stores s1's summary; new events on s2 make a new version to enqueue.
    from agentlog.summary.stores.base import StoredSummary

    await store.put(StoredSummary(
        app_name=APP, user_id=USER, session_id="s1", session_version=n, status="failed"
    ))  # fmt: skip
    await one_more_event(sessions, "s2")
    await background.run_once()
    background.mark_ended(user_id=USER, session_id="s1")  # summarised already: nothing
    await background.run_once()
    assert sorted(queue.calls) == [("s1", n), ("s2", n), ("s2", n + 1)]


async def test_a_queue_or_a_summarizer_is_needed() -> None:
    with pytest.raises(ValueError, match="summarizer or a queue"):
        BackgroundSummarizer(
            None, session_service=InMemorySessionService(), store=InMemorySummaryStore(),
            app_name=APP,
        )  # fmt: skip
