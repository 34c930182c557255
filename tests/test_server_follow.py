"""Following a session live (``GET /sessions/{id}/stream?follow=true``): later turns, turns
another process runs on the same store, resumption, deletion, and nothing left behind when
the client goes.

The first half drives turns by hand against the stream's generator; the second runs real
servers (httpx's in-process transport buffers whole responses, so it cannot carry a stream
that never ends)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

import httpx
import pytest

from agentlog import Content, Event, InMemorySessionService
from agentlog.server.deps import Server
from agentlog.server.follow import follow_session
from agentlog.server.frames import SESSION_DELETED, Frame, draft_frame, end_frame, stored_frame
from agentlog.server.hub import LiveTurn, TurnHub
from agentlog.server.replay import read_after
from agentlog.server.streaming import session_stream
from agentlog.server.versions import VersionReads
from agentlog.sessions.base import SessionService
from server_support import (
    ANA_KEY,
    STORES,
    ClientView,
    Sse,
    auth,
    database,
    desk_app,
    live_server,
    parse_sse,
    read_sse,
)

APP, USER = "agentlog", "ana"
T = TypeVar("T")
LONG_POLL = 60.0
"""A poll interval no test waits for: whatever arrives sooner came through the hub."""
WAIT_S = 10.0


class HandTurn:
    """A turn driven by hand on one hub: each event stored, then published, like the server's
    driver does. A turn of another process is one on another hub over the same store."""

    def __init__(self, store: SessionService, hub: TurnHub, sid: str, invocation: str) -> None:
        self.store, self.hub, self.sid, self.invocation = store, hub, sid, invocation
        self.live: LiveTurn = hub.open((USER, sid))
        self.stored: list[Event] = []

    async def say(self, text: str) -> Event:
        session = await self.store.get_session(app_name=APP, user_id=USER, session_id=self.sid)
        event = Event(
            invocation_id=self.invocation, author="desk", content=Content.from_text(text, "model")
        )
        stored = (await self.store.append_event(session, event)).events[-1]
        self.stored.append(stored)
        self.live.publish(stored_frame(stored))
        return stored

    def draft(self, text: str) -> None:
        partial = Event(
            invocation_id=self.invocation,
            author="desk",
            partial=True,
            content=Content.from_text(text, "model"),
        )
        self.live.publish_draft(draft_frame(partial))

    def end(self) -> None:
        self.live.publish(end_frame(self.invocation, "desk"))
        self.live.finish()
        self.hub.close(self.live)


class Reader(Generic[T]):
    """A client reading a stream in the background: frames (the default), or anything whose
    end ``is_end`` tells."""

    def __init__(
        self, items: AsyncIterator[T], is_end: Callable[[T], bool] = lambda f: f.kind == "end"
    ) -> None:
        self.is_end = is_end
        self.queue: asyncio.Queue[T | None] = asyncio.Queue()
        self.task = asyncio.create_task(self._run(items))

    async def _run(self, items: AsyncIterator[T]) -> None:
        async for item in items:
            await self.queue.put(item)
        await self.queue.put(None)

    async def until_end(self) -> list[T]:
        """The items up to and including the next end."""
        items: list[T] = []
        while not items or not self.is_end(items[-1]):
            item = await asyncio.wait_for(self.queue.get(), WAIT_S)
            assert item is not None, "the stream ended"
            items.append(item)
        return items

    async def closed(self) -> None:
        """Wait until the stream has ended on its own."""
        item = await asyncio.wait_for(self.queue.get(), WAIT_S)
        assert item is None, item
        await self.task


async def follow(
    store: SessionService, hub: TurnHub, sid: str, after: str | None, poll_s: float
) -> Reader[Frame]:
    """What the route does: the registry, then the store, then the stream."""
    key = (USER, sid)
    turns = hub.turns(key)
    replay = await read_after(store, APP, key, after, turns)
    return Reader(follow_session(store, APP, hub, key, after, turns, replay, "desk", poll_s=poll_s))


async def until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def ids(frames: list[Frame]) -> list[str | None]:
    return [f.event_id for f in frames if f.kind == "event"]


@pytest.fixture
async def store() -> AsyncIterator[InMemorySessionService]:
    service = InMemorySessionService()
    yield service
    await service.close()


async def new_session(store: SessionService) -> str:
    return (await store.create_session(app_name=APP, user_id=USER)).id


async def test_a_turn_started_after_the_stream_opened_follows_at_once(
    store: InMemorySessionService,
) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    reader = await follow(store, hub, sid, None, LONG_POLL)
    assert [f.kind for f in await reader.until_end()] == ["end"]  # caught up: nothing yet
    await until(lambda: hub.waiting((USER, sid)) == 1)
    turn = HandTurn(store, hub, sid, "inv-1")
    await turn.say("hello")
    await asyncio.sleep(0.01)  # the reader follows the draft live, before the answer
    turn.draft("Hel")
    await asyncio.sleep(0.01)
    await turn.say("Hello there.")
    turn.end()
    frames = await reader.until_end()
    assert [f.kind for f in frames] == ["event", "draft", "event", "end"]
    assert ids(frames) == [e.id for e in turn.stored]
    assert frames[-1].invocation_id == "inv-1"
    assert not reader.task.done()  # idle again, and still following
    reader.task.cancel()


async def test_two_turns_in_a_row_each_exactly_once(store: InMemorySessionService) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    before = HandTurn(store, hub, sid, "inv-0")
    await before.say("an earlier turn")
    before.end()
    reader = await follow(store, hub, sid, None, LONG_POLL)
    first = await reader.until_end()
    assert ids(first) == [before.stored[0].id]
    for n in (1, 2):
        await until(lambda: hub.waiting((USER, sid)) == 1)
        turn = HandTurn(store, hub, sid, f"inv-{n}")
        for i in range(3):
            await turn.say(f"turn {n}, event {i}")
            await asyncio.sleep(0)
        turn.end()
        frames = await reader.until_end()
        assert ids(frames) == [e.id for e in turn.stored]
        assert [f.kind for f in frames].count("end") == 1
    reader.task.cancel()


async def test_a_turn_queued_behind_another_follows_in_the_same_wake(
    store: InMemorySessionService,
) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    reader = await follow(store, hub, sid, None, LONG_POLL)
    await reader.until_end()
    await until(lambda: hub.waiting((USER, sid)) == 1)
    one = HandTurn(store, hub, sid, "inv-1")
    await one.say("one")
    await asyncio.sleep(0.01)  # the reader is following it live ...
    two = HandTurn(store, hub, sid, "inv-2")  # ... when another registers behind it
    one.end()
    await asyncio.sleep(0.01)
    await two.say("two")
    two.end()
    frames = await reader.until_end() + await reader.until_end()
    assert ids(frames) == [one.stored[0].id, two.stored[0].id]
    assert [f.invocation_id for f in frames if f.kind == "end"] == ["inv-1", "inv-2"]
    reader.task.cancel()


async def test_a_turn_of_another_process_arrives_by_polling_without_drafts(
    store: InMemorySessionService,
) -> None:
    here, there = TurnHub(), TurnHub()  # two processes sharing one store
    sid = await new_session(store)
    reader = await follow(store, here, sid, None, 0.02)
    await reader.until_end()
    turn = HandTurn(store, there, sid, "inv-elsewhere")
    await turn.say("asked elsewhere")
    turn.draft("Answ")
    await turn.say("Answered elsewhere.")
    turn.end()
    frames: list[Frame] = []
    while len(ids(frames)) < 2:  # one batch per poll that found something new
        frames += await reader.until_end()
    assert {f.kind for f in frames} == {"event", "end"}
    assert ids(frames) == [e.id for e in turn.stored]
    assert frames[-1].invocation_id == "inv-elsewhere"
    assert here.turns((USER, sid)) == []
    # And a turn of this process after it still follows live.
    await until(lambda: here.waiting((USER, sid)) == 1)
    local = HandTurn(store, here, sid, "inv-here")
    await local.say("here")
    local.end()
    assert ids(await reader.until_end()) == [local.stored[0].id]
    reader.task.cancel()


async def test_readers_of_one_session_share_their_polls(store: InMemorySessionService) -> None:
    """Twenty readers polling every 40 ms for half a second: the store is read a few times a
    poll interval, not twenty; what another process stores still reaches every reader, and so
    does the session's deletion."""
    here, there = TurnHub(), TurnHub()
    sid = await new_session(store)
    key = (USER, sid)
    versions = VersionReads(store, APP, max_age=0.02)
    started = time.monotonic()
    readers = []
    for _ in range(20):
        replay = await read_after(store, APP, key, None, [])
        frames = follow_session(
            store, APP, here, key, None, [], replay, "desk", poll_s=0.04, versions=versions
        )
        readers.append(Reader(frames))
    for reader in readers:
        await reader.until_end()
    await asyncio.sleep(0.5)
    # Shared: at most one read per 20 ms (plus one in flight); unshared, each of the 20 readers
    # reads every 40 ms, about ten times as many.
    most = (time.monotonic() - started) / versions.max_age + 2
    assert 1 <= versions.reads <= most, (versions.reads, most)
    turn = HandTurn(store, there, sid, "inv-elsewhere")
    await turn.say("stored elsewhere")
    turn.end()
    for reader in readers:
        assert ids(await reader.until_end()) == [turn.stored[0].id]
    await store.delete_session(app_name=APP, user_id=USER, session_id=sid)
    for reader in readers:
        assert [f.kind for f in await reader.until_end()] == ["error", "end"]
        await reader.closed()
    assert here.waiting() == 0


