"""Group commit on a SQLite file: the writes of many callers in one transaction, one fsync.

A write is a function of the connection that writes one thing whole (an append, a lease, a new
session) or raises. Writers that arrive together are committed together:

1. The writes are gathered into batches as they arrive (:mod:`agentlog._stores.batching`):
   those ready in one loop iteration form a batch, and those arriving while it is written
   form the next, written as soon as the one before it is durable.
2. In a batch of several, each write runs in a ``SAVEPOINT`` of its own. A write that raises
   (a stale or refused append, a duplicate id) is rolled back to its savepoint: it fails alone
   and writes nothing, and the others commit.
3. Every caller is answered only once ``COMMIT`` has returned, so at ``synchronous=FULL`` only
   once the batch is on disk. A crash before that loses the batch and nothing else; SQLite's
   journal leaves each write whole or absent, as it does for one transaction of its own.

A batch of one runs on the calling thread when an inline connection is given and no other
connection holds the write lock (handing one write to a thread costs more than its SQL); any
larger batch, and one that finds the file locked, runs on the writer's thread, where the wait
for the lock and the batch's fsync do not hold up the event loop. Batches are written one at a
time, so the inline connection and the writer's never write at once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from agentlog._stores.batching import NOT_ALONE, Batcher, Failed
from agentlog._stores.sqlite import SqliteWorker, is_busy
from agentlog.errors import StoreUnavailableError

__all__ = ["GroupCommit"]

T = TypeVar("T")

Write = Callable[[sqlite3.Connection], Any]


class GroupCommit:
    """The writes to one SQLite file, committed in batches (see the module docstring).

    Args:
        worker: the writer: its thread and connection write every batch that does not run
            inline; its ``timeout`` is how long a batch waits for another process's lock.
        inline: a connection to the same file (opened with ``timeout=0``, usable from the
            event loop's thread) for batches of one, or ``None`` to write every batch on the
            worker's thread.
    """

    def __init__(self, worker: SqliteWorker, inline: sqlite3.Connection | None = None) -> None:
        self._worker = worker
        self._inline = inline
        self._batcher: Batcher[Write] = Batcher(
            self._commit,
            closed_error=worker.closed_error,
            alone=self._write_inline if inline is not None else None,
            copy_error=_copy,
        )
        self.batches = 0
        """Transactions committed or rolled back so far (one per batch)."""
        self.writes = 0
        """Writes committed so far."""

    async def write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``write(connection)`` in the next batch; return what it returned once the batch
        is committed, or raise what it raised (having written nothing)."""
        result: T = await self._batcher.submit(write)
        return result

    async def close(self) -> None:
        """Refuse new writes and wait for those already submitted."""
        await self._batcher.close()

    def _write_inline(self, write: Write) -> Any:
        """Write a batch of one on this thread; ``NOT_ALONE`` (nothing done) if the file is
        locked by another connection, for the worker's thread to wait for it."""
        conn = self._inline
        assert conn is not None
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                return NOT_ALONE
            return Failed(self._worker.translated(exc))
        except sqlite3.Error as exc:
            return Failed(self._worker.translated(exc))
        try:
            return self._in_transaction(conn, [write])[0]
        except BaseException as exc:
            return Failed(self._worker.translated(exc))

    async def _commit(self, writes: list[Write]) -> list[Any]:
        return await self._worker.run(self._begin_and_commit, writes)

    def _begin_and_commit(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """The batch's transaction, on the worker's thread (it waits there for the lock)."""
        conn.execute("BEGIN IMMEDIATE")
        return self._in_transaction(conn, writes)

    def _in_transaction(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """Run ``writes`` in the open transaction and commit; each outcome is the write's
        result or a ``Failed``. Raises (having rolled back) when the batch cannot commit."""
        outcomes: list[Any] = []
        try:
            if len(writes) == 1:
                # Alone, a write needs no savepoint: it is the whole transaction.
                try:
                    outcomes.append(writes[0](conn))
                except Exception as exc:
                    conn.execute("ROLLBACK")
                    self.batches += 1
                    return [Failed(self._worker.translated(exc))]
            else:
                for write in writes:
                    conn.execute("SAVEPOINT agentlog_write")
                    try:
                        outcomes.append(write(conn))
                    except Exception as exc:
                        # Raises when SQLite already rolled the whole transaction back (an I/O
                        # error, a full disk): then the batch fails as one.
                        conn.execute("ROLLBACK TO agentlog_write")
                        outcomes.append(Failed(self._worker.translated(exc)))
                    conn.execute("RELEASE agentlog_write")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.batches += 1
            raise
        self.batches += 1
        self.writes += sum(1 for outcome in outcomes if not isinstance(outcome, Failed))
        return outcomes


def _copy(exc: BaseException) -> BaseException:
    """One error of a whole batch for each of its writers, so their tracebacks stay apart."""
    if isinstance(exc, StoreUnavailableError):
        copy = StoreUnavailableError(str(exc))
        copy.__cause__ = exc.__cause__
        return copy
    return exc
