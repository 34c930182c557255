"""Writes gathered into batches as they arrive: what both stores' group commits share.

A caller submits one write and waits for its outcome. The first writer of a quiet moment
leads: it yields to the event loop once, so every writer ready in the same loop iteration
joins it, then hands what gathered to the store as one batch. Writers arriving while a batch
is being written wait for the next one, which a task hands over as soon as the one before it
is done, and so on until none is left (or, when the store can write several batches at once,
another leader starts the next batch beside it). So a lone writer costs one loop iteration,
and many writers share each batch without anyone choosing a batch size or a delay. A store
writing one batch at a time may ask for a large gathering to be split in two (``split_at``):
then the two halves take turns, each preparing its next writes while the other's commit
waits for the disk.

The store's ``commit`` answers every write of a batch: its result, or :class:`Failed` with
the error that write alone raises; when ``commit`` raises, every write of the batch fails with
that error (the batch wrote nothing). A store may also write a lone write at once, on the
calling thread (``alone``), or decline to (:data:`NOT_ALONE`) and leave it to ``commit``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

__all__ = ["NOT_ALONE", "Batcher", "Failed", "others_ready"]

W = TypeVar("W")

NOT_ALONE: Final = object()
"""What ``alone`` returns when it did nothing: the write goes to ``commit`` instead."""

_MAX_BATCH: Final = 512
"""The most writes in one batch: a bound on how long the first of them waits."""


@dataclass(frozen=True, slots=True)
class Failed:
    """The outcome of a write that raised, alone: its error."""

    error: BaseException


_Pending = tuple[W, "asyncio.Future[Any]"]
"""A write submitted and the future its caller waits on: a tuple, as every write makes one
and a tuple costs a fraction of an object's ``__init__``."""