async def test_a_reader_leaving_mid_read_leaves_the_read_to_the_others(
    store: InMemorySessionService,
) -> None:
    sid = await new_session(store)
    started = asyncio.Event()

    class Slow:
        async def get_session(self, **kwargs: Any) -> Any:
            started.set()
            await asyncio.sleep(0.05)
            return await store.get_session(**kwargs)

    versions = VersionReads(Slow(), APP, max_age=1.0)  # type: ignore[arg-type]
    first = asyncio.create_task(versions.turn((USER, sid)))
    await started.wait()
    second = asyncio.create_task(versions.turn((USER, sid)))
    first.cancel()
    assert (await second).version == 0
    assert versions.reads == 1
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_resuming_a_follow_stream_after_an_id_sends_exactly_the_rest(
    store: InMemorySessionService,
) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    reader = await follow(store, hub, sid, None, LONG_POLL)
    await reader.until_end()
    await until(lambda: hub.waiting((USER, sid)) == 1)
    turn = HandTurn(store, hub, sid, "inv-1")
    first = await turn.say("first")
    got = await asyncio.wait_for(reader.queue.get(), WAIT_S)
    assert got is not None
    assert got.event_id == first.id
    reader.task.cancel()  # the connection drops here ...
    await turn.say("second")
    await turn.say("third")
    resumed = await follow(store, hub, sid, first.id, LONG_POLL)  # ... mid-turn
    turn.end()
    frames = await resumed.until_end()
    assert ids(frames) == [e.id for e in turn.stored[1:]]
    # Resumed, it keeps following.
    await until(lambda: hub.waiting((USER, sid)) == 1)
    later = HandTurn(store, hub, sid, "inv-2")
    await later.say("later")
    later.end()
    assert ids(await resumed.until_end()) == [later.stored[0].id]
    resumed.task.cancel()


