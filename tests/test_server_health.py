"""``/healthz`` (liveness, never reads the store) and ``/readyz`` (the store answers a read)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from agentlog import InMemorySessionService, SessionService
from agentlog.server import health
from server_support import STORES, database, desk_app


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    with database(request.param, tmp_path) as open_store:
        service = open_store()
        yield service
        await service.close()


async def test_ready_when_the_store_answers(store: SessionService) -> None:
    async with client(desk_app(store)) as http:
        ready = await http.get("/readyz")
        alive = await http.get("/healthz")
    assert (ready.status_code, ready.json()) == (200, {"status": "ready", "app": "agentlog"})
    assert (alive.status_code, alive.json()) == (200, {"status": "ok", "app": "agentlog"})


async def test_a_closed_store_is_not_ready_but_the_process_is_alive(
    store: SessionService,
) -> None:
    app = desk_app(store)
    await store.close()
    async with client(app) as http:
        ready = await http.get("/readyz")
        alive = await http.get("/healthz")
    assert ready.status_code == 503
    assert ready.json() == {
        "detail": "the session store is unavailable (closed, unreachable or locked); see the log"
    }
    assert alive.status_code == 200


async def test_an_unreachable_postgres_is_not_ready() -> None:
    pytest.importorskip("psycopg")
    from agentlog.sessions.postgres import PostgresSessionService

    # Port 1 on loopback: refused at once, no server needed.
    store = PostgresSessionService("postgresql://agentlog:secret@127.0.0.1:1/nowhere", timeout=1)
    try:
        async with client(desk_app(store)) as http:
            ready = await http.get("/readyz")
    finally:
        await store.close()
    assert ready.status_code == 503
    assert "unavailable" in ready.json()["detail"]
    assert "secret" not in ready.text
    assert "127.0.0.1" not in ready.text  # no address for an unauthenticated caller


class _Hanging(InMemorySessionService):
    """A store whose reads never return, like a database that accepts and never answers."""

    async def get_app_state(self, *, app_name: str) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_a_store_that_does_not_answer_is_not_ready_within_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(health, "READINESS_TIMEOUT_S", 0.05)
    async with client(desk_app(_Hanging())) as http:
        ready = await http.get("/readyz")
    assert ready.status_code == 503
    assert ready.json() == {"detail": "the session store did not answer within 0.05 s"}


async def test_readyz_is_documented_with_its_503(store: SessionService) -> None:
    async with client(desk_app(store)) as http:
        schema = (await http.get("/openapi.json")).json()
    responses = schema["paths"]["/readyz"]["get"]["responses"]
    assert set(responses) >= {"200", "503"}
