"""Messages with parts over HTTP: text with files (saved as artifacts), and answers."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from agentlog import Event, SessionService, SqliteSessionService
from agentlog.agents import LlmAgent
from agentlog.artifacts import InMemoryArtifactService
from agentlog.context import ToolContext
from agentlog.errors import InvalidMessageError
from agentlog.events import ArtifactRef, Content, Part
from agentlog.models.base import LlmRequest, LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner
from agentlog.server import create_app
from agentlog.server.deps import Server
from agentlog.server.desk import RefundDeskModel, refund_desk
from agentlog.sessions.memory import InMemorySessionService
from server_support import ANA_KEY, BEN_KEY, KEYS, STORES, auth, database, desk_app, parse_sse

PIXEL = (Path(__file__).parent / "data" / "pixel.png").read_bytes()
PIXEL_B64 = base64.b64encode(PIXEL).decode()


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    with database(request.param, tmp_path) as open_store:
        service = open_store()
        yield service
        await service.close()


def client_for(app: FastAPI, key: str = ANA_KEY) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=auth(key))


async def describe_file(name: str, tool_context: ToolContext) -> dict[str, Any]:
    """Say how large an uploaded file is and how it starts.

    Args:
        name: The artifact's name.
    """
    data = await tool_context.load_artifact(name)
    return {"size": len(data), "head": data[:4].hex()}


def _call_on_the_upload(request: LlmRequest) -> LlmResponse:
    """The model's first step: describe the file the user's message refers to."""
    refs = [p.artifact_ref for p in request.contents[-1].parts if p.artifact_ref is not None]
    return ScriptedLlm.call("describe_file", {"name": refs[0].name})


def file_app(store: SessionService, model: ScriptedLlm, **kwargs: Any) -> FastAPI:
    agent = LlmAgent(name="files", model=model, tools=[describe_file])
    runner = Runner(agent=agent, session_service=store, **kwargs)
    return create_app(runner, api_keys=KEYS, stall_check_interval_s=None)


async def new_session(client: httpx.AsyncClient) -> str:
    response = await client.post("/sessions", json={})
    assert response.status_code == 201, response.text
    session_id: str = response.json()["id"]
    return session_id


def with_file(text: str = "what is this?", **inline: Any) -> dict[str, Any]:
    data = {"mime_type": "image/png", "data": PIXEL_B64, **inline}
    return {"parts": [{"text": text}, {"inline_data": data}]}


async def artifact_names(client: httpx.AsyncClient, sid: str) -> list[str]:
    names: list[str] = (await client.get(f"/sessions/{sid}/artifacts")).json()["names"]
    return names


# --- text with files ----------------------------------------------------------------------


async def test_a_file_is_saved_as_an_artifact_the_message_refers_to(
    store: SessionService,
) -> None:
    model = ScriptedLlm([_call_on_the_upload, ScriptedLlm.text("A one-pixel PNG.")])
    async with client_for(file_app(store, model)) as ana:
        sid = await new_session(ana)
        body = with_file(display_name="pixel.png")
        response = await ana.post(f"/sessions/{sid}/messages?stream=false", json=body)
        assert response.status_code == 200, response.text
        events = response.json()["events"]
        text, ref = events[0]["content"]["parts"]
        assert text == {"text": "what is this?"}
        name = ref["artifact_ref"]["name"]
        assert name.startswith("upload-")
        assert name.endswith("-pixel.png")
        assert ref["artifact_ref"] == {
            "name": name,
            "version": 0,
            "mime_type": "image/png",
            "size": len(PIXEL),
        }
        # The tool read the bytes back through its context.
        [result] = [
            p["function_response"]
            for e in events
            for p in e.get("content", {}).get("parts", [])
            if "function_response" in p
        ]
        assert result["response"] == {"size": len(PIXEL), "head": PIXEL[:4].hex()}
        assert events[-1]["content"]["parts"] == [{"text": "A one-pixel PNG."}]
        # The model saw the reference, and no bytes.
        user = model.requests[0].contents[-1]
        assert user.parts[1].artifact_ref == ArtifactRef(
            name=name, version=0, mime_type="image/png", size=len(PIXEL)
        )
        download = await ana.get(f"/sessions/{sid}/artifacts/{name}")
        assert download.content == PIXEL
        assert download.headers["content-type"] == "image/png"
        assert await artifact_names(ana, sid) == [name]
    model.verify()


async def test_files_without_a_display_name_are_named_by_their_place() -> None:
    model = ScriptedLlm([ScriptedLlm.text("Two files.")])
    async with client_for(file_app(InMemorySessionService(), model)) as ana:
        sid = await new_session(ana)
        image = {"inline_data": {"mime_type": "image/png", "data": PIXEL_B64}}
        note = {"inline_data": {"mime_type": "text/plain", "data": "aGk="}}
        body = {"parts": [image, {"text": "compare"}, note]}
        frames = parse_sse((await ana.post(f"/sessions/{sid}/messages", json=body)).text)
        parts = frames[0].data["event"]["content"]["parts"]
        first, second = parts[0]["artifact_ref"], parts[2]["artifact_ref"]
        assert first["name"].endswith("-0")
        assert second["name"].endswith("-2")
        assert first["name"].rsplit("-", 1)[0] == second["name"].rsplit("-", 1)[0]
        assert (second["mime_type"], second["size"]) == ("text/plain", 2)
        assert frames[0].kinds == ["user_message"]
        assert sorted(await artifact_names(ana, sid)) == sorted([first["name"], second["name"]])


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"parts": []}, ["parts"]),
        ({"parts": [{"text": "   "}]}, ["parts", 0]),
        ({"parts": [{"inline_data": {"mime_type": "image/png", "data": PIXEL_B64}}]}, []),
        (with_file(), None),  # the good one, as a control
        ({"parts": [{"text": "hi"}, {"inline_data": {"mime_type": "png", "data": "aGk="}}]}, []),
        ({"parts": [{"text": "hi"}, {"inline_data": {"mime_type": "a/b", "data": "aGk"}}]}, []),
        ({"parts": [{"text": "hi"}, {"inline_data": {"mime_type": "a/b", "data": "a*k="}}]}, []),
        (with_file(display_name="../etc/passwd"), []),
        (with_file(display_name="\ud800"), []),
        ({"text": "hi", "parts": [{"text": "hi"}]}, []),
        ({"parts": [{"text": "hi", "inline_data": {}}]}, []),
        ({"parts": [{"image": "x"}]}, []),
        (
            {
                "parts": [
                    {"text": "and yes"},
                    {
                        "function_response": {
                            "id": "r",
                            "name": "agentlog_request_confirmation",
                            "response": {"confirmed": True},
                        }
                    },
                ]
            },
            ["parts", 1],
        ),
        ({"parts": [{"text": "hi"}], "state_delta": {"app:x": 1}}, ["state_delta"]),
    ],
)
async def test_malformed_parts_are_422_and_save_nothing(
    body: dict[str, Any], where: list[Any] | None
) -> None:
    model = ScriptedLlm([_call_on_the_upload, ScriptedLlm.text("ok")])
    async with client_for(file_app(InMemorySessionService(), model)) as ana:
        sid = await new_session(ana)
        # Escaped as JSON allows it: a lone surrogate too.
        sent = json.dumps(body)
        response = await ana.post(
            f"/sessions/{sid}/messages?stream=false",
            content=sent,
            headers={"content-type": "application/json"},
        )
        if where is None:
            assert response.status_code == 200
            return
        assert response.status_code == 422, response.text
        detail = response.json()["detail"]
        assert isinstance(detail, list)
        assert detail
        if where:
            assert any(d["loc"][1 : 1 + len(where)] == where for d in detail), detail
        assert all(d["msg"] for d in detail)
        assert (await ana.get(f"/sessions/{sid}")).json()["events"] == []
        assert await artifact_names(ana, sid) == []


async def test_no_file_is_saved_under_a_session_that_is_not_the_callers() -> None:
    store = InMemorySessionService()
    artifacts = InMemoryArtifactService()
    app = file_app(store, ScriptedLlm(), artifact_service=artifacts)
    async with client_for(app) as ana, client_for(app, BEN_KEY) as ben:
        sid = await new_session(ana)
        for client, session in ((ana, "nope"), (ben, sid)):
            response = await client.post(f"/sessions/{session}/messages", json=with_file())
            assert response.status_code == 404
        for user, session in (("ana", "nope"), ("ben", sid), ("ana", sid)):
            listed = await artifacts.list_artifact_keys(
                app_name="agentlog", user_id=user, session_id=session
            )
            assert listed == []


async def test_a_file_over_the_artifact_services_limit_is_413() -> None:
    app = file_app(
        InMemorySessionService(), ScriptedLlm(), artifact_service=InMemoryArtifactService(10)
    )
    async with client_for(app) as ana:
        sid = await new_session(ana)
        response = await ana.post(f"/sessions/{sid}/messages", json=with_file())
        assert response.status_code == 413
        assert str(len(PIXEL)) in response.json()["detail"]
        assert (await ana.get(f"/sessions/{sid}")).json()["events"] == []


async def test_a_body_over_the_servers_limit_is_413() -> None:
    runner = Runner(agent=refund_desk(), session_service=InMemorySessionService())
    app = create_app(runner, api_keys=KEYS, stall_check_interval_s=None, max_body_bytes=2_000)
    async with client_for(app) as ana:
        sid = await new_session(ana)
        big = base64.b64encode(b"x" * 3_000).decode()
        response = await ana.post(
            f"/sessions/{sid}/messages", json=with_file(), params={"stream": "false"}
        )
        assert response.status_code == 200
        body = {"parts": [{"text": "hi"}, {"inline_data": {"mime_type": "a/b", "data": big}}]}
        assert (await ana.post(f"/sessions/{sid}/messages", json=body)).status_code == 413


async def test_the_files_of_a_refused_turn_are_deleted(tmp_path: Path) -> None:
    """Two servers on one database: while one runs a turn, the other, told not to wait,
    refuses a message with a file (409), and deletes the file it had saved for it."""
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
            server: Server = slow.state.agentlog
            for _ in range(500):
                if any(turn.started for turn in server.hub.turns(("ana", sid))):
                    break
                await asyncio.sleep(0.01)
            busy = await b.post(f"/sessions/{sid}/messages", json=with_file())
            assert busy.status_code == 409
            assert await artifact_names(b, sid) == []
            assert (await running).status_code == 200
    finally:
        await slow_store.close()
        await quick_store.close()


# --- answers ------------------------------------------------------------------------------


async def _paused_on_a_refund(client: httpx.AsyncClient) -> tuple[str, str]:
    sid = await new_session(client)
    wait = {"stream": "false"}
    await client.post(f"/sessions/{sid}/messages", params=wait, json={"text": "order A-1001?"})
    asked = await client.post(f"/sessions/{sid}/messages", params=wait, json={"text": "refund it"})
    [request] = asked.json()["pending"]
    return sid, request["request_id"]


def confirmation(request_id: str, confirmed: bool = True) -> dict[str, Any]:
    return {
        "function_response": {
            "id": request_id,
            "name": "agentlog_request_confirmation",
            "response": {"confirmed": confirmed},
        }
    }


async def test_an_answer_as_a_part_resumes_the_turn(store: SessionService) -> None:
    async with client_for(desk_app(store)) as ana:
        sid, request_id = await _paused_on_a_refund(ana)
        body = {"parts": [confirmation(request_id, confirmed=False)]}
        response = await ana.post(f"/sessions/{sid}/messages?stream=false", json=body)
        assert response.status_code == 200, response.text
        turn = response.json()
        [part] = turn["events"][0]["content"]["parts"]
        assert part["function_response"]["id"] == request_id
        assert part["function_response"]["response"] == {"confirmed": False, "payload": None}
        assert "not refunded" in turn["events"][-1]["content"]["parts"][0]["text"]
        again = await ana.post(f"/sessions/{sid}/messages", json=body)
        assert again.status_code == 409


async def test_a_credential_answer_as_a_part_is_withheld_from_the_log() -> None:
    async with client_for(desk_app(InMemorySessionService())) as ana:
        sid, request_id = await _paused_on_a_refund(ana)
        body = {
            "parts": [
                {
                    "function_response": {
                        "id": request_id,
                        "name": "agentlog_request_credential",
                        "response": {"credential": {"token": "s3cret"}},
                    }
                }
            ]
        }
        # The request is a confirmation: answered as a credential, it is refused.
        response = await ana.post(f"/sessions/{sid}/messages", json=body)
        assert response.status_code == 422
        assert "confirmation" in response.json()["detail"]
        assert "s3cret" not in (await ana.get(f"/sessions/{sid}")).text


async def test_answers_to_unknown_or_twice_named_requests_are_refused() -> None:
    async with client_for(desk_app(InMemorySessionService())) as ana:
        sid, request_id = await _paused_on_a_refund(ana)
        unknown = await ana.post(
            f"/sessions/{sid}/messages", json={"parts": [confirmation("confirm-nope")]}
        )
        assert unknown.status_code == 404
        twice = {"parts": [confirmation(request_id), confirmation(request_id, confirmed=False)]}
        response = await ana.post(f"/sessions/{sid}/messages", json=twice)
        assert response.status_code == 409
        assert request_id in response.json()["detail"]
        assert [p["request_id"] for p in (await ana.get(f"/sessions/{sid}")).json()["pending"]] == [
            request_id
        ]


# --- the runner's rule ----------------------------------------------------------------------


async def test_the_runner_takes_text_with_artifact_references_and_not_a_file_alone() -> None:
    model = ScriptedLlm([ScriptedLlm.text("seen")])
    runner = Runner(agent=LlmAgent(name="a", model=model), session_service=InMemorySessionService())
    session = await runner.session_service.create_session(app_name="agentlog", user_id="u")

    async def run(*parts: Part) -> list[Event]:
        message = Content(role="user", parts=parts)
        events = runner.run_async(user_id="u", session_id=session.id, new_message=message)
        return [event async for event in events]

    ref = Part(artifact_ref=ArtifactRef(name="f", version=0))
    events = await run(Part(text="look"), ref)
    assert events[0].content == Content(role="user", parts=(Part(text="look"), ref))
    # The model is told of the file: a reference in its history, which adapters name.
    assert model.requests[0].contents[-1].parts == (Part(text="look"), ref)
    with pytest.raises(InvalidMessageError, match="needs text"):
        await run(ref)
    with pytest.raises(InvalidMessageError, match="either text parts"):
        await run(ref, Part.from_function_response("x", {}, "call-1"))
