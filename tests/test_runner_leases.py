"""The runner's hold on a session's lease: waiting for a busy session, renewing it through a
long turn, letting it lapse when the reader walks away, and closing a dead process's turn."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agentlog.agents.base import BaseAgent
from agentlog.compaction import EventsCompactionConfig, compaction_event
from agentlog.context import InvocationContext
from agentlog.errors import InvalidConfigError, SessionBusyError
from agentlog.events import Content, ErrorCode, Event
from agentlog.runner import Runner
from agentlog.sessions.base import Session, SessionService
from agentlog.sessions.leases import Lease, LeasedAppend, SessionLeases
from agentlog.sessions.memory import InMemorySessionService
from agentlog.sessions.sqlite import SqliteSessionService

APP = "agentlog"


class Slow(BaseAgent):
    """Says two things, pausing ``pause_s`` before each."""

    def __init__(self, name: str, pause_s: float = 0.0) -> None:
        super().__init__(name=name)
        self.pause_s = pause_s

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        for i in range(2):
            await asyncio.sleep(self.pause_s)
            yield self.new_event(ctx, content=Content.from_text(f"part {i}", role="model"))


class Summary:
    """A compaction summariser that says how many events it covers."""

    async def summarize_events(self, events: list[Event]) -> Event | None:
        return compaction_event(events, f"{len(events)} events")


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    service: SessionService = (
        InMemorySessionService()
        if request.param == "memory"
        else SqliteSessionService(tmp_path / "leases.db")
    )
    yield service
    await service.close()


def leases(store: SessionService) -> SessionLeases:
    assert isinstance(store, SessionLeases)
    return store


async def say(runner: Runner, sid: str, text: str = "hi") -> list[Event]:
    return [
        e
        async for e in runner.run_async(
            user_id="u", session_id=sid, new_message=Content.from_text(text)
        )
    ]


async def test_a_busy_session_is_waited_for_then_refused(store: SessionService) -> None:
    s = await store.create_session(app_name=APP, user_id="u")
    held = await leases(store).acquire_lease(
        app_name=APP, user_id="u", session_id=s.id, owner="elsewhere", invocation_id="x", ttl_s=30
    )
    assert held is not None
    runner = Runner(agent=Slow(name="slow"), session_service=store, lease_wait_s=0.2)
    with pytest.raises(SessionBusyError):
        await say(runner, s.id)
    assert (await store.get_session(app_name=APP, user_id="u", session_id=s.id)).version == 0
    await leases(store).release_lease(held)
    assert [e.author for e in await say(runner, s.id)] == ["user", "slow", "slow"]


async def test_a_turn_longer_than_its_lease_keeps_it_by_renewing(store: SessionService) -> None:
    s = await store.create_session(app_name=APP, user_id="u")
    runner = Runner(agent=Slow(name="slow", pause_s=0.5), session_service=store, lease_ttl_s=0.2)
    turn = asyncio.create_task(say(runner, s.id))
    for _ in range(7):  # 0.7 s of a 1 s turn: over three times the lease's life
        await asyncio.sleep(0.1)
        other = await leases(store).acquire_lease(
            app_name=APP, user_id="u", session_id=s.id, owner="other", invocation_id="y", ttl_s=5
        )
        assert other is None, "the running turn's lease lapsed"
    assert [e.text() for e in await turn][1:] == ["part 0", "part 1"]
    state = await leases(store).read_turn(app_name=APP, user_id="u", session_id=s.id)
    assert state.running is None  # released: the stored end of the turn


async def test_a_reader_that_walks_away_lets_the_lease_lapse(store: SessionService) -> None:
    s = await store.create_session(app_name=APP, user_id="u")
    runner = Runner(agent=Slow(name="slow"), session_service=store, lease_ttl_s=0.15)
    stream = runner.run_async(user_id="u", session_id=s.id, new_message=Content.from_text("hi"))
    first = await anext(stream)  # and never asks again, holding on to the stream
    for _ in range(50):
        taken = await leases(store).acquire_lease(
            app_name=APP, user_id="u", session_id=s.id, owner="next", invocation_id="z", ttl_s=5
        )
        if taken is not None:
            break
        await asyncio.sleep(0.05)
    assert taken is not None
    assert taken.interrupted == first.invocation_id
    await stream.aclose()


async def test_the_next_turn_closes_one_whose_process_died(store: SessionService) -> None:
    s = await store.create_session(app_name=APP, user_id="u")
    dead = await leases(store).acquire_lease(
        app_name=APP, user_id="u", session_id=s.id, owner="dead", invocation_id="cut", ttl_s=0.05
    )
    assert dead is not None
    await asyncio.sleep(0.1)
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    events = await say(runner, s.id)
    stored = (await store.get_session(app_name=APP, user_id="u", session_id=s.id)).events
    assert stored[0].invocation_id == "cut"
    assert stored[0].error_code is ErrorCode.INTERRUPTED
    assert [e.id for e in stored[1:]] == [e.id for e in events]


async def test_a_compaction_runs_when_the_reader_stops_at_the_answer(
    store: SessionService,
) -> None:
    s = await store.create_session(app_name=APP, user_id="u")
    config = EventsCompactionConfig(compaction_interval=1, overlap_size=0, summarizer=Summary())
    runner = Runner(agent=Slow(name="slow"), session_service=store, compaction_config=config)
    async for event in runner.run_async(
        user_id="u", session_id=s.id, new_message=Content.from_text("hi")
    ):
        if event.text() == "part 0":
            break  # the usual early exit; the stream is closed when it is dropped
    for _ in range(100):
        await runner.wait_for_compactions()
        stored = (await store.get_session(app_name=APP, user_id="u", session_id=s.id)).events
        if any(e.actions.compaction for e in stored):
            break
        await asyncio.sleep(0.01)
    assert any(e.actions.compaction for e in stored)


def test_lease_settings_are_checked_when_the_runner_is_made() -> None:
    with pytest.raises(InvalidConfigError):
        Runner(agent=Slow(name="slow"), session_service=InMemorySessionService(), lease_ttl_s=0)


class Watched(InMemorySessionService):
    """An in-memory store whose lease waits (up to a second) for a load of the session to be
    under way, and, with ``meddle``, lets another writer store an event just before it."""

    def __init__(self, *, meddle: bool = False) -> None:
        super().__init__()
        self.meddle = meddle
        self.loads = 0
        self._loading = asyncio.Event()

    async def get_session(self, **kwargs: Any) -> Session:
        self.loads += 1
        self._loading.set()
        return await super().get_session(**kwargs)

    async def _before_lease(self, kwargs: dict[str, Any]) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._loading.wait(), 1.0)
        await asyncio.sleep(0.01)  # the load that went out first is done by now
        if self.meddle:
            key = {k: kwargs[k] for k in ("app_name", "user_id", "session_id")}
            session = await InMemorySessionService.get_session(self, **key)
            other = Event(invocation_id="elsewhere", author="other", content=Content.from_text("x"))
            await self.append_event(session, other)

    async def acquire_lease(self, **kwargs: Any) -> Lease | None:
        await self._before_lease(kwargs)
        return await super().acquire_lease(**kwargs)

    async def acquire_lease_and_append(self, event: Event, **kwargs: Any) -> LeasedAppend | None:
        await self._before_lease(kwargs)
        return await super().acquire_lease_and_append(event, **kwargs)


async def test_a_turn_loads_its_session_beside_taking_the_lease() -> None:
    store = Watched()
    s = await store.create_session(app_name=APP, user_id="u")
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert [e.author for e in await say(runner, s.id)] == ["user", "slow", "slow"]
    # Had the load waited for the lease, the lease would have waited a second for it.
    assert loop.time() - began < 0.9
    assert store.loads == 1  # the load made beside the acquire was the turn's


async def test_a_load_made_before_the_lease_is_made_again_when_the_session_moved() -> None:
    store = Watched(meddle=True)
    s = await store.create_session(app_name=APP, user_id="u")
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    events = await say(runner, s.id)  # no StaleSessionError: the turn saw the other event
    stored = (await store.get_session(app_name=APP, user_id="u", session_id=s.id)).events
    assert [e.author for e in stored] == ["other", "user", "slow", "slow"]
    assert [e.id for e in stored[1:]] == [e.id for e in events]


class Counted(InMemorySessionService):
    """An in-memory store recording its writes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    async def acquire_lease(self, **kwargs: Any) -> Lease | None:
        self.writes.append("acquire_lease")
        return await super().acquire_lease(**kwargs)

    async def acquire_lease_and_append(self, event: Event, **kwargs: Any) -> LeasedAppend | None:
        self.writes.append("acquire_lease_and_append")
        return await super().acquire_lease_and_append(event, **kwargs)

    async def append_event(self, session: Session, event: Event) -> Session:
        self.writes.append("append_event")
        return await super().append_event(session, event)


