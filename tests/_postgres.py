"""The PostgreSQL side of the tests: the server named by ``AGENTLOG_TEST_POSTGRES_DSN`` and
throwaway schemas on it.

Tests reach these through the ``postgres_dsn``, ``postgres_schema`` and ``new_postgres_schema``
fixtures in ``conftest.py``; helpers that are not fixtures call :func:`require_dsn`. Without the
variable, every one of them skips its test and says why.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, LiteralString

import pytest

if TYPE_CHECKING:
    from psycopg import sql

DSN_VARIABLE = "AGENTLOG_TEST_POSTGRES_DSN"
SKIP_REASON = f"{DSN_VARIABLE} is not set (e.g. postgresql://postgres@127.0.0.1:5432/test)"


def require_dsn() -> str:
    """The test server's DSN; skips the calling test, saying why, when the variable is unset."""
    dsn = os.environ.get(DSN_VARIABLE, "")
    if not dsn:
        pytest.skip(SKIP_REASON)
    return dsn


def new_schema_name(prefix: str = "agentlog_test") -> str:
    """A schema name no other test uses; the store under test creates the schema."""
    return f"{prefix}_{uuid.uuid4().hex[:16]}"


def drop_schemas(dsn: str, schemas: list[str]) -> None:
    """Drop each schema and everything in it, if it was ever created."""
    # Imported here so that a checkout without the postgres extra still collects (and skips).
    import psycopg
    from psycopg import sql

    if not schemas:
        return
    with psycopg.connect(dsn, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@contextmanager
def throwaway_schema(prefix: str = "agentlog_test") -> Iterator[tuple[str, str]]:
    """The DSN and a fresh schema name, dropped on exit; for code that cannot use fixtures."""
    dsn = require_dsn()
    schema = new_schema_name(prefix)
    try:
        yield dsn, schema
    finally:
        drop_schemas(dsn, [schema])


async def execute(
    dsn: str, schema: str, query: LiteralString | sql.Composed, *params: object
) -> list[tuple[Any, ...]]:
    """Run one statement in ``schema`` on a connection of its own; its rows, if any."""
    import psycopg
    from psycopg import sql

    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        cursor = await conn.execute(query, params or None)
        return await cursor.fetchall() if cursor.description else []
