"""The append path's shortcuts write exactly what the general code they stand for writes."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pytest

from agentlog._stores import pg_listen
from agentlog._stores.batching import Batcher, Failed
from agentlog.errors import NonFiniteNumberError, StoreError
from agentlog.limits import VALUE_ENCODER
from agentlog.sessions import codec

VALUES: list[Any] = [
    [1, 2, 3],
    ["a", "é", 'quote " and \\ back', "\u2028", "\x01"],
    {"nested": {"list": [True, False, None, 1.5, -0.0, 1e300]}, "": 0},
    [10**30, -(10**30)],
    {"k": "v" * 5000},
    [],
    {},
]


@pytest.mark.parametrize("value", VALUES)
def test_a_state_value_is_encoded_as_the_value_encoder_writes_it(value: Any) -> None:
    assert codec.encode_value(value) == VALUE_ENCODER.encode(value)


@pytest.mark.parametrize("value", [[math.nan], {"a": math.inf}, [[-math.inf]]])
def test_a_non_finite_number_is_refused(value: Any) -> None:
    with pytest.raises(NonFiniteNumberError):
        codec.encode_value(value)


def test_a_circular_value_is_refused_and_the_next_one_still_encodes() -> None:
    # Each encoding has a circular-reference table of its own: one left behind by a failure
    # must not make a later value look circular.
    looped: list[Any] = [1]
    looped.append(looped)
    with pytest.raises(NonFiniteNumberError):  # as VALUE_ENCODER.encode has it
        codec.encode_value(looped)
    shared = [1]
    assert codec.encode_value([shared, shared]) == "[[1],[1]]"


@pytest.mark.parametrize(
    "ids",
    [
        ("app", "user", "session", "event"),
        ('a"b', "u\\ser", "s\n\t", "é\u2028"),
        ("x" * 1500, "y" * 1500, "z", "e"),  # too big for a notice: the wake-up instead
    ],
)
def test_an_append_notice_is_the_json_of_its_fields(ids: tuple[str, str, str, str]) -> None:
    app, user, session, event = ids
    fields = {"k": "event", "app": app, "user": user, "session": session, "event": event}
    expected = json.dumps(
        {"by": "store-1", **fields, "version": 7}, ensure_ascii=False, separators=(",", ":")
    )
    if len(expected.encode()) > pg_listen.NOTICE_BYTES:
        expected = '{"by":"store-1","k":"wake","version":7}'
    assert pg_listen.event_notice("store-1", app, user, session, event, 7) == expected


def _recording_batcher(batches: list[list[int]]) -> Batcher[int]:
    """A batcher whose store keeps each batch in ``batches``, takes 10 ms and answers a write
    ten times itself, refusing a negative one."""

    async def commit(batch: list[int]) -> list[Any]:
        batches.append(batch)
        await asyncio.sleep(0.01)
        return [Failed(StoreError(f"refused {w}")) if w < 0 else w * 10 for w in batch]

    return Batcher(commit, closed_error=lambda: StoreError("closed"))


async def test_a_lone_writer_gets_its_result_or_its_error_and_later_writers_theirs() -> None:
    batches: list[list[int]] = []
    batcher = _recording_batcher(batches)
    assert await batcher.submit(1) == 10
    with pytest.raises(StoreError, match="refused -1"):
        await batcher.submit(-1)
    # Writers arriving while a lone write is with the store go in the next batch together.
    first = asyncio.ensure_future(batcher.submit(2))
    await asyncio.sleep(0)
    rest = [asyncio.ensure_future(batcher.submit(w)) for w in (3, 4)]
    assert await asyncio.gather(first, *rest) == [20, 30, 40]
    assert batches[-2:] == [[2], [3, 4]]
    await batcher.close()
    with pytest.raises(StoreError, match="closed"):
        await batcher.submit(5)


async def test_a_lone_write_that_raises_fails_its_caller_and_the_batcher_goes_on() -> None:
    async def commit(batch: list[int]) -> list[Any]:
        if 0 in batch:
            raise RuntimeError("disk gone")
        return batch

    batcher: Batcher[int] = Batcher(commit, closed_error=lambda: StoreError("closed"))
    with pytest.raises(RuntimeError, match="disk gone"):
        await batcher.submit(0)
    assert await batcher.submit(3) == 3
    await batcher.close()


async def test_a_write_joins_the_next_batch_only_while_one_is_being_written() -> None:
    batches: list[list[int]] = []
    batcher = _recording_batcher(batches)
    assert batcher.join(1) is None  # nothing being gathered or written: joining does nothing
    first = asyncio.ensure_future(batcher.submit(1))
    await asyncio.sleep(0)  # its writer gathers company for one turn of the loop
    joined = [batcher.join(w) for w in (2, -3)]
    await asyncio.sleep(0.002)  # that batch is with the store now
    joined.append(batcher.join(4))
    assert all(future is not None for future in joined)
    assert await first == 10
    assert await asyncio.gather(*joined, return_exceptions=True) == [20, _Refused(-3), 40]
    assert batches == [[1, 2, -3], [4]]
    await batcher.close()
    assert batcher.join(5) is None


class _Refused:
    """Equal to the StoreError a refused write ``w`` raises."""

    def __init__(self, w: int) -> None:
        self.w = w

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoreError) and str(other) == f"refused {self.w}"
