"""What the SQLite stores share: one connection on one worker thread, its PRAGMAs, migrations
recorded in a table of the store's own, and driver errors turned into ``StoreUnavailableError``.

The connection lives on one worker thread, so the event loop never blocks on disk and the driver
is only ever touched from the thread that opened it. Connections run in autocommit
(``isolation_level=None``); a store begins and ends its own transactions (``transaction``).
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from agentlog._stores.migrations import Migration, split_statements
from agentlog.errors import StoreError, StoreUnavailableError

__all__ = ["SqliteWorker", "execute_when_free", "is_busy", "migrate", "transaction"]

T = TypeVar("T")


class SqliteWorker:
    """A store's SQLite file, opened on a one-thread executor that then runs all its calls.

    The constructor opens it before returning: makes the file's folder, connects, sets the
    PRAGMAs (``journal_mode=WAL``, then the optional ones) and hands the connection to
    ``setup`` (migrations and the like), all on the worker thread. Any failure there closes the
    connection and the thread and raises ``StoreUnavailableError`` ("cannot open <kind> ...").

    Args:
        path: the database file (its folder is created if missing), or ``":memory:"``.
        owner: the store's class name, for "<owner>('<path>') is closed".
        timeout: seconds the connection waits for another writer's lock.
        thread_name: the worker thread's name prefix.
        setup: called once on the worker thread with the new connection.
        synchronous: the ``PRAGMA synchronous`` level, or ``None`` for SQLite's default.
        foreign_keys: turn on ``PRAGMA foreign_keys``.
        kind: how error messages name the store.
        catch: the driver errors a call may raise that become ``StoreUnavailableError``; the
            others propagate as they are. A ``StoreError`` always propagates.
        say_failed: word errors other than ``OperationalError`` (busy, locked, I/O) as
            "<kind> '<path>' failed: ..." rather than "<kind> '<path>': ...".
    """

    def __init__(
        self,
        path: str,
        *,
        owner: str,
        timeout: float,
        thread_name: str,
        setup: Callable[[sqlite3.Connection], None],
        synchronous: str | None = None,
        foreign_keys: bool = False,
        kind: str = "SQLite store",
        catch: type[sqlite3.Error] = sqlite3.DatabaseError,
        say_failed: bool = False,
    ) -> None:
        self._path = path
        self._owner = owner
        self._timeout = timeout
        self._kind = kind
        self._catch = catch
        self._say_failed = say_failed
        self._pragmas = ["PRAGMA journal_mode=WAL"]
        if synchronous is not None:
            self._pragmas.append(f"PRAGMA synchronous={synchronous}")
        if foreign_keys:
            self._pragmas.append("PRAGMA foreign_keys=ON")
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=thread_name)
        self._conn: sqlite3.Connection | None = None
        self._closed = False
        try:
            self._executor.submit(self._open, setup).result()
        except BaseException:
            self._executor.shutdown(wait=False)
            raise

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    def connect(self, *, timeout: float, same_thread: bool) -> sqlite3.Connection:
        """A new connection to the file, in autocommit and with the PRAGMAs set."""
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(
                self._path, timeout=timeout, isolation_level=None, check_same_thread=same_thread
            )
            for pragma in self._pragmas:
                execute_when_free(conn, pragma, timeout)
            return conn
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise self._cannot_open(exc) from exc

    def _open(self, setup: Callable[[sqlite3.Connection], None]) -> None:
        try:
            if self._path != ":memory:":
                Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = self.connect(timeout=self._timeout, same_thread=True)
            setup(self._conn)
        except BaseException as exc:
            self._close_connection()
            if isinstance(exc, sqlite3.Error | OSError):
                raise self._cannot_open(exc) from exc
            raise

    def _cannot_open(self, exc: BaseException) -> StoreUnavailableError:
        return StoreUnavailableError(f"cannot open {self._kind} {self._path!r}: {exc}")

    def closed_error(self) -> StoreUnavailableError:
        """The error every call raises once the store is closed."""
        return StoreUnavailableError(f"{self._owner}({self._path!r}) is closed")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` on the worker thread, its driver errors translated."""
        return await self.start(fn, *args)

    def start(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """:meth:`run`, handed to the worker thread at once: its outcome, to await."""
        if self._closed:
            raise self.closed_error()
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._executor, functools.partial(self._guard, fn, *args))

    def _guard(self, fn: Callable[..., T], *args: Any) -> T:
        return self.guarded(self._conn, fn, *args)

    def guarded(self, conn: sqlite3.Connection | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` on this thread, its driver errors translated."""
        if conn is None or self._closed:
            raise self.closed_error()
        try:
            return fn(conn, *args)
        except StoreError:
            raise
        except self._catch as exc:
            raise self._error(exc) from exc

    def translated(self, exc: BaseException) -> BaseException:
        """What a call raises for ``exc``: a driver error this worker catches becomes
        ``StoreUnavailableError`` (caused by it); anything else stays as it is."""
        if isinstance(exc, self._catch) and not isinstance(exc, StoreError):
            error = self._error(exc)
            error.__cause__ = exc
            return error
        return exc

    def _error(self, exc: sqlite3.Error) -> StoreUnavailableError:
        if self._say_failed and not isinstance(exc, sqlite3.OperationalError):
            return StoreUnavailableError(f"{self._kind} {self._path!r} failed: {exc}")
        return StoreUnavailableError(f"{self._kind} {self._path!r}: {exc}")

    async def close(self, also: Callable[[], None] | None = None) -> None:
        """Close the connection, then call ``also``, on the worker thread; then end the thread.

        Later calls raise ``StoreUnavailableError``; closing again does nothing.
        """
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._close_connection, also)
        self._executor.shutdown(wait=True)

    def abandon(self) -> None:
        """Close without waiting, for a store whose constructor fails after this opened."""
        self._closed = True
        self._executor.submit(self._close_connection)
        self._executor.shutdown(wait=False)

    def _close_connection(self, also: Callable[[], None] | None = None) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if also is not None:
            also()


def is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether ``exc`` says another connection holds the lock (nothing was done)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF  # the primary code of an extended one
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def transaction(conn: sqlite3.Connection, begin: str, body: Callable[[], T]) -> T:
    """``body()`` between ``begin`` and ``COMMIT``; rolled back if it raises."""
    conn.execute(begin)
    try:
        result = body()
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def execute_when_free(conn: sqlite3.Connection, statement: str, timeout: float) -> None:
    """Run ``statement``, trying again while the file is busy, for up to ``timeout`` seconds.

    SQLite's busy timeout does not cover every wait: when several processes open a new file at
    once, each switching it to WAL, SQLite refuses one of them at once ("database is locked")
    rather than let them wait on each other, so that one tries again after a short pause.
    """
    deadline = time.monotonic() + timeout
    pause = 0.002
    while True:
        try:
            conn.execute(statement)
            return
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def migrate(
    conn: sqlite3.Connection,
    table: str,
    migrations: Iterable[Migration],
    *,
    skip: Callable[[sqlite3.Connection, Migration], bool] | None = None,
) -> None:
    """Apply the ``migrations`` not yet recorded in ``table`` (created if missing), in one
    transaction under the write lock, recording each; leave out, unrecorded, those ``skip``
    says to."""
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {table} ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    # The write lock first, so two processes opening a new file never both migrate.
    conn.execute("BEGIN IMMEDIATE")
    try:
        applied = {row[0] for row in conn.execute(f"SELECT version FROM {table}")}
        for migration in migrations:
            if migration.version in applied:
                continue
            if skip is not None and skip(conn, migration):
                continue
            for statement in split_statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                f"INSERT INTO {table} (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time()),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
