"""Summaries, digests and memory over HTTP, each scoped to the caller."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from agentlog import SqliteSessionService
from agentlog.memory import InMemoryMemoryService
from agentlog.summary import ExtractiveSummarizer, InMemorySummaryStore
from server_support import ANA_KEY, BEN_KEY, auth, desk_app, parse_sse, sqlite


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteSessionService]:
    service = sqlite(tmp_path)
    yield service
    await service.close()


def app_with(store: SqliteSessionService, **kwargs: Any) -> FastAPI:
    return desk_app(
        store,
        summaries=InMemorySummaryStore(),
        summarizer=ExtractiveSummarizer(),
        memory=InMemoryMemoryService(),
        **kwargs,
    )


def client(app: FastAPI, key: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=auth(key))


async def refund_conversation(http: httpx.AsyncClient) -> str:
    sid: str = (await http.post("/sessions", json={})).json()["id"]
    await http.post(f"/sessions/{sid}/messages", json={"text": "Where is my order A-1001?"})
    response = await http.post(f"/sessions/{sid}/messages", json={"text": "refund the fee"})
    [ask] = [
        m
        for f in parse_sse(response.text)
        for m in f.data["messages"]
        if m["kind"] == "needs_approval"
    ]
    url = f"/sessions/{sid}/approvals/{ask['data']['request_id']}"
    await http.post(url, json={"kind": "confirmation", "confirmed": True})
    return sid


async def test_summary_digest_and_memory_of_a_session(store: SqliteSessionService) -> None:
    app = app_with(store)
    async with client(app, ANA_KEY) as ana, client(app, BEN_KEY) as ben:
        sid = await refund_conversation(ana)
        assert (await ana.get(f"/sessions/{sid}/summary")).status_code == 404
        taken = (await ana.post(f"/sessions/{sid}/summary")).json()
        assert taken["status"] == "ok"
        stored = {e["id"] for e in (await ana.get(f"/sessions/{sid}")).json()["events"]}
        items = [i for s in ("facts", "decisions", "commitments") for i in taken["record"][s]]
        assert items
        assert all(i["sources"] and set(i["sources"]) <= stored for i in items)
        assert all(i["provenance"] in ("verified", "agent_statement", "user_claim") for i in items)
        assert (await ana.get(f"/sessions/{sid}/summary")).json() == taken

        digest = await ana.get(f"/sessions/{sid}/digest")
        assert digest.headers["content-type"].startswith("text/markdown")
        cited = items[0]["sources"][0]
        assert f"#{cited}" in digest.text

        hits = (await ana.get("/memory/search", params={"q": "A-1001 refund"})).json()["hits"]
        assert hits
        assert all(h["entry"]["session_id"] == sid for h in hits)
        listed = (await ana.get("/memory", params={"session_id": sid})).json()["entries"]
        assert len(listed) >= len(hits)

        # Another user sees none of it.
        assert (await ben.get(f"/sessions/{sid}/summary")).status_code == 404
        assert (await ben.get(f"/sessions/{sid}/digest")).status_code == 404
        assert (await ben.post(f"/sessions/{sid}/summary")).status_code == 404
        assert (await ben.get("/memory/search", params={"q": "A-1001"})).json() == {"hits": []}
        assert (await ben.delete(f"/memory/sessions/{sid}")).json() == {"deleted": 0}
        assert (await ben.delete("/memory")).json() == {"deleted": 0}

        forgotten = (await ana.delete(f"/memory/sessions/{sid}")).json()
        assert forgotten == {"deleted": len(listed)}
        assert (await ana.get("/memory")).json() == {"entries": []}


async def test_deleting_a_session_deletes_what_was_derived_from_it(
    store: SqliteSessionService,
) -> None:
    app = app_with(store)
    async with client(app, ANA_KEY) as ana:
        sid = await refund_conversation(ana)
        other = await refund_conversation(ana)
        await ana.post(f"/sessions/{sid}/summary")
        await ana.post(f"/sessions/{other}/summary")
        assert (await ana.delete(f"/sessions/{sid}")).status_code == 204
        assert (await ana.get(f"/sessions/{sid}/summary")).status_code == 404
        remaining = (await ana.get("/memory")).json()["entries"]
        assert remaining
        assert {e["session_id"] for e in remaining} == {other}
        assert (await ana.delete("/memory")).json() == {"deleted": len(remaining)}


async def test_idle_sessions_are_summarised_in_the_background(store: SqliteSessionService) -> None:
    app = app_with(store, summarize_idle_after_s=0.0)
    async with app.router.lifespan_context(app), client(app, ANA_KEY) as ana:
        sid = await refund_conversation(ana)
        for _ in range(100):
            response = await ana.get(f"/sessions/{sid}/summary")
            if response.status_code == 200 and response.json()["session_version"] > 0:
                break
            await asyncio.sleep(0.05)
        assert response.json()["status"] == "ok"


async def test_without_stores_there_are_no_such_routes(store: SqliteSessionService) -> None:
    async with client(desk_app(store), ANA_KEY) as ana:
        paths = (await ana.get("/openapi.json")).json()["paths"]
        assert not any("summary" in p or "digest" in p or "memory" in p for p in paths)
        assert (await ana.get("/memory/search", params={"q": "x"})).status_code == 404
