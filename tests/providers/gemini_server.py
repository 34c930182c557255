"""A local stand-in for the Gemini Developer API, speaking its wire format.

Each test scripts the replies (JSON bodies, server-sent-event streams, error bodies, slow or
dropped answers) and afterwards reads the requests the SDK sent. Requests are answered in order;
one too many gets a 400 (which the SDK does not retry) and is counted in ``unexpected``.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections import deque
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

__all__ = [
    "GeminiServer",
    "ReceivedRequest",
    "call_part",
    "candidate",
    "error_body",
    "response_body",
    "running_server",
    "usage",
]

Json = dict[str, Any]


# --- bodies as the real API returns them --------------------------------------------------------


def usage(prompt: int, candidates: int, *, thoughts: int | None = None) -> Json:
    """A ``usageMetadata`` object."""
    body: Json = {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates + (thoughts or 0),
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}],
    }
    if thoughts is not None:
        body["thoughtsTokenCount"] = thoughts
    return body


def call_part(name: str, args: Json, *, call_id: str | None = None) -> Json:
    """A ``functionCall`` part; the Developer API often sends no ``id``."""
    call: Json = {"name": name, "args": args}
    if call_id is not None:
        call["id"] = call_id
    return {"functionCall": call}


def candidate(parts: list[Json], finish_reason: str | None = "STOP") -> Json:
    """One candidate; ``finish_reason`` None for a streamed chunk that is not the last."""
    body: Json = {"content": {"parts": parts, "role": "model"}, "index": 0}
    if finish_reason is not None:
        body["finishReason"] = finish_reason
    return body


def response_body(
    *candidates: Json, usage_metadata: Json | None = None, prompt_feedback: Json | None = None
) -> Json:
    """A ``GenerateContentResponse`` (also the payload of each streamed event)."""
    body: Json = {}
    if candidates:
        body["candidates"] = list(candidates)
    if prompt_feedback is not None:
        body["promptFeedback"] = prompt_feedback
    if usage_metadata is not None:
        body["usageMetadata"] = usage_metadata
    body["modelVersion"] = "gemini-test-001"
    body["responseId"] = "resp-1"
    return body


def error_body(code: int, message: str, status: str, *, reason: str | None = None) -> Json:
    """A Google API error body, with an ``ErrorInfo`` detail when ``reason`` is given."""
    error: Json = {"code": code, "message": message, "status": status}
    if reason is not None:
        error["details"] = [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "googleapis.com",
                "metadata": {"service": "generativelanguage.googleapis.com"},
            }
        ]
    return {"error": error}


def _sse_event(payload: Json) -> bytes:
    # Gemini's alt=sse framing: one compact JSON object per ``data:`` line, CRLF-terminated
    # events separated by a blank line.
    return b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\r\n\r\n"


# --- scripted replies ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _JsonReply:
    body: Json
    status: int = 200
    delay: float = 0.0


@dataclass(frozen=True)
class _StreamReply:
    events: tuple[Json, ...]
    drop: bool = False
    delay: float = 0.0


class _DroppedConnection(Exception):
    """Raised inside a streaming body so the server cuts the connection mid-response."""


@dataclass(frozen=True)
class ReceivedRequest:
    """One request the server got."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Json


@dataclass
class GeminiServer:
    """The scripted server; ``base_url`` is set once it is running."""

    base_url: str = ""
    requests: list[ReceivedRequest] = field(default_factory=list)
    unexpected: int = 0
    _script: deque[_JsonReply | _StreamReply] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reply(self, body: Json, *, status: int = 200, delay: float = 0.0) -> None:
        """Answer the next request with a JSON body, after ``delay`` seconds."""
        self._script.append(_JsonReply(body, status, delay))

    def reply_error(
        self, code: int, message: str, status: str, *, reason: str | None = None
    ) -> None:
        """Answer the next request with an HTTP error and a Google error body."""
        self.reply(error_body(code, message, status, reason=reason), status=code)

    def reply_stream(self, *events: Json, drop: bool = False, delay: float = 0.0) -> None:
        """Answer with server-sent events, ``delay`` seconds after the headers.

        ``drop`` cuts the connection after the last event instead of ending the response.
        """
        self._script.append(_StreamReply(events, drop, delay))

    def reset(self) -> None:
        """Forget the script and the requests."""
        with self._lock:
            self._script.clear()
            self.requests.clear()
            self.unexpected = 0

    def unused(self) -> int:
        """Scripted replies no request consumed."""
        return len(self._script)

    async def handle(self, request: Request) -> Response:
        raw = await request.body()
        received = ReceivedRequest(
            method=request.method,
            path=request.url.path,
            query=request.url.query,
            headers=dict(request.headers),
            body=json.loads(raw) if raw else {},
        )
        with self._lock:
            self.requests.append(received)
            reply = self._script.popleft() if self._script else None
            if reply is None:
                self.unexpected += 1
        if reply is None:
            body = error_body(400, "unscripted request", "FAILED_PRECONDITION")
            return JSONResponse(body, status_code=400, headers=_CLOSE)
        if isinstance(reply, _StreamReply):
            return StreamingResponse(_stream(reply), media_type="text/event-stream", headers=_CLOSE)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        return JSONResponse(reply.body, status_code=reply.status, headers=_CLOSE)


# Tests share adapters across event loops; a pooled keep-alive connection would outlive the
# loop that opened it, so every answer closes its connection.
_CLOSE = {"connection": "close"}


async def _stream(reply: _StreamReply) -> AsyncIterator[bytes]:
    if reply.delay:
        await asyncio.sleep(reply.delay)
    for event in reply.events:
        yield _sse_event(event)
        await asyncio.sleep(0)
    if reply.drop:
        raise _DroppedConnection("connection dropped by the test server")


@contextmanager
def running_server() -> Iterator[GeminiServer]:
    """Run a :class:`GeminiServer` on a free 127.0.0.1 port in a background thread."""
    server = GeminiServer()
    app = Starlette(routes=[Route("/{path:path}", server.handle, methods=["POST"])])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, log_config=None, log_level="critical", lifespan="off", timeout_graceful_shutdown=1
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not uv.started:
        if not thread.is_alive():
            raise RuntimeError("the Gemini test server did not start")
        threading.Event().wait(0.01)
    server.base_url = f"http://127.0.0.1:{port}"
    try:
        yield server
    finally:
        uv.should_exit = True
        thread.join(timeout=5)
        sock.close()
