"""Live fan-out across servers: two real servers on loopback over one store (a SQLite file, or
a PostgreSQL schema), a turn running on A and its clients reading from B.

On PostgreSQL, B's poll interval is set far beyond any wait of these tests: whatever reaches a
client of B in time came through the store's notifications (the listener of B), not a poll.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from _postgres import execute, throwaway_schema
from agentlog import Event
from agentlog.server.deps import Server
from agentlog.server.fanout import DraftRelay
from agentlog.server.hub import LiveTurn
from agentlog.sessions.base import SessionService
from server_support import (
    ANA_KEY,
    STORES,
    Sse,
    auth,
    database,
    desk_app,
    live_server,
    parse_sse,
    read_sse,
)

NEVER_POLL = 600.0
"""B's poll interval on PostgreSQL: no test waits this long."""
SQLITE_POLL = 0.1
WAIT_S = 15.0
LOOKUP = "my order A-1001?"
DELAY_S = 0.04
"""The model's pause before each streamed chunk: a turn takes about a second."""


class Stream:
    """A stream read over HTTP in the background, frame by frame."""

    def __init__(self, http: httpx.AsyncClient, url: str, **kwargs: Any) -> None:
        self.frames: list[Sse] = []
        self.queue: asyncio.Queue[Sse | None] = asyncio.Queue()
        self.task = asyncio.create_task(self._run(http, url, kwargs))

    async def _run(self, http: httpx.AsyncClient, url: str, kwargs: dict[str, Any]) -> None:
        async with http.stream("GET", url, **kwargs) as response:
            assert response.status_code == 200, await response.aread()
            async for sse in read_sse(response):
                self.frames.append(sse)
                await self.queue.put(sse)
        await self.queue.put(None)

    async def next(self) -> Sse:
        sse = await asyncio.wait_for(self.queue.get(), WAIT_S)
        assert sse is not None, "the stream ended"
        return sse

    async def until_end(self) -> list[Sse]:
        """The frames up to and including the next ``end``."""
        frames = [await self.next()]
        while frames[-1].event != "end":
            frames.append(await self.next())
        return frames

    async def closed(self) -> list[Sse]:
        """Every frame, once the server has ended the stream."""
        await asyncio.wait_for(self.task, WAIT_S)
        return self.frames

    async def drop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def server_of(app: FastAPI) -> Server:
    server: Server = app.state.agentlog
    return server


