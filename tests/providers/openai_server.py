"""A local stand-in for the OpenAI Chat Completions API, speaking its wire format.

It serves ``POST /v1/chat/completions`` the way api.openai.com does: JSON bodies for plain calls,
``text/event-stream`` with one ``data: {chunk}`` event per chunk and a ``data: [DONE]`` terminator
for streams, and ``{"error": {...}}`` bodies with the real status codes. Each test scripts the
replies in order and afterwards reads the requests the SDK sent. A request with no reply left
gets a 400 (which the SDK does not retry) and is counted in ``unexpected``.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections import deque
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from sse_starlette import ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

__all__ = [
    "MODEL",
    "OpenAIServer",
    "ReceivedRequest",
    "chunk",
    "completion",
    "error_body",
    "running_server",
    "text_chunks",
    "tool_call",
    "usage",
    "usage_chunk",
]

Json = dict[str, Any]

MODEL = "gpt-4o-mini-2024-07-18"
"""The model name the server reports, as OpenAI reports a dated snapshot."""

_CREATED = 1_741_569_952


# --- bodies as the real API returns them --------------------------------------------------------


def usage(prompt: int, completion_tokens: int) -> Json:
    """A ``usage`` object."""
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt + completion_tokens,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def tool_call(call_id: str, name: str, arguments: str) -> Json:
    """One entry of a message's ``tool_calls``; ``arguments`` is JSON text, as on the wire."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def completion(
    content: str | None = None,
    *,
    tool_calls: list[Json] | None = None,
    refusal: str | None = None,
    finish_reason: str = "stop",
    prompt_tokens: int = 12,
    completion_tokens: int = 5,
) -> Json:
    """A ``chat.completion`` object with one choice."""
    message: Json = {"role": "assistant", "content": content, "refusal": refusal, "annotations": []}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        "object": "chat.completion",
        "created": _CREATED,
        "model": MODEL,
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}
        ],
        "usage": usage(prompt_tokens, completion_tokens),
        "service_tier": "default",
        "system_fingerprint": "fp_06737a9306",
    }


def chunk(delta: Json, *, finish_reason: str | None = None) -> Json:
    """A ``chat.completion.chunk`` for the one choice (``usage`` null, as with include_usage)."""
    return {
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        "object": "chat.completion.chunk",
        "created": _CREATED,
        "model": MODEL,
        "service_tier": "default",
        "system_fingerprint": "fp_06737a9306",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}],
        "usage": None,
        "obfuscation": "Xk2",
    }


def usage_chunk(prompt: int, completion_tokens: int) -> Json:
    """The last chunk with ``stream_options.include_usage``: no choices, the usage."""
    body = chunk({})
    body["choices"] = []
    body["usage"] = usage(prompt, completion_tokens)
    return body


def text_chunks(*pieces: str, finish_reason: str = "stop") -> list[Json]:
    """A whole streamed text answer: role chunk, one chunk per piece, finish chunk."""
    return [
        chunk({"role": "assistant", "content": "", "refusal": None}),
        *(chunk({"content": piece}) for piece in pieces),
        chunk({}, finish_reason=finish_reason),
    ]


def error_body(
    message: str, *, type: str, code: str | None = None, param: str | None = None
) -> Json:
    """An error body as the API sends it with a 4xx or 5xx status (and inside a stream)."""
    return {"error": {"message": message, "type": type, "param": param, "code": code}}


