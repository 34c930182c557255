"""``PostgresMemoryService``: memory in PostgreSQL, searched with full-text search.

Needs the ``postgres`` extra. The pool, the schema option, error translation and migrations
under an advisory lock work as in :mod:`agentlog.sessions.postgres`; the tables (and their
migrations table) have names of their own, so both stores can share a schema. Search matches a
stored ``tsvector`` of the library-normalised words (``to_tsvector('simple', ...)``, GIN index)
against the query's words joined by ``|``, ranked with ``ts_rank``.
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import math
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from types import TracebackType
from typing import Any, Final, LiteralString, Self

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg import sql
    from psycopg.abc import Params
    from psycopg.conninfo import conninfo_to_dict
    from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "agentlog.memory.postgres needs the postgres extra: pip install 'agentlog[postgres]'"
    ) from exc

from agentlog.errors import InvalidMemoryEntryError, StoreUnavailableError
from agentlog.memory._terms import index_terms, query_terms
from agentlog.memory.base import MemoryEntry, MemoryHit, check_limit, checked_entries
from agentlog.memory.migrations import MIGRATIONS_TABLE, load_migrations
from agentlog.sessions.postgres import _LOCK_CLASS, _MIGRATION_LOCK, _SCHEMA_NAME, _redact

__all__ = ["PostgresMemoryService"]

_Row = tuple[Any, ...]
_Conn = psycopg.AsyncConnection[_Row]

_COLUMNS: Final = (
    "entry_id, app_name, user_id, session_id, event_ids, kind, provenance, text, created_at"
)
_USER: Final = "app_name = %s AND user_id = %s"


class PostgresMemoryService:
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
        if schema is not None and (
            not _SCHEMA_NAME.fullmatch(schema) or schema.lower().startswith("pg_")
        ):
            raise ValueError(
                f"schema {schema!r} is not a plain identifier: up to 63 letters, digits and "
                "underscores, not starting with a digit or 'pg_'"
            )
        if not 0 <= min_size <= max_size or max_size < 1 or not timeout > 0:
            raise ValueError(
                f"need 0 <= min_size <= max_size, max_size >= 1 and timeout > 0; got "
                f"min_size={min_size}, max_size={max_size}, timeout={timeout}"
            )
        try:
            params = conninfo_to_dict(dsn)
        except psycopg.Error as exc:
            # libpq quotes the whole string back when it cannot parse it, password included.
            raise StoreUnavailableError(
                f"invalid PostgreSQL DSN: {_redact(str(exc).strip(), None)}"
            ) from None
        self._dsn = dsn
        self._password = str(params["password"]) if params.get("password") else None
        self._where = (
            f"{params.get('host') or 'localhost'}:{params.get('port') or 5432}"
            f"/{params.get('dbname') or params.get('user') or ''}"
        )
        self._schema = schema
        self._min_size = min_size
        self._max_size = max_size
        self._timeout = timeout
        self._kwargs: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in params:
            self._kwargs["connect_timeout"] = max(2, math.ceil(timeout))
        self._pool: AsyncConnectionPool[_Conn] | None = None
        self._open_lock = asyncio.Lock()
        self._closed = False

    @property
    def schema(self) -> str | None:
        """The schema holding the tables, or ``None`` for the connection's default."""
        return self._schema

    def __repr__(self) -> str:
        return f"PostgresMemoryService({self._where!r}, schema={self._schema!r})"

    # --- opening and closing ----------------------------------------------------------------

    async def open(self) -> None:
        """Connect, create the schema if asked, run pending migrations and open the pool.

        Optional: the first call that needs the database does it. Raises
        ``StoreUnavailableError`` if the server cannot be reached or the service is closed.
        """
        await self._get_pool()

    async def close(self) -> None:
        """See ``MemoryService.close``."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _get_pool(self) -> AsyncConnectionPool[_Conn]:
        if self._closed:
            raise self._closed_error()
        if self._pool is not None:
            return self._pool
        async with self._open_lock:
            if self._pool is None:
                try:
                    self._pool = await self._open_pool()
                except psycopg.Error as exc:
                    raise self._unavailable(exc) from exc
            return self._pool

    async def _open_pool(self) -> AsyncConnectionPool[_Conn]:
        # A direct connection first: an unreachable server fails now with libpq's own reason.
        async with await psycopg.AsyncConnection.connect(self._dsn, **self._kwargs) as conn:
            await self._configure(conn)
            await self._migrate(conn)
        pool: AsyncConnectionPool[_Conn] = AsyncConnectionPool(
            self._dsn,
            kwargs=self._kwargs,
            min_size=self._min_size,
            max_size=self._max_size,
            timeout=self._timeout,
            configure=self._configure if self._schema is not None else None,
            open=False,
            name="agentlog-memory",
        )
        try:
            await pool.open(wait=True, timeout=self._timeout)
        except BaseException:
            await pool.close()
            raise
        if self._closed:  # close() ran while we were connecting
            await pool.close()
            raise self._closed_error()
        return pool

    async def _configure(self, conn: _Conn) -> None:
        if self._schema is not None:
            await conn.execute(
                sql.SQL("SET search_path TO {}").format(sql.Identifier(self._schema))
            )

    async def _migrate(self, conn: _Conn) -> None:
        # The session store's lock, so that a session store and a memory store starting
        # together on one schema never both try to create it.
        lock = (_LOCK_CLASS, self._schema)
        table = sql.Identifier(MIGRATIONS_TABLE)
        async with conn.transaction():
            await conn.execute(_MIGRATION_LOCK, lock)
            if self._schema is not None:
                # Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege on the
                # database even when the schema is there.
                exists = await conn.execute(
                    "SELECT 1 FROM pg_namespace WHERE nspname = %s", (self._schema,)
                )
                if await exists.fetchone() is None:
                    await conn.execute(
                        sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(self._schema))
                    )
            await conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {} (version INTEGER PRIMARY KEY,"
                    " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
                ).format(table)
            )
            applied = await conn.execute(sql.SQL("SELECT version FROM {}").format(table))
            done = {version for (version,) in await applied.fetchall()}
        for migration in load_migrations("postgres"):
            if migration.version in done:
                continue
            async with conn.transaction():
                await conn.execute(_MIGRATION_LOCK, lock)
                again = await conn.execute(
                    sql.SQL("SELECT 1 FROM {} WHERE version = %s").format(table),
                    (migration.version,),
                )
                if await again.fetchone() is not None:
                    continue
                # A file shipped in the package, run whole as a simple query in this transaction.
                await conn.execute(migration.sql)
                await conn.execute(
                    sql.SQL(
                        "INSERT INTO {} (version, name, applied_at) VALUES (%s, %s, %s)"
                    ).format(table),
                    (migration.version, migration.name, time.time()),
                )

    # --- plumbing ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[_Conn]:
        pool = await self._get_pool()
        try:
            async with pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise self._unavailable(exc) from exc

    async def _fetch(self, query: LiteralString, params: Params) -> builtins.list[_Row]:
        async with self._connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def _delete(self, where: LiteralString, params: Params) -> int:
        async with self._connection() as conn:
            cursor = await conn.execute("DELETE FROM memory_entries WHERE " + where, params)
            return cursor.rowcount

    def _closed_error(self) -> StoreUnavailableError:
        return StoreUnavailableError(f"{self!r} is closed")

    def _unavailable(self, exc: psycopg.Error) -> StoreUnavailableError:
        if isinstance(exc, PoolClosed) or self._closed:
            return self._closed_error()
        if isinstance(exc, PoolTimeout):
            reason = f"no connection within {self._timeout:g} s (pool of {self._max_size})"
        else:
            reason = _redact(str(exc).strip(), self._password)
        return StoreUnavailableError(f"PostgreSQL store {self._where}: {reason}")

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
        async with self._connection() as conn:
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
            await self._get_pool()  # a closed or unreachable store still says so
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
