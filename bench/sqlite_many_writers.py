"""Many sessions appending at once to one SQLite store, in this process: appends/s, the
latency's distribution (p50, p90, p99, p99.9, max) and the process's CPU per append (issue
15's 200-writer target, measured quickly).

    .venv-bench/bin/python -m bench.sqlite_many_writers --sessions 200 --seconds 3 --rounds 3

It runs writers like ``bench.concurrent``'s (each session awaiting its append before the next) on
a fresh file per round and prints each round and the medians. CPU per append is the process's
CPU time (every thread) over the run, divided by the appends; it moves less with other work on
the machine than the rates do. To compare two trees, run this from each with ``PYTHONPATH``
set to that tree's ``src`` and root, rounds interleaved.

``--callgrind`` counts the process's instructions per append instead, which the load on the
machine does not move: two runs under valgrind, each making the same sessions and events, one
appending ``--appends`` events per session (every session at once, no deadline) and one none;
the difference over the appends is printed.

    .venv-bench/bin/python -m bench.sqlite_many_writers --callgrind --sessions 200 --appends 20
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.concurrent import Measured, events_each

_BUILT = 64
"""Events made per session for a run of a given count of appends (``--appends``)."""


def one_round(
    sessions: int, seconds: float, seed: int, profile: str | None = None, where: Path | None = None
) -> dict[str, float]:
    where = where or Path(__file__).parent
    with tempfile.TemporaryDirectory(prefix="agentlog-many-", dir=where) as tmp:
        return asyncio.run(_round(str(Path(tmp) / "store.db"), sessions, seconds, seed, profile))


async def _round(
    path: str,
    sessions: int,
    seconds: float,
    seed: int,
    profile: str | None = None,
    appends: int | None = None,
) -> dict[str, float]:
    # As bench.concurrent's writers, with the process's CPU measured over the appends only.
    from agentlog.sessions.sqlite import SqliteSessionService
    from bench.stores import agentlog_events, base_after, make_specs

    store = SqliteSessionService(path)
    latencies: list[float] = []
    try:
        made = [await store.create_session(app_name="a", user_id="u") for _ in range(sessions)]
        # With a count, as many events made whatever it is (up to 64), so that two counted
        # runs differ by the appends alone.
        each = events_each(sessions, seconds) if appends is None else max(appends, _BUILT)
        deadline_free = appends is not None
        work = [
            (s, agentlog_events(make_specs(each, seed + i), base_after(s.last_update_time)))
            for i, s in enumerate(made)
        ]
        gc.collect()
        gc.freeze()
        clock = time.perf_counter
        cpu, main, began = time.process_time(), time.thread_time(), clock()
        deadline = math.inf if deadline_free else began + seconds

        async def writer(session: Any, events: list[Any]) -> None:
            for event in events[:appends]:
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
    parser.add_argument(
        "--callgrind", action="store_true", help="instructions per append (valgrind, two runs)"
    )
    parser.add_argument(
        "--appends", type=int, help="appends per session, no deadline (what --callgrind counts)"
    )
    args = parser.parse_args(argv)
    if args.callgrind:
        return _callgrind(args.sessions, min(args.appends or 20, _BUILT), args.seed, args.dir)
    if args.appends is not None:
        where = args.dir or Path(__file__).parent
        with tempfile.TemporaryDirectory(prefix="agentlog-many-", dir=where) as tmp:
            path = str(Path(tmp) / "store.db")
            asyncio.run(_round(path, args.sessions, 0.0, args.seed, appends=args.appends))
        return 0
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


def _callgrind(sessions: int, appends: int, seed: int, where: Path | None) -> int:
    """Instructions per append: a run of ``appends`` per session minus one of none."""
    with tempfile.TemporaryDirectory() as folder:
        totals = []
        for count in (0, appends):  # one after the other: both would share the 2 cores
            out = Path(folder) / f"{count}.out"
            command = [
                "valgrind",
                "--tool=callgrind",
                "--dump-instr=no",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-m",
                "bench.sqlite_many_writers",
                "--sessions",
                str(sessions),
                "--appends",
                str(count),
                "--seed",
                str(seed),
            ]
            if where is not None:
                command += ["--dir", str(where)]
            subprocess.run(
                command,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=Path(__file__).resolve().parent.parent,
            )
            totals.append(_total(out))
    per = (totals[1] - totals[0]) / (sessions * appends)
    print(
        f"{per:,.0f} instructions per append ({sessions} sessions x {appends} appends at once,"
        " minus the same run appending none; callgrind)"
    )
    return 0


def _total(out: Path) -> int:
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {out}")


if __name__ == "__main__":
    sys.exit(main())
