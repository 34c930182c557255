"""Resumable streams over a real server: dropped connections, reconnects, a restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentlog.sessions.base import SessionService
from server_support import (
    ANA_KEY,
    STORES,
    ClientView,
    auth,
    database,
    desk_app,
    live_server,
    read_sse,
)

pytestmark = pytest.mark.slow

MESSAGES = (
    "hi there",
    "where is my order A-1001?",
    "and order B-2040?",
    "please refund the shipping fee",
)


class Client:
    """A client that drops its connection at random points and resumes with Last-Event-ID."""

    def __init__(self, http: httpx.AsyncClient, sid: str, rng: random.Random) -> None:
        self.http, self.sid, self.rng = http, sid, rng
        self.view = ClientView()
        self.drops = 0
        self.live_reattachments = 0

    async def _read(self, method: str, url: str, reconnect: bool, **kwargs: Any) -> bool:
        """Read one stream, maybe dropping it early; True when the turn's end arrived."""
        budget = self.rng.choice([0, 1, 2, 3, 5, 8, None])
        async with self.http.stream(method, url, **kwargs) as response:
            assert response.status_code == 200, await response.aread()
            count = 0
            async for sse in read_sse(response):
                if budget is not None and count >= budget:
                    self.drops += 1
                    return False  # leaving the block closes the connection mid-stream
                count += 1
                self.view.apply(sse)
                if reconnect and sse.event == "draft":
                    self.live_reattachments += 1
                if sse.event == "end":
                    return True
        return False

    def _resume(self) -> dict[str, str]:
        return {"Last-Event-ID": self.view.last_id} if self.view.last_id else {}

    async def turn(self, method: str, url: str, **kwargs: Any) -> None:
        """Start a turn (saying which events it holds), then reconnect until its end."""
        ended = await self._read(method, url, False, headers=self._resume(), **kwargs)
        while not ended:
            ended = await self.reattach()

    async def reattach(self) -> bool:
        return await self._read("GET", f"/sessions/{self.sid}/stream", True, headers=self._resume())

    async def say(self, text: str) -> None:
        await self.turn("POST", f"/sessions/{self.sid}/messages", json={"text": text})

    async def answer_pending(self) -> None:
        while self.view.pending:
            request_id = next(iter(self.view.pending))
            body = {"kind": "confirmation", "confirmed": self.rng.random() < 0.7}
            await self.turn("POST", f"/sessions/{self.sid}/approvals/{request_id}", json=body)


async def wait_for_pending(http: httpx.AsyncClient, sid: str) -> None:
    for _ in range(500):
        if (await http.get(f"/sessions/{sid}")).json()["pending"]:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the turn never asked for a confirmation")


async def stored_ids(http: httpx.AsyncClient, sid: str) -> list[str]:
    return [e["id"] for e in (await http.get(f"/sessions/{sid}")).json()["events"]]


async def settle(http: httpx.AsyncClient, sid: str) -> None:
    """Wait until background compactions have stopped adding events."""
    versions: list[int] = []
    while len(versions) < 5 or len(set(versions[-5:])) > 1:
        versions.append((await http.get(f"/sessions/{sid}")).json()["version"])
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("kind", STORES)
async def test_dropped_connections_at_random_points_of_50_turns(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as open_store:
        await drops_and_reconnects(open_store())


async def drops_and_reconnects(store: SessionService) -> None:
    # A little latency per model response, so drops land while turns are still running;
    # compaction stores events outside any turn's stream, between turns. The server owns the
    # store: PostgreSQL's pool lives on the server's event loop.
    app = desk_app(store, delay_s=0.004, compaction_interval=3, close_store_on_shutdown=True)
    rng = random.Random(6)
    with live_server(app) as base:
        async with httpx.AsyncClient(base_url=base, headers=auth(ANA_KEY), timeout=30) as http:
            sid = (await http.post("/sessions", json={})).json()["id"]
            client = Client(http, sid, rng)
            for _ in range(50):
                await client.say(rng.choice(MESSAGES))
                await client.answer_pending()
            await settle(http, sid)
            while not await client.reattach():  # the last compaction, if it came late
                pass
            stored = await stored_ids(http, sid)
            compactions = (await http.get(f"/sessions/{sid}")).json()["events"]
    assert client.view.event_ids == stored  # nothing missing, nothing twice, in order
    assert len(set(stored)) == len(stored)
    assert client.view.draft is None
    assert client.drops > 50
    assert client.live_reattachments > 0  # some reconnects joined a turn still running
    assert sum("compaction" in e["actions"] for e in compactions) >= 10  # no null fields


@pytest.mark.parametrize("kind", STORES)
async def test_restart_mid_turn_with_a_confirmation_pending(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as open_store:
        await restart_with_a_confirmation_pending(open_store)


async def restart_with_a_confirmation_pending(open_store: Callable[[], SessionService]) -> None:
    view = ClientView()
    first = desk_app(open_store(), close_store_on_shutdown=True)
    with live_server(first) as base:
        async with httpx.AsyncClient(base_url=base, headers=auth(ANA_KEY), timeout=30) as http:
            sid = (await http.post("/sessions", json={})).json()["id"]
            async with http.stream(
                "POST", f"/sessions/{sid}/messages", json={"text": "my order A-1001?"}
            ) as response:
                async for sse in read_sse(response):
                    view.apply(sse)
            async with http.stream(
                "POST", f"/sessions/{sid}/messages", json={"text": "refund the shipping"}
            ) as response:
                async for sse in read_sse(response):
                    view.apply(sse)
                    if "handoff" in sse.kinds:
                        break  # the connection drops mid-turn
            # The turn runs on without its client, up to the confirmation request.
            await wait_for_pending(http, sid)
    # A new server on the same database: nothing of the old one survives but the log.
    second = desk_app(open_store(), close_store_on_shutdown=True)
    with live_server(second) as base:
        async with httpx.AsyncClient(base_url=base, headers=auth(ANA_KEY), timeout=30) as http:
            headers = {"Last-Event-ID": view.last_id or ""}
            async with http.stream("GET", f"/sessions/{sid}/stream", headers=headers) as r:
                frames = [sse async for sse in read_sse(r)]
            for sse in frames:
                view.apply(sse)
            assert frames[-1].event == "end"
            # Only what was stored after the last id seen, and the end.
            assert [f.event for f in frames] == ["event"] * (len(frames) - 1) + ["end"]
            assert {k for f in frames for k in f.kinds} >= {"tool_call", "needs_approval"}
            [request_id] = view.pending
            body = {"kind": "confirmation", "confirmed": True}
            url = f"/sessions/{sid}/approvals/{request_id}"
            async with http.stream("POST", url, json=body) as response:
                async for sse in read_sse(response):
                    view.apply(sse)
            stored = await stored_ids(http, sid)
            state = (await http.get(f"/sessions/{sid}/state")).json()["state"]
    assert view.event_ids == stored
    assert view.pending == {}
    assert "R-7781" in view.answers[-1]
    assert state["refunds"][0]["refund_id"] == "R-7781"
