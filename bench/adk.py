"""google-adk's own ``Runner`` on agentlog's stores (``agentlog.adk``) beside the same ``Runner``
on google-adk's ``DatabaseSessionService``, on SQLite and on PostgreSQL, in one run.

Run from the repository root with the bench venv (``bash bench/setup.sh`` makes it)::

    .venv-bench/bin/python -m bench.adk [--turns 1000] [--no-postgres]

One session of ``--turns`` turns per configuration, each turn the script of ``bench.runner``:
the user asks about an order, the canned model (a google-adk ``BaseLlm``) calls
``lookup_order``, the tool answers, the model answers: two model calls and four stored events.
No compaction, so every turn loads and sends the whole history. Configurations, one after
another in one process, each on fresh storage removed afterwards:

- ``AgentlogSessionService(SqliteSessionService(file))``: WAL, ``synchronous=FULL`` (its default);
- ``DatabaseSessionService("sqlite+aiosqlite:///file")``: the file made in WAL mode first,
  SQLite's default ``synchronous=FULL`` (google-adk has no setting for either);
- ``AgentlogSessionService(PostgresSessionService(dsn, schema=...))``;
- ``DatabaseSessionService("postgresql+asyncpg://...")`` in a schema of its own; both at the
  server's ``synchronous_commit``.

At turns 10, 100 and 1,000 (``--checkpoints``) it prints, as the median of turns N-4..N:

- **turn ms**: the turn's ``run_async`` stream read to the end, minus the time inside the model;
- **store ms**: the part of it spent in the session service's ``get_session`` (one a turn) and
  ``append_event`` (four a turn);

and for the whole run **appends/s**: ``append_event`` calls per second spent in them.
Progress goes to stderr, the table to stdout; the exit status is 1 if the target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import sqlite3
import statistics
import sys
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bench.compaction import INSTRUCTION, log, lookup_order, question
from bench.runner import Stats, adk_model

CHECKPOINTS: Final = (10, 100, 1_000)
TARGET: Final = 5.0
"""google-adk's Runner at least this many times faster per turn at the last checkpoint on
agentlog's store than on DatabaseSessionService, same backend."""
WORKDIR: Final = Path(__file__).resolve().parent / ".work"
DEFAULT_DSN: Final = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass
class Run:
    """What one configuration measured."""

    name: str
    backend: str
    stats: Stats
    store_seconds: list[float] = field(default_factory=list)
    appends: int = 0
    append_seconds: float = 0.0

    def store_ms_at(self, turn: int, window: int) -> float:
        return statistics.median(self.store_seconds[max(0, turn - window) : turn]) * 1000


