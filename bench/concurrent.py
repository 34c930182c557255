"""Many writers at once: the concurrent section of ``bench.stores``.

Each configuration runs for ``seconds``: ``sessions`` sessions append at once, each awaiting its
append before the next (closed loop), from one process or split over several (each process
its own store on the same file or schema). Reported: aggregate appends/s, and p50/p99 of one
append's latency (from the end of the session's previous append to the end of this one, so a
writer that waits its turn behind the others is charged the wait).

Stores:

- agentlog ``SqliteSessionService`` (group commit) and ``PostgresSessionService`` (batched
  appends), at their defaults;
- the floor: the bare driver doing the same work with one transaction per append: ``sqlite3``
  on one connection per process (every append its own ``BEGIN IMMEDIATE ... COMMIT``, so its
  own fsync; several processes wait on each other's lock with SQLite's busy timeout), and
  psycopg's one-statement append (autocommit) over up to ten connections per process, so that
  PostgreSQL's own group commit can join their commits.

Then one session shared by several processes (contention): every process appends to the same
session; an append that meets a stale version waits a jittered, growing pause before it
reloads and tries again (it does not spin). Reported: appends/s and stale retries per append.

Child processes are started with ``spawn``; every file and schema is fresh per configuration.
"""

from __future__ import annotations

import asyncio
import gc
import math
import multiprocessing
import os
import random
import sqlite3
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

StoreKind = Literal["agentlog-sqlite", "agentlog-postgres", "floor-sqlite", "floor-postgres"]

STORE_NAMES: Final[dict[str, tuple[str, str]]] = {
    "agentlog-sqlite": ("agentlog SqliteSessionService", "SQLite"),
    "floor-sqlite": ("floor: sqlite3, a transaction per append", "SQLite"),
    "agentlog-postgres": ("agentlog PostgresSessionService", "PostgreSQL"),
    "floor-postgres": ("floor: psycopg 3, a statement per append", "PostgreSQL"),
}
APP: Final = "bench-app"
FLOOR_PG_CONNECTIONS: Final = 10
"""Connections per process of the PostgreSQL floor (agentlog's pool default)."""
_FIRST_PAUSE: Final = 0.001
_LONGEST_PAUSE: Final = 0.05


@dataclass(frozen=True)
class Target:
    """Where one configuration writes: a SQLite file or a PostgreSQL schema."""

    kind: StoreKind
    path: str | None = None
    dsn: str | None = None
    schema: str | None = None


@dataclass
class Outcome:
    """What the writers of one process did."""

    count: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    retries: int = 0
    ran_out: bool = False
    """Whether a session used up its prepared events before the time was up."""


