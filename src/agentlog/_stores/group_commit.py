"""Group commit on a SQLite file: the writes of many callers in one transaction, one fsync.

A write is a function of the connection that writes one thing whole (an append, a lease, a new
session) or raises, and does nothing else: it may be run twice in one transaction (see 2).
Writers that arrive together are committed together:

1. The writes are gathered into batches as they arrive (:mod:`agentlog._stores.batching`):
   those ready in one loop iteration form a batch, and those arriving while it is written
   form the next, written as soon as the one before it is durable. With an inline connection
   (below), many writers gathered while nothing is being written are written as two batches
   (``split_at``), so their writers stay two cohorts taking turns: one prepares its next
   writes (and their statements) while the other's ``COMMIT`` waits for the disk.
2. A batch of several first runs whole under one ``SAVEPOINT``, consecutive writes of one kind
   together when that kind can (a ``many`` staticmethod: one ``executemany`` per statement
   rather than a call per write). If any write raises, the batch goes back to that savepoint
   and runs again, each write in a ``SAVEPOINT`` of its own: the one that raises (a stale or
   refused append, a duplicate id) is rolled back to its savepoint, fails alone and writes
   nothing, and the others commit.
3. Every caller is answered only once ``COMMIT`` has returned, so at ``synchronous=FULL`` only
   once the batch is on disk. A crash before that loses the batch and nothing else; SQLite's
   journal leaves each write whole or absent, as it does for one transaction of its own.

With an inline connection (usable from the event loop's thread), a batch's statements run on
the loop's thread when no other connection holds the write lock: a batch of one whole there
(handing one write to a thread costs more than its SQL); a larger batch, when the loop has
other work ready (the next batch's writers), there up to its ``COMMIT``, which the writer's
thread runs on the same connection, so the fsync waits there while the loop prepares the next
batch (statements handed to a thread would wait for the GIL behind that work, one by one).
Every other batch (the loop idle meanwhile, the file locked, or no inline connection) runs
whole on the writer's thread with its own connection, where the wait for the lock does not
hold up the event loop. Batches are written one at a time, so the two connections never
write at once.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from operator import countOf
from typing import Any, Final, TypeVar

from agentlog._stores.batching import NOT_ALONE, Batcher, Failed, others_ready
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
            # Without an inline connection the halves' statements would run on the writer's
            # thread beside the other half's Python, each waiting for the GIL.
            split_at=_SPLIT_AT if inline is not None else None,
        )
        self.submit: Callable[[Write], Awaitable[Any]] = self._batcher.submit
        """:meth:`write` untyped: the batcher's own method, for a caller that makes many
        writes (appends) and so saves the call of ``write`` around it."""
        self.join: Callable[[Write], asyncio.Future[Any] | None] = self._batcher.join
        """``Batcher.join``: a write queued for the next batch and the future of its outcome,
        or ``None`` (nothing done) for :attr:`submit`."""
        self.batches = 0
        """Transactions committed or rolled back so far (one per batch)."""
        self.writes = 0
        """Writes committed so far."""

    def write(self, write: Callable[[sqlite3.Connection], T]) -> Awaitable[T]:
        """Run ``write(connection)`` in the next batch; return what it returned once the batch
        is committed, or raise what it raised (having written nothing)."""
        # The batcher's own coroutine, not one more around it: every write awaits this.
        submitted: Awaitable[T] = self._batcher.submit(write)
        return submitted

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
        conn = self._inline
        if conn is not None and others_ready(asyncio.get_running_loop()):
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise self._worker.translated(exc) from exc
            else:
                return await self._write_here_commit_there(conn, writes)
        return await self._worker.run(self._begin_and_commit, writes)

    async def _write_here_commit_there(
        self, conn: sqlite3.Connection, writes: list[Write]
    ) -> list[Any]:
        """The batch's statements on this thread, its ``COMMIT`` (the fsync) on the worker's."""
        try:
            outcomes = self._run(conn, writes)
            started = threading.Event()
            commit = self._worker.start(_commit_other, conn, started)
            # Hold the GIL back until the worker has begun (its COMMIT then runs without it):
            # else it waits for the GIL while this thread runs the next writers' Python, and
            # the fsync starts only once the loop has nothing left to do.
            started.wait(_START_WAIT)
            try:
                await asyncio.shield(commit)
            except asyncio.CancelledError:
                # The connection is the worker's until its COMMIT returns.
                await asyncio.wait([commit])
                raise
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.batches += 1
            error = self._worker.translated(exc)
            if error is exc:
                raise
            raise error from exc
        self.batches += 1
        self.writes += len(outcomes) - countOf(map(type, outcomes), Failed)
        return outcomes

    def _begin_and_commit(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """The batch's transaction, on the worker's thread (it waits there for the lock)."""
        conn.execute("BEGIN IMMEDIATE")
        return self._in_transaction(conn, writes)

    def _in_transaction(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """Run ``writes`` in the open transaction and commit; each outcome is the write's
        result or a ``Failed``. Raises (having rolled back) when the batch cannot commit."""
        try:
            if len(writes) == 1:
                # Alone, a write needs no savepoint: it is the whole transaction.
                try:
                    outcomes = [writes[0](conn)]
                except Exception as exc:
                    conn.execute("ROLLBACK")
                    self.batches += 1
                    return [Failed(self._worker.translated(exc))]
            else:
                outcomes = self._run(conn, writes)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.batches += 1
            raise
        self.batches += 1
        if len(writes) == 1:  # it succeeded: a failed lone write returned above
            self.writes += 1
        else:
            self.writes += len(outcomes) - countOf(map(type, outcomes), Failed)
        return outcomes

    def _run(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """Run several ``writes`` in the open transaction, each failing alone.

        First all together under one savepoint, as nearly every batch succeeds whole; if one
        raises, back to that savepoint and again, each write in a savepoint of its own, so
        that one fails alone and writes nothing (a write is a function of the database it
        finds, so the writes before it do the same again).
        """
        conn.execute("SAVEPOINT agentlog_batch")
        try:
            outcomes = _together(conn, writes)
        except Exception:
            # Raises when SQLite already rolled the whole transaction back (an I/O error, a
            # full disk): then the batch fails as one.
            conn.execute("ROLLBACK TO agentlog_batch")
            outcomes = []
            for write in writes:
                conn.execute("SAVEPOINT agentlog_write")
                try:
                    outcomes.append(write(conn))
                except Exception as exc:
                    conn.execute("ROLLBACK TO agentlog_write")
                    outcomes.append(Failed(self._worker.translated(exc)))
                conn.execute("RELEASE agentlog_write")
        conn.execute("RELEASE agentlog_batch")
        return outcomes


def _together(conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
    """Run ``writes`` in order, consecutive ones with the same ``many`` (a staticmethod, so
    the same function on every instance) by one call of it; raise if one fails."""
    kind = type(writes[0])
    many = getattr(kind, "many", None)
    n = len(writes)
    if many is not None and n > 1 and countOf(map(type, writes), kind) == n:
        # The usual batch, all of one kind: one call, no walk over the writes in Python.
        result: list[Any] = many(conn, writes)
        return result
    outcomes: list[Any] = []
    i = 0
    while i < n:
        many = getattr(writes[i], "many", None)
        j = i + 1
        if many is not None:
            while j < n and getattr(writes[j], "many", None) is many:
                j += 1
        if j - i > 1:
            assert many is not None
            outcomes.extend(many(conn, writes[i:j]))
        else:
            outcomes.append(writes[i](conn))
        i = j
    return outcomes


_SPLIT_AT: Final = 64
"""Writes gathered at once that are written as two batches (``Batcher``'s ``split_at``): so
many that preparing half of them takes about as long as a commit's fsync, which the next
half's writers then spend preparing instead of waiting."""

_START_WAIT: Final = 0.002
"""Seconds the loop waits at most for the worker to begin a batch's ``COMMIT``."""


def _commit_other(
    _worker_conn: sqlite3.Connection, conn: sqlite3.Connection, started: threading.Event
) -> None:
    """``COMMIT`` the inline connection's transaction, on the worker's thread."""
    started.set()
    conn.execute("COMMIT")


def _copy(exc: BaseException) -> BaseException:
    """One error of a whole batch for each of its writers, so their tracebacks stay apart."""
    if isinstance(exc, StoreUnavailableError):
        copy = StoreUnavailableError(str(exc))
        copy.__cause__ = exc.__cause__
        return copy
    return exc