def timed(service: Any, run: Run) -> list[float]:
    """Wrap the service's session calls on the instance (the Runner calls them through it);
    the returned one-item list holds the seconds spent in them since it was last zeroed."""
    spent = [0.0]
    get_session = service.get_session
    append_event = service.append_event

    async def timed_get(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await get_session(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    async def timed_append(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await append_event(*args, **kwargs)
        finally:
            elapsed = time.perf_counter() - started
            spent[0] += elapsed
            run.appends += 1
            run.append_seconds += elapsed

    service.get_session = timed_get
    service.append_event = timed_append
    return spent


async def drive(run: Run, service: Any, turns: int) -> Run:
    """``turns`` turns of google-adk's Runner on ``service``."""
    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.runners import Runner
    from google.genai import types

    stats = run.stats
    agent = LlmAgent(
        name="desk", model=adk_model(stats), instruction=INSTRUCTION, tools=[lookup_order]
    )
    runner = Runner(app=App(name="bench", root_agent=agent), session_service=service)
    session = await service.create_session(app_name="bench", user_id="u")
    spent = timed(service, run)
    events = 0
    for n in range(1, turns + 1):
        stats.start_turn(False)
        spent[0] = 0.0
        message = types.Content(role="user", parts=[types.Part(text=question(n))])
        started = time.perf_counter()
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            events += 1
        stats.end_turn(n, time.perf_counter() - started)
        run.store_seconds.append(spent[0])
        if n % 100 == 0:
            log(f"{run.name}: {n} turns, last {stats.seconds[-1] * 1000:.1f} ms")
    await runner.close()
    if events != 3 * turns:
        raise RuntimeError(f"{run.name}: {events} events for {turns} turns, expected 3 a turn")
    return run


# --- the stores -----------------------------------------------------------------------------------


def fresh_sqlite(path: Path, wal: bool) -> Path:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if wal:
        # google-adk cannot be told a journal mode; WAL is kept in the file once set.
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
    return path


def agentlog_sqlite(path: Path) -> Any:
    from agentlog.adk import AgentlogSessionService
    from agentlog.sessions.sqlite import SqliteSessionService

    return AgentlogSessionService(SqliteSessionService(fresh_sqlite(path, wal=False)))


def adk_sqlite(path: Path) -> Any:
    from google.adk.sessions.database_session_service import DatabaseSessionService

    return DatabaseSessionService(f"sqlite+aiosqlite:///{fresh_sqlite(path, wal=True)}")


def agentlog_postgres(dsn: str, schema: str) -> Any:
    from agentlog.adk import AgentlogSessionService
    from agentlog.sessions.postgres import PostgresSessionService

    return AgentlogSessionService(PostgresSessionService(dsn, schema=schema))


def adk_postgres(dsn: str, schema: str) -> Any:
    import psycopg
    from google.adk.sessions.database_session_service import DatabaseSessionService
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    params = conninfo_to_dict(dsn)
    user = params.get("user") or "postgres"
    password = f":{params['password']}" if params.get("password") else ""
    url = (
        f"postgresql+asyncpg://{user}{password}@{params.get('host') or '127.0.0.1'}:"
        f"{params.get('port') or 5432}/{params.get('dbname') or user}"
    )
    return DatabaseSessionService(url, connect_args={"server_settings": {"search_path": schema}})


def drop_schemas(dsn: str, schemas: list[str]) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(dsn, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def postgres_settings(dsn: str) -> str:
    import psycopg

    try:
        with psycopg.connect(dsn, connect_timeout=5) as conn:
            row = conn.execute("SHOW synchronous_commit").fetchone()
    except psycopg.Error as exc:
        return f"unreachable ({exc})"
    return f"synchronous_commit={row[0] if row else '?'}"


# --- report ---------------------------------------------------------------------------------------


def report(runs: list[Run], checkpoints: list[int], window: int) -> bool:
    """Print the table and the target; whether every target checked was met."""
    width = 19
    names = "".join(f" | {r.name:^{width}}" for r in runs)
    print(f"{'turn':>6}{names}")
    print(" " * 6 + f" | {'turn ms':>9} {'store ms':>9}" * len(runs))
    print("-" * (6 + (width + 3) * len(runs)))
    for turn in checkpoints:
        line = f"{turn:>6,}"
        for run in runs:
            if turn <= len(run.stats.seconds):
                turn_ms, store_ms = run.stats.ms_at(turn, window), run.store_ms_at(turn, window)
                line += f" | {turn_ms:>9.2f} {store_ms:>9.2f}"
            else:
                line += f" | {'-':>9} {'-':>9}"
        print(line)
    rates = "".join(
        f" | {run.appends / run.append_seconds if run.append_seconds else 0:>19,.0f}"
        for run in runs
    )
    print(f"{'app/s':>6}{rates}")
    print()
    print(
        f"turn ms: the turn's run_async stream read to the end minus the model's time; store ms: "
        f"the part spent in get_session and append_event; medians of turns N-{window - 1}..N. "
        "app/s: append_event calls per second spent in them, over the whole run."
    )
    print()
    ok = True
    last = checkpoints[-1]
    for backend in ("SQLite", "PostgreSQL"):
        ours = next(
            (r for r in runs if r.backend == backend and r.name.startswith("agentlog")), None
        )
        theirs = next((r for r in runs if r.backend == backend and r.name.startswith("adk")), None)
        if ours is None or theirs is None or last > len(ours.stats.seconds):
            continue
        if last > len(theirs.stats.seconds):
            continue
        turn = theirs.stats.ms_at(last, window) / ours.stats.ms_at(last, window)
        store = theirs.store_ms_at(last, window) / ours.store_ms_at(last, window)
        appends = (theirs.append_seconds / theirs.appends) / (ours.append_seconds / ours.appends)
        met = turn >= TARGET
        ok = ok and met
        print(
            f"target, {backend}: google-adk's Runner at turn {last:,} is {turn:.1f}x faster per "
            f"turn on agentlog's store than on DatabaseSessionService (at least {TARGET:g}x): "
            f"{'met' if met else 'MISSED'}; its session calls {store:.1f}x faster, appends "
            f"{appends:.1f}x"
        )
    return ok


# --- main -----------------------------------------------------------------------------------------


async def main_async(args: argparse.Namespace) -> int:
    warnings.filterwarnings("ignore", category=UserWarning)
    checkpoints = sorted({c for c in CHECKPOINTS if c <= args.turns} | {args.turns})
    folder = WORKDIR / f"adk-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    schemas: list[str] = []

    def schema(name: str) -> str:
        schemas.append(f"bench_{os.getpid()}_{name}_{uuid.uuid4().hex[:6]}")
        return schemas[-1]

    configs: list[tuple[str, str, Callable[[], Any]]] = [
        ("agentlog SQLite", "SQLite", lambda: agentlog_sqlite(folder / "agentlog.db")),
        ("adk DB SQLite", "SQLite", lambda: adk_sqlite(folder / "adk.db")),
    ]
    notes = [f"SQLite files in {folder} (removed afterwards)"]
    if not args.no_postgres:
        notes.append(f"PostgreSQL {postgres_settings(args.postgres_dsn)}")
        configs += [
            (
                "agentlog PostgreSQL",
                "PostgreSQL",
                lambda: agentlog_postgres(args.postgres_dsn, schema("agentlog")),
            ),
            (
                "adk DB PostgreSQL",
                "PostgreSQL",
                lambda: adk_postgres(args.postgres_dsn, schema("adk")),
            ),
        ]
    if args.only:
        wanted = [o.lower() for o in args.only.split(",")]
        configs = [c for c in configs if any(w in c[0].lower() for w in wanted)]
    runs: list[Run] = []
    try:
        for name, backend, make in configs:
            gc.collect()
            log(f"{name}: start")
            service = make()
            run: Awaitable[Run] = drive(Run(name, backend, Stats(name)), service, args.turns)
            try:
                runs.append(await run)
            finally:
                await service.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if schemas:
            drop_schemas(args.postgres_dsn, schemas)
    for note in notes:
        print(f"note: {note}")
    print()
    return 0 if report(runs, checkpoints, args.window) else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=1_000, help="turns in each session (1000)")
    parser.add_argument("--window", type=int, default=5, help="turns in each median (5)")
    parser.add_argument(
        "--postgres-dsn",
        default=os.environ.get("AGENTLOG_BENCH_POSTGRES_DSN", DEFAULT_DSN),
        help="PostgreSQL (env AGENTLOG_BENCH_POSTGRES_DSN)",
    )
    parser.add_argument("--no-postgres", action="store_true", help="skip the PostgreSQL rows")
    parser.add_argument("--only", help="only configurations whose name contains one of a,b")
    args = parser.parse_args()
    if args.turns < CHECKPOINTS[0] or not 1 <= args.window <= CHECKPOINTS[0]:
        parser.error(f"--turns must be at least {CHECKPOINTS[0]}, --window 1..{CHECKPOINTS[0]}")
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