# --- the server ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceivedRequest:
    """A request as the server got it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Json


@dataclass
class _Reply:
    status: int = 200
    body: Json | None = None
    events: Sequence[Json | str] | None = None
    delay: float = 0.0
    stall_after: int | None = None
    stall: float = 0.0
    drop_after: int | None = None
    done: bool = True


class _Dropped(Exception):
    """Raised inside a stream to cut the connection without ending the HTTP response."""


@dataclass
class OpenAIServer:
    """The scripted server; start it with :func:`running_server`."""

    port: int = 0
    requests: list[ReceivedRequest] = field(default_factory=list)
    unexpected: list[ReceivedRequest] = field(default_factory=list)
    _replies: deque[_Reply] = field(default_factory=deque)

    @property
    def base_url(self) -> str:
        """The ``base_url`` to give the SDK."""
        return f"http://127.0.0.1:{self.port}/v1"

    def reply(self, body: Json, *, status: int = 200, delay: float = 0.0) -> None:
        """Queue a JSON answer (a completion, or an error body with its status)."""
        self._replies.append(_Reply(status=status, body=body, delay=delay))

    def stream(
        self,
        events: Sequence[Json | str],
        *,
        done: bool = True,
        stall_after: int | None = None,
        stall: float = 0.0,
        drop_after: int | None = None,
    ) -> None:
        """Queue a server-sent-event stream: each event is a chunk (or raw data text).

        ``done=False`` leaves out ``[DONE]``; ``stall_after=n`` pauses ``stall`` seconds after
        the n-th event; ``drop_after=n`` breaks the connection after the n-th event.
        """
        self._replies.append(
            _Reply(
                events=events,
                done=done,
                stall_after=stall_after,
                stall=stall,
                drop_after=drop_after,
            )
        )

    @property
    def pending(self) -> int:
        """Replies queued but not yet asked for."""
        return len(self._replies)

    def reset(self) -> None:
        """Forget replies and requests (between tests)."""
        self._replies.clear()
        self.requests.clear()
        self.unexpected.clear()

    @property
    def last_body(self) -> Json:
        """The body of the latest request."""
        return self.requests[-1].body

    # --- ASGI side ------------------------------------------------------------------------------

    def app(self) -> Starlette:
        """The Starlette application."""
        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/{path:path}", self._not_found, methods=["GET", "POST", "DELETE"]),
            ]
        )

    async def _record(self, request: Request) -> ReceivedRequest:
        raw = await request.body()
        received = ReceivedRequest(
            method=request.method,
            path=request.url.path,
            headers={k.lower(): v for k, v in request.headers.items()},
            body=json.loads(raw) if raw else {},
        )
        self.requests.append(received)
        return received

    async def _not_found(self, request: Request) -> Response:
        received = await self._record(request)
        self.unexpected.append(received)
        message = f"Invalid URL ({request.method} {request.url.path})"
        return JSONResponse(error_body(message, type="invalid_request_error"), status_code=404)

    async def _chat(self, request: Request) -> Response:
        received = await self._record(request)
        if not self._replies:
            self.unexpected.append(received)
            body = error_body("no reply scripted for this request", type="invalid_request_error")
            return JSONResponse(body, status_code=400)
        reply = self._replies.popleft()
        if reply.delay:
            await asyncio.sleep(reply.delay)
        headers = {"x-request-id": "req_0123456789abcdef", "openai-processing-ms": "42"}
        if reply.events is None:
            return JSONResponse(reply.body, status_code=reply.status, headers=headers)
        return StreamingResponse(
            self._events(reply),
            media_type="text/event-stream; charset=utf-8",
            headers=headers,
        )

    async def _events(self, reply: _Reply) -> AsyncIterator[bytes]:
        for number, event in enumerate(reply.events or (), start=1):
            data = event if isinstance(event, str) else json.dumps(event, separators=(",", ":"))
            yield ServerSentEvent(data=data, sep="\n").encode()
            if number == reply.drop_after:
                raise _Dropped
            if number == reply.stall_after:
                await asyncio.sleep(reply.stall)
        if reply.done:
            yield ServerSentEvent(data="[DONE]", sep="\n").encode()


@contextmanager
def running_server() -> Iterator[OpenAIServer]:
    """Run an :class:`OpenAIServer` on a free 127.0.0.1 port in a background thread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = OpenAIServer(port=sock.getsockname()[1])
    config = uvicorn.Config(
        server.app(),
        log_config=None,
        log_level="critical",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if uv.started:
                break
            threading.Event().wait(0.01)
        else:
            raise RuntimeError("the local OpenAI server did not start")
        yield server
    finally:
        uv.should_exit = True
        thread.join(timeout=5)
        sock.close()
