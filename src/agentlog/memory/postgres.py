"""``PostgresMemoryService``: memory in PostgreSQL, searched with full-text search.

Needs the ``postgres`` extra. The pool, the schema option, error translation and migrations
under an advisory lock are the session store's (both build on :mod:`agentlog._stores.postgres`);
the tables (and their migrations table) have names of their own, so both stores can share a
schema. Search matches a stored ``tsvector`` of the library-normalised words
(``to_tsvector('simple', ...)``, GIN index) against the query's words joined by ``|``, ranked
with ``ts_rank``.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping
from typing import Any, Final, LiteralString

try:
    from psycopg import errors as pg_errors
    from psycopg.abc import Params

    from agentlog._stores.postgres import PostgresPool, PostgresStore
    from agentlog._stores.postgres import Row as _Row
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "agentlog.memory.postgres needs the postgres extra: pip install 'agentlog[postgres]'"
    ) from exc

from agentlog.errors import InvalidMemoryEntryError
from agentlog.memory._terms import index_terms, query_terms
from agentlog.memory.base import MemoryEntry, MemoryHit, check_limit, checked_entries
from agentlog.memory.migrations import MIGRATIONS_TABLE, load_migrations

__all__ = ["PostgresMemoryService"]

_COLUMNS: Final = (
    "entry_id, app_name, user_id, session_id, event_ids, kind, provenance, text, created_at"
)
_USER: Final = "app_name = %s AND user_id = %s"


class PostgresMemoryService(PostgresStore):
    """Memory entries in PostgreSQL (psycopg 3, ``psycopg_pool.AsyncConnectionPool``).

    The pool opens on first use, or by ``await service.open()`` or ``async with service``; the
    first open creates ``schema`` if asked and runs pending migrations.

    Args:
        dsn: a libpq connection string or URI.
        schema: keep the tables in this schema (created if missing) instead of the connection's
            default ``search_path``; letters, digits and ``_`` only.
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
        timeout: seconds to wait for a connection before ``StoreUnavailableError``.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
    ) -> None:
        self._pg = PostgresPool(
            dsn,
            owner="PostgresMemoryService",
            schema=schema,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            pool_name="agentlog-memory",
            migrations_table=MIGRATIONS_TABLE,
            migrations=lambda: load_migrations("postgres"),
        )

    # --- plumbing ---------------------------------------------------------------------------

    async def _fetch(self, query: LiteralString, params: Params) -> builtins.list[_Row]:
        async with self._pg.connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def _delete(self, where: LiteralString, params: Params) -> int:
        async with self._pg.connection() as conn:
            cursor = await conn.execute("DELETE FROM memory_entries WHERE " + where, params)
            return cursor.rowcount

    # --- the contract -----------------------------------------------------------------------

    async def add(
        self, entries: Iterable[MemoryEntry | Mapping[str, Any]]
    ) -> builtins.list[MemoryEntry]:
        """See ``MemoryService.add``."""
        checked = checked_entries(entries)
        rows = [
            (
                e.id,
                e.app_name,
                e.user_id,
                e.session_id,
                list(e.event_ids),
                e.kind,
                e.provenance,
                e.text,
                e.created_at,
                index_terms(e.text),
            )
            for e in checked
        ]
        async with self._pg.connection() as conn:
            try:
                async with conn.transaction(), conn.cursor() as cursor:
                    await cursor.executemany(
                        f"INSERT INTO memory_entries ({_COLUMNS}, terms)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        rows,
                    )
            except pg_errors.UniqueViolation as exc:
                raise InvalidMemoryEntryError(
                    "a memory entry with one of these ids is already stored"
                ) from exc
        return checked

    async def search(
        self, *, app_name: str, user_id: str, query: str, limit: int = 10
    ) -> builtins.list[MemoryHit]:
        """See ``MemoryService.search``."""
        check_limit(limit)
        terms = query_terms(query)
        if not terms:
            await self._pg.pool()  # a closed or unreachable store still says so
            return []
        # The terms are letters and digits only, so joined by "|" they are a valid tsquery
        # that matches any of them (websearch_to_tsquery would need all).
        rows = await self._fetch(
            f"SELECT {_COLUMNS}, ts_rank(search, q) AS score"
            " FROM memory_entries, to_tsquery('simple', %s) AS q"
            f" WHERE {_USER} AND search @@ q"
            " ORDER BY score DESC, created_at DESC, pk DESC LIMIT %s",
            (" | ".join(terms), app_name, user_id, limit),
        )
        return [MemoryHit.model_construct(entry=_entry(row), score=row[-1]) for row in rows]

    async def list(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> builtins.list[MemoryEntry]:
        """See ``MemoryService.list``."""
        where: LiteralString = _USER
        params: builtins.list[Any] = [app_name, user_id]
        if session_id is not None:
            where += " AND session_id = %s"
            params.append(session_id)
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM memory_entries WHERE " + where + " ORDER BY created_at, pk",
            params,
        )
        return [_entry(row) for row in rows]

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> int:
        """See ``MemoryService.delete_session``."""
        return await self._delete(_USER + " AND session_id = %s", (app_name, user_id, session_id))

    async def delete_user(self, *, app_name: str, user_id: str) -> int:
        """See ``MemoryService.delete_user``."""
        return await self._delete(_USER, (app_name, user_id))


def _entry(row: _Row) -> MemoryEntry:
    return MemoryEntry.model_construct(
        id=row[0],
        app_name=row[1],
        user_id=row[2],
        session_id=row[3],
        event_ids=tuple(row[4]),
        kind=row[5],
        provenance=row[6],
        text=row[7],
        created_at=row[8],
    )