@dataclass
class Measured:
    """One configuration's result, over every process."""

    kind: StoreKind
    processes: int
    sessions: int
    count: int
    seconds: float
    latencies_ms: list[float]
    retries: int = 0
    ran_out: bool = False

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    def percentile(self, pct: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return 0.0
        rank = max(1, round(pct / 100 * len(ordered)))
        return ordered[min(rank, len(ordered)) - 1]


# --- the writers (run in this process or in a child) ---------------------------------------------


def run_writers(
    target: Target,
    user: str,
    sessions: int,
    events_each: int,
    start_at: float,
    seconds: float,
    seed: int,
) -> Outcome:
    """Open the store, make ``sessions`` sessions, wait until ``start_at`` (``time.time()``),
    then append until ``seconds`` have passed; close. The body of every process."""
    return asyncio.run(_run(target, user, sessions, events_each, start_at, seconds, seed))


async def _run(
    target: Target,
    user: str,
    sessions: int,
    events_each: int,
    start_at: float,
    seconds: float,
    seed: int,
) -> Outcome:
    if target.kind.startswith("agentlog"):
        return await _agentlog(target, user, sessions, events_each, start_at, seconds, seed)
    if target.kind == "floor-sqlite":
        return await _floor_sqlite(target, user, sessions, events_each, start_at, seconds, seed)
    return await _floor_postgres(target, user, sessions, events_each, start_at, seconds, seed)


async def _wait_until(start_at: float) -> None:
    # The events made for the run are this harness's, not the store's: frozen out of the
    # garbage collector's passes, which would otherwise walk them all, a pause of tens of
    # milliseconds landing on whichever store happens to allocate then.
    gc.collect()
    gc.freeze()
    await asyncio.sleep(max(0.0, start_at - time.time()))


def _agentlog_store(target: Target) -> Any:
    if target.kind == "agentlog-sqlite":
        from agentlog.sessions.sqlite import SqliteSessionService

        return SqliteSessionService(str(target.path))
    from agentlog.sessions.postgres import PostgresSessionService

    assert target.dsn is not None
    return PostgresSessionService(target.dsn, schema=target.schema)


async def _agentlog(
    target: Target,
    user: str,
    sessions: int,
    events_each: int,
    start_at: float,
    seconds: float,
    seed: int,
) -> Outcome:
    from bench.stores import agentlog_events, base_after, make_specs

    store = _agentlog_store(target)
    outcome = Outcome()
    try:
        made = [await store.create_session(app_name=APP, user_id=user) for _ in range(sessions)]
        work = [
            (s, agentlog_events(make_specs(events_each, seed + i), base_after(s.last_update_time)))
            for i, s in enumerate(made)
        ]
        await _wait_until(start_at)
        began = time.perf_counter()
        deadline = began + seconds
        clock = time.perf_counter

        async def writer(session: Any, events: list[Any]) -> None:
            for event in events:
                t = clock()
                if t >= deadline:
                    return
                session = await store.append_event(session, event)
                outcome.latencies_ms.append((clock() - t) * 1e3)
                outcome.count += 1
            outcome.ran_out = True

        await asyncio.gather(*(writer(s, events) for s, events in work))
        outcome.seconds = clock() - began
    finally:
        await store.close()
    return outcome


async def _floor_sqlite(
    target: Target,
    user: str,
    sessions: int,
    events_each: int,
    start_at: float,
    seconds: float,
    seed: int,
) -> Outcome:
    from bench.stores import base_after, floor_events, floor_sqlite_append, make_specs

    assert target.path is not None
    conn = sqlite3.connect(target.path, isolation_level=None, timeout=30.0)
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    outcome = Outcome()
    try:
        made = [_floor_sqlite_session(conn, user) for _ in range(sessions)]
        work = [
            (s, iter(floor_events(make_specs(events_each, seed + i), base_after(created))))
            for i, (s, created) in enumerate(made)
        ]
        await _wait_until(start_at)
        clock = time.perf_counter
        began = clock()
        deadline = began + seconds
        # One connection writes for every session of the process, one transaction each, in
        # turn: a session's append waits for the others' (its latency counts that wait).
        last = [began] * len(work)
        while clock() < deadline:
            for i, (session, events) in enumerate(work):
                event = next(events, None)
                if event is None:
                    outcome.ran_out = True
                    break
                floor_sqlite_append(conn, session, event)
                now = clock()
                outcome.latencies_ms.append((now - last[i]) * 1e3)
                last[i] = now
                outcome.count += 1
            else:
                continue
            break
        outcome.seconds = clock() - began
    finally:
        conn.close()
    return outcome


def _floor_sqlite_session(conn: sqlite3.Connection, user: str) -> tuple[Any, float]:
    from bench.stores import FloorSession

    now = time.time()
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute(
            "INSERT INTO sessions (app_name, user_id, session_id, last_update_time)"
            " VALUES (?, ?, ?, ?) RETURNING pk",
            (APP, user, uuid.uuid4().hex, now),
        ).fetchone()
    finally:
        conn.execute("COMMIT")
    return FloorSession(int(row[0])), now


async def _floor_postgres(
    target: Target,
    user: str,
    sessions: int,
    events_each: int,
    start_at: float,
    seconds: float,
    seed: int,
) -> Outcome:
    import psycopg

    from bench.stores import (
        _FLOOR_PG_ONE_STATEMENT,
        FloorSession,
        floor_events,
        floor_pg_params,
        make_specs,
        with_options,
    )

    assert target.dsn is not None
    assert target.schema is not None
    dsn = with_options(target.dsn, search_path=target.schema)
    conns = [
        await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        for _ in range(min(sessions, FLOOR_PG_CONNECTIONS))
    ]
    # Session i appends on connection i mod k, in turn with the others there: a lock hands a
    # connection over in the order its writers asked (a shared queue of free connections let
    # the writer that just gave one back take it again at once, and starved the rest).
    locks = [asyncio.Lock() for _ in conns]
    outcome = Outcome()
    try:
        work = []
        for i in range(sessions):
            now = time.time()
            cursor = await conns[0].execute(
                "INSERT INTO sessions (app_name, user_id, session_id, last_update_time)"
                " VALUES (%s, %s, %s, %s) RETURNING pk",
                (APP, user, uuid.uuid4().hex, now),
            )
            row = await cursor.fetchone()
            assert row is not None
            work.append(
                (FloorSession(int(row[0])), floor_events(make_specs(events_each, seed + i), now))
            )
        await _wait_until(start_at)
        clock = time.perf_counter
        began = clock()
        deadline = began + seconds

        async def writer(i: int, session: Any, events: list[Any]) -> None:

            conn, lock = conns[i % len(conns)], locks[i % len(conns)]
            for event in events:
                t = clock()
                if t >= deadline:
                    return
                async with lock:
                    version = session.version
                    cursor = await conn.execute(
                        _FLOOR_PG_ONE_STATEMENT,
                        floor_pg_params(session.pk, version, event),
                    )
                    if await cursor.fetchone() is None:
                        raise RuntimeError("stale session")
                session.version += 1
                outcome.latencies_ms.append((clock() - t) * 1e3)
                outcome.count += 1
            outcome.ran_out = True

        await asyncio.gather(*(writer(i, s, events) for i, (s, events) in enumerate(work)))
        outcome.seconds = clock() - began
    finally:
        for conn in conns:
            await conn.close()
    return outcome


def append_to_one_session(
    target: Target, user: str, sid: str, start_at: float, seconds: float, worker: int
) -> Outcome:
    """Append to the shared session ``sid`` until ``seconds`` have passed; a stale append
    waits a jittered, growing pause, reloads and tries again. The body of each process."""
    return asyncio.run(_one_session(target, user, sid, start_at, seconds, worker))


async def _one_session(
    target: Target, user: str, sid: str, start_at: float, seconds: float, worker: int
) -> Outcome:
    from agentlog.errors import StaleSessionError
    from agentlog.sessions.base import GetSessionConfig
    from bench.stores import agentlog_events, make_specs

    store = _agentlog_store(target)
    config = GetSessionConfig(num_recent_events=0)
    rng = random.Random(worker)
    outcome = Outcome()
    try:
        events = agentlog_events(make_specs(20_000, worker), 0.0)
        await _wait_until(start_at)
        session = await store.get_session(app_name=APP, user_id=user, session_id=sid, config=config)
        clock = time.perf_counter
        began = clock()
        deadline = began + seconds
        for event in events:
            t = clock()
            if t >= deadline:
                break
            pause = _FIRST_PAUSE
            while True:
                try:
                    session = await store.append_event(session, event)
                    break
                except StaleSessionError:
                    outcome.retries += 1
                    await asyncio.sleep(rng.uniform(0, pause))
                    pause = min(pause * 2, _LONGEST_PAUSE)
                    session = await store.get_session(
                        app_name=APP, user_id=user, session_id=sid, config=config
                    )
            outcome.latencies_ms.append((clock() - t) * 1e3)
            outcome.count += 1
        outcome.seconds = clock() - began
    finally:
        await store.close()
    return outcome


# --- running the configurations ------------------------------------------------------------------


def events_each(sessions: int, seconds: float) -> int:
    """Events prepared per session: enough for 30,000 appends/s over all of them."""
    return max(64, math.ceil(30_000 * seconds / sessions))


def measure(target: Target, processes: int, sessions: int, seconds: float, seed: int) -> Measured:
    """One configuration: ``sessions`` split over ``processes`` (this one when 1)."""
    split = [
        sessions // processes + (1 if i < sessions % processes else 0) for i in range(processes)
    ]
    split = [n for n in split if n]
    each = events_each(sessions, seconds)
    # Time to open the stores, make the sessions and build the events before the start.
    start_at = time.time() + 1.0 + 0.004 * each * max(split) / 100
    if len(split) == 1:
        outcomes = [run_writers(target, "u0", split[0], each, start_at, seconds, seed)]
    else:
        start_at += 2.0  # the children's interpreters start first
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(len(split)) as pool:
            jobs = [
                pool.apply_async(
                    run_writers, (target, f"u{i}", n, each, start_at, seconds, seed + 1000 * i)
                )
                for i, n in enumerate(split)
            ]
            outcomes = [job.get(300) for job in jobs]
    return Measured(
        target.kind,
        len(split),
        sessions,
        sum(o.count for o in outcomes),
        max(o.seconds for o in outcomes),
        [ms for o in outcomes for ms in o.latencies_ms],
        ran_out=any(o.ran_out for o in outcomes),
    )


def measure_one_session(target: Target, sid: str, processes: int, seconds: float) -> Measured:
    """``processes`` processes appending to one session."""
    start_at = time.time() + 3.0
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes) as pool:
        jobs = [
            pool.apply_async(append_to_one_session, (target, "u0", sid, start_at, seconds, i))
            for i in range(processes)
        ]
        outcomes = [job.get(300) for job in jobs]
    return Measured(
        target.kind,
        processes,
        1,
        sum(o.count for o in outcomes),
        max(o.seconds for o in outcomes),
        [ms for o in outcomes for ms in o.latencies_ms],
        retries=sum(o.retries for o in outcomes),
    )


