"""Several ``agentlog serve`` processes on one PostgreSQL: throughput, latency, and a log audit.

Run from the repository root with the dev venv::

    .venv/bin/python -m bench.load [--servers 3] [--sessions 24] [--duration 20]

For 1 server and then for ``--servers`` servers (side by side in one run, each on a fresh
PostgreSQL schema dropped afterwards), it starts that many ``python -m agentlog serve``
processes on loopback, and one ``agentlog worker`` beside them; the servers enqueue a summary
of each session idle for 2 s, and the worker takes it. Then
``--sessions`` concurrent client loops each create a session and take turns for ``--duration``
seconds, every turn sent to the next server round-robin: a lookup ("my order A-1001?"), then
every third turn a refund whose approval is answered through two servers at once (one must win,
one must be refused). One session in four is also followed live (``?follow=true``) on the
server after its home one, to time the delivery of stored events to a follower: across servers
when there are several (with one server, the same work on that server, so the two
configurations do the same work).

Printed per configuration: turns/s; time to the first server-sent event and to ``end``, p50
and p99; cross-server delivery of a stored event (follower's receipt minus the sender's, both
read in this process), p50 and p99; HTTP errors. Then the audit, read straight from the store:
events lost (seen on a stream, not stored), duplicated, or interleaved (a turn's events not
contiguous), sessions whose state is not the fold of their deltas, and approvals whose tool ran
more or less than once; then, once every session has gone idle (bounded wait), sessions not
summarised at their final version, summaries not ``ok``, the most summary jobs run for one
session version, and failed jobs. Every loop is bounded by ``--duration`` and a per-request
timeout; all traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx

from bench.server import DEFAULT_DSN, HOST, WORKDIR, free_port, log, stop_process, wait_ready

LOOKUP: Final = "my order A-1001?"
REFUND: Final = "please refund the shipping"
REQUEST_TIMEOUT_S: Final = 60.0
IDLE_S: Final = 2.0
"""Servers enqueue a summary of a session this long after its last event."""
SUMMARY_WAIT_S: Final = 90.0


def _dsn_in(dsn: str, schema: str) -> str:
    sep = "&" if "?" in dsn else "?"
    return f"{dsn}{sep}options=-csearch_path%3D{schema}"


class Process:
    """An ``agentlog`` child process (``serve`` or ``worker``)."""

    def __init__(self, args: list[str], logfile: Path, port: int | None = None) -> None:
        self.port = port
        self.url = f"http://{HOST}:{port}" if port else ""
        self.logfile = logfile
        with logfile.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "agentlog", *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=WORKDIR.parent.parent,
            )

    async def ready(self, wait_s: float = 60.0) -> None:
        await wait_ready(self.url, self.process, self.logfile, wait_s)

    def stop(self) -> None:
        stop_process(self.process)


@dataclass
class Stats:
    """What the clients measured in one configuration."""

    turns: int = 0
    first_event_s: list[float] = field(default_factory=list)
    end_s: list[float] = field(default_factory=list)
    delivery_s: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    seen: dict[str, set[str]] = field(default_factory=dict)
    """Per session, the ids of the stored events the clients were sent."""
    approvals: dict[str, int] = field(default_factory=dict)
    """Per session, approvals answered with a 200."""
    sent_at: dict[str, float] = field(default_factory=dict)
    """When a sender first read each stored event id."""
    followed_at: dict[str, float] = field(default_factory=dict)


async def _sse(response: httpx.Response) -> Any:
    """(event, id) pairs of a server-sent event stream."""
    event, event_id = "message", None
    async for line in response.aiter_lines():
        if not line:
            yield event, event_id
            event, event_id = "message", None
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("id:"):
            event_id = line[3:].strip()


async def _turn(
    client: httpx.AsyncClient, url: str, body: dict[str, Any], sid: str, stats: Stats
) -> int:
    start = time.perf_counter()
    first: float | None = None
    async with client.stream("POST", url, json=body) as response:
        if response.status_code != 200:
            await response.aread()
            return response.status_code
        async for event, event_id in _sse(response):
            now = time.perf_counter()
            first = first if first is not None else now - start
            if event == "event" and event_id:
                stats.seen.setdefault(sid, set()).add(event_id)
                stats.sent_at.setdefault(event_id, now)
            if event == "end":
                break
    stats.turns += 1
    stats.first_event_s.append(first or 0.0)
    stats.end_s.append(time.perf_counter() - start)
    return 200


async def _follow(client: httpx.AsyncClient, sid: str, stats: Stats, until: float) -> None:
    try:
        async with client.stream("GET", f"/sessions/{sid}/stream", params={"follow": "true"}) as r:
            async for event, event_id in _sse(r):
                if event == "event" and event_id:
                    stats.followed_at.setdefault(event_id, time.perf_counter())
                if time.perf_counter() > until:
                    return
    except httpx.HTTPError as exc:
        stats.errors[f"follow {type(exc).__name__}"] += 1


async def _session_loop(
    clients: list[httpx.AsyncClient], index: int, stats: Stats, until: float
) -> None:
    servers = itertools.cycle(range(index, index + len(clients)))
    home = clients[index % len(clients)]
    sid = (await home.post("/sessions", json={})).json()["id"]
    follower: asyncio.Task[None] | None = None
    if index % 4 == 0:  # in every configuration, so each does the same work
        other = clients[(index + 1) % len(clients)]
        follower = asyncio.create_task(_follow(other, sid, stats, until + 5))
    turn = 0
    try:
        while time.perf_counter() < until:
            client = clients[next(servers) % len(clients)]
            turn += 1
            text = REFUND if turn % 3 == 0 else LOOKUP
            try:
                code = await _turn(client, f"/sessions/{sid}/messages", {"text": text}, sid, stats)
                if code != 200:
                    stats.errors[f"message {code}"] += 1
                    continue
                if text == REFUND:
                    await _approve_twice(clients, client, sid, stats)
            except httpx.HTTPError as exc:
                stats.errors[f"message {type(exc).__name__}"] += 1
    finally:
        if follower is not None:
            await asyncio.sleep(1.0)  # the last events' delivery
            follower.cancel()
            await asyncio.gather(follower, return_exceptions=True)


async def _approve_twice(
    clients: list[httpx.AsyncClient], client: httpx.AsyncClient, sid: str, stats: Stats
) -> None:
    pending = (await client.get(f"/sessions/{sid}")).json()["pending"]
    if not pending:
        stats.errors["refund asked no approval"] += 1
        return
    url = f"/sessions/{sid}/approvals/{pending[0]['request_id']}"
    body = {"kind": "confirmation", "confirmed": True}
    other = clients[(clients.index(client) + 1) % len(clients)]
    codes = await asyncio.gather(
        _turn(client, url, body, sid, stats), _turn(other, url, body, sid, stats)
    )
    stats.approvals[sid] = stats.approvals.get(sid, 0) + codes.count(200)
    if sorted(codes) != [200, 409] and len(clients) > 1:
        stats.errors[f"approval answered {sorted(codes)}"] += 1


async def _audit(dsn: str, schema: str, stats: Stats) -> dict[str, int]:
    from agentlog.sessions.postgres import PostgresSessionService
    from agentlog.state import fold

    store = PostgresSessionService(dsn, schema=schema, cache_events=0)
    found: Counter[str] = Counter()
    try:
        for summary in await store.list_sessions(app_name="agentlog"):
            session = await store.get_session(
                app_name="agentlog", user_id=summary.user_id, session_id=summary.id
            )
            ids = [e.id for e in session.events]
            found["sessions"] += 1
            found["events"] += len(ids)
            found["duplicated"] += len(ids) - len(set(ids))
            found["lost"] += len(stats.seen.get(session.id, set()) - set(ids))
            runs = [k for k, _ in itertools.groupby(e.invocation_id for e in session.events)]
            found["interleaved"] += len(runs) - len(set(runs))
            stored = {k: v for k, v in session.state.items() if not k.startswith(("app:", "user:"))}
            folded = fold(e.actions.state_delta for e in session.events)
            found["state != fold"] += stored != {
                k: v for k, v in folded.items() if not k.startswith(("app:", "user:"))
            }
            refunds = sum(
                1
                for e in session.events
                for r in e.function_responses()
                if r.name == "refund_shipping"
            )
            found["approvals not run once"] += refunds != stats.approvals.get(session.id, 0)
    finally:
        await store.close()
    return dict(found)


async def _summaries(dsn: str, schema: str) -> dict[str, int]:
    """Wait (bounded) until every session is summarised at its final version; then count the
    sessions that are not, summary rows that are not ``ok``, and summary jobs per version."""
    import psycopg

    query = (
        "SELECT count(*) FILTER (WHERE s.session_version IS NULL),"
        " count(*) FILTER (WHERE s.status IS DISTINCT FROM 'ok' AND s.status IS NOT NULL)"
        " FROM sessions x LEFT JOIN agentlog_summaries s ON s.session_id = x.session_id"
        " AND s.user_id = x.user_id AND s.session_version = x.version"
    )
    deadline = time.monotonic() + SUMMARY_WAIT_S
    async with await psycopg.AsyncConnection.connect(_dsn_in(dsn, schema), autocommit=True) as c:
        while True:
            missing, bad = await (await c.execute(query)).fetchone() or (0, 0)
            if missing == 0 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        jobs = await (
            await c.execute(
                "SELECT coalesce(max(n), 0), coalesce(sum(failed), 0) FROM (SELECT count(*) AS n,"
                " count(*) FILTER (WHERE status = 'failed') AS failed FROM procrastinate_jobs"
                " GROUP BY args->>'session_id', args->>'version') AS per_version"
            )
        ).fetchone() or (0, 0)
    return {
        "not summarised at the final version": missing,
        "summaries not ok": bad,
        "summary jobs for one version (max)": jobs[0],
        "summary jobs failed": jobs[1],
    }


def _pct(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms"


async def run_config(dsn: str, servers: int, sessions: int, duration: float) -> dict[str, Any]:
    import psycopg

    schema = f"agentlog_load_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    db = _dsn_in(dsn, schema)
    logs = WORKDIR / schema
    logs.mkdir(parents=True, exist_ok=True)
    has_worker = _has_worker()
    serve = ["serve", "--db", db, "--summarize-idle-after", str(IDLE_S)]
    if not has_worker:
        serve.append("--no-summaries")
    procs = [
        Process([*serve, "--port", str(port)], logs / f"s{i}.log", port)
        for i, port in enumerate(free_port() for _ in range(servers))
    ]
    if has_worker:
        procs.append(Process(["worker", "--db", db], logs / "worker.log"))
    stats = Stats()
    try:
        for proc in procs:
            if proc.port:
                await proc.ready()
        log(f"{servers} server(s){' and a worker' if has_worker else ''} up on schema {schema}")
        limits = httpx.Limits(max_connections=sessions * 4)
        clients = [
            httpx.AsyncClient(
                base_url=p.url, timeout=REQUEST_TIMEOUT_S, limits=limits, trust_env=False
            )
            for p in procs
            if p.port
        ]
        start = time.perf_counter()
        until = start + duration
        try:
            await asyncio.gather(
                *(_session_loop(clients, i, stats, until) for i in range(sessions))
            )
        finally:
            for client in clients:
                await client.aclose()
        elapsed = time.perf_counter() - start
        audit = await _audit(dsn, schema, stats)
        if has_worker:
            audit.update(await _summaries(dsn, schema))
    finally:
        for proc in procs:
            proc.stop()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        shutil.rmtree(logs, ignore_errors=True)
    stats.delivery_s = [
        stats.followed_at[i] - stats.sent_at[i] for i in stats.followed_at if i in stats.sent_at
    ]
    return {"servers": servers, "elapsed": elapsed, "stats": stats, "audit": audit}


def _has_worker() -> bool:
    probe = subprocess.run(
        [sys.executable, "-m", "agentlog", "worker", "--help"],
        capture_output=True,
        cwd=WORKDIR.parent.parent,
        check=False,
    )
    return probe.returncode == 0


def report(results: list[dict[str, Any]]) -> None:
    """The table, to stdout."""
    rows = [
        ("turns/s", lambda r: f"{r['stats'].turns / r['elapsed']:.1f}"),
        ("first event p50", lambda r: _pct(r["stats"].first_event_s, 0.5)),
        ("first event p99", lambda r: _pct(r["stats"].first_event_s, 0.99)),
        ("end p50", lambda r: _pct(r["stats"].end_s, 0.5)),
        ("end p99", lambda r: _pct(r["stats"].end_s, 0.99)),
        ("delivery to a follower (across servers) p50", lambda r: _pct(r["stats"].delivery_s, 0.5)),
        (
            "delivery to a follower (across servers) p99",
            lambda r: _pct(r["stats"].delivery_s, 0.99),
        ),
        ("deliveries timed", lambda r: str(len(r["stats"].delivery_s))),
        ("HTTP errors", lambda r: str(sum(r["stats"].errors.values()))),
    ]
    for key in (
        "sessions",
        "events",
        "lost",
        "duplicated",
        "interleaved",
        "state != fold",
        "approvals not run once",
        "not summarised at the final version",
        "summaries not ok",
        "summary jobs for one version (max)",
        "summary jobs failed",
    ):
        rows.append((f"audit: {key}", lambda r, k=key: str(r["audit"].get(k, 0))))
    header = "| measure | " + " | ".join(f"{r['servers']} server(s)" for r in results) + " |"
    print(header)
    print("|" + "---|" * (len(results) + 1))
    for name, value in rows:
        print(f"| {name} | " + " | ".join(value(r) for r in results) + " |")
    for r in results:
        if r["stats"].errors:
            print(f"\n{r['servers']} server(s) errors: {dict(r['stats'].errors)}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dsn", default=os.environ.get("AGENTLOG_TEST_POSTGRES_DSN", DEFAULT_DSN))
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=24)
    parser.add_argument("--duration", type=float, default=20.0)
    args = parser.parse_args()
    results = []
    for servers in sorted({1, args.servers}):
        log(f"running {servers} server(s), {args.sessions} sessions, {args.duration:.0f}s")
        results.append(await run_config(args.dsn, servers, args.sessions, args.duration))
    print(
        f"load: 1 vs {args.servers} servers, {args.sessions} sessions, {args.duration:.0f}s, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}\n"
    )
    report(results)


if __name__ == "__main__":
    asyncio.run(main())