async def test_deleting_the_session_ends_the_stream_with_an_error(
    store: InMemorySessionService,
) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    reader = await follow(store, hub, sid, None, 0.02)
    await reader.until_end()
    await store.delete_session(app_name=APP, user_id=USER, session_id=sid)
    frames = await reader.until_end()
    assert [f.kind for f in frames] == ["error", "end"]
    assert frames[0].event_id is None
    (message,) = json.loads(frames[0].data)["messages"]
    assert (message["text"], message["data"]) == (
        "This session was deleted.",
        {"error_code": SESSION_DELETED},
    )
    await reader.closed()
    assert hub.waiting() == 0


async def test_a_plain_stream_says_so_when_its_session_is_deleted(
    store: InMemorySessionService,
) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    key = (USER, sid)
    turn = HandTurn(store, hub, sid, "inv-1")
    turns = hub.turns(key)
    replay = await read_after(store, APP, key, None, turns)
    reader = Reader(session_stream(store, APP, hub, key, None, turns, replay, "desk"))
    await store.delete_session(app_name=APP, user_id=USER, session_id=sid)
    turn.live.publish(end_frame("inv-1", "desk"))  # started: the stream reads the store again
    frames = await reader.until_end()
    assert [f.kind for f in frames] == ["error", "end"]
    (message,) = json.loads(frames[0].data)["messages"]
    assert message["data"] == {"error_code": SESSION_DELETED}
    await reader.closed()


