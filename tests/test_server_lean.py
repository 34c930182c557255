"""The routes' lean path (:mod:`agentlog.server.lean`): a turn is answered without FastAPI's
per-request dependency solving, and every request is answered as FastAPI's own handler
answers it, the refused ones included."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import fastapi.routing
import httpx
import pytest
from fastapi.telemetry._asgi import NativeTelemetry
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider

from agentlog.server import lean
from server_support import ADMIN_KEY, ANA_KEY, BEN_KEY, desk_app, parse_sse, sqlite

_JSON = {"content-type": "application/json"}
_ENABLED = NativeTelemetry.enabled


@pytest.fixture(autouse=True)
def _telemetry_off() -> Iterator[None]:
    """FastAPI's native telemetry off, as in a process with no OpenTelemetry provider set.

    The provider is process-wide: once any test sets one (google-adk's ``get_fast_api_app``
    does), FastAPI traces every request and the lean path gives way to it, as it must
    (``test_a_turn_with_telemetry_on_is_fastapis``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(NativeTelemetry, "enabled", lambda self: False)
        yield


def _client(app: Any, key: str | None) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=headers)


async def test_a_turn_is_answered_without_solving_dependencies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unsolved(**_: Any) -> Any:
        raise AssertionError("FastAPI solved a hot route's dependencies")

    # FastAPI's handler looks it up on each request: a call on a turn's routes fails it.
    monkeypatch.setattr(fastapi.routing, "solve_dependencies", unsolved)
    store = sqlite(tmp_path)
    try:
        async with _client(desk_app(store), ANA_KEY) as client:
            created = await client.post("/sessions", json={"session_id": "s-1"})
            assert created.status_code == 201
            assert created.json()["id"] == "s-1"
            turn = await client.post("/sessions/s-1/messages", json={"text": "hello"})
            assert turn.status_code == 200
            frames = parse_sse(turn.text)
            assert frames[-1].event == "end"
            assert all(f.id for f in frames if f.event == "event")
    finally:
        await store.close()


async def test_a_turn_with_telemetry_on_is_fastapis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solved: list[object] = []
    solve = fastapi.routing.solve_dependencies

    async def counted(**kwargs: Any) -> Any:
        solved.append(kwargs["request"].url.path)
        return await solve(**kwargs)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counted)
    # This test's telemetry is on, with a provider set as test_tracing sets it (process-wide,
    # once: later tests see it too; the fixture turns it off for this module's others).
    monkeypatch.setattr(NativeTelemetry, "enabled", _ENABLED)
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(TracerProvider())
    store = sqlite(tmp_path)
    try:
        async with _client(desk_app(store), ANA_KEY) as client:
            assert (await client.post("/sessions", json={"session_id": "s-1"})).status_code == 201
            turn = await client.post("/sessions/s-1/messages", json={"text": "hello"})
            assert parse_sse(turn.text)[-1].event == "end"
    finally:
        await store.close()
    # FastAPI's own handler answered both, so its spans cover them.
    assert solved == ["/sessions", "/sessions/s-1/messages"]


