"""A lean server-sent event response for a turn's stream, sent from the request's own task.

sse_starlette's ``EventSourceResponse`` runs every response in a task group of four tasks
(the stream, its pings, a disconnect listener, a shutdown listener) and wraps every write in
a cancel scope; on a 100-client burst that was about a tenth of the server's CPU, and each
client's first event waited for the event loop to start those tasks. A turn's stream is
short (it ends with its turn), so :class:`EventStream` sends from the request's task, with
one helper task that listens for the client leaving, and a timer that sends a keep-alive
comment when nothing was written for ``ping_s`` seconds. Streams that may stay open
indefinitely (``GET /stream``, following a session) keep ``EventSourceResponse``, which also
closes them when the server shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

__all__ = ["EventStream"]

PING: bytes = b": ping\r\n\r\n"
"""A comment line: clients ignore it, proxies see the connection is alive."""


class EventStream(Response):
    """Sends ``chunks`` (encoded server-sent events) as they come, then ends the response.

    A client that leaves stops the stream (the chunks' iterator is closed); the turn itself
    runs on (:mod:`agentlog.server.turns`).
    """

    media_type = "text/event-stream"

    def __init__(self, chunks: AsyncIterator[bytes], *, ping_s: float = 15.0) -> None:
        self._chunks = chunks
        self._ping_s = ping_s
        self.status_code = 200
        self.background = None
        # The headers sse_starlette sends: no caching, and no buffering by a proxy (nginx).
        self.init_headers(
            {"Cache-Control": "no-store", "Connection": "keep-alive", "X-Accel-Buffering": "no"}
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        task = asyncio.current_task()
        assert task is not None  # an ASGI app runs in a task
        loop = asyncio.get_running_loop()
        state = _State(loop.time())

        def ping_due() -> None:
            idle = loop.time() - state.last_write
            if state.open and idle >= self._ping_s:
                state.last_write = loop.time()
                state.pinger = loop.create_task(_ping(send))
                idle = 0.0
            if state.open:
                state.timer = loop.call_later(self._ping_s - idle, ping_due)

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            if state.open:
                state.gone = True
                task.cancel()

        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        watcher = loop.create_task(watch())
        state.timer = loop.call_later(self._ping_s, ping_due)
        try:
            async for chunk in self._chunks:
                state.last_write = loop.time()
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except asyncio.CancelledError:
            if not state.gone:
                raise
            # Cancelled by the watcher: the client left; nothing more to send.
            task.uncancel()
            return
        finally:
            state.open = False
            if state.timer is not None:
                state.timer.cancel()
            watcher.cancel()
            aclose = getattr(self._chunks, "aclose", None)
            if aclose is not None:
                await aclose()
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class _State:
    """One response's bookkeeping, shared by its task, its watcher and its ping timer."""

    def __init__(self, now: float) -> None:
        self.open = True
        self.gone = False
        self.last_write = now
        self.timer: asyncio.TimerHandle | None = None
        self.pinger: asyncio.Task[None] | None = None
        """The ping being sent (kept referenced until it is)."""


async def _ping(send: Send) -> None:
    message: Message = {"type": "http.response.body", "body": PING, "more_body": True}
    # The response may have ended meanwhile (the server then refuses the write) or the
    # client left: a ping lost is harmless.
    with contextlib.suppress(Exception):
        await send(message)
