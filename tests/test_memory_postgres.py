"""The PostgreSQL memory store against the shared conformance suite, plus what only PostgreSQL
has.

Needs a server: set ``AGENTLOG_TEST_POSTGRES_DSN`` (for example
``postgresql://postgres@127.0.0.1:5432/test``). Every store lives in a fresh schema, dropped
when the test is done.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable

import psycopg
import pytest
from psycopg import sql

from _postgres import execute
from agentlog import StoreUnavailableError
from agentlog.memory import MemoryService
from agentlog.memory.postgres import PostgresMemoryService
from agentlog.sessions.postgres import PostgresSessionService
from agentlog.testing.memory import MemoryServiceConformance, entry

# Every test here, even one that never reaches the server, is skipped without the variable.
pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("postgres_dsn")]


class TestPostgresMemoryService(MemoryServiceConformance):
    @pytest.fixture(autouse=True)
    def _server(self, postgres_dsn: str, new_postgres_schema: Callable[[], str]) -> None:
        self.dsn = postgres_dsn
        self.new_schema = new_postgres_schema

    async def make_service(self) -> MemoryService:
        return PostgresMemoryService(self.dsn, schema=self.new_schema(), max_size=4)


async def test_migrations_run_once_beside_the_session_store(
    postgres_dsn: str, postgres_schema: str
) -> None:
    services: list[PostgresMemoryService | PostgresSessionService] = [
        *(PostgresMemoryService(postgres_dsn, schema=postgres_schema) for _ in range(4)),
        *(PostgresSessionService(postgres_dsn, schema=postgres_schema) for _ in range(2)),
    ]
    try:
        await asyncio.gather(*(s.open() for s in services))
    finally:
        await asyncio.gather(*(s.close() for s in services))
    rows = await execute(
        postgres_dsn,
        postgres_schema,
        "SELECT version, name FROM agentlog_memory_migrations ORDER BY version",
    )
    assert rows == [(1, "initial"), (2, "agent_statement")]
    migrations = await execute(
        postgres_dsn, postgres_schema, "SELECT version, name FROM agentlog_migrations"
    )
    assert (1, "initial") in migrations
    indexes = await execute(
        postgres_dsn,
        postgres_schema,
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'memory_entries_search'",
    )
    assert "gin" in indexes[0][0].lower()


async def test_search_can_use_the_gin_index(postgres_dsn: str, postgres_schema: str) -> None:
    async with PostgresMemoryService(postgres_dsn, schema=postgres_schema) as service:
        await service.add([entry(f"parcel {i} in transit") for i in range(200)])
    async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as conn:
        await conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(postgres_schema)))
        await conn.execute("SET enable_seqscan = off")
        cursor = await conn.execute(
            "EXPLAIN SELECT pk FROM memory_entries WHERE search @@ to_tsquery('simple', 'x | y')"
        )
        plan = " ".join(row[0] for row in await cursor.fetchall())
    assert "memory_entries_search" in plan


async def test_unreachable_server_fails_fast_without_the_password() -> None:
    service = PostgresMemoryService(
        "postgresql://agentlog:s3cret-pw@127.0.0.1:1/test", timeout=30.0
    )
    started = time.monotonic()
    with pytest.raises(StoreUnavailableError) as caught:
        await service.list(app_name="a", user_id="u")
    assert time.monotonic() - started < 5
    assert "127.0.0.1:1/test" in str(caught.value)
    assert "s3cret-pw" not in str(caught.value)
    await service.close()


@pytest.mark.parametrize("name", ["", "1abc", "bad-name", "x; DROP TABLE t", "pg_mine", "a" * 64])
def test_schema_name_is_validated(postgres_dsn: str, name: str) -> None:
    with pytest.raises(ValueError, match="schema"):
        PostgresMemoryService(postgres_dsn, schema=name)


def test_import_without_the_extra_names_it() -> None:
    code = (
        "import sys; sys.modules['psycopg'] = None\n"
        "try:\n"
        "    import agentlog.memory.postgres\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'agentlog[postgres]'" in out.stdout
