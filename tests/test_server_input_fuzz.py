"""Hostile bodies to every route that takes one: never a 5xx, and nothing made unreadable.

Each example sends one request whose body holds what Python's JSON parser accepts and the
input contract (``agentlog.limits``) does not: ``NaN``, infinities, huge exponents and
integers, lone surrogates, NUL, deep nesting, huge keys and values, in a key, a value, a text
or an id. A request holding one of them must get a 4xx; any request must get less than a 5xx;
and after each, every session, user and app state still loads, over HTTP and from the store.
On SQLite and PostgreSQL, with a bounded number of examples.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from agentlog.limits import MAX_DEPTH, MAX_KEY_BYTES
from agentlog.memory import InMemoryMemoryService
from agentlog.server.routes.state import ADMIN_USER, STATE_SESSION
from agentlog.sessions.base import SessionService
from agentlog.summary import ExtractiveSummarizer, InMemorySummaryStore
from server_support import (
    ADMIN_KEY,
    ANA_KEY,
    STORES,
    auth,
    database,
    desk_app,
    parse_sse,
    sqlite,
)

APP = "agentlog"  # the runner's default app name
TALK, ASK = "s-talk", "s-ask"
"""Ana's sessions: one that messages go to, one holding a pending approval."""


@dataclass(frozen=True)
class Piece:
    """A fragment of JSON text, and whether it breaks the input contract."""

    text: str
    bad: bool | None
    """True: the request must get a 4xx; False: within the contract; None: it depends on
    where it goes (a key's size limit counts the prefix a route adds)."""

    def __repr__(self) -> str:
        return self.text if len(self.text) < 40 else f"{self.text[:20]}...({len(self.text)})"


def _nested(depth: int, opening: str = "[", closing: str = "]") -> str:
    return opening * depth + "1" + closing * depth


def _string(body: str) -> str:
    return '"' + body + '"'


VALUES = [
    Piece("NaN", True),
    Piece("Infinity", True),
    Piece("-Infinity", True),
    Piece("1e999", True),
    Piece("-2.5E+400", True),
    Piece("1" + "0" * 400, True),  # an integer over 1.8e308
    Piece("1" + "0" * 5000, True),  # more digits than Python's parser takes
    Piece(_string("\\ud800"), True),
    Piece(_string("caf\\udfff"), True),
    Piece('{"ok": {"\\udc00": 1}}', True),
    Piece('[1, {"a": NaN}]', True),
    Piece(_nested(MAX_DEPTH + 1), True),
    Piece(_nested(MAX_DEPTH + 6, '{"a": ', "}"), True),
    Piece(_nested(5_000), True),
    Piece(_string("x" * 1_100_000), True),  # over the body limit
    Piece("1e-999", False),  # reads as 0.0: finite
    Piece(_nested(MAX_DEPTH - 1), False),
    Piece(_string("\\u0000 in a value is fine"), False),
    Piece(_string("\\ud83d\\ude00"), False),  # a surrogate pair: one valid character
    Piece('{"a\\u0000": [1, 2.5, null, true]}', False),
    Piece(_string("x" * 200_000), False),
    Piece("12.5", False),
    Piece("null", False),
    Piece('"gold"', False),
]

