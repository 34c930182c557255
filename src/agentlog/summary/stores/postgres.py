"""``PostgresSummaryStore``: summaries in PostgreSQL, shared by every server and worker.

Needs the ``postgres`` extra. The pool, the schema option, error translation and migrations
under an advisory lock are the session store's (:mod:`agentlog._stores.postgres`); the table
and its migrations table have names of their own, so the store can share a schema with the
session store.
"""

from __future__ import annotations

import builtins
from typing import Any, LiteralString

try:
    from psycopg.abc import Params

    from agentlog._stores.postgres import PostgresPool, PostgresStore
    from agentlog._stores.postgres import Row as _Row
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "agentlog.summary.stores.postgres needs the postgres extra: "
        "pip install 'agentlog[postgres]'"
    ) from exc

from agentlog.summary.stores.base import StoredSummary
from agentlog.summary.stores.migrations import MIGRATIONS_TABLE, load_migrations

__all__ = ["PostgresSummaryStore"]

_SESSION: LiteralString = "app_name = %s AND user_id = %s AND session_id = %s"
_INSERT: LiteralString = (
    "INSERT INTO agentlog_summaries"
    " (app_name, user_id, session_id, session_version, status, created_at, payload)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (app_name, user_id, session_id, session_version) DO UPDATE"
    " SET status = excluded.status, created_at = excluded.created_at, payload = excluded.payload"
)


class PostgresSummaryStore(PostgresStore):
    """A ``SummaryStore`` in PostgreSQL (psycopg 3, a small connection pool).

    The pool opens on first use, or by ``await store.open()`` or ``async with store``; the
    first open creates ``schema`` if asked and runs pending migrations.

    Args:
        dsn: a libpq connection string or URI.
        schema: keep the table in this schema (created if missing) instead of the
            connection's default ``search_path``; letters, digits and ``_`` only.
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
        max_size: int = 4,
        timeout: float = 10.0,
    ) -> None:
        self._pg = PostgresPool(
            dsn,
            owner="PostgresSummaryStore",
            schema=schema,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            pool_name="agentlog-summaries",
            migrations_table=MIGRATIONS_TABLE,
            migrations=load_migrations,
        )

    async def _fetch(self, query: LiteralString, params: Params) -> builtins.list[_Row]:
        async with self._pg.connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def _execute(self, query: LiteralString, params: Params) -> int:
        async with self._pg.connection() as conn:
            cursor = await conn.execute(query, params)
            return cursor.rowcount

    async def put(self, summary: StoredSummary) -> None:
        """See ``SummaryStore.put``."""
        await self._execute(_INSERT, _row(summary))

    async def put_once(self, summary: StoredSummary) -> bool:
        """See ``SummaryStore.put_once``."""
        changed = await self._execute(
            _INSERT + " WHERE agentlog_summaries.status <> 'ok'", _row(summary)
        )
        return changed > 0

    async def latest_versions(
        self, *, app_name: str, user_id: str | None = None
    ) -> dict[tuple[str, str], int]:
        """See ``SummaryStore.latest_versions``."""
        where: LiteralString = "app_name = %s"
        params: builtins.list[Any] = [app_name]
        if user_id is not None:
            where += " AND user_id = %s"
            params.append(user_id)
        rows = await self._fetch(
            "SELECT user_id, session_id, MAX(session_version) FROM agentlog_summaries"
            " WHERE " + where + " GROUP BY user_id, session_id",
            params,
        )
        return {(user, session): version for user, session, version in rows}

    async def get(
        self, *, app_name: str, user_id: str, session_id: str, ok_only: bool = False
    ) -> StoredSummary | None:
        """See ``SummaryStore.get``."""
        where: LiteralString = _SESSION + (" AND status = 'ok'" if ok_only else "")
        rows = await self._fetch(
            "SELECT payload FROM agentlog_summaries WHERE " + where
            + " ORDER BY session_version DESC, created_at DESC LIMIT 1",
            (app_name, user_id, session_id),
        )  # fmt: skip
        return StoredSummary.model_validate_json(rows[0][0]) if rows else None

    async def list(
        self, *, app_name: str, user_id: str | None = None
    ) -> builtins.list[StoredSummary]:
        """See ``SummaryStore.list``."""
        where: LiteralString = "app_name = %s"
        params: builtins.list[Any] = [app_name]
        if user_id is not None:
            where += " AND user_id = %s"
            params.append(user_id)
        rows = await self._fetch(
            "SELECT payload FROM (SELECT DISTINCT ON (user_id, session_id) payload, created_at"
            " FROM agentlog_summaries WHERE " + where
            + " ORDER BY user_id, session_id, session_version DESC) newest ORDER BY created_at",
            params,
        )  # fmt: skip
        return [StoredSummary.model_validate_json(payload) for (payload,) in rows]

    async def delete(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SummaryStore.delete``."""
        await self._execute(
            "DELETE FROM agentlog_summaries WHERE " + _SESSION, (app_name, user_id, session_id)
        )


def _row(summary: StoredSummary) -> tuple[str, str, str, int, str, float, str]:
    return (
        summary.app_name,
        summary.user_id,
        summary.session_id,
        summary.session_version,
        summary.status,
        summary.created_at,
        summary.model_dump_json(),
    )
