"""Cross-server delivery: how long a stored event takes to reach a client of another server.

Run from the repository root with the dev venv (it has httpx, uvicorn and psycopg)::

    .venv/bin/python -m bench.fanout [--sessions 8] [--turns 10] [--sqlite]

It starts two server processes on loopback (``python -m bench.server --serve``: the refund desk
on its offline model, as ``agentlog serve`` builds it) over one fresh PostgreSQL schema,
dropped afterwards; with ``--sqlite``, then over one SQLite file as well, where nothing
notifies and followers poll (once a second, the default). For each of ``--sessions`` sessions
a client follows the session on server B (``GET /sessions/{id}/stream?follow=true``) while
another sends ``--turns`` messages to server A, one turn after another ("my order A-1001?":
the desk looks the order up and streams its answer), the sessions side by side.

Per stored event, the delivery time is the follower's receipt on B minus the sender's receipt
on A (A streams each event to its own client as soon as it is stored), both read in this
process. Per turn, the same for its ``end``. Also counted: events B's followers never got or
got twice, ``end`` frames per turn on B (exactly one is right), and drafts that reached B.
Every wait is bounded by ``--timeout``; all traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx

from bench.server import DEFAULT_DSN, WORKDIR, Server, drop_schema, log, percentile

MESSAGE: Final = "my order A-1001?"


@dataclass
class Seen:
    """What the clients of one session saw, by receipt time (``perf_counter``)."""

    sent: dict[str, float] = field(default_factory=dict)
    """Event id to its receipt by the sender on A."""
    sent_ends: list[float] = field(default_factory=list)
    followed: dict[str, float] = field(default_factory=dict)
    """Event id to its first receipt by the follower on B."""
    followed_ends: list[float] = field(default_factory=list)
    since_made: list[float] = field(default_factory=list)
    """Per event the follower got: its receipt (wall clock) minus the event's timestamp,
    stamped on A when the event was made, just before it was stored."""
    follower_ids: list[str] = field(default_factory=list)
    drafts: int = 0


async def _frames(response: httpx.Response) -> Any:
    """``(event name, id, data)`` for each server-sent event of a response, as it arrives."""
    name, sse_id, data = "message", None, []
    async for line in response.aiter_lines():
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("id:"):
            sse_id = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "" and data:
            yield name, sse_id, json.loads("\n".join(data))
            name, sse_id, data = "message", None, []


async def _follow(b: httpx.AsyncClient, sid: str, seen: Seen, caught_up: asyncio.Event) -> None:
    url = f"/sessions/{sid}/stream"
    async with b.stream("GET", url, params={"follow": "true"}) as response:
        response.raise_for_status()
        async for name, sse_id, data in _frames(response):
            now, wall = time.perf_counter(), time.time()
            if not caught_up.is_set():
                caught_up.set()  # the first end: nothing stored yet
                continue
            if name == "event" and sse_id is not None:
                seen.follower_ids.append(sse_id)
                if sse_id not in seen.followed:
                    seen.followed[sse_id] = now
                    seen.since_made.append(wall - data["event"]["timestamp"])
            elif name == "end":
                seen.followed_ends.append(now)
            elif name == "draft":
                seen.drafts += 1


async def _turns(a: httpx.AsyncClient, sid: str, turns: int, seen: Seen) -> None:
    for _ in range(turns):
        url = f"/sessions/{sid}/messages"
        async with a.stream("POST", url, json={"text": MESSAGE}) as response:
            response.raise_for_status()
            async for name, sse_id, _ in _frames(response):
                now = time.perf_counter()
                if name == "event" and sse_id is not None:
                    seen.sent[sse_id] = now
                elif name == "end":
                    seen.sent_ends.append(now)


async def _session(a: httpx.AsyncClient, b: httpx.AsyncClient, turns: int, wait_s: float) -> Seen:
    seen = Seen()
    sid = (await a.post("/sessions", json={})).json()["id"]
    caught_up = asyncio.Event()
    follower = asyncio.create_task(_follow(b, sid, seen, caught_up))
    try:
        await asyncio.wait_for(caught_up.wait(), wait_s)
        await _turns(a, sid, turns, seen)
        deadline = time.monotonic() + wait_s
        while len(seen.followed_ends) < turns or len(seen.followed) < len(seen.sent):
            if time.monotonic() > deadline:
                break  # counted as lost below
            await asyncio.sleep(0.01)
        # Anything late (a second end, a duplicate) has had a moment to show.
        await asyncio.sleep(0.2)
    finally:
        follower.cancel()
        await asyncio.gather(follower, return_exceptions=True)
    return seen


async def run(
    backend: str, db: str, schema: str | None, args: argparse.Namespace
) -> dict[str, Any]:
    run_dir = WORKDIR / f"fanout-{uuid.uuid4().hex[:8]}"
    run_dir.mkdir(parents=True)
    servers = [Server(db, schema, run_dir / f"{backend}-{name}.log") for name in "ab"]
    try:
        for server in servers:
            await server.ready(60)
        log(f"{backend}: A on {servers[0].url}, B on {servers[1].url}")
        limits = httpx.Limits(max_connections=4 * args.sessions)
        options: dict[str, Any] = {"timeout": args.timeout, "trust_env": False, "limits": limits}
        async with (
            httpx.AsyncClient(base_url=servers[0].url, **options) as a,
            httpx.AsyncClient(base_url=servers[1].url, **options) as b,
        ):
            await _session(a, b, 1, args.timeout)  # warm-up: connections, caches, the JIT of it
            began = time.perf_counter()
            sessions = await asyncio.wait_for(
                asyncio.gather(
                    *(_session(a, b, args.turns, args.timeout) for _ in range(args.sessions))
                ),
                args.timeout * (args.turns + 2),
            )
            wall = time.perf_counter() - began
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(run_dir, ignore_errors=True)
    delays = [
        (s.followed[i] - t) * 1000 for s in sessions for i, t in s.sent.items() if i in s.followed
    ]
    end_delays = [
        (b_end - a_end) * 1000
        for s in sessions
        for a_end, b_end in zip(s.sent_ends, s.followed_ends, strict=False)
    ]
    return {
        "backend": backend,
        "since_made": [d * 1000 for s in sessions for d in s.since_made],
        "events": sum(len(s.sent) for s in sessions),
        "delays": delays,
        "end_delays": end_delays,
        "lost": sum(len(set(s.sent) - set(s.followed)) for s in sessions),
        "duplicated": sum(
            n - 1 for s in sessions for n in Counter(s.follower_ids).values() if n > 1
        ),
        "ends_per_turn": Counter(len(s.followed_ends) / args.turns for s in sessions),
        "drafts": sum(s.drafts for s in sessions),
        "turns": args.sessions * args.turns,
        "wall_s": wall,
    }


def report(results: list[dict[str, Any]]) -> None:
    print(
        f"{'backend':<10} | {'turns':>5} | {'events':>6} | {'after A ms p50':>14} | {'p99':>6} |"
        f" {'max':>6} | {'since made p50':>14} | {'p99':>6} | {'end p50':>7} | {'p99':>6} |"
        f" {'lost':>4} | {'dup':>3} | {'ends/turn':>9} | {'drafts on B':>11}"
    )
    print("-" * 139)
    for r in results:
        delays, made, ends = r["delays"], r["since_made"], r["end_delays"]
        ends_per_turn = ", ".join(f"{k:g}" for k in sorted(r["ends_per_turn"]))
        print(
            f"{r['backend']:<10} | {r['turns']:>5} | {r['events']:>6} |"
            f" {percentile(delays, 50):>14.1f} | {percentile(delays, 99):>6.1f} |"
            f" {max(delays):>6.1f} | {percentile(made, 50):>14.1f} |"
            f" {percentile(made, 99):>6.1f} | {percentile(ends, 50):>7.1f} |"
            f" {percentile(ends, 99):>6.1f} | {r['lost']:>4} | {r['duplicated']:>3} |"
            f" {ends_per_turn:>9} | {r['drafts']:>11}"
        )
    print()
    print(
        "after A: a stored event's receipt by a follower on server B minus its receipt by the "
        "sender's stream on server A (negative: B's client had it first). since made: its "
        "receipt on B minus the event's timestamp, set on A just before the append, so the "
        "store's write is included. end: the follower's end of each turn minus the sender's. "
        "All in ms. ends/turn: end frames a follower on B got per turn (1 is right). drafts "
        "on B: drafts of A's turns that reached B's followers (PostgreSQL notifies them; SQLite "
        "has none)."
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds, per wait")
    parser.add_argument("--dsn", default=DEFAULT_DSN)
    parser.add_argument("--sqlite", action="store_true", help="also two servers on one file")
    args = parser.parse_args()
    results = []
    schema = f"bench_fanout_{uuid.uuid4().hex[:8]}"
    try:
        results.append(await run("postgres", args.dsn, schema, args))
    finally:
        drop_schema(args.dsn, schema)
    if args.sqlite:
        folder = WORKDIR / f"fanout-sqlite-{uuid.uuid4().hex[:8]}"
        folder.mkdir(parents=True)
        try:
            results.append(await run("sqlite", str(Path(folder) / "shared.db"), None, args))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    report(results)


if __name__ == "__main__":
    asyncio.run(main())
