"""A small HTTP/1.1 client on plain asyncio streams, for the server bench.

httpx costs its caller far more CPU per request than a server turn costs agentlog's server, so
a bench driving a hundred turns from one httpx process on a 2-core machine measures the
client's queue as much as the server. This client does only what the bench needs: one
keep-alive connection, a request with a JSON body, a response read by ``Content-Length`` or
chunked transfer encoding, and server-sent events parsed frame by frame as they arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

__all__ = ["WireConnection"]


class WireConnection:
    """One HTTP/1.1 connection to ``host:port``, opened on first use, kept alive."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self.written_at = 0.0
        """When the last request's bytes were handed to the socket (``time.perf_counter``)."""

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._reader is None or self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self._reader, self._writer

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
            self._reader = self._writer = None

    async def _send(self, method: str, path: str, body: Any) -> asyncio.StreamReader:
        reader, writer = await self._open()
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(payload)}\r\n"
            "accept: */*\r\n\r\n"
        )
        writer.write(head.encode() + payload)
        await writer.drain()
        self.written_at = time.perf_counter()
        return reader

    @staticmethod
    async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split(b" ", 2)[1])
        headers: dict[str, str] = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers

    @staticmethod
    async def _chunks(
        reader: asyncio.StreamReader, headers: dict[str, str]
    ) -> AsyncIterator[bytes]:
        if headers.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size = int((await reader.readline()).split(b";", 1)[0], 16)
                if size == 0:
                    await reader.readline()  # the blank line after the last chunk
                    return
                data = await reader.readexactly(size)
                await reader.readexactly(2)
                yield data
        length = headers.get("content-length")
        if length is not None:
            if int(length):
                yield await reader.readexactly(int(length))
            return
        while data := await reader.read(65536):  # until the server closes
            yield data

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send a request and read the whole response: (status, JSON body or ``None``)."""
        reader = await self._send(method, path, body)
        status, headers = await self._head(reader)
        data = b"".join([chunk async for chunk in self._chunks(reader, headers)])
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, json.loads(data) if data else None

    async def events(
        self, method: str, path: str, body: Any = None
    ) -> AsyncIterator[tuple[str, str]]:
        """Send a request and yield its response's server-sent events as (event name, data)
        as each frame's blank line arrives; raises on a status other than 200."""
        reader = await self._send(method, path, body)
        status, headers = await self._head(reader)
        if status != 200:
            raise RuntimeError(f"{method} {path}: HTTP {status}")
        pending = b""
        async for chunk in self._chunks(reader, headers):
            pending = (pending + chunk).replace(b"\r\n", b"\n")
            while (end := pending.find(b"\n\n")) >= 0:
                frame, pending = pending[:end], pending[end + 2 :]
                name, data = "message", []
                for line in frame.split(b"\n"):
                    if line.startswith(b"event:"):
                        name = line[6:].strip().decode()
                    elif line.startswith(b"data:"):
                        data.append(line[5:].removeprefix(b" ").decode())
                if data:
                    yield name, "\n".join(data)
