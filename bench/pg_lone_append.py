"""Appends of one PostgreSQL writer to one session, each awaited, for callgrind.

Instruction counts are repeatable where wall-clock timings on a shared machine are not. Run
it twice under callgrind, with no appends and with ``n``, and subtract: the difference over
``n`` is the client's instructions per append (the service's opening, the session's creation
and the events' building being the same in both)::

    valgrind --tool=callgrind .venv/bin/python -m bench.pg_lone_append 0
    valgrind --tool=callgrind .venv/bin/python -m bench.pg_lone_append 500

A schema of its own is made for the run and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os

import psycopg

from agentlog.events import Content, Event, EventActions, Part
from agentlog.sessions.postgres import PostgresSessionService

_DSN = "postgresql://postgres@127.0.0.1:5432/test"
_BUILT = 1_000
"""Events built in every run, whatever ``n``: their building cancels out in the difference."""


async def _run(dsn: str, schema: str, n: int, warm: int) -> None:
    service = PostgresSessionService(dsn, schema=schema)
    try:
        session = await service.create_session(app_name="bench-app", user_id="bench-user")
        base = session.last_update_time + 0.001
        events = [
            Event(
                invocation_id=f"inv-{i // 4}",
                author="user" if i % 2 else "agent",
                timestamp=base + i * 1e-4,
                content=Content(role="user", parts=(Part(text=f"message {i} of the bench"),)),
                actions=EventActions(state_delta={"turn": i} if i % 4 == 0 else {}),
            )
            for i in range(warm + _BUILT)
        ]
        # A few appends in both runs: the pool's and the statements' first-use costs.
        for event in events[: warm + n]:
            session = await service.append_event(session, event)
    finally:
        await service.close()


def main() -> None:
    """Append ``n`` events (after ``--warm`` more) to one session, awaiting each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="appends to measure (0 for the baseline)")
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--dsn", default=os.environ.get("AGENTLOG_TEST_POSTGRES_DSN", _DSN))
    args = parser.parse_args()
    if not 0 <= args.n <= _BUILT:
        parser.error(f"n must be 0 to {_BUILT}")
    schema = f"bench_lone_{os.getpid()}"
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        asyncio.run(_run(args.dsn, schema, args.n, args.warm))
    finally:
        with psycopg.connect(args.dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
