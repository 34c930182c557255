"""Where background summaries go: ``SummaryStore``, in memory or in SQLite (PostgreSQL:
:mod:`agentlog.summary.postgres`).

A separate small store rather than events in the session: a background reader never writes
into the log it reads, and a summary can be recomputed, replaced or deleted without touching
the session. Each row is one summary of one session at one length (``session_version``, the
number of events it covered): a delivered record, or a failure with its problems, or an error.
``put_once`` never replaces a delivered record, so two runs of one job store one summary.
"""

from __future__ import annotations

import builtins
import os
import sqlite3
import threading
import time
from typing import Final, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from agentlog._stores.migrations import Migration
from agentlog._stores.sqlite import SqliteWorker, migrate
from agentlog.errors import StoreUnavailableError
from agentlog.summary.result import SummaryResult
from agentlog.summary.schema import SummaryRecord
from agentlog.summary.validate import Problem

__all__ = ["InMemorySummaryStore", "SqliteSummaryStore", "StoredSummary", "SummaryStore"]

SummaryStatus = Literal["ok", "failed", "error"]


class StoredSummary(BaseModel):
    """One summary of one session, as kept by a ``SummaryStore``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    app_name: str = Field(description="The session's app.")
    user_id: str = Field(description="The session's user.")
    session_id: str = Field(description="The session summarised.")
    session_version: int = Field(ge=0, description="Events the summary covered.")
    status: SummaryStatus = Field(
        description="'ok' (a checked record), 'failed' (no attempt passed), 'error' (it crashed)."
    )
    record: SummaryRecord | None = Field(default=None, description="The record when 'ok'.")
    problems: tuple[tuple[Problem, ...], ...] = Field(default=(), description="Per attempt.")
    error: str | None = Field(default=None, description="What went wrong, for 'error'.")
    summarizer: str = Field(default="", description="What wrote it.")
    attempts: int = Field(default=0, ge=0, description="Attempts made.")
    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens.")
    output_tokens: int = Field(default=0, ge=0, description="Output tokens.")
    cost: float = Field(default=0.0, ge=0, description="Cost at the configured prices.")
    created_at: float = Field(default_factory=time.time, description="When it was stored.")

    @classmethod
    def from_result(
        cls, result: SummaryResult, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> StoredSummary:
        """A row for a summariser's result."""
        return cls(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            session_version=version,
            status="ok" if result.record is not None else "failed",
            record=result.record,
            problems=result.problems,
            summarizer=result.summarizer,
            attempts=result.attempts,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            cost=result.cost,
        )


@runtime_checkable
class SummaryStore(Protocol):
    """Summaries by session. ``put`` keeps one row per session and version (a later put for
    the same version replaces it); ``get`` returns the newest."""

    async def put(self, summary: StoredSummary) -> None:
        """Store ``summary``."""
        ...

    async def put_once(self, summary: StoredSummary) -> bool:
        """Store ``summary`` unless a delivered (``'ok'``) summary of the session at the same
        version is there; True when stored. A failure or error at that version is replaced."""
        ...

    async def latest_versions(
        self, *, app_name: str, user_id: str | None = None
    ) -> dict[tuple[str, str], int]:
        """The newest summarised version of each session of the app (of one user, if given),
        by ``(user_id, session_id)``, whatever its status: one cheap read for a scan."""
        ...

    async def get(
        self, *, app_name: str, user_id: str, session_id: str, ok_only: bool = False
    ) -> StoredSummary | None:
        """The newest summary of the session (the newest delivered one with ``ok_only``)."""
        ...

    async def list(self, *, app_name: str, user_id: str | None = None) -> list[StoredSummary]:
        """The newest summary of each session of the app (of one user, if given), oldest
        first."""
        ...

    async def delete(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """Delete every summary of the session (nothing if there is none)."""
        ...

    async def close(self) -> None:
        """Release resources; later calls raise ``StoreUnavailableError``."""
        ...


def _newest(rows: builtins.list[StoredSummary], ok_only: bool) -> StoredSummary | None:
    chosen = [r for r in rows if r.status == "ok"] if ok_only else rows
    return max(chosen, key=lambda r: (r.session_version, r.created_at), default=None)


class InMemorySummaryStore:
    """Summaries in a dict; for tests and single processes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str, str], dict[int, StoredSummary]] = {}
        self._closed = False

    def _check(self) -> None:
        if self._closed:
            raise StoreUnavailableError("InMemorySummaryStore is closed")

    async def put(self, summary: StoredSummary) -> None:
        """See ``SummaryStore.put``."""
        with self._lock:
            self._check()
            key = (summary.app_name, summary.user_id, summary.session_id)
            self._rows.setdefault(key, {})[summary.session_version] = summary

    async def put_once(self, summary: StoredSummary) -> bool:
        """See ``SummaryStore.put_once``."""
        with self._lock:
            self._check()
            rows = self._rows.setdefault(
                (summary.app_name, summary.user_id, summary.session_id), {}
            )
            there = rows.get(summary.session_version)
            if there is not None and there.status == "ok":
                return False
            rows[summary.session_version] = summary
            return True

    async def latest_versions(
        self, *, app_name: str, user_id: str | None = None
    ) -> dict[tuple[str, str], int]:
        """See ``SummaryStore.latest_versions``."""
        with self._lock:
            self._check()
            return {
                (user, session): max(rows)
                for (app, user, session), rows in self._rows.items()
                if app == app_name and (user_id is None or user == user_id) and rows
            }

    async def get(
        self, *, app_name: str, user_id: str, session_id: str, ok_only: bool = False
    ) -> StoredSummary | None:
        """See ``SummaryStore.get``."""
        with self._lock:
            self._check()
            rows = list(self._rows.get((app_name, user_id, session_id), {}).values())
        return _newest(rows, ok_only)

    async def list(
        self, *, app_name: str, user_id: str | None = None
    ) -> builtins.list[StoredSummary]:
        """See ``SummaryStore.list``."""
        with self._lock:
            self._check()
            groups = [
                list(rows.values())
                for (app, user, _), rows in self._rows.items()
                if app == app_name and (user_id is None or user == user_id)
            ]
        newest = [row for rows in groups if (row := _newest(rows, False)) is not None]
        return sorted(newest, key=lambda r: r.created_at)

    async def delete(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SummaryStore.delete``."""
        with self._lock:
            self._check()
            self._rows.pop((app_name, user_id, session_id), None)

    async def close(self) -> None:
        """See ``SummaryStore.close``."""
        with self._lock:
            self._closed = True


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