async def test_a_client_going_away_leaves_no_waiter(store: InMemorySessionService) -> None:
    hub = TurnHub()
    sid = await new_session(store)
    key = (USER, sid)
    readers = [await follow(store, hub, sid, None, LONG_POLL) for _ in range(3)]
    for reader in readers:
        await reader.until_end()
    await until(lambda: hub.waiting(key) == 3)
    for reader in readers:
        reader.task.cancel()
    await asyncio.gather(*(r.task for r in readers), return_exceptions=True)
    assert hub.waiting() == 0
    # A wait that times out drops its waiter too.
    with hub.signals.watch(key) as watch:
        assert not await watch.wait(0.01)
    assert hub.waiting() == 0


# --- over HTTP, on real servers ------------------------------------------------------------


class Follower(Reader[Sse]):
    """A follow stream read over HTTP in the background, as a page would."""

    def __init__(self, http: httpx.AsyncClient, sid: str, last_id: str | None = None) -> None:
        self.http, self.sid = http, sid
        self.view = ClientView()
        self.view.last_id = last_id
        super().__init__(self._events(), lambda sse: sse.event == "end")

    async def _events(self) -> AsyncIterator[Sse]:
        headers = {"Last-Event-ID": self.view.last_id} if self.view.last_id else {}
        url = f"/sessions/{self.sid}/stream"
        params = {"follow": "true"}
        async with self.http.stream("GET", url, params=params, headers=headers) as response:
            assert response.status_code == 200, await response.aread()
            async for sse in read_sse(response):
                self.view.apply(sse)
                yield sse

    async def drop(self) -> None:
        """Hang up."""
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def hub_of(app: Any) -> TurnHub:
    server: Server = app.state.agentlog
    return server.hub


async def no_waiters(hub: TurnHub) -> None:
    # The hub lives on the server's thread; reading its size from here is enough to watch it.
    await until(lambda: hub.waiting() == 0)


