"""What the PostgreSQL stores share: a psycopg 3 pool opened on first use, the optional schema,
migrations under an advisory lock, and errors turned into ``StoreUnavailableError`` with any
password taken out.

Needs the ``postgres`` extra; a store imports this inside the ``try`` that names the extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable
from types import TracebackType
from typing import Any, Final, Self

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout

from agentlog._stores.migrations import Migration
from agentlog.errors import StoreUnavailableError

__all__ = ["Conn", "PostgresPool", "PostgresStore", "Row", "redact"]

Row = tuple[Any, ...]
Conn = psycopg.AsyncConnection[Row]

_SCHEMA_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")

_LOCK_CLASS: Final = 0x61676C67
"""First key of the migration advisory lock ("aglg"); the second is a hash of the schema. Every
store takes the same lock, so stores starting together on one schema never both create it."""

_MIGRATION_LOCK: Final = (
    "SELECT pg_advisory_xact_lock(%s, hashtext(coalesce(%s::text, current_schema()::text, '')))"
)


class PostgresPool:
    """A store's connection pool, opened on first use with its schema and migrations in place.

    Pooled connections run in autocommit. The first open connects once directly (so an
    unreachable server fails at once, with libpq's reason), creates ``schema`` if asked, runs
    the pending ``migrations`` recorded in ``migrations_table``, then opens the pool, whose
    connections get ``search_path`` set to ``schema``.

    Args:
        dsn: a libpq connection string or URI.
        owner: the store's class name, for its ``repr`` and "... is closed".
        schema: keep the tables in this schema instead of the connection's default
            ``search_path``; letters, digits and ``_`` only.
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
        timeout: seconds to wait for a connection before ``StoreUnavailableError``.
        pool_name: the ``psycopg_pool`` name.
        migrations_table: where applied migrations are recorded.
        migrations: the store's migrations, in order; called on the first open.

    Raises:
        ValueError: a bad ``schema`` or sizes.
        StoreUnavailableError: ``dsn`` does not parse.
    """

    def __init__(
        self,
        dsn: str,
        *,
        owner: str,
        schema: str | None,
        min_size: int,
        max_size: int,
        timeout: float,
        pool_name: str,
        migrations_table: str,
        migrations: Callable[[], Iterable[Migration]],
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
                f"invalid PostgreSQL DSN: {redact(str(exc).strip(), None)}"
            ) from None
        self._dsn = dsn
        self._owner = owner
        self._password = str(params["password"]) if params.get("password") else None
        self._where = (
            f"{params.get('host') or 'localhost'}:{params.get('port') or 5432}"
            f"/{params.get('dbname') or params.get('user') or ''}"
        )
        self._schema = schema
        self._min_size = min_size
        self._max_size = max_size
        self._timeout = timeout
        self._pool_name = pool_name
        self._table = migrations_table
        self._migrations = migrations
        self._kwargs: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in params:
            self._kwargs["connect_timeout"] = max(2, math.ceil(timeout))
        self._pool: AsyncConnectionPool[Conn] | None = None
        self._open_lock = asyncio.Lock()
        self._closed = False

    @property
    def schema(self) -> str | None:
        """The schema holding the tables, or ``None`` for the connection's default."""
        return self._schema

    def __repr__(self) -> str:
        return f"{self._owner}({self._where!r}, schema={self._schema!r})"

    async def pool(self) -> AsyncConnectionPool[Conn]:
        """The open pool, opened (and the database migrated) by the first call."""
        if self._closed:
            raise self.closed_error()
        if self._pool is not None:
            return self._pool
        async with self._open_lock:
            if self._pool is None:
                try:
                    self._pool = await self._open_pool()
                except psycopg.Error as exc:
                    raise self.unavailable(exc) from exc
            return self._pool

    async def close(self) -> None:
        """Close the pool; later calls raise ``StoreUnavailableError``."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """A pooled connection; a driver or pool error in the block is ``StoreUnavailableError``."""
        pool = await self.pool()
        try:
            async with pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise self.unavailable(exc) from exc

    async def connect(self) -> Conn:
        """A connection of its own, outside the pool, set up as the pool's are (autocommit,
        ``search_path``); the caller closes it. Errors are ``StoreUnavailableError``."""
        await self.pool()  # the schema and migrations in place first
        try:
            conn = await psycopg.AsyncConnection.connect(self._dsn, **self._kwargs)
            await self._configure(conn)
        except psycopg.Error as exc:
            raise self.unavailable(exc) from exc
        return conn

    def closed_error(self) -> StoreUnavailableError:
        """The error every call raises once the store is closed."""
        return StoreUnavailableError(f"{self!r} is closed")

    def unavailable(self, exc: psycopg.Error) -> StoreUnavailableError:
        """``exc`` as a ``StoreUnavailableError`` naming the server, not the password."""
        if isinstance(exc, PoolClosed) or self._closed:
            return self.closed_error()
        if isinstance(exc, PoolTimeout):
            reason = f"no connection within {self._timeout:g} s (pool of {self._max_size})"
        else:
            reason = redact(str(exc).strip(), self._password)
        return StoreUnavailableError(f"PostgreSQL store {self._where}: {reason}")

    async def _open_pool(self) -> AsyncConnectionPool[Conn]:
        # A direct connection first: an unreachable server fails now with libpq's own reason,
        # not after the pool has retried for ``timeout`` seconds.
        async with await psycopg.AsyncConnection.connect(self._dsn, **self._kwargs) as conn:
            await self._configure(conn)
            await self._migrate(conn)
        pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            self._dsn,
            kwargs=self._kwargs,
            min_size=self._min_size,
            max_size=self._max_size,
            timeout=self._timeout,
            configure=self._configure if self._schema is not None else None,
            open=False,
            name=self._pool_name,
        )
        try:
            await pool.open(wait=True, timeout=self._timeout)
        except BaseException:
            await pool.close()
            raise
        if self._closed:  # close() ran while we were connecting
            await pool.close()
            raise self.closed_error()
        return pool

    async def _configure(self, conn: Conn) -> None:
        if self._schema is not None:
            await conn.execute(
                sql.SQL("SET search_path TO {}").format(sql.Identifier(self._schema))
            )

    async def _migrate(self, conn: Conn) -> None:
        # Every step takes the same transaction-scoped advisory lock, so processes starting
        # together queue here and the second one finds the work done.
        lock = (_LOCK_CLASS, self._schema)
        table = sql.Identifier(self._table)
        async with conn.transaction():
            await conn.execute(_MIGRATION_LOCK, lock)
            # Both looked up first: CREATE ... IF NOT EXISTS needs the CREATE privilege (on the
            # database, on the schema) even when the schema or table is there.
            if self._schema is not None:
                exists = await conn.execute(
                    "SELECT 1 FROM pg_namespace WHERE nspname = %s", (self._schema,)
                )
                if await exists.fetchone() is None:
                    await conn.execute(
                        sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(self._schema))
                    )
            found = await conn.execute(
                sql.SQL("SELECT to_regclass({}) IS NOT NULL").format(sql.Literal(self._table))
            )
            row = await found.fetchone()
            if row is None or not row[0]:
                await conn.execute(
                    sql.SQL(
                        "CREATE TABLE {} (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                        " applied_at DOUBLE PRECISION NOT NULL)"
                    ).format(table)
                )
            applied = await conn.execute(sql.SQL("SELECT version FROM {}").format(table))
            done = {version for (version,) in await applied.fetchall()}
        for migration in self._migrations():
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
                # A file shipped in the package, run whole: no parameters, so psycopg sends it
                # as a simple query and every statement in it runs in this transaction.
                await conn.execute(migration.sql)
                await conn.execute(
                    sql.SQL(
                        "INSERT INTO {} (version, name, applied_at) VALUES (%s, %s, %s)"
                    ).format(table),
                    (migration.version, migration.name, time.time()),
                )


class PostgresStore:
    """Base of the PostgreSQL stores: opening, closing and ``async with`` over ``self._pg``."""

    _pg: PostgresPool

    @property
    def schema(self) -> str | None:
        """The schema holding the tables, or ``None`` for the connection's default."""
        return self._pg.schema

    def __repr__(self) -> str:
        return repr(self._pg)

    async def open(self) -> None:
        """Connect, create the schema if asked, run pending migrations and open the pool.

        Optional: the first call that needs the database does it. Raises
        ``StoreUnavailableError`` if the server cannot be reached or the service is closed.
        """
        await self._pg.pool()

    async def close(self) -> None:
        """Close the pool; later calls raise ``StoreUnavailableError``. Idempotent."""
        await self._pg.close()

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


_URI_PASSWORD: Final = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")
_KEYWORD_PASSWORD: Final = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)


def redact(text: str, password: str | None) -> str:
    """``text`` with any password in it replaced by ``***``."""
    if password:
        text = text.replace(password, "***")
    text = _URI_PASSWORD.sub(r"\1***@", text)
    return _KEYWORD_PASSWORD.sub(r"\1***", text)
