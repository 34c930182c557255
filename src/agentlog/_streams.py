"""Closing an async stream where it is read: the one way agentlog stops a stream it reads.

``async for`` over an async generator that the reader leaves early (a ``break``, an exception,
its own reader stopping) does not close the generator: the garbage collector's finaliser does,
later, in a task of its own. Its cleanup (a span's end, a ``finally`` in an agent) then runs
outside the reader's context and after whatever the reader does next, such as releasing the
session's lease. ``async with closing(stream)`` closes it on leaving the block, in the reader's
task, as ``contextlib.aclosing`` does, for any async iterator (one without ``aclose`` has no
cleanup to run).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import AsyncGeneratorType
from typing import Generic, TypeVar

__all__ = ["closing"]

T = TypeVar("T")


class closing(Generic[T]):
    """``async with closing(stream) as items``: ``stream``, closed when the block is left."""

    __slots__ = ("_stream",)

    def __init__(self, stream: AsyncIterator[T]) -> None:
        self._stream = stream

    async def __aenter__(self) -> AsyncIterator[T]:
        return self._stream

    async def __aexit__(self, *_: object) -> None:
        stream = self._stream
        if type(stream) is AsyncGeneratorType and stream.ag_frame is None:
            # Finished (read to its end, or raised): nothing left to close, and an ``aclose``
            # costs a coroutine; most streams of a turn end this way.
            return
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
