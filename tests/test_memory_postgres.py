"""The PostgreSQL memory store against the shared conformance suite, plus what only PostgreSQL
has.

Needs a server: set ``AGENTLOG_TEST_POSTGRES_DSN`` (for example
``postgresql://postgres@127.0.0.1:5432/test``). Every store lives in a fresh schema, dropped
when the test is done.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

DSN = os.environ.get("AGENTLOG_TEST_POSTGRES_DSN", "")
if not DSN:
    pytest.skip(
        "AGENTLOG_TEST_POSTGRES_DSN is not set (e.g. postgresql://postgres@127.0.0.1:5432/test)",
        allow_module_level=True,
    )

import psycopg  # noqa: E402
from psycopg import sql  # noqa: E402

from agentlog import StoreUnavailableError  # noqa: E402
from agentlog.memory import MemoryService  # noqa: E402
from agentlog.memory.postgres import PostgresMemoryService  # noqa: E402
from agentlog.sessions.postgres import PostgresSessionService  # noqa: E402
from agentlog.testing.memory import MemoryServiceConformance, entry  # noqa: E402

pytestmark = pytest.mark.postgres


def new_schema() -> str:
    return f"agentlog_test_{uuid.uuid4().hex[:16]}"


async def query(schema: str, text: str) -> list[tuple[Any, ...]]:
    async with await psycopg.AsyncConnection.connect(DSN, autocommit=True) as conn:
        await conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        cursor = await conn.execute(text.encode())
        return await cursor.fetchall() if cursor.description else []


async def drop_schema(schema: str) -> None:
    async with await psycopg.AsyncConnection.connect(DSN, autocommit=True) as conn:
        await conn.execute(
            sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        )


class TestPostgresMemoryService(MemoryServiceConformance):
    async def make_service(self) -> MemoryService:
        return PostgresMemoryService(DSN, schema=new_schema(), max_size=4)

    async def dispose_service(self, service: MemoryService) -> None:
        assert isinstance(service, PostgresMemoryService)
        assert service.schema is not None
        await service.close()
        await drop_schema(service.schema)


@pytest.fixture
async def schema() -> AsyncIterator[str]:
    name = new_schema()
    yield name
    await drop_schema(name)


async def test_migrations_run_once_beside_the_session_store(schema: str) -> None:
    services: list[PostgresMemoryService | PostgresSessionService] = [
        *(PostgresMemoryService(DSN, schema=schema) for _ in range(4)),
        *(PostgresSessionService(DSN, schema=schema) for _ in range(2)),
    ]
    try:
        await asyncio.gather(*(s.open() for s in services))
    finally:
        await asyncio.gather(*(s.close() for s in services))
    rows = await query(schema, "SELECT version, name FROM agentlog_memory_migrations")
    assert rows == [(1, "initial")]
    assert (1, "initial") in await query(schema, "SELECT version, name FROM agentlog_migrations")
    indexes = await query(
        schema, "SELECT indexdef FROM pg_indexes WHERE indexname = 'memory_entries_search'"
    )
    assert "gin" in indexes[0][0].lower()


async def test_search_can_use_the_gin_index(schema: str) -> None:
    async with PostgresMemoryService(DSN, schema=schema) as service:
        await service.add([entry(f"parcel {i} in transit") for i in range(200)])
    async with await psycopg.AsyncConnection.connect(DSN, autocommit=True) as conn:
        await conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
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
def test_schema_name_is_validated(name: str) -> None:
    with pytest.raises(ValueError, match="schema"):
        PostgresMemoryService(DSN, schema=name)


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
