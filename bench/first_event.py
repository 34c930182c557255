"""One client at a time: how long a turn takes to its first event (the stored user message).

Run from the repository root with the dev venv::

    .venv/bin/python -m bench.first_event [--turns 150] [--backend sqlite|postgres]

Each turn runs on a fresh session (the refund desk, through ``Runner.run_async``, no server);
the time is from the call to the first event the run yields, whose store round trips are what
it measures (the write that takes the lease and stores the user's message, with the load beside
it; before ``acquire_lease_and_append``, the lease and then the append). The first 10 turns
warm up; the median of the rest is printed. SQLite runs on a file under ``bench/.work/``,
PostgreSQL on a fresh schema of ``--postgres-dsn``; both are removed afterwards. To compare two
versions of the code, run it with ``PYTHONPATH`` on each one's ``src`` in turn.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
import uuid
from pathlib import Path

from agentlog.events import Content
from agentlog.runner import Runner
from agentlog.server.desk import refund_desk
from agentlog.sessions.base import SessionService

WORKDIR = Path(__file__).resolve().parent / ".work"
WARMUP = 10


async def first_events(store: SessionService, turns: int) -> list[float]:
    """Seconds to the first event of each of ``turns`` turns, each on a new session."""
    runner = Runner(agent=refund_desk(), session_service=store)
    firsts = []
    for _ in range(turns):
        session = await store.create_session(app_name=runner.app_name, user_id="u")
        began = time.perf_counter()
        events = runner.run_async(
            user_id="u",
            session_id=session.id,
            new_message=Content.from_text("Hi, my order A-1001 still hasn't arrived."),
        )
        await anext(events)
        firsts.append(time.perf_counter() - began)
        async for _ in events:
            pass
    return firsts


async def main_async(args: argparse.Namespace) -> None:
    store: SessionService
    if args.backend == "sqlite":
        from agentlog.sessions.sqlite import SqliteSessionService

        WORKDIR.mkdir(parents=True, exist_ok=True)
        path = WORKDIR / f"first-event-{os.getpid()}.db"
        store = SqliteSessionService(path)
        try:
            firsts = await first_events(store, args.turns)
        finally:
            await store.close()
            for leftover in WORKDIR.glob(f"{path.name}*"):
                leftover.unlink()
    else:
        import psycopg
        from psycopg import sql

        from agentlog.sessions.postgres import PostgresSessionService

        schema = f"bench_first_event_{uuid.uuid4().hex[:8]}"
        store = PostgresSessionService(args.postgres_dsn, schema=schema)
        try:
            firsts = await first_events(store, args.turns)
        finally:
            await store.close()
            with psycopg.connect(args.postgres_dsn, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )
    kept = firsts[WARMUP:]
    print(
        f"{args.backend}: first event median {statistics.median(kept) * 1000:.2f} ms"
        f" over {len(kept)} turns"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=150, help="turns, the first 10 warm-up")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--postgres-dsn",
        default=os.environ.get(
            "AGENTLOG_BENCH_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    args = parser.parse_args()
    if args.turns <= WARMUP:
        parser.error(f"--turns must be over {WARMUP}")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