async def until(check: Callable[[], Any]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not await _value(check()):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def _value(value: Any) -> Any:
    return await value if asyncio.iscoroutine(value) else value


def event_ids(frames: list[Sse]) -> list[str | None]:
    return [f.id for f in frames if f.event == "event"]


async def stored_ids(http: httpx.AsyncClient, sid: str) -> list[str]:
    return [e["id"] for e in (await http.get(f"/sessions/{sid}")).json()["events"]]


def assert_one_turn(frames: list[Sse]) -> None:
    """One turn's frames: its events, exactly one ``end``, last, right after its answer, and
    every draft before the answer."""
    kinds = [f.event for f in frames]
    assert kinds.count("end") == 1, kinds
    assert kinds[-1] == "end", kinds
    assert frames[-2].event == "event", kinds
    assert "answer" in frames[-2].kinds, kinds
    assert all(f.event != "draft" for f in frames[-2:]), kinds


@contextmanager
def two_servers(kind: str, tmp_path: Path) -> Iterator[tuple[FastAPI, FastAPI]]:
    """A (whose model is slow) and B, each with its own store on one database."""
    with database(kind, tmp_path) as open_store:
        yield apps(open_store, kind)


def apps(open_store: Callable[[], SessionService], kind: str) -> tuple[FastAPI, FastAPI]:
    poll = NEVER_POLL if kind == "postgres" else SQLITE_POLL
    a = desk_app(open_store(), delay_s=DELAY_S, close_store_on_shutdown=True, follow_poll_s=poll)
    b = desk_app(open_store(), close_store_on_shutdown=True, follow_poll_s=poll)
    return a, b


@asynccontextmanager
async def clients(a: FastAPI, b: FastAPI) -> AsyncIterator[tuple[httpx.AsyncClient, ...]]:
    with live_server(a) as base_a, live_server(b) as base_b:
        http_a = httpx.AsyncClient(base_url=base_a, headers=auth(ANA_KEY), timeout=30)
        http_b = httpx.AsyncClient(base_url=base_b, headers=auth(ANA_KEY), timeout=30)
        async with http_a, http_b:
            yield http_a, http_b


async def start_turn(http: httpx.AsyncClient, sid: str, text: str) -> asyncio.Task[list[Sse]]:
    """Send a message in the background; the task returns the turn's whole stream."""

    async def send() -> list[Sse]:
        reply = await http.post(f"/sessions/{sid}/messages", json={"text": text})
        assert reply.status_code == 200, reply.text
        return parse_sse(reply.text)

    return asyncio.create_task(send())


async def running_elsewhere(http: httpx.AsyncClient, sid: str, before: int) -> None:
    """Wait until the turn started has stored its message (it runs on, for about a second)."""
    await until(lambda: _version_over(http, sid, before))


async def _version_over(http: httpx.AsyncClient, sid: str, before: int) -> bool:
    version: int = (await http.get(f"/sessions/{sid}")).json()["version"]
    return version > before


# --- a follower on B of turns on A ------------------------------------------------------------


@pytest.mark.parametrize("kind", STORES)
async def test_a_follower_on_b_of_a_turn_on_a(kind: str, tmp_path: Path) -> None:
    """Each stored event once, drafts (PostgreSQL), and exactly one ``end`` a turn, after its
    answer: not one per batch of events found."""
    with two_servers(kind, tmp_path) as (app_a, app_b):
        async with clients(app_a, app_b) as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            follower = Stream(b, f"/sessions/{sid}/stream", params={"follow": "true"})
            assert [f.event for f in await follower.until_end()] == ["end"]  # caught up
            for text in (LOOKUP, "and B-2040?"):
                await until(lambda: server_of(app_b).hub.waiting() == 1)
                before = len(await stored_ids(a, sid))
                sent = await (await start_turn(a, sid, text))
                frames = await follower.until_end()
                stored = await stored_ids(a, sid)
                assert event_ids(frames) == stored[before:] == event_ids(sent)
                assert_one_turn(frames)
                assert frames[-2].kinds == sent[-2].kinds  # the answer
                assert frames[0].kinds == ["user_message"]
                if kind == "postgres":
                    assert "draft" in [f.event for f in frames]
            if kind == "postgres":
                relay = server_of(app_a).hub.relay
                assert relay is not None
                assert relay.published > 0  # asked for by B
            await follower.drop()
            await until(lambda: server_of(app_b).hub.waiting() == 0)


@pytest.mark.postgres
async def test_a_turn_nobody_follows_elsewhere_publishes_no_draft(tmp_path: Path) -> None:
    """Its own client gets every draft from A; B, following another session, asks for none
    of this turn's, and A publishes none."""
    with two_servers("postgres", tmp_path) as (app_a, app_b):
        async with clients(app_a, app_b) as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            other = (await a.post("/sessions", json={})).json()["id"]
            follower = Stream(b, f"/sessions/{other}/stream", params={"follow": "true"})
            await follower.until_end()
            sent = await (await start_turn(a, sid, LOOKUP))
            assert "draft" in [f.event for f in sent]
            relay = server_of(app_a).hub.relay
            assert relay is not None
            assert relay.published == 0
            await follower.drop()


@pytest.mark.parametrize("kind", STORES)
async def test_a_turn_paused_on_a_and_resumed_by_an_answer_on_a(kind: str, tmp_path: Path) -> None:
    """A turn that pauses for a confirmation ends there; the answer resumes it under the same
    invocation, and the follower on B gets that part with an end of its own."""
    with two_servers(kind, tmp_path) as (app_a, app_b):
        async with clients(app_a, app_b) as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            follower = Stream(b, f"/sessions/{sid}/stream", params={"follow": "true"})
            await follower.until_end()
            await (await start_turn(a, sid, LOOKUP))
            await follower.until_end()
            await until(lambda: server_of(app_b).hub.waiting() == 1)
            paused = await (await start_turn(a, sid, "please refund the shipping"))
            frames = await follower.until_end()
            assert event_ids(frames) == event_ids(paused)
            assert [f.event for f in frames].count("end") == 1
            asking = [f for f in frames if "needs_approval" in f.kinds]
            assert asking == [frames[-2]]
            (message,) = [m for m in asking[0].data["messages"] if m["kind"] == "needs_approval"]
            await until(lambda: server_of(app_b).hub.waiting() == 1)
            url = f"/sessions/{sid}/approvals/{message['data']['request_id']}"
            reply = await a.post(url, json={"kind": "confirmation", "confirmed": True})
            resumed = await follower.until_end()
            assert event_ids(resumed) == event_ids(parse_sse(reply.text))
            assert_one_turn(resumed)
            assert {f.data["messages"][0]["invocation_id"] for f in resumed} == {
                frames[-1].data["messages"][0]["invocation_id"]
            }
            await follower.drop()


@pytest.mark.parametrize("kind", STORES)
async def test_a_plain_stream_on_b_waits_for_the_turn_on_a(kind: str, tmp_path: Path) -> None:
    with two_servers(kind, tmp_path) as (app_a, app_b):
        async with clients(app_a, app_b) as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            turn = await start_turn(a, sid, LOOKUP)
            await running_elsewhere(b, sid, 0)
            stream = Stream(b, f"/sessions/{sid}/stream")
            # It waits on the turn running on A (it would have ended at once otherwise) ...
            await until(lambda: server_of(app_b).hub.waiting() == 1)
            frames = await stream.closed()
            sent = await turn
            # ... and ends after its answer, with everything A's own client got, once.
            assert event_ids(frames) == event_ids(sent) == await stored_ids(b, sid)
            assert_one_turn(frames)


@pytest.mark.parametrize("kind", STORES)
async def test_last_event_id_resumes_on_the_other_server(kind: str, tmp_path: Path) -> None:
    """A stream of A's turn read on A, dropped mid-turn, resumed on B: the rest, once, to the
    turn's end; and a follow stream resumed on B the same."""
    with two_servers(kind, tmp_path) as (app_a, app_b):
        async with clients(app_a, app_b) as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            turn = await start_turn(a, sid, LOOKUP)
            await running_elsewhere(a, sid, 0)
            on_a = Stream(a, f"/sessions/{sid}/stream")
            held = [await on_a.next()]  # the user's message: the turn is still running
            await on_a.drop()
            headers = {"Last-Event-ID": held[-1].id or ""}
            rest = await Stream(b, f"/sessions/{sid}/stream", headers=headers).closed()
            sent = await turn
            assert event_ids(held) + event_ids(rest) == event_ids(sent)
            assert_one_turn(rest)

            # A follow stream, resumed on B from the first event of a new turn.
            turn = await start_turn(a, sid, "and B-2040?")
            before = len(event_ids(sent))
            await running_elsewhere(a, sid, before)
            first = (await stored_ids(a, sid))[before]
            headers = {"Last-Event-ID": first}
            follower = Stream(
                b, f"/sessions/{sid}/stream", params={"follow": "true"}, headers=headers
            )
            frames = await follower.until_end()
            sent = await turn
            assert [first, *event_ids(frames)] == event_ids(sent)
            assert_one_turn(frames)
            await follower.drop()


# --- the listener -----------------------------------------------------------------------------


@pytest.mark.postgres
async def test_the_listener_reconnects_after_its_connection_is_killed(tmp_path: Path) -> None:
    from agentlog._stores.pg_listen import APPLICATION_NAME, channel_for
    from agentlog.sessions.postgres import PostgresSessionService

    with throwaway_schema("agentlog_fanout") as (dsn, schema):
        name = f"{APPLICATION_NAME} {channel_for(schema)}"
        listeners = "SELECT pid FROM pg_stat_activity WHERE application_name = %s"

        async def pids() -> set[int]:
            return {pid for (pid,) in await execute(dsn, "public", listeners, name)}

        app_a, app_b = apps(lambda: PostgresSessionService(dsn, schema=schema), "postgres")
        async with clients(app_a, app_b) as (a, b):
            await until(lambda: _count(pids(), 2))  # A's and B's
            sid = (await a.post("/sessions", json={})).json()["id"]
            follower = Stream(b, f"/sessions/{sid}/stream", params={"follow": "true"})
            await follower.until_end()
            killed = await pids()
            await execute(
                dsn,
                "public",
                "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid",
                list(killed),
            )
            await until(lambda: _fresh(pids(), killed))  # both listen again
            await until(lambda: server_of(app_b).hub.waiting() == 1)
            sent = await (await start_turn(a, sid, LOOKUP))
            frames = await follower.until_end()  # only notifications can bring it in time
            assert event_ids(frames) == event_ids(sent)
            assert_one_turn(frames)
            assert "draft" in [f.event for f in frames]
            await follower.drop()


def said(text: str) -> Event:
    from agentlog import Content

    return Event(invocation_id="inv-1", author="user", content=Content.from_text(text, "user"))


@pytest.mark.postgres
async def test_a_store_hears_its_own_writes_from_itself_and_others_from_postgresql() -> None:
    """The copy PostgreSQL delivers of a store's own notice is dropped: the store handed it
    to its listener as its statement committed."""
    from agentlog.sessions.postgres import PostgresSessionService

    with throwaway_schema("agentlog_fanout") as (dsn, schema):
        here = PostgresSessionService(dsn, schema=schema)
        there = PostgresSessionService(dsn, schema=schema)
        heard: list[tuple[str, str]] = []
        listener = here.listener(lambda n: heard.append((n.kind, n.session_id)), lambda: None)
        try:
            await listener.start()
            mine = await here.create_session(app_name="app", user_id="ana")
            theirs = await there.create_session(app_name="app", user_id="ana")
            mine = await here.append_event(mine, said("mine"))
            assert heard == [("event", mine.id)]  # no notification could have arrived yet
            await there.append_event(theirs, said("theirs"))
            await until(lambda: len(heard) == 2)
            await asyncio.sleep(0.2)  # time enough for a copy of the first to arrive
            assert heard == [("event", mine.id), ("event", theirs.id)]
            await listener.stop()
            await here.append_event(mine, said("again"))
            assert len(heard) == 2  # a stopped listener is handed nothing
        finally:
            await listener.stop()
            await here.close()
            await there.close()


@pytest.mark.postgres
async def test_notifications_arriving_around_the_heartbeats_are_each_heard_once() -> None:
    from agentlog._stores.pg_listen import PgListener
    from agentlog.sessions.postgres import PostgresSessionService

    with throwaway_schema("agentlog_fanout") as (dsn, schema):
        store = PostgresSessionService(dsn, schema=schema)
        heard: list[str] = []
        listener = PgListener(
            dsn,
            schema=schema,
            on_notice=lambda n: heard.append(n.session_id),
            on_gap=lambda: None,
            heartbeat_s=0.004,  # a heartbeat statement between most appends
        )
        try:
            await listener.start()
            session = await store.create_session(app_name="app", user_id="ana")
            for n in range(30):
                session = await store.append_event(session, said(f"m-{n}"))
                await asyncio.sleep(0.005 * (n % 3))
            await until(lambda: len(heard) >= 30)
            await asyncio.sleep(0.1)
            assert heard == [session.id] * 30
            assert listener.connects == 1
        finally:
            await listener.stop()
            await store.close()


async def _count(pids: Any, n: int) -> bool:
    return len(await pids) == n


async def _fresh(pids: Any, killed: set[int]) -> bool:
    now: set[int] = await pids
    return len(now) == len(killed) and not now & killed


# --- payloads and the relay -------------------------------------------------------------------


def test_payloads_fit_and_read_back() -> None:
    from agentlog._stores.pg_listen import (
        DRAFT_CUT_MARK,
        NOTICE_BYTES,
        Draft,
        draft_notice,
        end_notice,
        event_notice,
        parse_notice,
    )

    notice = parse_notice(event_notice("store-1", "app", "ana", "s-1", "e-1", 3))
    assert (notice.kind, notice.app_name, notice.user_id, notice.session_id) == (
        "event",
        "app",
        "ana",
        "s-1",
    )
    assert parse_notice(end_notice("store-1", "app", "ana", "s-1", "inv-1", 7)).kind == "end"
    # Ids too long for a payload: a wake-up for every session instead.
    assert parse_notice(event_notice("store-1", "a" * 3000, "u" * 3000, "s", "e", 1)).kind == "wake"
    assert parse_notice("not json").kind == "wake"
    for text in ("short", 'é"\n' * 5000):
        draft = Draft(invocation_id="inv-1", author="desk", after="e-1", origin="o", text=text)
        payload = draft_notice("store-1", "app", "ana", "s-1", draft)
        assert payload is not None
        assert len(payload.encode()) <= NOTICE_BYTES
        read = parse_notice(payload).draft
        assert read is not None
        if text == "short":
            assert read == draft
        else:
            assert read.text.endswith(DRAFT_CUT_MARK)
            assert len(read.text) > 1000
            assert text.startswith(read.text.removesuffix(DRAFT_CUT_MARK))


class Published:
    """A notifying store that records the drafts published."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def listener(self, on_notice: Any, on_gap: Any) -> Any:
        raise NotImplementedError

    async def publish_drafts(self, *, app_name: str, drafts: Any) -> None:
        self.texts += [draft.text for _, _, draft in drafts]


def partial(text: str) -> Event:
    from agentlog import Content

    return Event(
        invocation_id="inv-1", author="desk", partial=True, content=Content.from_text(text, "model")
    )


async def test_the_relay_sends_the_newest_draft_and_none_a_stored_event_superseded() -> None:
    store = Published()
    relay = DraftRelay(store, "app", origin="o", interval_s=60.0)
    turn = LiveTurn(("ana", "s-1"))
    relay.asked([turn])
    for n in range(1, 101):
        relay.draft(turn, partial("x" * n), after="e-1")
    await until(lambda: store.texts)
    assert store.texts == ["x" * 100]  # one publish, of the newest
    relay.draft(turn, partial("later"), after="e-1")  # within the interval: it waits ...
    relay.stored(turn)  # ... and a stored event supersedes it
    relay.done(turn)
    await relay.close()
    assert store.texts == ["x" * 100]
