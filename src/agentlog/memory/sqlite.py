"""``SqliteMemoryService``: memory in one SQLite file (WAL), searched with FTS5 and bm25.

Like the session store, one connection lives on one worker thread, so the event loop never
blocks on disk. The file may be the session store's own: the memory tables and their
migrations table have names of their own. Without FTS5 in the SQLite build, search scans the
user's entries for the query's words and ranks them the way the in-memory store does.
"""

from __future__ import annotations

import builtins
import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any, Final

from agentlog._stores.sqlite import SqliteWorker, migrate, transaction
from agentlog.errors import InvalidMemoryEntryError
from agentlog.memory._terms import index_terms, overlap_scores, query_terms
from agentlog.memory.base import MemoryEntry, MemoryHit, check_limit, checked_entries
from agentlog.memory.migrations import MIGRATIONS_TABLE, Migration, load_migrations

__all__ = ["SqliteMemoryService"]

_COLUMNS: Final = (
    "entry_id, app_name, user_id, session_id, event_ids, kind, provenance, text, created_at"
)
_INSERT: Final = (
    f"INSERT INTO memory_entries ({_COLUMNS}, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_USER: Final = "app_name = ? AND user_id = ?"


class SqliteMemoryService:
    """Memory entries in one SQLite file (WAL; every commit durable unless told otherwise).

    Args:
        path: the database file (created if missing; may be a session store's file), or
            ``":memory:"``.
        timeout: seconds to wait for another writer's lock before ``StoreUnavailableError``.
        risk_losing_recent_commits_on_power_loss: use ``synchronous=NORMAL``, as for
            ``SqliteSessionService``. Off by default: every commit is fsynced.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 10.0,
        risk_losing_recent_commits_on_power_loss: bool = False,
    ) -> None:
        self._path = str(path)
        self._full_text = False
        self._db = SqliteWorker(
            self._path,
            owner="SqliteMemoryService",
            timeout=timeout,
            thread_name="agentlog-memory",
            setup=self._setup,
            synchronous="NORMAL" if risk_losing_recent_commits_on_power_loss else "FULL",
        )

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    @property
    def full_text(self) -> bool:
        """Whether search uses the FTS5 index (else it scans the user's entries)."""
        return self._full_text

    def _setup(self, conn: sqlite3.Connection) -> None:
        migrate(conn, MIGRATIONS_TABLE, load_migrations("sqlite"), skip=_without_fts5)
        found = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_fts'")
        self._full_text = found.fetchone() is not None
        if self._full_text:
            # A migration that builds memory_entries again drops the triggers with the old
            # table; the index's rows are keyed on pk, which the copy keeps.
            for trigger in _FTS_TRIGGERS:
                conn.execute(trigger)

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
                json.dumps(e.event_ids, ensure_ascii=False),
                e.kind,
                e.provenance,
                e.text,
                e.created_at,
                index_terms(e.text),
            )
            for e in checked
        ]
        await self._db.run(self._add, rows)
        return checked

    def _add(self, conn: sqlite3.Connection, rows: builtins.list[tuple[Any, ...]]) -> None:
        def body() -> None:
            try:
                conn.executemany(_INSERT, rows)
            except sqlite3.IntegrityError as exc:
                raise InvalidMemoryEntryError(
                    "a memory entry with one of these ids is already stored"
                ) from exc

        transaction(conn, "BEGIN IMMEDIATE", body)

    async def search(
        self, *, app_name: str, user_id: str, query: str, limit: int = 10
    ) -> builtins.list[MemoryHit]:
        """See ``MemoryService.search``."""
        check_limit(limit)
        terms = query_terms(query)
        search = self._search_index if self._full_text else self._search_scan
        return await self._db.run(search, app_name, user_id, terms, limit)

    def _search_index(
        self,
        conn: sqlite3.Connection,
        app_name: str,
        user_id: str,
        terms: builtins.list[str],
        limit: int,
    ) -> builtins.list[MemoryHit]:
        if not terms:
            return []
        # Terms are letters and digits only, so quoting them makes each a plain FTS5 string.
        match = " OR ".join(f'"{term}"' for term in terms)
        rows = conn.execute(
            f"SELECT {_qualified('e')}, bm25(memory_fts) AS rank FROM memory_fts"
            " JOIN memory_entries AS e ON e.pk = memory_fts.rowid"
            " WHERE memory_fts MATCH ? AND e.app_name = ? AND e.user_id = ?"
            " ORDER BY rank, e.created_at DESC, e.pk DESC LIMIT ?",
            (match, app_name, user_id, limit),
        ).fetchall()
        return [MemoryHit.model_construct(entry=_entry(row), score=-row[-1]) for row in rows]

    def _search_scan(
        self,
        conn: sqlite3.Connection,
        app_name: str,
        user_id: str,
        terms: builtins.list[str],
        limit: int,
    ) -> builtins.list[MemoryHit]:
        if not terms:
            return []
        any_term = " OR ".join("instr(terms, ?) > 0" for _ in terms)

        def body() -> tuple[builtins.list[Any], int]:
            rows = conn.execute(
                f"SELECT {_COLUMNS}, pk, terms FROM memory_entries WHERE {_USER} AND ({any_term})",
                (app_name, user_id, *(f" {term} " for term in terms)),
            ).fetchall()
            (total,) = conn.execute(
                f"SELECT count(*) FROM memory_entries WHERE {_USER}", (app_name, user_id)
            ).fetchone()
            return rows, total

        rows, total = transaction(conn, "BEGIN", body)
        scores = overlap_scores(terms, [set(row[-1].split()) for row in rows], total)
        ranked = sorted(
            zip(scores, rows, strict=True), key=lambda pair: (-pair[0], -pair[1][8], -pair[1][9])
        )
        return [
            MemoryHit.model_construct(entry=_entry(row), score=score)
            for score, row in ranked[:limit]
        ]

    async def list(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> builtins.list[MemoryEntry]:
        """See ``MemoryService.list``."""
        sql = f"SELECT {_COLUMNS} FROM memory_entries WHERE {_USER}"
        params: builtins.list[Any] = [app_name, user_id]
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        rows = await self._db.run(_fetch, sql + " ORDER BY created_at, pk", params)
        return [_entry(row) for row in rows]

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> int:
        """See ``MemoryService.delete_session``."""
        return await self._db.run(
            self._delete, f"{_USER} AND session_id = ?", (app_name, user_id, session_id)
        )

    async def delete_user(self, *, app_name: str, user_id: str) -> int:
        """See ``MemoryService.delete_user``."""
        return await self._db.run(self._delete, _USER, (app_name, user_id))

    def _delete(self, conn: sqlite3.Connection, where: str, params: tuple[str, ...]) -> int:
        def body() -> int:
            return conn.execute(f"DELETE FROM memory_entries WHERE {where}", params).rowcount

        return transaction(conn, "BEGIN IMMEDIATE", body)

    async def close(self) -> None:
        """See ``MemoryService.close``."""
        await self._db.close()


_FTS_TRIGGERS: Final = (
    "CREATE TRIGGER IF NOT EXISTS memory_fts_insert AFTER INSERT ON memory_entries BEGIN "
    "INSERT INTO memory_fts (rowid, terms) VALUES (new.pk, new.terms); END",
    "CREATE TRIGGER IF NOT EXISTS memory_fts_delete AFTER DELETE ON memory_entries BEGIN "
    "INSERT INTO memory_fts (memory_fts, rowid, terms) VALUES ('delete', old.pk, old.terms); END",
)
"""The triggers that keep memory_fts in step (as migration 0002 makes them)."""


def _without_fts5(conn: sqlite3.Connection, migration: Migration) -> bool:
    # Left unrecorded, so a build with FTS5 applies it later.
    return migration.name == "fts5" and not _fts5_available(conn)


def _fts5_available(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.agentlog_fts5_probe USING fts5 (x)")
    except sqlite3.OperationalError:
        return False
    conn.execute("DROP TABLE temp.agentlog_fts5_probe")
    return True


def _qualified(alias: str) -> str:
    return ", ".join(f"{alias}.{column.strip()}" for column in _COLUMNS.split(","))


def _fetch(conn: sqlite3.Connection, sql: str, params: builtins.list[Any]) -> builtins.list[Any]:
    return conn.execute(sql, params).fetchall()


def _entry(row: tuple[Any, ...]) -> MemoryEntry:
    entry_id, app_name, user_id, session_id, event_ids, kind, provenance, text, created_at = row[:9]
    return MemoryEntry.model_construct(
        id=entry_id,
        app_name=app_name,
        user_id=user_id,
        session_id=session_id,
        event_ids=tuple(json.loads(event_ids)),
        kind=kind,
        provenance=provenance,
        text=text,
        created_at=created_at,
    )
