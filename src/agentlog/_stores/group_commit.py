"""Group commit on a SQLite file: the writes of many callers in one transaction, one fsync.

A write is a function of the connection that writes one thing whole (an append, a lease, a new
session) or raises. Writers that arrive together are committed together:

1. The first writer of a quiet moment leads. It yields to the event loop once, so every writer
   ready in the same loop iteration joins it, then commits what gathered as one batch.
2. Writers arriving while a batch is being written wait for the next batch, which is written
   as soon as the one before it is durable (a task keeps writing batches until none is left).
3. In a batch of several, each write runs in a ``SAVEPOINT`` of its own. A write that raises
   (a stale or refused append, a duplicate id) is rolled back to its savepoint: it fails alone
   and writes nothing, and the others commit.
4. Every caller is answered only once ``COMMIT`` has returned, so at ``synchronous=FULL`` only
   once the batch is on disk. A crash before that loses the batch and nothing else; SQLite's
   journal leaves each write whole or absent, as it does for one transaction of its own.

A batch of one runs on the calling thread when an inline connection is given and no other
connection holds the write lock (handing one write to a thread costs more than its SQL); any
larger batch, and one that finds the file locked, runs on the writer's thread, where the wait
for the lock and the batch's fsync do not hold up the event loop. Batches are written one at a
time, so the inline connection and the writer's never write at once.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from agentlog._stores.sqlite import SqliteWorker, is_busy
from agentlog.errors import StoreUnavailableError

__all__ = ["GroupCommit"]

T = TypeVar("T")

Write = Callable[[sqlite3.Connection], Any]

_MAX_BATCH: Final = 512
"""The most writes in one transaction: a bound on how long the first of them waits."""


@dataclass(slots=True)
class _Pending:
    write: Write
    future: asyncio.Future[Any]


@dataclass(slots=True)
class _Failed:
    """A write's outcome when it raised: its error, translated."""

    error: BaseException


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
        self._queue: list[_Pending] = []
        self._active = False
        """Whether a writer leads or a task is writing batches: a new writer then queues."""
        self._drain: asyncio.Task[None] | None = None
        self._closed = False
        self.batches = 0
        """Transactions committed or rolled back so far (one per batch)."""
        self.writes = 0
        """Writes committed so far."""

    async def write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``write(connection)`` in the next batch; return what it returned once the batch
        is committed, or raise what it raised (having written nothing)."""
        if self._closed:
            raise self._worker.closed_error()
        loop = asyncio.get_running_loop()
        pending = _Pending(write, loop.create_future())
        self._queue.append(pending)
        if not self._active:
            self._active = True
            try:
                # Writers ready in this loop iteration join the batch.
                await asyncio.sleep(0)
            except asyncio.CancelledError:
                if pending in self._queue:
                    self._queue.remove(pending)
                self._write_queued(loop)
                raise
            self._write_queued(loop)
        result: T = await pending.future
        return result

    async def close(self) -> None:
        """Refuse new writes and wait for those already submitted."""
        self._closed = True
        while self._active:
            if self._drain is not None:
                await asyncio.wait([self._drain])
            else:  # a leader is gathering its batch: it writes it in this loop iteration
                await asyncio.sleep(0)

    def _write_queued(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write what is queued: a lone write inline if it can, else every batch on the
        worker's thread in a task; the writer is idle again once nothing is left."""
        batch = self._take()
        if not batch:
            self._active = False
            return
        if len(batch) == 1 and self._inline is not None and self._write_inline(batch[0]):
            if not self._queue:
                self._active = False
                return
            batch = self._take()
        self._drain = loop.create_task(self._write_batches(batch), name="agentlog-group-commit")

    def _take(self) -> list[_Pending]:
        batch = self._queue[:_MAX_BATCH]
        del self._queue[:_MAX_BATCH]
        return batch

    def _write_inline(self, pending: _Pending) -> bool:
        """Write a batch of one on this thread; ``False`` (nothing done) if the file is busy."""
        conn = self._inline
        assert conn is not None
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                return False
            self._settle([pending], self._worker.translated(exc))
            return True
        except sqlite3.Error as exc:
            self._settle([pending], self._worker.translated(exc))
            return True
        try:
            outcomes = self._in_transaction(conn, [pending.write])
        except BaseException as exc:
            self._settle([pending], self._worker.translated(exc))
            return True
        self._settle([pending], outcomes)
        return True

    async def _write_batches(self, batch: list[_Pending]) -> None:
        try:
            while batch:
                writes = [p.write for p in batch]
                try:
                    outcomes: list[Any] | BaseException = await self._worker.run(
                        self._commit, writes
                    )
                except asyncio.CancelledError:
                    self._settle(batch, self._worker.closed_error())
                    raise
                except BaseException as exc:
                    outcomes = exc
                self._settle(batch, outcomes)
                batch = self._take()
        finally:
            self._drain = None
            self._active = False
            if self._queue:  # only when cancelled: nobody is left to write these
                self._settle(self._take(), self._worker.closed_error())

    def _commit(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """The batch's transaction, on the worker's thread (it waits there for the lock)."""
        conn.execute("BEGIN IMMEDIATE")
        return self._in_transaction(conn, writes)

    def _in_transaction(self, conn: sqlite3.Connection, writes: list[Write]) -> list[Any]:
        """Run ``writes`` in the open transaction and commit; each outcome is the write's
        result or a ``_Failed``. Raises (having rolled back) when the batch cannot commit."""
        outcomes: list[Any] = []
        try:
            if len(writes) == 1:
                # Alone, a write needs no savepoint: it is the whole transaction.
                try:
                    outcomes.append(writes[0](conn))
                except Exception as exc:
                    conn.execute("ROLLBACK")
                    self.batches += 1
                    return [_Failed(self._worker.translated(exc))]
            else:
                for write in writes:
                    conn.execute("SAVEPOINT agentlog_write")
                    try:
                        outcomes.append(write(conn))
                    except Exception as exc:
                        # Raises when SQLite already rolled the whole transaction back (an I/O
                        # error, a full disk): then the batch fails as one.
                        conn.execute("ROLLBACK TO agentlog_write")
                        outcomes.append(_Failed(self._worker.translated(exc)))
                    conn.execute("RELEASE agentlog_write")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.batches += 1
            raise
        self.batches += 1
        self.writes += sum(1 for outcome in outcomes if not isinstance(outcome, _Failed))
        return outcomes

    @staticmethod
    def _settle(batch: list[_Pending], outcomes: list[Any] | BaseException) -> None:
        """Answer each writer of ``batch``: its outcome, or the batch's error."""
        for i, pending in enumerate(batch):
            future = pending.future
            if future.done():  # its caller was cancelled; the write ran all the same
                continue
            outcome = outcomes if isinstance(outcomes, BaseException) else outcomes[i]
            if isinstance(outcome, BaseException):
                future.set_exception(_copy(outcome) if i else outcome)
            elif isinstance(outcome, _Failed):
                future.set_exception(outcome.error)
            else:
                future.set_result(outcome)


def _copy(exc: BaseException) -> BaseException:
    """One error of a whole batch for each of its writers, so their tracebacks stay apart."""
    if isinstance(exc, StoreUnavailableError):
        copy = StoreUnavailableError(str(exc))
        copy.__cause__ = exc.__cause__
        return copy
    return exc