async def test_a_turns_message_is_stored_by_the_write_that_takes_the_lease() -> None:
    store = Counted()
    s = await store.create_session(app_name=APP, user_id="u")
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    events = runner.run_async(
        user_id="u", session_id=s.id, new_message=Content.from_text("hi"), state_delta={"k": 1}
    )
    first = await anext(events)
    # One write before the first event: the lease and the message together.
    assert store.writes == ["acquire_lease_and_append"]
    assert (first.author, first.text()) == ("user", "hi")
    rest = [event async for event in events]
    stored = await store.get_session(app_name=APP, user_id="u", session_id=s.id)
    assert [e.id for e in stored.events] == [first.id] + [e.id for e in rest if not e.partial]
    assert stored.state["k"] == 1


async def test_a_turn_after_a_dead_one_closes_it_before_storing_its_message() -> None:
    store = Counted()
    s = await store.create_session(app_name=APP, user_id="u")
    dead = await store.acquire_lease(
        app_name=APP, user_id="u", session_id=s.id, owner="dead", invocation_id="dead", ttl_s=0.01
    )
    assert dead is not None
    await asyncio.sleep(0.05)
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    await say(runner, s.id)
    stored = await store.get_session(app_name=APP, user_id="u", session_id=s.id)
    assert stored.events[0].invocation_id == "dead"
    assert stored.events[0].error_code is not None
    assert stored.events[1].author == "user"


