"""Several real ``agentlog serve`` processes on one store: one turn at a time per session,
each approval's tool run once, and a turn whose server was killed closed by the next one.

Each server is its own process (``python -m agentlog serve``) on loopback, sharing one SQLite
file or one PostgreSQL schema, as a deployment behind a load balancer would.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from _postgres import throwaway_schema
from server_support import free_port

pytestmark = pytest.mark.slow

TESTS = Path(__file__).parent
STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@contextmanager
def shared_db(kind: str, tmp_path: Path) -> Iterator[str]:
    """The ``--db`` both servers are given: a SQLite file, or a DSN whose search_path is a
    throwaway schema."""
    if kind == "sqlite":
        yield str(tmp_path / "shared.db")
        return
    import psycopg

    with throwaway_schema("agentlog_mp") as (dsn, schema):
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in dsn else "?"
        yield f"{dsn}{sep}options=-csearch_path%3D{schema}"


class Server:
    """One ``agentlog serve`` process."""

    def __init__(self, db: str, *args: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(TESTS.parent)])}
        self.log_path = Path(tempfile.mkstemp(prefix="agentlog-serve-", suffix=".log")[1])
        self.log = self.log_path.open("wb")  # closed in stop()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agentlog",
                "serve",
                "--db",
                db,
                "--port",
                str(self.port),
                "--no-summaries",
                *args,
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (
                f"the server exited with {self.proc.returncode}: "
                + self.log_path.read_text(errors="replace")[-2000:]
            )
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()
        self.log_path.unlink(missing_ok=True)


@asynccontextmanager
async def servers(db: str, count: int, *args: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    started = [Server(db, *args) for _ in range(count)]
    try:
        for server in started:
            await asyncio.to_thread(server.wait_ready)
        clients = [httpx.AsyncClient(base_url=s.base, timeout=60) for s in started]
        try:
            yield clients
        finally:
            for client in clients:
                await client.aclose()
    finally:
        for server in started:
            server.stop()


async def events_of(client: httpx.AsyncClient, sid: str) -> list[dict[str, Any]]:
    response = await client.get(f"/sessions/{sid}")
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def responses_named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [
        part["function_response"]
        for e in events
        for part in (e.get("content") or {}).get("parts", [])
        if (part.get("function_response") or {}).get("name") == name
    ]


@pytest.mark.parametrize("kind", STORES)
async def test_turns_sent_at_once_to_two_servers_never_interleave(
    kind: str, tmp_path: Path
) -> None:
    with shared_db(kind, tmp_path) as db:
        async with servers(db, 2, "--agent", "serve_agents:brisk_desk") as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            for round_ in range(4):
                replies = await asyncio.gather(
                    a.post(
                        f"/sessions/{sid}/messages", json={"text": f"my order A-1001? {round_}"}
                    ),
                    b.post(f"/sessions/{sid}/messages", json={"text": f"and B-2040? {round_}"}),
                )
                assert [r.status_code for r in replies] == [200, 200]
            events = await events_of(a, sid)
            runs = [k for k, _ in itertools.groupby(e["invocation_id"] for e in events)]
            # Eight turns, each one contiguous run of events: no turn saw another's messages.
            assert len(runs) == len(set(runs)) == 8
            users = [e for e in events if e["author"] == "user"]
            assert len(users) == 8


@pytest.mark.parametrize("kind", STORES)
async def test_one_approval_answered_through_two_servers_runs_its_tool_once(
    kind: str, tmp_path: Path
) -> None:
    with shared_db(kind, tmp_path) as db:
        async with servers(db, 2) as (a, b):
            statuses: list[tuple[int, int]] = []
            for _ in range(50):
                sid = (await a.post("/sessions", json={})).json()["id"]
                await a.post(f"/sessions/{sid}/messages", json={"text": "my order A-1001?"})
                await a.post(f"/sessions/{sid}/messages", json={"text": "refund the shipping"})
                pending = (await a.get(f"/sessions/{sid}")).json()["pending"]
                assert len(pending) == 1, pending
                url = f"/sessions/{sid}/approvals/{pending[0]['request_id']}"
                answer = {"kind": "confirmation", "confirmed": True}
                first, second = await asyncio.gather(
                    a.post(url, json=answer), b.post(url, json=answer)
                )
                statuses.append((first.status_code, second.status_code))
                events = await events_of(b, sid)
                assert len(responses_named(events, "refund_shipping")) == 1
                assert len(responses_named(events, "agentlog_request_confirmation")) == 1
                assert (await b.get(f"/sessions/{sid}")).json()["pending"] == []
            # Every time, one answer ran the turn and the other was refused as answered.
            assert all(sorted(pair) == [200, 409] for pair in statuses), statuses


@pytest.mark.parametrize("kind", STORES)
async def test_a_turn_whose_server_was_killed_is_closed_by_the_next(
    kind: str, tmp_path: Path
) -> None:
    with shared_db(kind, tmp_path) as db:
        doomed = Server(db, "--agent", "serve_agents:slow_desk", "--lease-ttl", "1")
        try:
            await asyncio.to_thread(doomed.wait_ready)
            async with servers(db, 1, "--lease-ttl", "1") as (b,):
                sid = (await b.post("/sessions", json={})).json()["id"]
                a = httpx.AsyncClient(base_url=doomed.base, timeout=60)
                message = {"text": "hello?"}
                async with a, a.stream("POST", f"/sessions/{sid}/messages", json=message) as turn:
                    lines = turn.aiter_lines()
                    while "event: draft" not in await anext(lines):
                        pass  # the turn is under way: its model is streaming
                    doomed.kill()
                before = await events_of(b, sid)
                assert [e["author"] for e in before] == ["user"]
                cut = before[0]["invocation_id"]
                reply = await b.post(f"/sessions/{sid}/messages", json={"text": "my order A-1001?"})
                assert reply.status_code == 200
                events = await events_of(b, sid)
                closing = events[1]
                assert closing["invocation_id"] == cut
                assert closing["error_code"] == "interrupted"
                assert events[2]["author"] == "user"
                assert "A-1001" in "".join(
                    p.get("text") or "" for p in (events[-1].get("content") or {}).get("parts", [])
                )
        finally:
            doomed.stop()


async def sse_frames(lines: AsyncIterator[str]) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """The (event, data) frames of a server-sent event stream's lines."""
    kind, data = "", ""
    async for line in lines:
        if line.startswith("event: "):
            kind = line[len("event: ") :]
        elif line.startswith("data: "):
            data = line[len("data: ") :]
        elif not line and kind:
            yield kind, json.loads(data) if data else {}
            kind, data = "", ""