def floor_sqlite_file(path: Path) -> None:
    """A fresh file with the floor's tables, in WAL mode."""
    from bench.stores import _FLOOR_SQLITE_SCHEMA, remove_sqlite

    remove_sqlite(path)
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(_FLOOR_SQLITE_SCHEMA)
    finally:
        conn.close()


def floor_postgres_schema(dsn: str, schema: str) -> None:
    import psycopg

    from bench.stores import _FLOOR_PG_SCHEMA, with_options

    with psycopg.connect(with_options(dsn, search_path=schema), autocommit=True) as conn:
        conn.execute(_FLOOR_PG_SCHEMA)


async def make_shared_session(target: Target) -> str:
    """A session for the contention run; its id."""
    store = _agentlog_store(target)
    try:
        session = await store.create_session(app_name=APP, user_id="u0")
    finally:
        await store.close()
    return str(session.id)


@dataclass
class Section:
    """The concurrent section's results."""

    rows: list[Measured] = field(default_factory=list)
    contention: list[Measured] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def run_section(
    workdir: Path,
    dsn: str | None,
    new_schema: Callable[[str], str],
    kinds: Sequence[StoreKind],
    counts: Sequence[int],
    processes: int,
    seconds: float,
    seed: int,
    log: Callable[[str], None],
) -> Section:
    """Every store of ``kinds`` at every count of sessions, from one process and from
    ``processes``; then the contention run of agentlog's. ``new_schema(name)`` makes a fresh
    PostgreSQL schema (dropped later)."""
    from bench.stores import disk_sync_ms, remove_sqlite

    section = Section()
    load, sync = os.getloadavg()[0], disk_sync_ms(workdir)
    number = 0
    for kind in kinds:
        for sessions in counts:
            for procs in sorted({1, min(processes, sessions)}):
                number += 1
                name = f"c{number}_{kind.replace('-', '_')}"
                if kind.endswith("sqlite"):
                    path = workdir / f"{name}.db"
                    remove_sqlite(path)
                    if kind == "floor-sqlite":
                        floor_sqlite_file(path)
                    target = Target(kind, path=str(path))
                else:
                    assert dsn is not None
                    schema = new_schema(name)
                    if kind == "floor-postgres":
                        floor_postgres_schema(dsn, schema)
                    target = Target(kind, dsn=dsn, schema=schema)
                result = measure(target, procs, sessions, seconds, seed)
                section.rows.append(result)
                log(
                    f"concurrent: {STORE_NAMES[kind][0]}, {sessions} sessions in {procs} "
                    f"process(es): {result.rate:,.0f}/s, p99 {result.percentile(99):.2f} ms"
                )
                if kind.endswith("sqlite"):
                    remove_sqlite(path)
    for kind in [k for k in kinds if k.startswith("agentlog")]:
        if kind == "agentlog-sqlite":
            path = workdir / "contention.db"
            remove_sqlite(path)
            target = Target(kind, path=str(path))
        else:
            assert dsn is not None
            target = Target(kind, dsn=dsn, schema=new_schema("contention"))
        sid = asyncio.run(make_shared_session(target))
        result = measure_one_session(target, sid, processes, seconds)
        section.contention.append(result)
        log(
            f"contention: {STORE_NAMES[kind][0]}, {processes} processes on one session: "
            f"{result.rate:,.0f}/s, {result.retries:,} stale retries"
        )
    load_after, sync_after = os.getloadavg()[0], disk_sync_ms(workdir)
    section.notes.append(
        f"Concurrent section: load average (1 min) {load:.2f} at its start, {load_after:.2f} "
        f"at its end; a 4 KiB write and fdatasync in {workdir.parent}: median {sync:.2f} ms "
        f"at its start, {sync_after:.2f} ms at its end."
    )
    return section
