"""EventStream: a turn's server-sent events sent from the request's task, pinged when idle,
stopped when the client leaves."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from agentlog.server.sse import PING, EventStream


class Wire:
    """The ASGI side: what was sent, and a receive that reports a disconnect on demand."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.leave = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    @property
    def bodies(self) -> list[bytes]:
        return [m["body"] for m in self.sent if m["type"] == "http.response.body"]


SCOPE: dict[str, Any] = {"type": "http", "method": "POST"}


async def test_sends_each_chunk_then_ends_the_response() -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b"event: event\r\ndata: 1\r\n\r\n"
        yield b"event: end\r\ndata: 2\r\n\r\n"

    wire = Wire()
    await EventStream(chunks())(SCOPE, wire.receive, wire.send)
    start = wire.sent[0]
    assert start["type"] == "http.response.start"
    assert start["status"] == 200
    headers = dict(start["headers"])
    assert headers[b"content-type"].startswith(b"text/event-stream")
    assert headers[b"cache-control"] == b"no-store"
    assert wire.bodies == [
        b"event: event\r\ndata: 1\r\n\r\n",
        b"event: end\r\ndata: 2\r\n\r\n",
        b"",
    ]
    assert wire.sent[-1]["more_body"] is False


async def test_a_client_that_leaves_stops_the_stream_and_closes_its_chunks() -> None:
    closed = asyncio.Event()
    wire = Wire()

    async def chunks() -> AsyncIterator[bytes]:
        try:
            yield b"data: 1\r\n\r\n"
            wire.leave.set()
            await asyncio.Event().wait()  # a turn that never ends
            yield b"data: never\r\n\r\n"
        finally:
            closed.set()

    await asyncio.wait_for(EventStream(chunks())(SCOPE, wire.receive, wire.send), 5)
    assert closed.is_set()
    assert wire.bodies == [b"data: 1\r\n\r\n"]  # and no end of a response nobody reads


async def test_an_idle_stream_is_pinged() -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b"data: 1\r\n\r\n"
        await asyncio.sleep(0.2)
        yield b"data: 2\r\n\r\n"

    wire = Wire()
    await EventStream(chunks(), ping_s=0.05)(SCOPE, wire.receive, wire.send)
    bodies = wire.bodies
    assert bodies[0] == b"data: 1\r\n\r\n"
    assert bodies[-2:] == [b"data: 2\r\n\r\n", b""]
    assert PING in bodies[1:-2]
    assert set(bodies[1:-2]) == {PING}


async def test_a_cancelled_request_still_raises() -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b"data: 1\r\n\r\n"
        await asyncio.Event().wait()
        yield b""

    wire = Wire()
    task = asyncio.ensure_future(EventStream(chunks())(SCOPE, wire.receive, wire.send))
    await asyncio.sleep(0.01)
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=5)
    assert done
    assert task.cancelled()
