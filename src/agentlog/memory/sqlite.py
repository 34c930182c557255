"""``SqliteMemoryService``: memory in one SQLite file (WAL), searched with FTS5 and bm25.

Like the session store, one connection lives on one worker thread, so the event loop never
blocks on disk. The file may be the session store's own: the memory tables and their
migrations table have names of their own. Without FTS5 in the SQLite build, search scans the
user's entries for the query's words and ranks them the way the in-memory store does.
"""

from __future__ import annotations

import asyncio
import builtins
import functools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, TypeVar

from agentlog.errors import InvalidMemoryEntryError, StoreError, StoreUnavailableError
from agentlog.memory._terms import index_terms, overlap_scores, query_terms
from agentlog.memory.base import MemoryEntry, MemoryHit, check_limit, checked_entries
from agentlog.memory.migrations import MIGRATIONS_TABLE, load_migrations, split_statements

__all__ = ["SqliteMemoryService"]

T = TypeVar("T")

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
        self._timeout = timeout
        self._synchronous = "NORMAL" if risk_losing_recent_commits_on_power_loss else "FULL"
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agentlog-memory")
        self._conn: sqlite3.Connection | None = None
        self._full_text = False
        self._closed = False
        try:
            self._executor.submit(self._open).result()
        except BaseException:
            self._executor.shutdown(wait=False)
            raise

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    @property
    def full_text(self) -> bool:
        """Whether search uses the FTS5 index (else it scans the user's entries)."""
        return self._full_text

    # --- plumbing ---------------------------------------------------------------------------

    def _open(self) -> None:
        try:
            if self._path != ":memory:":
                Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self._path, timeout=self._timeout, isolation_level=None, check_same_thread=True
            )
            self._conn = conn
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self._synchronous}")
            self._migrate(conn)
            found = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_fts'")
            self._full_text = found.fetchone() is not None
        except (sqlite3.Error, OSError) as exc:
            self._close_connection()
            raise StoreUnavailableError(f"cannot open SQLite store {self._path!r}: {exc}") from exc

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        # The write lock first, so two processes opening a new file never both migrate.
        conn.execute("BEGIN IMMEDIATE")
        try:
            applied = {row[0] for row in conn.execute(f"SELECT version FROM {MIGRATIONS_TABLE}")}
            for migration in load_migrations("sqlite"):
                if migration.version in applied:
                    continue
                if migration.name == "fts5" and not _fts5_available(conn):
                    continue  # left unrecorded, so a build with FTS5 applies it later
                for statement in split_statements(migration.sql):
                    conn.execute(statement)
                conn.execute(
                    f"INSERT INTO {MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, time.time()),
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreUnavailableError(f"SqliteMemoryService({self._path!r}) is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(self._guard, fn, *args))

    def _guard(self, fn: Callable[..., T], *args: Any) -> T:
        conn = self._conn
        if conn is None or self._closed:
            raise StoreUnavailableError(f"SqliteMemoryService({self._path!r}) is closed")
        try:
            return fn(conn, *args)
        except StoreError:
            raise
        except sqlite3.DatabaseError as exc:
            raise StoreUnavailableError(f"SQLite store {self._path!r}: {exc}") from exc

    @staticmethod
    def _transaction(conn: sqlite3.Connection, begin: str, body: Callable[[], T]) -> T:
        conn.execute(begin)
        try:
            result = body()
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return result

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
        await self._run(self._add, rows)
        return checked

    def _add(self, conn: sqlite3.Connection, rows: builtins.list[tuple[Any, ...]]) -> None:
        def body() -> None:
            try:
                conn.executemany(_INSERT, rows)
            except sqlite3.IntegrityError as exc:
                raise InvalidMemoryEntryError(
                    "a memory entry with one of these ids is already stored"
                ) from exc

        self._transaction(conn, "BEGIN IMMEDIATE", body)

    async def search(
        self, *, app_name: str, user_id: str, query: str, limit: int = 10
    ) -> builtins.list[MemoryHit]:
        """See ``MemoryService.search``."""
        check_limit(limit)
        terms = query_terms(query)
        search = self._search_index if self._full_text else self._search_scan
        return await self._run(search, app_name, user_id, terms, limit)

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

        rows, total = self._transaction(conn, "BEGIN", body)
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
        rows = await self._run(_fetch, sql + " ORDER BY created_at, pk", params)
        return [_entry(row) for row in rows]

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> int:
        """See ``MemoryService.delete_session``."""
        return await self._run(
            self._delete, f"{_USER} AND session_id = ?", (app_name, user_id, session_id)
        )

    async def delete_user(self, *, app_name: str, user_id: str) -> int:
        """See ``MemoryService.delete_user``."""
        return await self._run(self._delete, _USER, (app_name, user_id))

    def _delete(self, conn: sqlite3.Connection, where: str, params: tuple[str, ...]) -> int:
        def body() -> int:
            return conn.execute(f"DELETE FROM memory_entries WHERE {where}", params).rowcount

        return self._transaction(conn, "BEGIN IMMEDIATE", body)

    async def close(self) -> None:
        """See ``MemoryService.close``."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._close_connection)
        self._executor.shutdown(wait=True)

    def _close_connection(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


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
