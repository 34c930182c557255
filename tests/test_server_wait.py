"""A turn answered as JSON at its end ("run and wait"), and answers without null fields."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from agentlog import Event, SessionService, SqliteSessionService
from agentlog.errors import StoreUnavailableError
from agentlog.runner import Runner
from agentlog.server import create_app
from agentlog.server.deps import Server
from agentlog.server.desk import RefundDeskModel, refund_desk
from agentlog.server.no_nulls import strip_nulls
from agentlog.server.wait import wants_json
from agentlog.sessions.base import Session
from agentlog.sessions.memory import InMemorySessionService
from server_support import ANA_KEY, KEYS, STORES, auth, database, desk_app, parse_sse


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    with database(request.param, tmp_path) as open_store:
        service = open_store()
        yield service
        await service.close()


def client_for(app: FastAPI, key: str = ANA_KEY) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=auth(key))


@pytest.fixture
async def ana(store: SessionService) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(desk_app(store)) as client:
        yield client


async def new_session(client: httpx.AsyncClient) -> str:
    response = await client.post("/sessions", json={})
    assert response.status_code == 201, response.text
    session_id: str = response.json()["id"]
    return session_id


async def stored(client: httpx.AsyncClient, sid: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = (await client.get(f"/sessions/{sid}")).json()["events"]
    return events


def nulls(value: Any, path: str = "$") -> Iterator[str]:
    """Where ``value`` holds a null field (a null in a state delta is data: it deletes)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if item is None:
                yield f"{path}.{key}"
            elif key != "state_delta":
                yield from nulls(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nulls(item, f"{path}[{index}]")


# --- run and wait -------------------------------------------------------------------------


async def test_stream_false_answers_the_turns_stored_events(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    response = await ana.post(
        f"/sessions/{sid}/messages", params={"stream": "false"}, json={"text": "order A-1001?"}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    turn = response.json()
    assert turn["events"] == await stored(ana, sid)
    first = turn["events"][0]
    assert (first["author"], first["content"]["parts"]) == ("user", [{"text": "order A-1001?"}])
    assert {e["invocation_id"] for e in turn["events"]} == {turn["invocation_id"]}
    assert "A-1001" in turn["events"][-1]["content"]["parts"][0]["text"]
    assert turn["pending"] == []
    assert "error" not in turn
    assert list(nulls(turn)) == []


async def test_accept_json_answers_json_and_the_default_still_streams(
    ana: httpx.AsyncClient,
) -> None:
    sid = await new_session(ana)
    waited = await ana.post(
        f"/sessions/{sid}/messages",
        json={"text": "order A-1001?"},
        headers={"Accept": "application/json"},
    )
    assert waited.headers["content-type"] == "application/json"
    assert len(waited.json()["events"]) >= 2
    streamed = await ana.post(f"/sessions/{sid}/messages", json={"text": "and B-2040?"})
    assert streamed.headers["content-type"].startswith("text/event-stream")
    assert parse_sse(streamed.text)[-1].event == "end"
    # The query wins over the header.
    forced = await ana.post(
        f"/sessions/{sid}/messages",
        params={"stream": "true"},
        json={"text": "and A-1001?"},
        headers={"Accept": "application/json"},
    )
    assert forced.headers["content-type"].startswith("text/event-stream")


def test_accept_negotiation() -> None:
    assert not wants_json(None, None)
    assert not wants_json("*/*", None)
    assert not wants_json("text/event-stream", None)
    assert wants_json("application/json", None)
    assert wants_json("application/*", None)
    assert not wants_json("application/json, text/event-stream", None)  # a tie streams
    assert wants_json("text/event-stream;q=0.5, application/json", None)
    assert not wants_json("application/json;q=0.2, */*;q=0.9", None)
    assert wants_json("application/json;q=0.9, text/*;q=0.1", None)
    assert not wants_json("application/json;q=bad", None)
    assert wants_json("text/event-stream", False)
    assert not wants_json("application/json", True)


async def test_an_approval_waits_as_json_then_the_answer_resumes_as_json(
    ana: httpx.AsyncClient,
) -> None:
    sid = await new_session(ana)
    json_turn = {"stream": "false"}
    await ana.post(f"/sessions/{sid}/messages", params=json_turn, json={"text": "order A-1001?"})
    asked = await ana.post(
        f"/sessions/{sid}/messages", params=json_turn, json={"text": "refund the shipping fee"}
    )
    [request] = asked.json()["pending"]
    assert (request["session_id"], request["user_id"]) == (sid, "ana")
    assert request["payload"] == {"order_id": "A-1001", "amount": 12.5}
    assert request == (await ana.get(f"/sessions/{sid}")).json()["pending"][0] | {
        "waiting_s": request["waiting_s"]
    }

    url = f"/sessions/{sid}/approvals/{request['request_id']}"
    answer = {"kind": "confirmation", "confirmed": True}
    resumed = await ana.post(url, params=json_turn, json=answer)
    assert resumed.status_code == 200, resumed.text
    turn = resumed.json()
    assert turn["invocation_id"] == request["invocation_id"]
    [response] = turn["events"][0]["content"]["parts"]
    assert response["function_response"]["id"] == request["request_id"]
    assert "refunded" in turn["events"][-1]["content"]["parts"][0]["text"]
    assert turn["pending"] == []
    assert turn["events"] == (await stored(ana, sid))[-len(turn["events"]) :]

    again = await ana.post(url, params=json_turn, json=answer)
    assert again.status_code == 409
    assert "already answered" in again.json()["detail"]


async def test_refusals_are_the_streams_own(ana: httpx.AsyncClient) -> None:
    json_turn = {"stream": "false"}
    missing = await ana.post("/sessions/nope/messages", params=json_turn, json={"text": "hi"})
    assert (missing.status_code, missing.json()) == (404, {"detail": "no session 'nope'"})
    sid = await new_session(ana)
    blank = await ana.post(f"/sessions/{sid}/messages", params=json_turn, json={"text": " "})
    assert (blank.status_code, blank.json()) == (422, {"detail": "the message is empty"})
    unknown = await ana.post(
        f"/sessions/{sid}/approvals/confirm-nope",
        params=json_turn,
        json={"kind": "confirmation", "confirmed": True},
    )
    assert unknown.status_code == 404
    assert await stored(ana, sid) == []


async def test_a_busy_session_is_409_as_json_too(tmp_path: Path) -> None:
    """Two servers on one database: while one runs a turn, the other, told not to wait for
    the session, refuses a JSON turn with 409 and stores nothing."""
    slow_store = SqliteSessionService(tmp_path / "shared.db")
    quick_store = SqliteSessionService(tmp_path / "shared.db")
    slow = desk_app(slow_store, delay_s=0.2)
    impatient = Runner(
        agent=refund_desk(RefundDeskModel()), session_service=quick_store, lease_wait_s=0
    )
    other = create_app(impatient, api_keys=KEYS, stall_check_interval_s=None)
    try:
        async with client_for(slow) as a, client_for(other) as b:
            sid = await new_session(a)
            running = asyncio.create_task(
                a.post(f"/sessions/{sid}/messages?stream=false", json={"text": "A-1001?"})
            )
            await _until_started(slow, ("ana", sid))
            busy = await b.post(f"/sessions/{sid}/messages?stream=false", json={"text": "hi"})
            assert busy.status_code == 409
            assert "busy" in busy.json()["detail"]
            first = await running
            assert first.status_code == 200
            assert first.json()["events"] == await stored(a, sid)
    finally:
        await slow_store.close()
        await quick_store.close()


async def _until_started(app: FastAPI, key: tuple[str, str]) -> None:
    server: Server = app.state.agentlog
    for _ in range(500):
        if any(turn.started for turn in server.hub.turns(key)):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the turn never started")


async def test_a_json_turn_is_live_for_the_sessions_streams(store: SessionService) -> None:
    app = desk_app(store, delay_s=0.05)
    async with client_for(app) as ana:
        sid = await new_session(ana)
        waiting = asyncio.create_task(
            ana.post(f"/sessions/{sid}/messages?stream=false", json={"text": "A-1001?"})
        )
        await _until_started(app, ("ana", sid))
        frames = parse_sse((await ana.get(f"/sessions/{sid}/stream")).text)
        turn = (await waiting).json()
        assert [f.id for f in frames if f.event == "event"] == [e["id"] for e in turn["events"]]
        assert "draft" in {f.event for f in frames}
        assert frames[-1].event == "end"


class _FailingAfterTheMessage(InMemorySessionService):
    """A store that takes the user's message and then goes away."""

    async def append_event(self, session: Session, event: Event) -> Event:
        if event.author != "user" and not event.partial:
            raise StoreUnavailableError("the disk went away")
        return await super().append_event(session, event)


async def test_a_failure_that_could_not_be_stored_is_the_turns_error() -> None:
    app = desk_app(_FailingAfterTheMessage())
    async with client_for(app) as ana:
        sid = await new_session(ana)
        response = await ana.post(f"/sessions/{sid}/messages?stream=false", json={"text": "hi"})
    assert response.status_code == 200
    turn = response.json()
    assert [e["author"] for e in turn["events"]] == ["user"]
    assert turn["error"]["kind"] == "error"
    assert turn["error"]["data"] == {"error_code": "internal"}
    assert turn["error"]["text"]  # the sentence a stream's error frame shows


async def test_the_schema_documents_both_answers_of_a_turn(ana: httpx.AsyncClient) -> None:
    schema = (await ana.get("/openapi.json")).json()
    for path in (
        "/sessions/{session_id}/messages",
        "/sessions/{session_id}/approvals/{request_id}",
    ):
        operation = schema["paths"][path]["post"]
        content = operation["responses"]["200"]["content"]
        assert set(content) == {"application/json", "text/event-stream"}
        assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/TurnOut"}
        stream = next(p for p in operation["parameters"] if p["name"] == "stream")
        assert stream["schema"]["type"] == "boolean"
        assert {"404", "409", "422"} <= set(operation["responses"])
    assert set(schema["components"]["schemas"]["TurnOut"]["required"]) == {
        "invocation_id",
        "events",
        "pending",
    }


# --- no null fields -----------------------------------------------------------------------


async def test_no_answer_carries_a_null_field(ana: httpx.AsyncClient) -> None:
    sid = await new_session(ana)
    frames = parse_sse(
        (await ana.post(f"/sessions/{sid}/messages", json={"text": "order A-1001?"})).text
    )
    for frame in frames:
        assert list(nulls(frame.data)) == [], frame
    for path in (f"/sessions/{sid}", f"/sessions/{sid}/events", "/sessions", "/healthz"):
        body = (await ana.get(path)).json()
        assert list(nulls(body)) == [], path
    # A null inside a value is data, and stays: here it deletes a key.
    await ana.post(
        f"/sessions/{sid}/messages",
        params={"stream": "false"},
        json={"text": "B-2040?", "state_delta": {"note": "x"}},
    )
    turn = await ana.post(
        f"/sessions/{sid}/messages",
        params={"stream": "false"},
        json={"text": "A-1001?", "state_delta": {"note": None}},
    )
    assert turn.json()["events"][0]["actions"]["state_delta"] == {"note": None}


async def test_the_schema_says_answers_hold_no_nulls(ana: httpx.AsyncClient) -> None:
    schema = (await ana.get("/openapi.json")).json()
    components = schema["components"]["schemas"]
    event = components["Event"]["properties"]
    assert event["content"]["$ref"] == "#/components/schemas/Content"
    assert event["model"]["type"] == "string"
    assert "default" not in event["model"]
    assert "null" not in json.dumps(components["StreamFrame"]["properties"]["event"])
    # Deleting a key with null is what a delta's values still allow.
    delta = components["EventActions"]["properties"]["state_delta"]
    assert {"type": "null", "description": "deletes the key"} in delta["additionalProperties"][
        "anyOf"
    ]
    assert "null" in schema["info"]["description"]


def test_strip_nulls_leaves_what_requests_use() -> None:
    nullable = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    schema = {
        "paths": {
            "/x": {
                "post": {
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/In"}}
                        }
                    },
                    "parameters": [{"schema": {"$ref": "#/components/schemas/Param"}}],
                }
            }
        },
        "components": {
            "schemas": {
                "In": {"properties": {"inner": {"$ref": "#/components/schemas/Inner"}}},
                "Inner": {"properties": {"a": dict(nullable)}},
                "Param": {"properties": {"a": dict(nullable)}},
                "Out": {
                    "properties": {"a": dict(nullable), "b": dict(nullable)},
                    "required": ["b"],
                },
            }
        },
    }
    strip_nulls(schema)
    components = schema["components"]["schemas"]
    assert components["Inner"]["properties"]["a"] == nullable
    assert components["Param"]["properties"]["a"] == nullable
    assert components["Out"]["properties"] == {"a": {"type": "string"}, "b": nullable}
