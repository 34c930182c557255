"""``PostgresArtifactService``: artifacts in PostgreSQL, shared by every server and worker.

Needs the ``postgres`` extra. The pool, the schema option, error translation (a driver error is
``StoreUnavailableError``) and migrations under an advisory lock are the session store's
(:mod:`agentlog._stores.postgres`); the tables have names of their own, so the service can
share a schema with the session store. Versions come from ``artifact_heads`` (see the
migration), so concurrent saves from any number of processes get distinct versions.
"""

from __future__ import annotations

import time
from typing import Final, LiteralString

try:
    from agentlog._stores.postgres import PostgresPool, PostgresStore
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "agentlog.artifacts.postgres needs the postgres extra: pip install 'agentlog[postgres]'"
    ) from exc

from agentlog.artifacts.base import (
    DEFAULT_MIME_TYPE,
    Artifact,
    checked_data,
    checked_max_bytes,
    is_user_scoped,
    validate_filename,
    validate_scope,
)
from agentlog.artifacts.migrations import MIGRATIONS_TABLE, load_migrations
from agentlog.errors import ArtifactNotFoundError

__all__ = ["PostgresArtifactService"]

_USER_SCOPE: Final = ""
"""The session id user-scoped names are kept under: no session has an empty id."""

_MAX_VERSION: Final = 2**31 - 1
"""The column's largest value: a version past it names nothing (rather than failing the query)."""

_NAME: LiteralString = "app_name = %s AND user_id = %s AND session_id = %s AND filename = %s"

_Key = tuple[str, str, str, str]


def _key(app_name: str, user_id: str, session_id: str, filename: str) -> _Key:
    validate_scope(app_name, user_id, session_id)
    validate_filename(filename)
    return (app_name, user_id, _USER_SCOPE if is_user_scoped(filename) else session_id, filename)


class PostgresArtifactService(PostgresStore):
    """An ``ArtifactService`` in PostgreSQL (psycopg 3, a small connection pool).

    The pool opens on first use, or by ``await service.open()`` or ``async with service``; the
    first open creates ``schema`` if asked and runs pending migrations.

    Args:
        dsn: a libpq connection string or URI.
        max_bytes: refuse versions larger than this (no limit when None).
        schema: keep the tables in this schema (created if missing) instead of the
            connection's default ``search_path``; letters, digits and ``_`` only.
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
        timeout: seconds to wait for a connection before ``StoreUnavailableError``.
    """

    def __init__(
        self,
        dsn: str,
        *,
        max_bytes: int | None = None,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 4,
        timeout: float = 10.0,
    ) -> None:
        self.max_bytes = checked_max_bytes(max_bytes)
        self._pg = PostgresPool(
            dsn,
            owner="PostgresArtifactService",
            schema=schema,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            pool_name="agentlog-artifacts",
            migrations_table=MIGRATIONS_TABLE,
            migrations=load_migrations,
        )

    async def save_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        data: bytes,
        mime_type: str = DEFAULT_MIME_TYPE,
    ) -> int:
        """See ``ArtifactService.save_artifact``."""
        key = _key(app_name, user_id, session_id, filename)
        data = checked_data(data, mime_type, self.max_bytes)
        async with self._pg.connection() as conn, conn.transaction():
            cursor = await conn.execute(
                "INSERT INTO artifact_heads AS h"
                " (app_name, user_id, session_id, filename, next_version)"
                " VALUES (%s, %s, %s, %s, 1)"
                " ON CONFLICT (app_name, user_id, session_id, filename)"
                " DO UPDATE SET next_version = h.next_version + 1 RETURNING h.next_version - 1",
                key,
            )
            row = await cursor.fetchone()
            assert row is not None  # an upsert with RETURNING always returns its row
            version: int = row[0]
            await conn.execute(
                "INSERT INTO artifacts (app_name, user_id, session_id, filename, version,"
                " mime_type, data, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (*key, version, mime_type, data, time.time()),
            )
        return version

    async def load_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        version: int | None = None,
    ) -> Artifact:
        """See ``ArtifactService.load_artifact``."""
        key = _key(app_name, user_id, session_id, filename)
        if version is not None and not 0 <= version <= _MAX_VERSION:
            raise ArtifactNotFoundError(filename, version)
        async with self._pg.connection() as conn:
            if version is None:
                cursor = await conn.execute(
                    "SELECT version, mime_type, data, created_at FROM artifacts WHERE " + _NAME
                    + " ORDER BY version DESC LIMIT 1",
                    key,
                )  # fmt: skip
            else:
                cursor = await conn.execute(
                    "SELECT version, mime_type, data, created_at FROM artifacts WHERE " + _NAME
                    + " AND version = %s",
                    (*key, version),
                )  # fmt: skip
            row = await cursor.fetchone()
        if row is None:
            raise ArtifactNotFoundError(filename, version)
        return Artifact(
            name=filename, version=row[0], mime_type=row[1], data=bytes(row[2]), created_at=row[3]
        )

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> list[str]:
        """See ``ArtifactService.list_artifact_keys``."""
        validate_scope(app_name, user_id, session_id)
        async with self._pg.connection() as conn:
            cursor = await conn.execute(
                "SELECT DISTINCT filename FROM artifacts"
                " WHERE app_name = %s AND user_id = %s AND session_id IN (%s, %s)",
                (app_name, user_id, session_id, _USER_SCOPE),
            )
            rows = await cursor.fetchall()
        # Sorted here, by code point, whatever the database's collation.
        return sorted(name for (name,) in rows)

    async def list_versions(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> list[int]:
        """See ``ArtifactService.list_versions``."""
        key = _key(app_name, user_id, session_id, filename)
        async with self._pg.connection() as conn:
            cursor = await conn.execute(
                "SELECT version FROM artifacts WHERE " + _NAME + " ORDER BY version", key
            )
            return [version for (version,) in await cursor.fetchall()]

    async def delete_artifact(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> None:
        """See ``ArtifactService.delete_artifact``."""
        key = _key(app_name, user_id, session_id, filename)
        async with self._pg.connection() as conn, conn.transaction():
            await conn.execute("DELETE FROM artifact_heads WHERE " + _NAME, key)
            cursor = await conn.execute("DELETE FROM artifacts WHERE " + _NAME, key)
            deleted = cursor.rowcount
        if not deleted:
            raise ArtifactNotFoundError(filename)

    async def delete_session_artifacts(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> None:
        """See ``ArtifactService.delete_session_artifacts``."""
        validate_scope(app_name, user_id, session_id)
        scope = (app_name, user_id, session_id)
        where: LiteralString = "app_name = %s AND user_id = %s AND session_id = %s"
        async with self._pg.connection() as conn, conn.transaction():
            await conn.execute("DELETE FROM artifact_heads WHERE " + where, scope)
            await conn.execute("DELETE FROM artifacts WHERE " + where, scope)
