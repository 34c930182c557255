"""Errors reach the client as a sentence per error code, never the raw code, and end the turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentlog import ErrorCode, Event, Session, SqliteSessionService, StoreUnavailableError
from agentlog.agents import LlmAgent
from agentlog.models.scripted import ScriptedLlm
from agentlog.router import USER_MESSAGES
from agentlog.runner import Runner
from agentlog.server import create_app
from server_support import parse_sse


class FailingAppends:
    """A store whose appends of agent events fail, as if the database went away mid-turn."""

    def __init__(self, inner: SqliteSessionService) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def append_event(self, session: Session, event: Event) -> Session:
        if event.author != "user":
            raise StoreUnavailableError("database is gone")
        return await self.inner.append_event(session, event)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteSessionService]:
    service = SqliteSessionService(tmp_path / "errors.db")
    yield service
    await service.close()


async def run_turn(runner: Runner) -> tuple[list[Any], list[str]]:
    app = create_app(runner, stall_check_interval_s=None)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        sid = (await client.post("/sessions", json={})).json()["id"]
        response = await client.post(f"/sessions/{sid}/messages", json={"text": "hello"})
        assert response.status_code == 200
        stored = (await client.get(f"/sessions/{sid}")).json()["events"]
    return parse_sse(response.text), [e["id"] for e in stored]


@pytest.mark.parametrize("code", [ErrorCode.SAFETY, ErrorCode.MAX_TOKENS, ErrorCode.PROVIDER_ERROR])
async def test_a_model_error_reads_as_its_user_message(
    store: SqliteSessionService, code: ErrorCode
) -> None:
    model = ScriptedLlm([ScriptedLlm.error(code, "finish_reason=RAW_PROVIDER_REASON")])
    runner = Runner(agent=LlmAgent(name="desk", model=model), session_service=store)
    frames, stored = await run_turn(runner)
    [error] = [m for f in frames for m in f.data["messages"] if m["kind"] == "error"]
    assert error["text"] == USER_MESSAGES[code]
    assert error["data"] == {"error_code": code.value}
    assert "RAW_PROVIDER_REASON" not in error["text"]
    assert [f.id for f in frames if f.event == "event"] == stored
    assert frames[-1].event == "end"


async def test_a_failed_run_is_reported_once_and_the_turn_ends(store: SqliteSessionService) -> None:
    # No step left: the runner stores an internal error event, then re-raises.
    runner = Runner(agent=LlmAgent(name="desk", model=ScriptedLlm([])), session_service=store)
    frames, stored = await run_turn(runner)
    errors = [m for f in frames for m in f.data["messages"] if m["kind"] == "error"]
    assert [e["text"] for e in errors] == [USER_MESSAGES[ErrorCode.INTERNAL]]
    assert [f.event for f in frames] == ["event", "event", "end"]
    assert [f.id for f in frames if f.event == "event"] == stored


async def test_a_failure_that_cannot_be_stored_still_reaches_the_client(
    store: SqliteSessionService,
) -> None:
    model = ScriptedLlm([ScriptedLlm.text("never stored")])
    failing = FailingAppends(store)
    runner = Runner(agent=LlmAgent(name="desk", model=model), session_service=failing)  # type: ignore[arg-type]
    frames, stored = await run_turn(runner)
    assert [f.event for f in frames if f.event != "draft"] == ["event", "error", "end"]
    error = frames[-2]
    assert error.id is None
    assert error.data["messages"][0]["text"] == USER_MESSAGES[ErrorCode.INTERNAL]
    assert len(stored) == 1