class SlowLoads(InMemorySessionService):
    """An in-memory store whose loads wait until ``loads_may_end`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.loads_may_end = asyncio.Event()

    async def get_session(self, **kwargs: Any) -> Session:
        await self.loads_may_end.wait()
        return await super().get_session(**kwargs)


async def test_a_turns_stored_message_is_yielded_before_its_load_is_in() -> None:
    store = SlowLoads()
    store.loads_may_end.set()
    s = await store.create_session(app_name=APP, user_id="u")
    store.loads_may_end.clear()
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    events = runner.run_async(user_id="u", session_id=s.id, new_message=Content.from_text("hi"))
    first = await asyncio.wait_for(anext(events), 1.0)  # the load is still waiting
    assert (first.author, first.text()) == ("user", "hi")
    store.loads_may_end.set()
    rest = [event async for event in events]
    assert [e.author for e in rest if not e.partial] == ["slow", "slow"]
    stored = await store.get_session(app_name=APP, user_id="u", session_id=s.id)
    assert stored.events[0].id == first.id
    assert len(stored.events) == 3


async def test_a_reader_gone_after_the_message_leaves_the_session_free() -> None:
    store = SlowLoads()
    store.loads_may_end.set()
    s = await store.create_session(app_name=APP, user_id="u")
    store.loads_may_end.clear()
    runner = Runner(agent=Slow(name="slow"), session_service=store)
    events = runner.run_async(user_id="u", session_id=s.id, new_message=Content.from_text("hi"))
    await asyncio.wait_for(anext(events), 1.0)
    await events.aclose()
    store.loads_may_end.set()
    turn = await store.read_turn(app_name=APP, user_id="u", session_id=s.id)
    assert turn.running is None
    assert [e.author for e in await say(runner, s.id)] == ["user", "slow", "slow"]


async def test_a_turn_shorter_than_a_beat_starts_no_renewal_task(store: SessionService) -> None:
    # Renewal begins a third of the lease's life after it was taken; a turn that ends sooner
    # only cancels a timer (a task per turn cost its creation, a cancellation and a wait).
    from agentlog.turn_lease import lease_for

    s = await store.create_session(app_name=APP, user_id="u")
    hold = lease_for(
        store, app_name=APP, user_id="u", session_id=s.id, invocation_id="t", ttl_s=30, wait_s=1
    )
    assert hold is not None
    await hold.acquire()
    renewing = [t for t in asyncio.all_tasks() if t.get_name().startswith("agentlog-lease-")]
    await hold.release()
    assert renewing == []
    again = await leases(store).acquire_lease(
        app_name=APP, user_id="u", session_id=s.id, owner="next", invocation_id="n", ttl_s=30
    )
    assert again is not None  # released


class CleansUp(BaseAgent):
    """Says one thing; when closed, notes what its cleanup saw of the session's turn."""

    def __init__(self, store: SessionService) -> None:
        super().__init__(name="tidy")
        self.store = store
        self.seen: list[tuple[str | None, asyncio.Task[Any] | None]] = []

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncIterator[Event]:
        try:
            yield self.new_event(ctx, content=Content.from_text("one", role="model"))
            yield self.new_event(ctx, content=Content.from_text("two", role="model"))
        finally:
            turn = await leases(self.store).read_turn(
                app_name=APP, user_id="u", session_id=ctx.session.id
            )
            self.seen.append((turn.running, asyncio.current_task()))


async def test_a_reader_stopping_early_closes_the_agent_before_the_lease_goes(
    store: SessionService,
) -> None:
    # The agent's stream is closed by the turn, in the reader's task, while the turn still
    # holds the session; left to the garbage collector it ran in a task of its own, possibly
    # after the release (and an agent's span then never ended in time).
    agent = CleansUp(store)
    runner = Runner(agent=agent, session_service=store)
    s = await store.create_session(app_name=APP, user_id="u")
    stream = runner.run_async(user_id="u", session_id=s.id, new_message=Content.from_text("hi"))
    async for event in stream:
        if event.author == "tidy":
            invocation = event.invocation_id
            break
    await stream.aclose()  # type: ignore[attr-defined]
    assert agent.seen == [(invocation, asyncio.current_task())]