async def test_a_turn_once_routed_takes_the_lane(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = sqlite(tmp_path)
    try:
        async with _client(desk_app(store), ANA_KEY) as client:
            # FastAPI builds a route as included in the app on the first request routed to it.
            await client.post("/sessions", json={"session_id": "s-1"})
            await client.post("/sessions/s-1/messages", json={"text": "hello"})

            async def unrouted(*_: Any) -> None:
                raise AssertionError("FastAPI routed a turn's request through its routers")

            monkeypatch.setattr(fastapi.routing._IncludedRouter, "handle", unrouted)
            assert (await client.post("/sessions", json={"session_id": "s-2"})).status_code == 201
            turn = await client.post("/sessions/s-2/messages", json={"text": "hello"})
            assert parse_sse(turn.text)[-1].event == "end"
            monkeypatch.undo()
            # A request its lean handler declines is routed again, its body as read.
            refused = await client.post("/sessions/s-2/messages", json={"text": ""})
            assert refused.status_code == 422
            assert refused.json()["detail"][0]["loc"] == ["body", "text"]
    finally:
        await store.close()


_IDS = re.compile(
    r'"(id|invocation_id|created_at|updated_at|timestamp|last_update_time)":'
    r'("[^"]*"|[0-9.e+-]+)'
)


_SSE_IDS = re.compile(r"^id: .*$", re.MULTILINE)


def _same_form(text: str) -> str:
    """An answer with what differs from run to run (ids, times) blanked."""
    return _SSE_IDS.sub("id: _", _IDS.sub(lambda m: f'"{m.group(1)}":_', text))


REQUESTS: list[tuple[str, str, str | None, dict[str, str], bytes]] = [
    # (method, path, key, headers, body)
    ("POST", "/sessions", ANA_KEY, _JSON, b'{"session_id": "s-2", "state": {"a": 1}}'),
    ("POST", "/sessions", ANA_KEY, _JSON, b'{"session_id": "s-1"}'),  # exists: 409
    ("POST", "/sessions", None, _JSON, b"{}"),  # no key: 401
    ("POST", "/sessions", "key-nobody-0123456789", _JSON, b"{}"),
    ("POST", "/sessions", ANA_KEY, _JSON, b'{"session_id": "s 3"}'),  # invalid id: 422
    ("POST", "/sessions", ANA_KEY, _JSON, b'{"nope": 1}'),
    ("POST", "/sessions", ANA_KEY, _JSON, b"{not json"),
    ("POST", "/sessions", ANA_KEY, _JSON, b"\xff\xfe"),
    ("POST", "/sessions", ANA_KEY, {"content-type": "text/plain"}, b"{}"),
    ("POST", "/sessions", ANA_KEY, {"content-type": "application/json; charset=utf-8"}, b"{}"),
    ("POST", "/sessions", ANA_KEY, _JSON, b""),
    ("POST", "/sessions", ANA_KEY, _JSON, b"[" * 100_000),
    ("GET", "/sessions/s-1", ANA_KEY, {}, b""),
    ("GET", "/sessions/s-1", BEN_KEY, {}, b""),  # another user's: 404
    ("GET", "/sessions/s-1/events?limit=0", ANA_KEY, {}, b""),
    ("GET", "/sessions/s-1/state", ANA_KEY, {}, b""),
    ("PUT", "/state/app", ANA_KEY, _JSON, b'{"state": {"x": 1}}'),  # not an admin: 403
    ("PUT", "/state/app", ADMIN_KEY, _JSON, b'{"state": {"x": 1}}'),
    ("POST", "/sessions/s-1/messages", ANA_KEY, _JSON, b'{"text": "   "}'),
    (
        "POST",
        "/sessions/s-1/messages",
        ANA_KEY,
        _JSON,
        b'{"text": "hi", "state_delta": {"app:x": 1}}',
    ),
    ("POST", "/sessions/nope/messages", ANA_KEY, _JSON, b'{"text": "hi"}'),
    ("POST", "/sessions/" + "x" * 300 + "/messages", ANA_KEY, _JSON, b'{"text": "hi"}'),
    (
        "POST",
        "/sessions/s-1/messages",
        ANA_KEY,
        {**_JSON, "Last-Event-ID": "e-nope"},
        b'{"text": "hi"}',
    ),
    ("POST", "/sessions/s-1/messages?stream=maybe", ANA_KEY, _JSON, b'{"text": "hi"}'),
    ("POST", "/sessions/s-1/messages?stream=false", ANA_KEY, _JSON, b'{"text": "hi"}'),
    (
        "POST",
        "/sessions/s-1/messages",
        ANA_KEY,
        {**_JSON, "Accept": "application/json"},
        b'{"text": "hi"}',
    ),
    ("POST", "/sessions/s-1/messages", ANA_KEY, _JSON, b'{"text": "hi"}'),
]


async def _answers(app: Any) -> list[tuple[int, str, str]]:
    answers = []
    async with _client(app, ANA_KEY) as setup:
        assert (await setup.post("/sessions", json={"session_id": "s-1"})).status_code == 201
        # Every route of a turn is built as included, so the table's requests take the lane.
        await setup.post("/sessions/s-1/messages", json={"text": "hello"})
    for method, path, key, headers, body in REQUESTS:
        async with _client(app, key) as client:
            response = await client.request(method, path, headers=headers, content=body)
        answers.append(
            (response.status_code, response.headers.get("content-type", ""), response.text)
        )
    return answers


@pytest.fixture
async def both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[list[Any], list[Any]]]:
    for folder in ("lean", "full"):
        (tmp_path / folder).mkdir()
    stores = [sqlite(tmp_path / "lean"), sqlite(tmp_path / "full")]
    try:
        with_lean = await _answers(desk_app(stores[0]))
        # The routes' handlers are built as an app includes them: this app has no lean path.
        monkeypatch.setattr(lean, "_USABLE", False)
        without = await _answers(desk_app(stores[1]))
        yield with_lean, without
    finally:
        for store in stores:
            await store.close()


async def test_every_request_is_answered_as_fastapi_answers_it(
    both: tuple[list[Any], list[Any]],
) -> None:
    with_lean, without = both
    for request, got, expected in zip(REQUESTS, with_lean, without, strict=True):
        assert got[:2] == expected[:2], request
        assert _same_form(got[2]) == _same_form(expected[2]), request
    statuses = {status for status, _, _ in with_lean}
    assert {200, 201, 401, 403, 404, 409, 422} <= statuses  # the table covers them


_RECEIVED = [
    {},
    {"session_id": "s-1"},
    {"session_id": ""},
    {"session_id": "x" * 600},
    {"stream": "false"},
    {"stream": "maybe"},
    {"last-event-id": "01ABC"},
    {"last_event_id": "01ABC"},
]


@pytest.mark.parametrize("received", _RECEIVED)
def test_a_routes_parameters_are_read_as_fastapi_reads_them(received: dict[str, str]) -> None:
    from fastapi.dependencies.utils import request_params_to_args
    from starlette.datastructures import Headers, QueryParams

    from agentlog.server.routes import approvals, artifacts, sessions, state, turns

    checked = 0
    for module in (sessions, turns, state, approvals, artifacts):
        for route in module.router.routes:
            assert isinstance(route, fastapi.routing.APIRoute)
            dependant = route.dependant
            for fields, given in (
                (dependant.path_params, dict(received)),
                (dependant.query_params, QueryParams(received)),
                (dependant.header_params, Headers(received)),
            ):
                if fields:
                    read = lean._params_reader(fields)
                    assert read(given) == request_params_to_args(fields, given)
                    checked += 1
    assert checked > 10
