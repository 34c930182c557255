"""Helpers for the server tests: an app on the refund desk, an SSE reader, a real server."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from _postgres import throwaway_schema
from agentlog import Event, SqliteSessionService
from agentlog.compaction import EventsCompactionConfig, compaction_event
from agentlog.runner import Runner
from agentlog.server import create_app
from agentlog.server.desk import RefundDeskModel, refund_desk
from agentlog.sessions.base import SessionService

ANA_KEY = "key-ana-0123456789"
BEN_KEY = "key-ben-0123456789"
ADMIN_KEY = "key-admin-0123456789"
KEYS = {ANA_KEY: "ana", BEN_KEY: "ben"}
ADMINS = {ADMIN_KEY: "root"}


class CountingSummarizer:
    """A summariser for tests: the summary says how many events it covers."""

    async def summarize_events(self, events: Sequence[Event]) -> Event | None:
        return compaction_event(events, f"{len(events)} earlier events")


def desk_app(
    store: SessionService,
    *,
    delay_s: float = 0.0,
    local: bool = False,
    compaction_interval: int | None = None,
    **kwargs: Any,
) -> FastAPI:
    """The refund desk over ``store``; with keys for ana, ben and an admin unless ``local``."""
    compaction = (
        EventsCompactionConfig(compaction_interval, 1, CountingSummarizer())
        if compaction_interval
        else None
    )
    runner = Runner(
        agent=refund_desk(RefundDeskModel(delay_s=delay_s)),
        session_service=store,
        compaction_config=compaction,
    )
    keys: dict[str, Any] = {} if local else {"api_keys": KEYS, "admin_keys": ADMINS}
    return create_app(runner, stall_check_interval_s=None, **keys, **kwargs)


def sqlite(path: Path) -> SqliteSessionService:
    return SqliteSessionService(path / "server.db")


STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
"""The stores the server tests run on: ``@pytest.fixture(params=STORES)``. Without
``AGENTLOG_TEST_POSTGRES_DSN`` the PostgreSQL runs skip when they reach :func:`database`."""


@contextmanager
def database(kind: str, path: Path) -> Iterator[Callable[[], SessionService]]:
    """A fresh database (a SQLite file, or a PostgreSQL schema dropped afterwards) and a
    function opening a store on it. The caller closes each store (PostgreSQL's pool belongs to
    the event loop that first uses it)."""
    if kind == "sqlite":
        yield lambda: sqlite(path)
        return
    from agentlog.sessions.postgres import PostgresSessionService

    with throwaway_schema("agentlog_server") as (dsn, schema):
        yield lambda: PostgresSessionService(dsn, schema=schema)


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@dataclass
class Sse:
    """One server-sent event as a client sees it."""

    event: str
    data: dict[str, Any]
    id: str | None = None

    @property
    def kinds(self) -> list[str]:
        return [m["kind"] for m in self.data["messages"]]


class SseParser:
    """Feeds lines, returns complete events (comments and pings skipped)."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.data: list[str] = []

    def feed(self, line: str) -> Sse | None:
        if line == "":
            event = None
            if self.data:
                data = json.loads("\n".join(self.data))
                event = Sse(self.fields.get("event", "message"), data, self.fields.get("id"))
            self.fields, self.data = {}, []
            return event
        if not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                self.data.append(value)
            else:
                self.fields[name] = value
        return None


def parse_sse(text: str) -> list[Sse]:
    """The events of a whole SSE body."""
    parser = SseParser()
    events = [parser.feed(line) for line in [*text.splitlines(), ""]]
    return [e for e in events if e is not None]


async def read_sse(response: httpx.Response) -> AsyncIterator[Sse]:
    """The events of a streaming response, as they arrive."""
    parser = SseParser()
    async for line in response.aiter_lines():
        event = parser.feed(line)
        if event is not None:
            yield event


@dataclass
class ClientView:
    """What a well-behaved client shows: stored events once, one draft replaced in place."""

    event_ids: list[str] = field(default_factory=list)
    last_id: str | None = None
    draft: str | None = None
    answers: list[str] = field(default_factory=list)
    pending: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    live_drafts_after_reconnect: int = 0

    def apply(self, sse: Sse) -> None:
        if sse.id is not None:
            self.last_id = sse.id
        if sse.event == "event":
            assert sse.id == sse.data["event"]["id"]
            self.event_ids.append(sse.id)
        for message in sse.data["messages"]:
            kind = message["kind"]
            if kind == "draft":
                assert sse.id is None
                self.draft = message["text"]
            elif kind == "answer":
                self.draft = None
                self.answers.append(message["text"])
            elif kind == "needs_approval":
                self.pending[message["data"]["request_id"]] = message
            elif kind == "approval_answer":
                self.pending.pop(message["data"]["request_id"], None)
            elif kind == "turn_end":
                self.draft = None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def live_server(app: FastAPI, port: int | None = None) -> Iterator[str]:
    """Serve ``app`` with uvicorn on loopback in a thread; yield its base URL."""
    port = port or free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