def ended_turn(end: dict[str, Any]) -> str:
    """The invocation an ``end`` frame closes (``""`` for the idle session's first ``end``)."""
    return str(end["messages"][0]["invocation_id"])


@pytest.mark.parametrize("kind", STORES)
async def test_a_stream_on_one_server_follows_a_turn_another_server_runs(
    kind: str, tmp_path: Path
) -> None:
    with shared_db(kind, tmp_path) as db:
        args = ("--agent", "serve_agents:slow_desk", "--follow-poll", "0.1")
        async with servers(db, 2, *args) as (a, b):
            sid = (await a.post("/sessions", json={})).json()["id"]
            seen: list[tuple[str, dict[str, Any]]] = []

            async def follow() -> None:
                url = f"/sessions/{sid}/stream?follow=true"
                async with b.stream("GET", url) as stream:
                    async for frame in sse_frames(stream.aiter_lines()):
                        seen.append(frame)
                        if frame[0] == "end" and ended_turn(frame[1]):
                            return

            follower = asyncio.create_task(follow())
            await asyncio.sleep(0.5)  # the stream is open on B before A's turn starts
            reply = await a.post(f"/sessions/{sid}/messages", json={"text": "my order A-1001?"})
            assert reply.status_code == 200
            await asyncio.wait_for(follower, 30)
            stored = [e["id"] for e in await events_of(a, sid)]
            followed = [d["event"]["id"] for k, d in seen if k == "event"]
            # B's client saw every event A's turn stored, once each, in order, then its end.
            assert followed == stored
            assert ended_turn(seen[-1][1]) == (await events_of(a, sid))[0]["invocation_id"]
            if kind == "postgres":  # drafts cross servers there (B asks A for them)
                assert any(k == "draft" for k, _ in seen)
