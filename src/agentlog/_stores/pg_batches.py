"""Statements of many callers sent to PostgreSQL together: one pipeline, one transaction.

A caller hands over a group of statements that must run in one transaction (an append's one
statement; a load's five reads) and waits for their rows. Groups that arrive together are
batched (:mod:`agentlog._stores.batching`) and sent as one pipeline, ``BEGIN``, every group's
statements, ``COMMIT``: one round trip and, for writes, one commit (one WAL flush) for the
batch, on a connection of the batches' own, so no group waits for the pool.

A statement that fails (a duplicate key, a deadlock) aborts the batch's transaction, so the
server wrote nothing of it; every group of that batch is then sent again on its own, so that
only the failing one fails. A group that finds nothing to do (a stale append, whose statement
matches no row) is no failure: its statement returns no rows and the others commit. An error
that is not the server's (the connection dropped) fails the whole batch: whether it committed
is not known.

Groups that say how to be written together (:attr:`Group.merge`: a batch of appends) go to
the server as one statement for all of them instead of one each, inside the same
transaction: what a statement costs the driver and the server is then paid once per batch.

Each of the batches' connections keeps one cursor for the statements it runs alone (a lone
writer's every append): psycopg's ``connection.execute`` makes a cursor per statement, which
cost that writer about 7% of an append's instructions.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, LiteralString, Protocol

import psycopg

from agentlog._stores.batching import Batcher, Failed
from agentlog._stores.postgres import Conn, PostgresPool, Row
from agentlog.errors import StoreError

__all__ = ["Cursor", "Group", "Merge", "StatementBatches"]

Cursor = psycopg.AsyncCursor[Row]
"""A cursor of one of the batches' connections, kept with it."""


class Merge(Protocol):
    """How groups of one kind are written as one statement (see :attr:`Group.merge`)."""

    def __call__(self, rows: list[Any], /) -> tuple[str, Any]:
        """The statement writing each of ``rows`` (the groups' :attr:`Group.row`), whose
        result rows each begin with the 1-based position of the row it wrote; a row that
        wrote nothing returns none."""
        ...


@dataclass(frozen=True, slots=True)
class Group:
    """Statements to run in one transaction, and what to do when they must run alone."""

    queries: list[tuple[str, Any]]
    alone: Callable[[Cursor, Group], Awaitable[list[list[Row]]]] | None = None
    """Runs the group on its own (alone in its batch, or after its batch failed) with the
    connection's cursor, for a group whose errors need telling apart; by default its
    statements run in one transaction of their own."""
    merge: Merge | None = None
    """Writes this group together with the batch's other groups of the same ``merge``, from
    their ``row``s, in place of their ``queries`` (which still serve a group written alone).
    Such a group's ``queries`` are one statement, and its outcome is the rows ``merge``
    returned for it (their position left out): one row, or none when it wrote nothing."""
    row: Any = None
    """What ``merge`` writes for this group."""


