"""Many sessions appending at once to one SQLite store, in this process: appends/s, the
latency's distribution (p50, p90, p99, p99.9, max) and the process's CPU per append (issue
15's 200-writer target, measured quickly).

    .venv-bench/bin/python -m bench.sqlite_many_writers --sessions 200 --seconds 3 --rounds 3

It runs writers like ``bench.concurrent``'s (each session awaiting its append before the next) on
a fresh file per round and prints each round and the medians. CPU per append is the process's
CPU time (every thread) over the run, divided by the appends; it moves less with other work on
the machine than the rates do. To compare two trees, run this from each with ``PYTHONPATH``
set to that tree's ``src`` and root, rounds interleaved.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.concurrent import Measured, events_each


def one_round(
    sessions: int, seconds: float, seed: int, profile: str | None = None, where: Path | None = None
) -> dict[str, float]:
    where = where or Path(__file__).parent
    with tempfile.TemporaryDirectory(prefix="agentlog-many-", dir=where) as tmp:
        return asyncio.run(_round(str(Path(tmp) / "store.db"), sessions, seconds, seed, profile))


async def _round(
    path: str, sessions: int, seconds: float, seed: int, profile: str | None = None
) -> dict[str, float]:
    # As bench.concurrent's writers, with the process's CPU measured over the appends only.
    from agentlog.sessions.sqlite import SqliteSessionService
    from bench.stores import agentlog_events, base_after, make_specs

    store = SqliteSessionService(path)
    latencies: list[float] = []
    try:
        made = [await store.create_session(app_name="a", user_id="u") for _ in range(sessions)]
        each = events_each(sessions, seconds)
        work = [
            (s, agentlog_events(make_specs(each, seed + i), base_after(s.last_update_time)))
            for i, s in enumerate(made)
        ]
        gc.collect()
        gc.freeze()
        clock = time.perf_counter
        cpu, main, began = time.process_time(), time.thread_time(), clock()
        deadline = began + seconds

        async def writer(session: Any, events: list[Any]) -> None:
            for event in events:
                t = clock()
                if t >= deadline:
                    return
                session = await store.append_event(session, event)
                latencies.append((clock() - t) * 1e3)

        profiler = cProfile.Profile() if profile else None
        if profiler is not None:
            profiler.enable()
        await asyncio.gather(*(writer(s, events) for s, events in work))
        elapsed, cpu = clock() - began, time.process_time() - cpu
        main = time.thread_time() - main
        if profiler is not None and profile is not None:
            profiler.disable()
            profiler.dump_stats(profile)
    finally:
        await store.close()
        gc.unfreeze()
    measured = Measured("agentlog-sqlite", 1, sessions, len(latencies), elapsed, latencies)
    return {
        "rate": measured.rate,
        "p50": measured.percentile(50),
        "p90": measured.percentile(90),
        "p99": measured.percentile(99),
        "p999": measured.percentile(99.9),
        "max": max(latencies, default=0.0),
        "cpu_us": cpu / max(len(latencies), 1) * 1e6,
        "main_us": main / max(len(latencies), 1) * 1e6,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sqlite_many_writers")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20_240_601)
    parser.add_argument("--json", action="store_true", help="one JSON line per round")
    parser.add_argument(
        "--dir", type=Path, help="where the file goes (this folder; /dev/shm: no disk at all)"
    )
    parser.add_argument("--profile", help="cProfile the appends (last round) into this file")
    args = parser.parse_args(argv)
    results = []
    for _ in range(args.rounds):
        result = one_round(args.sessions, args.seconds, args.seed, args.profile, args.dir)
        results.append(result)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(
                f"{result['rate']:8,.0f}/s  p50 {result['p50']:5.2f} ms  p90 {result['p90']:5.2f}"
                f"  p99 {result['p99']:5.2f}  p99.9 {result['p999']:5.2f}  max {result['max']:5.2f}"
                f" ms  {result['cpu_us']:5.1f} us CPU/append ({result['main_us']:.1f} on the loop's"
                " thread)",
                flush=True,
            )
    if not args.json and len(results) > 1:
        med = {k: statistics.median(r[k] for r in results) for k in results[0]}
        print(
            f"median {med['rate']:,.0f}/s  p50 {med['p50']:.2f} ms  p90 {med['p90']:.2f} ms"
            f"  p99 {med['p99']:.2f} ms  p99.9 {med['p999']:.2f} ms  max {med['max']:.2f} ms"
            f"  {med['cpu_us']:.1f} us CPU/append ({med['main_us']:.1f} on the loop's thread)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