class Batcher(Generic[W]):
    """Writes submitted one by one, handed to ``commit`` in batches (see the module docstring).

    Args:
        commit: writes a batch; returns one outcome per write, in order (a result or a
            :class:`Failed`), or raises when the whole batch failed.
        closed_error: the error a write submitted after :meth:`close` gets.
        alone: writes a batch of one on the calling thread, returning its outcome, or
            :data:`NOT_ALONE` to leave it to ``commit``.
        copy_error: one error of a whole batch for each of its writers but the first, so
            their tracebacks stay apart.
        in_flight: how many batches may be written at once (``commit`` must then take
            several calls at a time). With two, the writers of one batch make their next
            writes while the other batch is written, instead of everyone waiting in turn.
        split_at: for a store that writes one batch at a time: a batch of at least this
            many writes, gathered while nothing is being written, is written as two, the
            older half first. Then the writers of each half make their next writes while the
            other half waits for the disk, and they stay two cohorts that take turns, rather
            than one whose writers all wait for every commit (and a commit for all of them).
            ``None``: never split.
    """

    def __init__(
        self,
        commit: Callable[[list[W]], Awaitable[Sequence[Any]]],
        *,
        closed_error: Callable[[], BaseException],
        alone: Callable[[W], Any] | None = None,
        copy_error: Callable[[BaseException], BaseException] = lambda exc: exc,
        in_flight: int = 1,
        split_at: int | None = None,
    ) -> None:
        if in_flight < 1:
            raise ValueError("in_flight must be at least 1")
        if split_at is not None and split_at < 2:
            raise ValueError("split_at must be at least 2")
        self._commit = commit
        self._alone = alone
        self._closed_error = closed_error
        self._copy_error = copy_error
        self._in_flight = in_flight
        self._split_at = split_at
        self._queue: list[_Pending[W]] = []
        self._gathering = False
        """Whether a leader is waiting one loop iteration for company."""
        self._writing = 0
        """Batches being written (by a task, or by a leader writing its own write)."""
        self._drains: set[asyncio.Task[None]] = set()
        self._done: asyncio.Event | None = None
        """Set when nothing is being written any more, for :meth:`close`."""
        self._closed = False

    async def submit(self, write: W) -> Any:
        """Write ``write`` in the next batch; return its result once the batch is done, or
        raise its error (or the whole batch's)."""
        if self._closed:
            raise self._closed_error()
        loop = asyncio.get_running_loop()
        if (
            not self._queue
            and not self._gathering
            and self._writing < self._in_flight
            and not others_ready(loop)
        ):
            # Alone on a quiet loop: what the leader would do, without the future and the
            # queue it needs only to answer writers that joined it (none can have).
            if self._alone is None:
                return await self._write_quietly(write, loop)
            outcome = self._alone(write)
            if outcome is not NOT_ALONE:
                if isinstance(outcome, Failed):
                    raise outcome.error
                return outcome
        future: asyncio.Future[Any] = loop.create_future()
        pending: _Pending[W] = (write, future)
        self._queue.append(pending)
        if not self._gathering and self._writing < self._in_flight:
            self._gathering = True
            try:
                if others_ready(loop):
                    # Writers ready in this loop iteration join the batch.
                    await asyncio.sleep(0)
            except asyncio.CancelledError:
                self._gathering = False
                if pending in self._queue:
                    self._queue.remove(pending)
                self._hand_over(loop)
                raise
            self._gathering = False
            lone = self._hand_over(loop, pending)
            if lone is not None:
                await self._write_lone(lone, loop)
        return await future

    def join(self, write: W) -> asyncio.Future[Any] | None:
        """``write`` queued for the next batch, when that is all :meth:`submit` would do with
        it (a batch is being gathered, or as many are being written as may be): the future
        of its outcome, for the caller to await. Otherwise ``None``, having done nothing:
        then :meth:`submit` it. With many writers at once nearly every write joins, and
        awaiting the future itself costs less than a coroutine around it."""
        if self._closed or not (self._gathering or self._writing >= self._in_flight):
            return None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((write, future))
        return future

    async def close(self) -> None:
        """Refuse new writes and wait for those already submitted."""
        self._closed = True
        while self._gathering or self._writing or self._queue:
            if self._writing:
                self._done = self._done or asyncio.Event()
                await self._done.wait()
            else:  # a leader is gathering its batch: it hands it over in this loop iteration
                await asyncio.sleep(0)

    def _hand_over(
        self, loop: asyncio.AbstractEventLoop, own: _Pending[W] | None = None
    ) -> list[_Pending[W]] | None:
        """Write what is queued: a lone write at once if ``alone`` can, else a batch in a
        task. A batch that is the leader's ``own`` write alone (with no ``alone``) is
        returned instead, for the leader to write itself: a task for one write costs more
        than the write's own bookkeeping."""
        batch = self._take(self._split_at if not self._writing else None)
        if batch and len(batch) == 1 and self._alone is not None:
            outcome = self._alone(batch[0][0])
            if outcome is not NOT_ALONE:
                self._settle(batch, [outcome])
                batch = self._take()
        if not batch:
            return None
        if self._alone is None and len(batch) == 1 and batch[0] is own:
            self._writing += 1
            return batch
        self._writing += 1
        task = loop.create_task(self._write_batches(batch), name="agentlog-group-commit")
        self._drains.add(task)
        task.add_done_callback(self._drains.discard)
        return None

    async def _write_lone(self, batch: list[_Pending[W]], loop: asyncio.AbstractEventLoop) -> None:
        """The leader's own write, alone, in its own task; then what queued meanwhile."""
        try:
            outcomes: Sequence[Any] | BaseException
            try:
                outcomes = await self._commit([write for write, _ in batch])
            except asyncio.CancelledError:
                for _, future in batch:
                    future.cancel()
                raise
            except BaseException as exc:
                outcomes = exc
            self._settle(batch, outcomes)
        finally:
            rest = self._take()
            if rest:  # goes on in a task, as the one writing it
                task = loop.create_task(self._write_batches(rest), name="agentlog-group-commit")
                self._drains.add(task)
                task.add_done_callback(self._drains.discard)
            else:
                self._finished()

    async def _write_quietly(self, write: W, loop: asyncio.AbstractEventLoop) -> Any:
        """``write`` as a batch of its own, written by its caller; then what queued meanwhile
        (as :meth:`_write_lone`)."""
        self._writing += 1
        try:
            (outcome,) = await self._commit([write])
        finally:
            rest = self._take()
            if rest:  # goes on in a task, as the one writing it
                task = loop.create_task(self._write_batches(rest), name="agentlog-group-commit")
                self._drains.add(task)
                task.add_done_callback(self._drains.discard)
            else:
                self._finished()
        if isinstance(outcome, Failed):
            raise outcome.error
        return outcome

    def _take(self, split_at: int | None = None) -> list[_Pending[W]]:
        """The next batch: the oldest writes queued, up to :data:`_MAX_BATCH` (half of them,
        from ``split_at`` queued on)."""
        n = len(self._queue)
        size = _MAX_BATCH
        if split_at is not None and n >= split_at:
            size = min(size, (n + 1) // 2)
        batch = self._queue[:size]
        del self._queue[:size]
        return batch

    async def _write_batches(self, batch: list[_Pending[W]]) -> None:
        """Write ``batch``, then whatever is queued, until nothing is (one of at most
        ``in_flight`` such tasks)."""
        try:
            while batch:
                outcomes: Sequence[Any] | BaseException
                try:
                    outcomes = await self._commit([write for write, _ in batch])
                except asyncio.CancelledError:
                    self._settle(batch, self._closed_error())
                    raise
                except BaseException as exc:
                    outcomes = exc
                self._settle(batch, outcomes)
                batch = self._take()
        finally:
            self._finished()
            if self._queue and not self._writing:  # only when cancelled: nobody else will
                self._settle(self._take(), self._closed_error())

    def _finished(self) -> None:
        self._writing -= 1
        if not self._writing and self._done is not None:
            self._done.set()
            self._done = None

    def _settle(self, batch: list[_Pending[W]], outcomes: Sequence[Any] | BaseException) -> None:
        """Answer each writer of ``batch``: its outcome, or the batch's error."""
        # A future already done is its cancelled caller's; the write ran all the same.
        if isinstance(outcomes, BaseException):
            for i, (_, future) in enumerate(batch):
                if not future.done():
                    future.set_exception(self._copy_error(outcomes) if i else outcomes)
            return
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if outcome.__class__ is Failed:
                future.set_exception(outcome.error)
            else:
                future.set_result(outcome)


def others_ready(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether anything else is ready to run in this loop iteration (so a writer waiting a
    turn of the loop may get company). asyncio's own loops keep that queue as ``_ready``;
    for another loop, assume there is."""
    ready = getattr(loop, "_ready", None)
    if ready is None:
        return True
    if not ready:  # a lone writer's usual loop: no generator to make
        return False
    # A cancelled callback stays queued until its turn, and runs nothing: psycopg leaves one
    # behind after every statement it waits for, which cost a lone writer a turn of the loop.
    return any(not handle.cancelled() for handle in ready)
