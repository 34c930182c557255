"""``agentlog._streams.closing``: a stream left early is closed in the reader's task."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from agentlog._streams import closing


async def test_a_stream_left_early_is_closed_in_the_readers_task() -> None:
    cleaned: list[asyncio.Task[object] | None] = []

    async def numbers() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            cleaned.append(asyncio.current_task())

    async with closing(numbers()) as stream:
        async for _ in stream:
            break
    assert cleaned == [asyncio.current_task()]


async def test_a_stream_read_to_its_end_and_an_iterator_without_aclose_are_left_alone() -> None:
    class Countdown:
        def __init__(self) -> None:
            self.left = 2

        def __aiter__(self) -> Countdown:
            return self

        async def __anext__(self) -> int:
            if not self.left:
                raise StopAsyncIteration
            self.left -= 1
            return self.left

    async def one() -> AsyncIterator[int]:
        yield 1

    async with closing(Countdown()) as countdown:
        assert [n async for n in countdown] == [1, 0]
    async with closing(one()) as stream:
        assert [n async for n in stream] == [1]
