"""Turns paused on an approval past the deadline: listed by an endpoint, logged as warnings."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from agentlog import SqliteSessionService
from agentlog.server.stalls import StallWatcher
from server_support import ADMIN_KEY, ANA_KEY, BEN_KEY, auth, desk_app, parse_sse, sqlite


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteSessionService]:
    service = sqlite(tmp_path)
    yield service
    await service.close()


@pytest.fixture
def app(store: SqliteSessionService) -> FastAPI:
    return desk_app(store, approval_deadline_s=600)


def client(app: FastAPI, key: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=auth(key))


async def paused_session(http: httpx.AsyncClient) -> tuple[str, str]:
    sid = (await http.post("/sessions", json={})).json()["id"]
    await http.post(f"/sessions/{sid}/messages", json={"text": "order A-1001?"})
    response = await http.post(f"/sessions/{sid}/messages", json={"text": "refund the fee"})
    [ask] = [
        m
        for f in parse_sse(response.text)
        for m in f.data["messages"]
        if m["kind"] == "needs_approval"
    ]
    return sid, ask["data"]["request_id"]


async def test_stalled_approvals_are_listed_per_user(app: FastAPI) -> None:
    async with client(app, ANA_KEY) as ana, client(app, BEN_KEY) as ben:
        sid, request_id = await paused_session(ana)
        fresh = (await ana.get("/approvals/stalled")).json()
        assert fresh == {"deadline_s": 600, "approvals": []}
        stalled = (await ana.get("/approvals/stalled", params={"older_than_s": 0})).json()
        [item] = stalled["approvals"]
        assert (item["session_id"], item["request_id"], item["kind"]) == (
            sid,
            request_id,
            "confirmation",
        )
        assert item["user_id"] == "ana"
        assert item["waiting_s"] >= 0
        others = (await ben.get("/approvals/stalled", params={"older_than_s": 0})).json()
        assert others["approvals"] == []
        async with client(app, ADMIN_KEY) as admin:
            everyone = (await admin.get("/approvals/stalled", params={"older_than_s": 0})).json()
        assert [a["request_id"] for a in everyone["approvals"]] == [request_id]
        answer = {"kind": "confirmation", "confirmed": False}
        await ana.post(f"/sessions/{sid}/approvals/{request_id}", json=answer)
        after = (await ana.get("/approvals/stalled", params={"older_than_s": 0})).json()
        assert after["approvals"] == []


async def test_moving_on_abandons_the_request(app: FastAPI) -> None:
    async with client(app, ANA_KEY) as ana:
        sid, request_id = await paused_session(ana)
        await ana.post(f"/sessions/{sid}/messages", json={"text": "never mind"})
        assert (await ana.get(f"/sessions/{sid}")).json()["pending"] == []
        stalled = (await ana.get("/approvals/stalled", params={"older_than_s": 0})).json()
        assert stalled["approvals"] == []
        answer = {"kind": "confirmation", "confirmed": True}
        late = await ana.post(f"/sessions/{sid}/approvals/{request_id}", json=answer)
        assert late.status_code == 409
        assert "abandoned" in late.json()["detail"]


async def test_the_watcher_warns_once_per_stalled_request(
    app: FastAPI, store: SqliteSessionService, caplog: pytest.LogCaptureFixture
) -> None:
    async with client(app, ANA_KEY) as ana:
        sid, request_id = await paused_session(ana)
    watcher = StallWatcher(store, "agentlog", deadline_s=60, interval_s=30)
    with caplog.at_level(logging.WARNING, logger="agentlog.server.stalls"):
        assert await watcher.check() == []
        later = time.time() + 61
        [warned] = await watcher.check(now=later)
        assert await watcher.check(now=later + 30) == []
    assert warned.request_id == request_id
    lines = [r.getMessage() for r in caplog.records if "approval stalled" in r.getMessage()]
    assert len(lines) == 1
    assert request_id in lines[0]
    assert sid in lines[0]