@pytest.mark.parametrize("kind", STORES)
async def test_two_servers_on_one_store(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as open_store:
        await two_servers(open_store)


async def two_servers(open_store: Callable[[], SessionService]) -> None:
    """A page follows a session on server A; turns run on A (live, with drafts) and on B
    (noticed by the store's notifications or by polling), each event once, in order, each
    turn with one end."""
    here = desk_app(open_store(), delay_s=0.005, close_store_on_shutdown=True, follow_poll_s=0.1)
    there = desk_app(open_store(), delay_s=0.005, close_store_on_shutdown=True)
    with live_server(here) as base_a, live_server(there) as base_b:
        a = httpx.AsyncClient(base_url=base_a, headers=auth(ANA_KEY), timeout=30)
        b = httpx.AsyncClient(base_url=base_b, headers=auth(ANA_KEY), timeout=30)
        async with a, b:
            sid = (await a.post("/sessions", json={})).json()["id"]
            follower = Follower(a, sid)
            await follower.until_end()
            await until(lambda: hub_of(here).waiting() == 1)

            reply = await a.post(f"/sessions/{sid}/messages", json={"text": "my order A-1001?"})
            assert reply.status_code == 200
            local = await follower.until_end()
            assert "draft" in [f.event for f in local]
            assert "A-1001" in follower.view.answers[-1]

            reply = await b.post(f"/sessions/{sid}/messages", json={"text": "and B-2040?"})
            assert "event: draft" in reply.text
            # B's turn reaches the follower on A whole: its events, one end after its answer
            # (and its drafts too on PostgreSQL: tests/test_server_fanout.py).
            remote = await follower.until_end()
            assert [f.event for f in remote].count("end") == 1
            assert "B-2040" in follower.view.answers[-1]
            assert [f.id for f in remote if f.event == "event"] == [
                sse.id for sse in parse_sse(reply.text) if sse.event == "event"
            ]

            stored = (await a.get(f"/sessions/{sid}")).json()["events"]
            assert follower.view.event_ids == [e["id"] for e in stored]
            assert follower.view.draft is None
            await follower.drop()
            await no_waiters(hub_of(here))


async def test_resume_then_delete_over_http(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as open_store:
        app = desk_app(open_store(), delay_s=0.005, close_store_on_shutdown=True)
        with live_server(app) as base:
            async with httpx.AsyncClient(base_url=base, headers=auth(ANA_KEY), timeout=30) as http:
                sid = (await http.post("/sessions", json={})).json()["id"]
                await http.post(f"/sessions/{sid}/messages", json={"text": "my order A-1001?"})
                first = (await http.get(f"/sessions/{sid}")).json()["events"]
                # Resume from the second stored event: exactly the rest, then the next turn.
                follower = Follower(http, sid, last_id=first[1]["id"])
                caught_up = await follower.until_end()
                assert [f.id for f in caught_up if f.event == "event"] == [
                    e["id"] for e in first[2:]
                ]
                await http.post(f"/sessions/{sid}/messages", json={"text": "and B-2040?"})
                await follower.until_end()
                stored = [e["id"] for e in (await http.get(f"/sessions/{sid}")).json()["events"]]
                assert follower.view.event_ids == stored[2:]

                assert (await http.delete(f"/sessions/{sid}")).status_code == 204
                frames = await follower.until_end()
                assert [f.event for f in frames] == ["error", "end"]
                assert await asyncio.wait_for(follower.queue.get(), WAIT_S) is None
                await follower.task
                await no_waiters(hub_of(app))
                gone = await http.get(f"/sessions/{sid}/stream", params={"follow": "true"})
                assert gone.status_code == 404


async def test_a_follow_stream_without_the_flag_still_ends(tmp_path: Path) -> None:
    """The default is today's stream: it ends once the session is idle."""
    with database("sqlite", tmp_path) as open_store:
        app = desk_app(open_store(), close_store_on_shutdown=True)
        with live_server(app) as base:
            async with httpx.AsyncClient(base_url=base, headers=auth(ANA_KEY), timeout=30) as http:
                sid = (await http.post("/sessions", json={})).json()["id"]
                await http.post(f"/sessions/{sid}/messages", json={"text": "hi"})
                for params in ({}, {"follow": "false"}):
                    response = await http.get(f"/sessions/{sid}/stream", params=params)
                    assert response.status_code == 200
                    assert response.text.count("event: end") == 1
            assert hub_of(app).waiting() == 0


def test_the_poll_interval_must_be_positive(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as open_store, pytest.raises(ValueError, match="follow"):
        desk_app(open_store(), follow_poll_s=0)
