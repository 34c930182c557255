"""Summaries in SQLite: :class:`SqliteSummaryStore`, which may share the session store's file."""

from __future__ import annotations

import builtins
import os
import sqlite3
from typing import Final

from agentlog._stores.migrations import Migration
from agentlog._stores.sqlite import SqliteWorker, migrate
from agentlog.summary.stores.base import StoredSummary

__all__ = ["SqliteSummaryStore"]

_MIGRATIONS: Final = (
    Migration(
        1,
        "summaries",
        "CREATE TABLE agentlog_summaries ("
        " app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL,"
        " session_version INTEGER NOT NULL, status TEXT NOT NULL, created_at REAL NOT NULL,"
        " payload TEXT NOT NULL,"
        " PRIMARY KEY (app_name, user_id, session_id, session_version))",
    ),
)
"""Numbered schema changes, recorded in ``agentlog_summary_migrations`` as they run."""


class SqliteSummaryStore:
    """Summaries in one SQLite file (WAL), which may be the session store's own file.

    One connection lives on one worker thread, as in ``SqliteSessionService``.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 10.0) -> None:
        self._db = SqliteWorker(
            str(path),
            owner="SqliteSummaryStore",
            timeout=timeout,
            thread_name="agentlog-summary",
            setup=_migrate,
            kind="summary store",
            catch=sqlite3.Error,
        )

    async def put(self, summary: StoredSummary) -> None:
        """See ``SummaryStore.put``."""
        row = _row(summary)
        await self._db.run(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO agentlog_summaries VALUES (?, ?, ?, ?, ?, ?, ?)", row
            )
        )

    async def put_once(self, summary: StoredSummary) -> bool:
        """See ``SummaryStore.put_once``."""
        row = _row(summary)
        changed = await self._db.run(
            lambda c: (
                c.execute(
                    "INSERT INTO agentlog_summaries VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (app_name, user_id, session_id, session_version) DO UPDATE"
                    " SET status = excluded.status, created_at = excluded.created_at,"
                    " payload = excluded.payload WHERE agentlog_summaries.status <> 'ok'",
                    row,
                ).rowcount
            )
        )
        return bool(changed)

    async def latest_versions(
        self, *, app_name: str, user_id: str | None = None
    ) -> dict[tuple[str, str], int]:
        """See ``SummaryStore.latest_versions``."""
        sql = (
            "SELECT user_id, session_id, MAX(session_version) FROM agentlog_summaries"
            " WHERE app_name = ?"
            + (" AND user_id = ?" if user_id is not None else "")
            + " GROUP BY user_id, session_id"
        )
        args = (app_name,) if user_id is None else (app_name, user_id)
        rows = await self._db.run(lambda c: c.execute(sql, args).fetchall())
        return {(user, session): version for user, session, version in rows}

    async def get(
        self, *, app_name: str, user_id: str, session_id: str, ok_only: bool = False
    ) -> StoredSummary | None:
        """See ``SummaryStore.get``."""
        sql = (
            "SELECT payload FROM agentlog_summaries WHERE app_name = ? AND user_id = ?"
            " AND session_id = ?"
            + (" AND status = 'ok'" if ok_only else "")
            + " ORDER BY session_version DESC, created_at DESC LIMIT 1"
        )
        rows = await self._db.run(
            lambda c: c.execute(sql, (app_name, user_id, session_id)).fetchall()
        )
        return StoredSummary.model_validate_json(rows[0][0]) if rows else None

    async def list(
        self, *, app_name: str, user_id: str | None = None
    ) -> builtins.list[StoredSummary]:
        """See ``SummaryStore.list``."""
        sql = (
            "SELECT payload FROM agentlog_summaries s WHERE app_name = ?"
            + (" AND user_id = ?" if user_id is not None else "")
            + " AND session_version = (SELECT MAX(session_version) FROM agentlog_summaries t"
            " WHERE t.app_name = s.app_name AND t.user_id = s.user_id"
            " AND t.session_id = s.session_id) ORDER BY created_at"
        )
        args = (app_name,) if user_id is None else (app_name, user_id)
        rows = await self._db.run(lambda c: c.execute(sql, args).fetchall())
        return [StoredSummary.model_validate_json(r[0]) for r in rows]

    async def delete(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SummaryStore.delete``."""
        await self._db.run(
            lambda c: c.execute(
                "DELETE FROM agentlog_summaries"
                " WHERE app_name = ? AND user_id = ? AND session_id = ?",
                (app_name, user_id, session_id),
            )
        )

    async def close(self) -> None:
        """See ``SummaryStore.close``."""
        await self._db.close()


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


def _migrate(conn: sqlite3.Connection) -> None:
    migrate(conn, "agentlog_summary_migrations", _MIGRATIONS)