KEYS = [
    Piece(_string("\\u0000"), True),
    Piece(_string("tier\\u0000"), True),
    Piece(_string("\\ud800"), True),
    Piece(_string("user:\\udfff"), True),
    Piece(_string("k" * (MAX_KEY_BYTES + 1)), True),
    Piece(_string("é" * (MAX_KEY_BYTES // 2 + 1)), True),  # few characters, many bytes
    Piece('""', True),
    Piece(_string("k" * MAX_KEY_BYTES), None),  # fits, unless a route adds "app:"
    Piece(_string("tier"), False),
    Piece(_string("user:tier"), False),
    Piece(_string("temp:scratch"), None),  # no temp: keys in app state
]

TEXTS = [
    Piece(_string("\\ud800"), True),
    Piece(_string("hi \\udfff"), True),
    Piece('""', True),
    Piece(_string("x" * 100_001), True),
    Piece(_string("hi \\u0000"), None),
    Piece(_string("where is my order A-1001?"), False),
]

SESSION_IDS = [
    Piece(_string("\\ud800"), True),
    Piece(_string("s\\u0000"), True),
    Piece(_string("s" * 600), True),
    Piece("null", False),
]


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: str
    bad: bool | None
    admin: bool = False

    def __repr__(self) -> str:
        return f"{self.method} {self.path} {self.body[:200]!r} (bad: {self.bad})"


def _bad(*pieces: Piece) -> bool | None:
    if any(p.bad for p in pieces):
        return True
    return None if any(p.bad is None for p in pieces) else False


def _message(text: Piece, key: Piece, value: Piece) -> Request:
    body = f'{{"text": {text.text}, "state_delta": {{{key.text}: {value.text}}}}}'
    return Request("POST", f"/sessions/{TALK}/messages", body, _bad(text, key, value))


def _create(sid: Piece, key: Piece, value: Piece) -> Request:
    body = f'{{"session_id": {sid.text}, "state": {{{key.text}: {value.text}}}}}'
    return Request("POST", "/sessions", body, _bad(sid, key, value))


def _patch_app(key: Piece, value: Piece) -> Request:
    body = f'{{"delta": {{{key.text}: {value.text}}}}}'
    return Request("PATCH", "/state/app", body, _bad(key, value), admin=True)


def _put_app(key: Piece, value: Piece) -> Request:
    body = f'{{"state": {{{key.text}: {value.text}}}}}'
    return Request("PUT", "/state/app", body, _bad(key, value), admin=True)


def _confirm(value: Piece) -> Request:
    body = f'{{"kind": "confirmation", "confirmed": true, "payload": {value.text}}}'
    return Request("POST", f"/sessions/{ASK}/approvals/{{request}}", body, value.bad)


def _credential(key: Piece, value: Piece) -> Request:
    body = f'{{"kind": "credential", "credential": {{{key.text}: {value.text}}}}}'
    return Request("POST", f"/sessions/{ASK}/approvals/{{request}}", body, _bad(key, value))


def _whole(value: Piece) -> list[Request]:
    """The piece as the whole body of every route: never an object, so always refused."""
    paths = [
        ("POST", f"/sessions/{TALK}/messages", False),
        ("POST", "/sessions", False),
        ("PATCH", "/state/app", True),
        ("PUT", "/state/app", True),
        ("POST", f"/sessions/{ASK}/approvals/{{request}}", False),
    ]
    return [Request(m, p, value.text, True, admin=a) for m, p, a in paths]


def pieces(choices: list[Piece]) -> st.SearchStrategy[Piece]:
    """Any of ``choices``, the good ones as often as all the others together: requests that
    are accepted interleave with those refused."""
    return st.sampled_from([p for p in choices if p.bad is False]) | st.sampled_from(choices)


values, keys = pieces(VALUES), pieces(KEYS)
requests = st.one_of(
    st.builds(_message, pieces(TEXTS), keys, values),
    st.builds(_create, pieces(SESSION_IDS), keys, values),
    st.builds(_patch_app, keys, values),
    st.builds(_put_app, keys, values),
    st.builds(_confirm, values),
    st.builds(_credential, keys, values),
    st.builds(_whole, values).flatmap(st.sampled_from),
)

BODY_ROUTES = {
    ("POST", "/sessions"),
    ("POST", "/sessions/{session_id}/messages"),
    ("POST", "/sessions/{session_id}/approvals/{request_id}"),
    ("PATCH", "/state/app"),
    ("PUT", "/state/app"),
}
"""What the strategies above send to; ``test_every_route_with_a_body_is_fuzzed`` keeps it
honest."""


# --- the server under fire --------------------------------------------------------------------


@dataclass
class Served:
    store: SessionService
    ana: httpx.AsyncClient
    admin: httpx.AsyncClient
    request_id: str = ""
    """The approval pending on ``ASK``."""


@pytest.fixture(params=STORES)
async def served(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Served]:
    with database(request.param, tmp_path) as open_store:
        store = open_store()
        app = desk_app(
            store,
            summaries=InMemorySummaryStore(),
            summarizer=ExtractiveSummarizer(),
            memory=InMemoryMemoryService(),
        )
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(
                transport=transport, base_url="http://t", headers=auth(ANA_KEY)
            ) as ana,
            httpx.AsyncClient(
                transport=transport, base_url="http://t", headers=auth(ADMIN_KEY)
            ) as admin,
        ):
            served = Served(store, ana, admin)
            for sid in (TALK, ASK):
                assert (await ana.post("/sessions", json={"session_id": sid})).status_code == 201
            await say(ana, TALK, "where is my order A-1001?")
            await ask_for_approval(served)
            yield served
        await store.close()


async def say(client: httpx.AsyncClient, sid: str, text: str) -> list[Any]:
    response = await client.post(f"/sessions/{sid}/messages", json={"text": text})
    assert response.status_code == 200, response.text
    return parse_sse(response.text)


async def ask_for_approval(served: Served) -> None:
    """Leave a refund approval pending on ``ASK``, and note its request id."""
    await say(served.ana, ASK, "where is my order A-1001?")
    frames = await say(served.ana, ASK, "please refund the shipping fee")
    asks = [m for f in frames for m in f.data["messages"] if m["kind"] == "needs_approval"]
    assert asks, frames
    served.request_id = asks[-1]["data"]["request_id"]


async def everything_loads(served: Served) -> None:
    """Every session, user and app state reads back: over HTTP, and from the store itself
    (the admin's audit session included, which no API key can read)."""
    ana, store = served.ana, served.store
    listed = await ana.get("/sessions")
    assert listed.status_code == 200, listed.text
    for url in (f"/sessions/{TALK}", f"/sessions/{ASK}/state", "/state/user", "/state/app"):
        response = await ana.get(url)
        assert response.status_code == 200, (url, response.text[:300])
    for session in await store.list_sessions(app_name=APP):
        await store.get_session(app_name=APP, user_id=session.user_id, session_id=session.id)
        await store.get_user_state(app_name=APP, user_id=session.user_id)
    await store.get_app_state(app_name=APP)
    for sid in (TALK, ASK):
        await store.get_session(app_name=APP, user_id="ana", session_id=sid)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=requests)
async def test_hostile_bodies_get_a_4xx_and_everything_still_loads(
    served: Served, request: Request
) -> None:
    client = served.admin if request.admin else served.ana
    response = await client.request(
        request.method,
        request.path.format(request=served.request_id),
        content=request.body.encode("utf-8", "surrogatepass"),
        headers={"content-type": "application/json"},
    )
    event(f"{request.method} {request.path.split('/')[-1]}: {response.status_code}")
    assert response.status_code < 500, (request, response.status_code, response.text[:500])
    if request.bad:
        assert 400 <= response.status_code < 500, (request, response.status_code)
    if response.status_code == 422:
        response.json()  # the error itself is always JSON that parses
    if response.is_success and "/approvals/" in request.path:
        await ask_for_approval(served)  # answered: leave a new one for the next example
    await everything_loads(served)


async def test_every_route_with_a_body_is_fuzzed(tmp_path: Path) -> None:
    store = sqlite(tmp_path)
    app = desk_app(
        store,
        summaries=InMemorySummaryStore(),
        summarizer=ExtractiveSummarizer(),
        memory=InMemoryMemoryService(),
    )
    with_bodies = {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
        if isinstance(operation, dict) and "requestBody" in operation
    }
    await store.close()
    assert with_bodies == BODY_ROUTES


# --- hostile ids in the path ------------------------------------------------------------------


SESSION_ROUTES = [
    ("GET", "/sessions/{sid}"),
    ("GET", "/sessions/{sid}/state"),
    ("GET", "/sessions/{sid}/events"),
    ("GET", "/sessions/{sid}/summary"),
    ("DELETE", "/sessions/{sid}"),
    ("POST", "/sessions/{sid}/messages"),
    ("POST", "/sessions/{sid}/approvals/r1"),
]
BAD_PATH_IDS = ["a%00b", "%ED%A0%80", "s" * 600, "%C3%A9" * 300]


@pytest.mark.parametrize("route", SESSION_ROUTES, ids=lambda r: f"{r[0]} {r[1]}")
async def test_hostile_session_ids_in_the_path_get_a_4xx(
    served: Served, route: tuple[str, str]
) -> None:
    method, path = route
    body = {"text": "hi"} if path.endswith("messages") else {"kind": "credential", "credential": {}}
    for bad in BAD_PATH_IDS:
        response = await served.ana.request(
            method, path.format(sid=bad), json=body if method == "POST" else None
        )
        assert 400 <= response.status_code < 500, (method, bad[:20], response.text[:300])
    await everything_loads(served)


async def test_the_store_behind_the_server_holds_nothing_it_cannot_read(served: Served) -> None:
    # What the admin wrote lands in the audit session, and what anyone wrote in state rows.
    for body in ('{"delta": {"limit": NaN}}', '{"delta": {"ok": 1}}'):
        await served.admin.patch(
            "/state/app", content=body, headers={"content-type": "application/json"}
        )
    audit = await served.store.get_session(
        app_name=APP, user_id=ADMIN_USER, session_id=STATE_SESSION
    )
    assert [dict(e.actions.state_delta) for e in audit.events] == [{"app:ok": 1}]
    assert json.loads((await served.ana.get("/state/app")).text) == {"state": {"ok": 1}}


# --- what the 422s say ------------------------------------------------------------------------


async def post_raw(client: httpx.AsyncClient, path: str, body: str) -> httpx.Response:
    return await client.post(
        path,
        content=body.encode("utf-8", "surrogatepass"),
        headers={"content-type": "application/json"},
    )


async def test_a_lone_surrogate_gets_a_json_422_that_leaves_it_out(served: Served) -> None:
    response = await post_raw(served.ana, f"/sessions/{TALK}/messages", '{"text": "hi \\ud800"}')
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", "text"]
    assert "input" not in error  # it cannot be encoded, so it is not repeated


async def test_nan_in_a_delta_gets_a_422_naming_the_key_and_stores_nothing(
    served: Served,
) -> None:
    before = (await served.ana.get(f"/sessions/{TALK}")).json()["version"]
    body = '{"text": "hi", "state_delta": {"user:limit": NaN}}'
    response = await post_raw(served.ana, f"/sessions/{TALK}/messages", body)
    assert response.status_code == 422
    assert response.json() == {
        "detail": "state_delta['user:limit'] is NaN: JSON numbers are finite"
    }
    assert (await served.ana.get(f"/sessions/{TALK}")).json()["version"] == before


async def test_an_error_deep_in_a_value_names_its_place_cut_short(served: Served) -> None:
    body = '{"text": "hi", "state_delta": {"k": ' + _nested(300) + "}}"
    response = await post_raw(served.ana, f"/sessions/{TALK}/messages", body)
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"][:4] == ["body", "state_delta", "k", "list"]
    assert error["loc"][-1] == "..."
    assert len(response.content) < 10_000
