"""A local stand-in for Anthropic's Messages API that speaks its wire format.

Tests queue replies (whole messages, error bodies, or server-sent event streams built the way
the API sends them), point the real SDK client at :attr:`AnthropicServer.base_url`, and read back
the request bodies the server received. It runs uvicorn on a free 127.0.0.1 port in a
background thread; nothing leaves the machine.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from sse_starlette import ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

MODEL = "claude-test-1"

_ids = itertools.count(1)


def _id(prefix: str) -> str:
    return f"{prefix}_{next(_ids):024d}"


# --- bodies as the API returns them -------------------------------------------------------------


def text_block(text: str) -> dict[str, Any]:
    """A ``text`` content block."""
    return {"type": "text", "text": text, "citations": None}


def tool_use_block(call_id: str, name: str, tool_input: Any) -> dict[str, Any]:
    """A ``tool_use`` content block."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}


def usage(
    input_tokens: int, output_tokens: int, *, cache_creation: int = 0, cache_read: int = 0
) -> dict[str, Any]:
    """A ``usage`` object."""
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": cache_creation,
        "cache_read_input_tokens": cache_read,
        "service_tier": "standard",
    }


def message(
    content: Sequence[dict[str, Any]],
    *,
    stop_reason: str = "end_turn",
    input_tokens: int = 10,
    output_tokens: int = 5,
    model: str = MODEL,
    cache_creation: int = 0,
    cache_read: int = 0,
) -> dict[str, Any]:
    """A whole ``message`` object, as a non-streaming call returns it."""
    return {
        "id": _id("msg"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "stop_details": None,
        "usage": usage(
            input_tokens, output_tokens, cache_creation=cache_creation, cache_read=cache_read
        ),
    }


def error_body(kind: str, text: str) -> dict[str, Any]:
    """An error body: ``{"type": "error", "error": {"type": ..., "message": ...}}``."""
    return {"type": "error", "error": {"type": kind, "message": text}, "request_id": _id("req")}


# --- streams ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextChunks:
    """A text block streamed as ``text_delta`` chunks."""

    chunks: Sequence[str]


@dataclass(frozen=True)
class ToolChunks:
    """A ``tool_use`` block whose input streams as ``input_json_delta`` fragments."""

    call_id: str
    name: str
    fragments: Sequence[str]


Event = tuple[str, dict[str, Any]]


def message_start(
    input_tokens: int = 10, *, model: str = MODEL, cache_creation: int = 0, cache_read: int = 0
) -> Event:
    """The ``message_start`` event: an empty message carrying the input token count."""
    start = message(
        [],
        input_tokens=input_tokens,
        output_tokens=1,
        model=model,
        cache_creation=cache_creation,
        cache_read=cache_read,
    )
    start["stop_reason"] = None
    return "message_start", {"type": "message_start", "message": start}


def block_events(index: int, block: TextChunks | ToolChunks) -> list[Event]:
    """``content_block_start``, its deltas and ``content_block_stop`` for one block."""
    start: dict[str, Any]
    if isinstance(block, TextChunks):
        start = {"type": "text", "text": "", "citations": None}
        deltas = [{"type": "text_delta", "text": chunk} for chunk in block.chunks]
    else:
        start = {"type": "tool_use", "id": block.call_id, "name": block.name, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": f} for f in block.fragments]
    events: list[Event] = [
        (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
    ]
    events += [
        ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
        for d in deltas
    ]
    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events


def message_end(stop_reason: str = "end_turn", output_tokens: int = 5) -> list[Event]:
    """``message_delta`` (stop reason, cumulative output tokens) and ``message_stop``."""
    return [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


def stream(
    *blocks: TextChunks | ToolChunks,
    stop_reason: str = "end_turn",
    input_tokens: int = 10,
    output_tokens: int = 5,
) -> list[Event]:
    """A whole stream as the API sends it, with a ``ping`` after the first block starts."""
    events = [message_start(input_tokens)]
    for index, block in enumerate(blocks):
        events += block_events(index, block)
        if index == 0:
            events.insert(2, ("ping", {"type": "ping"}))
    return events + message_end(stop_reason, output_tokens)


# --- replies and the server ---------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """A JSON reply, sent after ``delay`` seconds."""

    body: dict[str, Any]
    status: int = 200
    delay: float = 0.0


@dataclass(frozen=True)
class StreamReply:
    """An SSE reply; with ``stall_after`` set, it goes quiet after that many events."""

    events: Sequence[Event]
    stall_after: int | None = None
    stall_seconds: float = 1.0


@dataclass
class Received:
    """One request the server got."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class AnthropicServer:
    """The scripted server. Use :meth:`queue`, then read :attr:`requests`."""

    replies: collections.deque[Reply | StreamReply] = field(default_factory=collections.deque)
    requests: list[Received] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    base_url: str = ""
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None

    def queue(self, *replies: Reply | StreamReply) -> None:
        """Add replies, served in order, one per request."""
        self.replies.extend(replies)

    def reset(self) -> None:
        """Forget replies and requests (between tests)."""
        self.replies.clear()
        self.requests.clear()
        self.unexpected.clear()

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies received, in order."""
        return [r.body for r in self.requests]

    def start(self) -> None:
        """Serve on a free 127.0.0.1 port in a background thread."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        app = Starlette(routes=[Route("/{path:path}", self._handle, methods=["GET", "POST"])])
        config = uvicorn.Config(
            app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the local Anthropic server did not start")
            time.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        """Shut the server down and join its thread."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)

    async def _handle(self, request: Request) -> Response:
        raw = await request.body()
        self.requests.append(
            Received(
                method=request.method,
                path=request.url.path,
                headers={k.lower(): v for k, v in request.headers.items()},
                body=json.loads(raw) if raw else {},
            )
        )
        headers = {"request-id": _id("req")}
        if request.method != "POST" or request.url.path != "/v1/messages":
            return JSONResponse(
                error_body("not_found_error", f"Not found: {request.url.path}"), 404, headers
            )
        if not self.replies:
            self.unexpected.append(f"no reply queued for request #{len(self.requests)}")
            return JSONResponse(error_body("api_error", "no reply queued"), 500, headers)
        reply = self.replies.popleft()
        if isinstance(reply, Reply):
            if reply.delay:
                await asyncio.sleep(reply.delay)
            return JSONResponse(reply.body, reply.status, headers)
        return StreamingResponse(
            self._events(reply),
            headers={**headers, "cache-control": "no-cache"},
            media_type="text/event-stream; charset=utf-8",
        )

    @staticmethod
    async def _events(reply: StreamReply) -> AsyncIterator[bytes]:
        for number, (name, data) in enumerate(reply.events):
            if number == reply.stall_after:
                await asyncio.sleep(reply.stall_seconds)
                return
            yield ServerSentEvent(json.dumps(data), event=name, sep="\n").encode()
