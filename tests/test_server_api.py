"""The HTTP API through an HTTP client against the app: each route and each error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from agentlog import SessionService
from server_support import (
    ADMIN_KEY,
    ANA_KEY,
    BEN_KEY,
    STORES,
    ClientView,
    auth,
    database,
    desk_app,
    parse_sse,
)


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    with database(request.param, tmp_path) as open_store:
        service = open_store()
        yield service
        await service.close()


@pytest.fixture
def app(store: SessionService) -> FastAPI:
    return desk_app(store)


def client_for(app: FastAPI, key: str | None = ANA_KEY, **kwargs: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, **kwargs)
    headers = auth(key) if key else {}
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=headers)


@pytest.fixture
async def ana(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(app) as client:
        yield client


@pytest.fixture
async def ben(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(app, BEN_KEY) as client:
        yield client


async def new_session(client: httpx.AsyncClient, **body: Any) -> str:
    response = await client.post("/sessions", json=body)
    assert response.status_code == 201, response.text
    session_id: str = response.json()["id"]
    return session_id


async def say(client: httpx.AsyncClient, sid: str, text: str) -> list[Any]:
    response = await client.post(f"/sessions/{sid}/messages", json={"text": text})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return parse_sse(response.text)


async def stored_ids(client: httpx.AsyncClient, sid: str) -> list[str]:
    response = await client.get(f"/sessions/{sid}")
    return [e["id"] for e in response.json()["events"]]


def field_named(response: httpx.Response, name: str) -> bool:
    return any(name in map(str, error["loc"]) for error in response.json()["detail"])


# --- sessions ----------------------------------------------------------------------------


async def test_health_needs_no_key(app: FastAPI) -> None:
    async with client_for(app, key=None) as client:
        response = await client.get("/healthz")
    assert response.json() == {"status": "ok", "app": "agentlog"}


async def test_create_list_get_and_delete_a_session(ana: httpx.AsyncClient) -> None:
    created = await ana.post("/sessions", json={"session_id": "s-1", "state": {"user:tier": 2}})
    assert created.status_code == 201
    assert created.json()["state"] == {"user:tier": 2}
    assert (await ana.post("/sessions", json={"session_id": "s-1"})).status_code == 409
    listed = await ana.get("/sessions")
    assert [s["id"] for s in listed.json()["sessions"]] == ["s-1"]
    detail = (await ana.get("/sessions/s-1")).json()
    assert (detail["user_id"], detail["events"], detail["pending"]) == ("ana", [], [])
    assert (await ana.delete("/sessions/s-1")).status_code == 204
    assert (await ana.get("/sessions/s-1")).status_code == 404
    assert (await ana.delete("/sessions/s-1")).status_code == 404


async def test_malformed_session_bodies_name_the_field(ana: httpx.AsyncClient) -> None:
    response = await ana.post("/sessions", json={"session_id": "../etc"})
    assert response.status_code == 422
    assert field_named(response, "session_id")
    response = await ana.post("/sessions", json={"state": {"app:price": 1}})
    assert response.status_code == 422
    assert field_named(response, "state")
    response = await ana.post("/sessions", json={"surprise": 1})
    assert response.status_code == 422
    assert field_named(response, "surprise")
    response = await ana.post(
        "/sessions", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422


async def test_unknown_session_is_404(ana: httpx.AsyncClient) -> None:
    for method, path in [
        ("GET", "/sessions/nope"),
        ("GET", "/sessions/nope/state"),
        ("GET", "/sessions/nope/events"),
        ("GET", "/sessions/nope/stream"),
        ("DELETE", "/sessions/nope"),
    ]:
        response = await ana.request(method, path)
        assert response.status_code == 404, (method, path)
        assert response.json() == {"detail": "no session 'nope'"}
    response = await ana.post("/sessions/nope/messages", json={"text": "hi"})
    assert response.status_code == 404
    response = await ana.post(
        "/sessions/nope/approvals/confirm-1", json={"kind": "confirmation", "confirmed": True}
    )
    assert response.status_code == 404


async def test_another_users_session_is_404_for_every_route(
    ana: httpx.AsyncClient, ben: httpx.AsyncClient
) -> None:
    sid = await new_session(ana)
    await say(ana, sid, "where is my order A-1001?")
    before = await stored_ids(ana, sid)
    attempts = [
        ben.get(f"/sessions/{sid}"),
        ben.get(f"/sessions/{sid}/state"),
        ben.get(f"/sessions/{sid}/events"),
        ben.get(f"/sessions/{sid}/stream"),
        ben.post(f"/sessions/{sid}/messages", json={"text": "hi"}),
        ben.post(f"/sessions/{sid}/approvals/x", json={"kind": "confirmation", "confirmed": True}),
        ben.delete(f"/sessions/{sid}"),
    ]
    for attempt in attempts:
        response = await attempt
        assert response.status_code == 404
        assert "ana" not in response.text
    assert (await ben.get("/sessions")).json() == {"sessions": []}
    assert await stored_ids(ana, sid) == before


# --- turns -------------------------------------------------------------------------------


async def test_a_message_streams_the_turn_with_event_ids(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    frames = await say(ana, sid, "where is my order A-1001?")
    stored = await stored_ids(ana, sid)
    assert [f.id for f in frames if f.event == "event"] == stored
    assert {f.event for f in frames} == {"event", "draft", "end"}
    assert frames[0].kinds == ["user_message"]
    assert frames[-1].event == "end"
    assert frames[-1].id is None
    assert all(f.id is None for f in frames if f.event != "event")
    drafts = [f for f in frames if f.event == "draft"]
    assert drafts
    assert all("event" not in f.data for f in drafts)  # no null fields
    invocation = frames[0].data["event"]["invocation_id"]
    assert {f.data["messages"][0]["id"] for f in drafts} == {invocation}
    view = ClientView()
    for frame in frames:
        view.apply(frame)
    assert view.draft is None
    assert len(view.answers) == 1
    assert "A-1001" in view.answers[0]


async def test_bad_messages_are_422_naming_the_field(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    response = await ana.post(f"/sessions/{sid}/messages", json={})
    assert response.status_code == 422
    assert field_named(response, "text")
    response = await ana.post(
        f"/sessions/{sid}/messages", json={"text": "hi", "state_delta": {"app:x": 1}}
    )
    assert response.status_code == 422
    assert field_named(response, "state_delta")
    response = await ana.post(f"/sessions/{sid}/messages", json={"text": "   "})
    assert response.status_code == 422  # the runner's InvalidMessageError
    assert "empty" in response.json()["detail"]
    assert await stored_ids(ana, sid) == []


async def test_approve_a_refund_then_answering_again_is_409(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    await say(ana, sid, "where is my order A-1001?")
    frames = await say(ana, sid, "please refund the shipping fee")
    asks = [m for f in frames for m in f.data["messages"] if m["kind"] == "needs_approval"]
    assert len(asks) == 1
    assert frames[-1].event == "end"
    request_id = asks[0]["data"]["request_id"]
    pending = (await ana.get(f"/sessions/{sid}")).json()["pending"]
    assert [p["request_id"] for p in pending] == [request_id]
    assert pending[0]["payload"] == {"order_id": "A-1001", "amount": 12.5}

    url = f"/sessions/{sid}/approvals/{request_id}"
    malformed = await ana.post(url, json={"kind": "confirmation"})
    assert malformed.status_code == 422
    assert field_named(malformed, "confirmed")
    wrong_kind = await ana.post(url, json={"kind": "credential", "credential": {"k": "v"}})
    assert wrong_kind.status_code == 422
    unknown = await ana.post(
        f"/sessions/{sid}/approvals/confirm-nope", json={"kind": "confirmation", "confirmed": True}
    )
    assert unknown.status_code == 404

    answered = await ana.post(url, json={"kind": "confirmation", "confirmed": True})
    assert answered.status_code == 200
    resumed = parse_sse(answered.text)
    kinds = [k for f in resumed for k in f.kinds]
    assert kinds[0] == "approval_answer"
    assert "tool_result" in kinds
    assert kinds[-1] == "turn_end"
    assert any("R-7781" in m["text"] for f in resumed for m in f.data["messages"])
    again = await ana.post(url, json={"kind": "confirmation", "confirmed": False})
    assert again.status_code == 409
    state = (await ana.get(f"/sessions/{sid}/state")).json()["state"]
    assert state["refunds"][0]["refund_id"] == "R-7781"
    assert (await ana.get(f"/sessions/{sid}")).json()["pending"] == []


async def test_events_after_an_id(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    await say(ana, sid, "where is my order A-1001?")
    stored = await stored_ids(ana, sid)
    page = (await ana.get(f"/sessions/{sid}/events", params={"after": stored[1]})).json()
    assert [i["event"]["id"] for i in page["items"]] == stored[2:]
    assert page["has_more"] is False
    assert page["items"][-1]["messages"][-1]["kind"] == "answer"
    limited = (await ana.get(f"/sessions/{sid}/events", params={"limit": 2})).json()
    assert [i["event"]["id"] for i in limited["items"]] == stored[:2]
    assert limited["has_more"]
    missing = await ana.get(f"/sessions/{sid}/events", params={"after": "01NOPE"})
    assert missing.status_code == 404
    assert "01NOPE" in missing.json()["detail"]


async def test_reattaching_to_a_finished_turn_replays_after_the_id(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    await say(ana, sid, "where is my order A-1001?")
    stored = await stored_ids(ana, sid)
    response = await ana.get(f"/sessions/{sid}/stream", headers={"Last-Event-ID": stored[0]})
    frames = parse_sse(response.text)
    assert [f.id for f in frames if f.event == "event"] == stored[1:]
    assert frames[-1].event == "end"
    assert frames[-1].kinds == ["turn_end"]
    everything = parse_sse((await ana.get(f"/sessions/{sid}/stream")).text)
    assert [f.id for f in everything if f.event == "event"] == stored
    # The header wins over ?after=.
    both = await ana.get(
        f"/sessions/{sid}/stream",
        params={"after": stored[0]},
        headers={"Last-Event-ID": stored[-2]},
    )
    assert [f.id for f in parse_sse(both.text) if f.event == "event"] == stored[-1:]
    unknown = await ana.get(f"/sessions/{sid}/stream", headers={"Last-Event-ID": "01NOPE"})
    assert unknown.status_code == 404


# --- state -------------------------------------------------------------------------------


async def test_app_state_is_readable_by_all_and_writable_by_admins(
    app: FastAPI, ana: httpx.AsyncClient
) -> None:
    assert (await ana.get("/state/app")).json() == {"state": {}}
    denied = await ana.patch("/state/app", json={"delta": {"banner": "hi"}})
    assert denied.status_code == 403
    assert (await ana.put("/state/app", json={"state": {}})).status_code == 403
    async with client_for(app, ADMIN_KEY) as admin:
        patched = await admin.patch("/state/app", json={"delta": {"banner": "hi", "app:max": 3}})
        assert patched.json() == {"state": {"banner": "hi", "max": 3}}
        put = await admin.put("/state/app", json={"state": {"max": 4}})
        assert put.json() == {"state": {"max": 4}}
        deleted = await admin.patch("/state/app", json={"delta": {"max": None}})
        assert deleted.json() == {"state": {}}
        await admin.patch("/state/app", json={"delta": {"banner": "sale"}})
        bad = await admin.patch("/state/app", json={"delta": {"user:x": 1}})
        assert bad.status_code == 422
        assert field_named(bad, "delta")
    assert (await ana.get("/state/app")).json() == {"state": {"banner": "sale"}}
    sid = await new_session(ana, state={"user:tier": "gold", "topic": "refund"})
    state = (await ana.get(f"/sessions/{sid}/state")).json()["state"]
    assert state == {"app:banner": "sale", "user:tier": "gold", "topic": "refund"}
    assert (await ana.get("/state/user")).json() == {"state": {"tier": "gold"}}


# --- access, limits, CORS, schema -----------------------------------------------------------


async def test_missing_or_bad_keys_are_401(app: FastAPI) -> None:
    async with client_for(app, key=None) as anonymous:
        response = await anonymous.get("/sessions")
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        assert (await anonymous.get("/sessions", headers=auth("wrong"))).status_code == 401
        assert (await anonymous.get("/state/app")).status_code == 401
        with_header = await anonymous.get("/sessions", headers={"X-API-Key": ANA_KEY})
        assert with_header.status_code == 200


async def test_without_keys_one_local_user_on_loopback_only(store: SessionService) -> None:
    app = desk_app(store, local=True)
    async with client_for(app, key=None) as local:
        sid = await new_session(local)
        assert (await local.get(f"/sessions/{sid}")).json()["user_id"] == "local"
        assert (await local.patch("/state/app", json={"delta": {"x": 1}})).status_code == 200
    async with client_for(app, key=None, client=("10.1.2.3", 5000)) as remote:
        assert (await remote.get("/sessions")).status_code == 403


async def test_oversize_bodies_are_413(store: SessionService) -> None:
    app = desk_app(store, max_body_bytes=1_000)
    async with client_for(app) as client:
        sid = await new_session(client)
        big = {"text": "x" * 2_000}
        response = await client.post(f"/sessions/{sid}/messages", json=big)
        assert response.status_code == 413

        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(4):
                yield b'{"text": "' + b"y" * 400
            yield b'"}'

        streamed = await client.post(
            f"/sessions/{sid}/messages",
            content=chunks(),
            headers={"content-type": "application/json"},
        )
        assert "content-length" not in streamed.request.headers
        assert streamed.status_code == 413
        assert await stored_ids(client, sid) == []
        assert (
            await client.post(f"/sessions/{sid}/messages", json={"text": "hi"})
        ).status_code == 200


async def test_cors_is_off_unless_origins_are_given(app: FastAPI, store: SessionService) -> None:
    preflight = {"Origin": "https://shop.example", "Access-Control-Request-Method": "POST"}
    async with client_for(app) as client:
        response = await client.options("/sessions", headers=preflight)
        assert "access-control-allow-origin" not in response.headers
    allowed = desk_app(store, cors_origins=["https://shop.example"])
    async with client_for(allowed) as client:
        response = await client.options("/sessions", headers=preflight)
        assert response.headers["access-control-allow-origin"] == "https://shop.example"


async def test_openapi_is_published(ana: httpx.AsyncClient) -> None:
    schema = (await ana.get("/openapi.json")).json()
    paths = schema["paths"]
    assert set(paths) >= {
        "/sessions",
        "/sessions/{session_id}",
        "/sessions/{session_id}/messages",
        "/sessions/{session_id}/approvals/{request_id}",
        "/sessions/{session_id}/stream",
        "/sessions/{session_id}/events",
        "/sessions/{session_id}/state",
        "/state/app",
        "/approvals/stalled",
    }
    assert (
        "text/event-stream"
        in paths["/sessions/{session_id}/messages"]["post"]["responses"]["200"]["content"]
    )
    assert "StreamFrame" in schema["components"]["schemas"]
    assert "/" not in paths


async def test_a_message_with_last_event_id_first_sends_what_the_client_missed(
    ana: httpx.AsyncClient,
) -> None:
    sid = await new_session(ana)
    await say(ana, sid, "where is my order A-1001?")
    first_turn = await stored_ids(ana, sid)
    response = await ana.post(
        f"/sessions/{sid}/messages",
        json={"text": "and B-2040?"},
        headers={"Last-Event-ID": first_turn[1]},
    )
    frames = parse_sse(response.text)
    stored = await stored_ids(ana, sid)
    assert [f.id for f in frames if f.event == "event"] == stored[2:]
    assert frames[-1].event == "end"
    unknown = await ana.post(
        f"/sessions/{sid}/messages", json={"text": "hi"}, headers={"Last-Event-ID": "01NOPE"}
    )
    assert unknown.status_code == 404
    assert await stored_ids(ana, sid) == stored
    empty = await ana.post(
        f"/sessions/{sid}/messages", json={"text": "hi"}, headers={"Last-Event-ID": ""}
    )
    assert empty.status_code == 200