class StatementBatches:
    """Groups of statements sent in batches (see the module docstring).

    Args:
        pg: the store's pool: its connection settings, and its errors.
        begin: how each batch's transaction begins (``BEGIN``, or a snapshot for reads).
        in_flight: how many batches may be under way at once, each on a connection of its
            own: with two, one batch's callers prepare their next statements while the other
            batch is with the server, and the server's own group commit joins the commits.
    """

    def __init__(
        self, pg: PostgresPool, begin: LiteralString = "BEGIN", *, in_flight: int = 2
    ) -> None:
        self._pg = pg
        self._begin = begin
        self._idle: list[Cursor] = []
        """Idle connections, each as its kept cursor."""
        self._batcher: Batcher[Group] = Batcher(
            self._batch, closed_error=pg.closed_error, in_flight=in_flight
        )

    async def run(self, group: Group) -> list[list[Row]]:
        """Each of the group's statements' rows, once its batch is committed."""
        rows: list[list[Row]] = await self._batcher.submit(group)
        return rows

    async def close(self) -> None:
        """Wait for the groups under way; close the connection."""
        await self._batcher.close()
        idle, self._idle = self._idle, []
        for cursor in idle:
            with contextlib.suppress(psycopg.Error):
                await cursor.connection.close()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Cursor]:
        """One of the batches' own connections, as its cursor (opened when none is idle, and
        kept for the next batch unless it failed); a driver error in the block is
        ``StoreUnavailableError``."""
        cursor = self._idle.pop() if self._idle else await self._open()
        conn = cursor.connection
        try:
            yield cursor
        except psycopg.Error as exc:
            with contextlib.suppress(psycopg.Error):
                await conn.close()
            raise self._pg.unavailable(exc) from exc
        except BaseException:
            with contextlib.suppress(psycopg.Error):
                await conn.close()
            raise
        if not conn.closed:
            self._idle.append(cursor)

    async def _open(self) -> Cursor:
        return (await self._pg.connect()).cursor()

    async def _batch(self, batch: list[Group]) -> list[Any]:
        if len(batch) == 1:
            return [await self._one(batch[0])]
        if len(batch) > 1:
            together = await self._together(batch)
            if together is not None:
                return together
        outcomes: list[Any] = []
        for group in batch:
            try:
                async with self._connection() as cursor:
                    if group.alone is not None:
                        outcomes.append(await group.alone(cursor, group))
                    else:
                        outcomes.append(await self._send(cursor, group.queries))
            except StoreError as exc:
                outcomes.append(Failed(exc))
        return outcomes

    async def _one(self, group: Group) -> Any:
        """A group on its own: what :meth:`_batch`'s loop does for each group, written out
        for the commonest batch (a lone writer's), without the context manager's layers."""
        cursor = self._idle.pop() if self._idle else await self._open()
        conn = cursor.connection
        try:
            if group.alone is not None:
                outcome: Any = await group.alone(cursor, group)
            else:
                outcome = await self._send(cursor, group.queries)
        except BaseException as exc:
            with contextlib.suppress(psycopg.Error):
                await conn.close()
            if isinstance(exc, psycopg.Error):
                error = self._pg.unavailable(exc)
                error.__cause__ = exc
                return Failed(error)
            if isinstance(exc, StoreError):
                return Failed(exc)
            raise
        if not conn.closed:
            self._idle.append(cursor)
        return outcome

    async def _together(self, batch: list[Group]) -> list[Any] | None:
        """The batch as one transaction; ``None`` if the server refused a statement (it then
        rolled the transaction back: nothing of the batch was written)."""
        merged: dict[Merge, list[int]] = {}
        for i, group in enumerate(batch):
            if group.merge is not None:
                merged.setdefault(group.merge, []).append(i)
        own: list[tuple[str, Any]] = []
        # Per group: where its rows begin in the pipeline's results; -1 for a merged group.
        spans: list[int] = []
        merges = [(merge, at) for merge, at in merged.items() if len(at) > 1]
        in_merges = {i for _, at in merges for i in at}
        for i, group in enumerate(batch):
            if i in in_merges:
                spans.append(-1)
            else:
                spans.append(len(own))
                own.extend(group.queries)
        queries = own + [merge([batch[i].row for i in at]) for merge, at in merges]
        async with self._connection() as cursor:
            try:
                rows = await self._pipeline(cursor.connection, queries)
            except psycopg.DatabaseError as exc:
                if exc.sqlstate is None:
                    raise
                return None
        outcomes: list[Any] = [None] * len(batch)
        for i, group in enumerate(batch):
            if spans[i] >= 0:
                outcomes[i] = rows[spans[i] : spans[i] + len(group.queries)]
        for (_, at), written in zip(merges, rows[len(own) :], strict=True):
            for i in at:
                outcomes[i] = [[]]
            for found in written:
                outcomes[at[found[0] - 1]] = [[found[1:]]]
        return outcomes

    async def _send(self, cursor: Cursor, queries: list[tuple[str, Any]]) -> list[list[Row]]:
        if len(queries) == 1:
            ((query, params),) = queries
            await cursor.execute(query, params)  # autocommit: its own transaction
            return [await cursor.fetchall()]
        return await self._pipeline(cursor.connection, queries)

    async def _pipeline(self, conn: Conn, queries: list[tuple[str, Any]]) -> list[list[Row]]:
        try:
            async with conn.pipeline():
                await conn.execute(self._begin)
                cursors = [await conn.execute(query, params) for query, params in queries]
                await conn.execute("COMMIT")
        except BaseException:
            # Closed rather than rolled back: a cancellation landing again while the pipeline
            # closes leaves libpq unsure of the transaction's state (see PostgresSessionService
            # ._transaction). The next batch opens another connection.
            with contextlib.suppress(psycopg.Error):
                await conn.close()
            raise
        return [await cursor.fetchall() for cursor in cursors]
