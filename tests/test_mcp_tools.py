"""MCP tools (agentlog.tools.mcp) against a local FastMCP server, over stdio and streamable HTTP."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import textwrap
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import uvicorn

from agentlog import Content, ErrorCode, Event, InMemorySessionService
from agentlog.agents import LlmAgent
from agentlog.approvals import confirmation_answer, pending_requests
from agentlog.artifacts import InMemoryArtifactService
from agentlog.errors import InvalidConfigError, McpConnectionError
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner
from agentlog.tools.mcp import McpToolset
from mcp_server import PIXEL, build

ROOT = Path(__file__).resolve().parents[1]
SERVER = Path(__file__).resolve().parent / "mcp_server.py"
APP = "orders"
USER = "ana"


@pytest.fixture
def http_url() -> Iterator[str]:
    """A fresh order desk's streamable HTTP endpoint, served by uvicorn on loopback."""
    config = uvicorn.Config(
        build().streamable_http_app(), host="127.0.0.1", port=0, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        thread.join(0.01)
    assert server.started, "uvicorn did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(params=["stdio", "http"])
def make_toolset(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Makes toolsets over one transport; each stdio toolset runs its own server process."""

    def make(**options: Any) -> McpToolset:
        if request.param == "stdio":
            errlog = (tmp_path / "server.log").open("a", encoding="utf-8")
            request.addfinalizer(errlog.close)
            return McpToolset.stdio(sys.executable, [str(SERVER)], errlog=errlog, **options)
        url: str = request.getfixturevalue("http_url")
        return McpToolset.streamable_http(url, **options)

    return make


@pytest.fixture
async def store() -> AsyncIterator[InMemorySessionService]:
    service = InMemorySessionService()
    yield service
    await service.close()


async def _turn(runner: Runner, session_id: str, message: str | Content) -> list[Event]:
    content = Content.from_text(message) if isinstance(message, str) else message
    return [
        e async for e in runner.run_async(user_id=USER, session_id=session_id, new_message=content)
    ]


def _responses(events: list[Event]) -> dict[str, Any]:
    return {r.name: dict(r.response) for e in events for r in e.function_responses()}


async def test_the_server_tools_are_listed_with_their_schemas(make_toolset: Any) -> None:
    async with make_toolset(tool_name_prefix="desk_") as toolset:
        tools = {t.name: t for t in await toolset.get_tools()}
    assert sorted(tools) == [
        "desk_lookup_order",
        "desk_order_notes",
        "desk_receipt",
        "desk_refund",
        "desk_refunds_made",
        "desk_server_pid",
        "desk_slow",
    ]
    assert tools["desk_order_notes"].server_name == "order-notes"
    declaration = tools["desk_refund"].declaration()
    assert declaration.description == "Refund an amount on an order."
    assert declaration.parameters["required"] == ["order_id", "amount"]
    assert declaration.parameters["properties"]["amount"]["type"] == "number"


async def test_a_turn_calls_a_tool_and_the_model_reads_its_result(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    toolset = make_toolset(tool_filter={"lookup_order", "order-notes"})
    model = ScriptedLlm(
        [
            ScriptedLlm.calls(
                [("lookup_order", {"order_id": "A-1001"}), ("order_notes", {"order_id": "A-1001"})]
            ),
            ScriptedLlm.text("A-1001 was delivered and left at the door."),
        ]
    )
    agent = LlmAgent(name="desk", model=model, tools=[toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        with model:
            events = await _turn(runner, session.id, "Where is A-1001?")
    finally:
        await toolset.close()
    # Opened on first use: the agent listed the filtered tools and offered them to the model.
    assert sorted(t.name for t in model.requests[0].tools) == ["lookup_order", "order_notes"]
    responses = _responses(events)
    assert responses["lookup_order"] == {
        "order_id": "A-1001",
        "status": "delivered",
        "total": 12.5,
    }
    assert responses["order_notes"] == {"result": "A-1001: left at the door"}
    sent = [p.function_response for c in model.requests[1].contents for p in c.parts]
    assert [r.name for r in sent if r is not None] == ["lookup_order", "order_notes"]
    assert events[-1].text() == "A-1001 was delivered and left at the door."


async def test_a_tool_error_is_the_result_the_model_sees(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    toolset = make_toolset()
    model = ScriptedLlm(
        [
            ScriptedLlm.call("lookup_order", {"order_id": "Z-9"}),
            ScriptedLlm.call("lookup_order", {"order": "A-1001"}),
            ScriptedLlm.text("I cannot find Z-9."),
        ]
    )
    agent = LlmAgent(name="desk", model=model, tools=[toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        with model:
            events = await _turn(runner, session.id, "Where is Z-9?")
    finally:
        await toolset.close()
    errors = [dict(r.response) for e in events for r in e.function_responses()]
    # The server's own words, not a traceback: an unknown order, then arguments that do not fit.
    assert errors[0] == {"error": "Error executing tool lookup_order: no order Z-9"}
    assert "order_id" in errors[1]["error"]
    assert "Field required" in errors[1]["error"]
    assert all(e.error_code is None for e in events)
    assert events[-1].text() == "I cannot find Z-9."


async def test_a_confirmed_tool_runs_once_after_the_yes(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    toolset = make_toolset(require_confirmation=["refund"])
    model = ScriptedLlm(
        [
            ScriptedLlm.call("refund", {"order_id": "A-1001", "amount": 12.5}, call_id="call-r"),
            ScriptedLlm.text("Refunded $12.50 for A-1001."),
        ]
    )
    agent = LlmAgent(name="desk", model=model, tools=[toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        with model:
            asked = await _turn(runner, session.id, "Refund A-1001")
            loaded = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
            [pending] = pending_requests(loaded)
            assert pending.function_call_id == "call-r"
            assert pending.payload == {"order_id": "A-1001", "amount": 12.5}
            # Nothing ran while the request waited.
            assert (await toolset.call("refunds_made", {})).structuredContent == {"result": []}
            answered = await _turn(
                runner, session.id, confirmation_answer(pending.request_id, confirmed=True)
            )
        made = (await toolset.call("refunds_made", {})).structuredContent
    finally:
        await toolset.close()
    assert "refund" not in _responses(asked)
    assert _responses(answered)["refund"] == {"result": "Refunded $12.50 for A-1001."}
    assert made == {"result": [{"order_id": "A-1001", "amount": 12.5}]}
    assert answered[-1].text() == "Refunded $12.50 for A-1001."


async def test_a_predicate_decides_and_a_no_declines(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    seen: list[tuple[str, Any]] = []

    def large(name: str, args: Any) -> bool:
        seen.append((name, dict(args)))
        return name == "refund" and args["amount"] > 10

    toolset = make_toolset(require_confirmation=large)
    model = ScriptedLlm(
        [
            ScriptedLlm.calls(
                [
                    ("refund", {"order_id": "A-1001", "amount": 5.0}),
                    ("refund", {"order_id": "A-1001", "amount": 50.0}),
                ]
            ),
            ScriptedLlm.text("I refunded $5.00; the $50.00 refund was declined."),
        ]
    )
    agent = LlmAgent(name="desk", model=model, tools=[toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        with model:
            await _turn(runner, session.id, "Refund A-1001")
            loaded = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
            [pending] = pending_requests(loaded)
            assert pending.payload == {"order_id": "A-1001", "amount": 50.0}
            answered = await _turn(
                runner, session.id, confirmation_answer(pending.request_id, confirmed=False)
            )
        made = (await toolset.call("refunds_made", {})).structuredContent
    finally:
        await toolset.close()
    assert seen == [
        ("refund", {"order_id": "A-1001", "amount": 5.0}),
        ("refund", {"order_id": "A-1001", "amount": 50.0}),
    ]
    assert made == {"result": [{"order_id": "A-1001", "amount": 5.0}]}
    assert _responses(answered)["refund"]["declined"] is True


async def test_an_image_result_is_saved_as_an_artifact(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    toolset = make_toolset()
    model = ScriptedLlm(
        [
            ScriptedLlm.call("receipt", {"order_id": "A-1001"}, call_id="call-img"),
            ScriptedLlm.text("Here is the receipt."),
        ]
    )
    artifacts = InMemoryArtifactService()
    agent = LlmAgent(name="desk", model=model, tools=[toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP, artifact_service=artifacts)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        with model:
            events = await _turn(runner, session.id, "Receipt for A-1001, please")
    finally:
        await toolset.close()
    [image] = _responses(events)["receipt"]["content"]
    assert image["type"] == "image"
    assert image["mime_type"] == "image/png"
    name = image["artifact"]["name"]
    assert name == "mcp-receipt-call-img-0"
    stored = await artifacts.load_artifact(
        app_name=APP, user_id=USER, session_id=session.id, filename=name
    )
    assert stored.data == PIXEL
    assert stored.mime_type == "image/png"
    response_event = next(e for e in events if e.function_responses())
    assert dict(response_event.actions.artifact_delta) == {name: image["artifact"]["version"]}


async def test_stdio_lifetime_closed_cleanly_and_opened_again(tmp_path: Path) -> None:
    errlog = (tmp_path / "server.log").open("w", encoding="utf-8")
    try:
        toolset = McpToolset.stdio(sys.executable, [str(SERVER)], errlog=errlog)
        async with toolset:
            first = (await toolset.call("server_pid", {})).structuredContent
            assert first is not None
            pid = first["result"]
            assert _alive(pid)
        # Leaving the block stopped the server process.
        assert not _alive(pid)
        # The next use opens a new connection (a new process).
        again = (await toolset.call("server_pid", {})).structuredContent
        assert again is not None
        assert again["result"] != pid
        await toolset.close()
        assert not _alive(again["result"])
    finally:
        errlog.close()


async def test_a_lost_connection_fails_the_call_and_the_next_use_reconnects(
    tmp_path: Path,
) -> None:
    errlog = (tmp_path / "server.log").open("w", encoding="utf-8")
    toolset = McpToolset.stdio(sys.executable, [str(SERVER)], errlog=errlog)
    try:
        result = (await toolset.call("server_pid", {})).structuredContent
        assert result is not None
        pid = result["result"]
        os.kill(pid, 9)
        for _ in range(500):
            if not _alive(pid):
                break
            await asyncio.sleep(0.01)
        with pytest.raises(McpConnectionError, match="the connection was lost"):
            await toolset.call("server_pid", {})
        result = (await toolset.call("server_pid", {})).structuredContent
        assert result is not None
        assert result["result"] != pid
    finally:
        await toolset.close()
        errlog.close()


async def test_a_server_that_cannot_start_is_a_connection_error(tmp_path: Path) -> None:
    errlog = (tmp_path / "server.log").open("w", encoding="utf-8")
    try:
        dead = McpToolset.stdio(
            sys.executable, ["-c", "import sys; sys.exit(3)"], errlog=errlog, connect_timeout_s=20
        )
        with pytest.raises(McpConnectionError, match="MCP server"):
            await dead.get_tools()
        missing = McpToolset.stdio(str(tmp_path / "no-such-server"), errlog=errlog)
        with pytest.raises(McpConnectionError, match="cannot connect"):
            await missing.get_tools()
    finally:
        errlog.close()


async def test_an_unreachable_http_server_is_a_connection_error() -> None:
    # A port nothing listens on: bound, then closed, on loopback.
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    toolset = McpToolset.streamable_http(f"http://127.0.0.1:{port}/mcp", connect_timeout_s=20)
    with pytest.raises(McpConnectionError, match="cannot connect"):
        await toolset.get_tools()


async def test_a_call_past_its_timeout_is_a_tool_error(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    toolset = make_toolset(call_timeout_s=0.2)
    model = ScriptedLlm(
        [ScriptedLlm.call("slow", {"seconds": 30}), ScriptedLlm.text("The desk is slow today.")]
    )
    agent = LlmAgent(name="desk", model=model, tools=[toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        with model:
            events = await _turn(runner, session.id, "hi")
        # The connection survives a call that timed out.
        pid = (await toolset.call("server_pid", {})).structuredContent
    finally:
        await toolset.close()
    assert "Timed out" in _responses(events)["slow"]["error"]
    assert pid is not None
    assert events[-1].text() == "The desk is slow today."


async def test_tools_that_clash_with_the_agents_own_are_refused(
    make_toolset: Any, store: InMemorySessionService
) -> None:
    def lookup_order(order_id: str) -> str:
        """A local tool with the server's tool's name."""
        return order_id

    toolset = make_toolset()
    agent = LlmAgent(name="desk", model=ScriptedLlm([]), tools=[lookup_order, toolset])
    runner = Runner(agent=agent, session_service=store, app_name=APP)
    session = await store.create_session(app_name=APP, user_id=USER)
    try:
        events = await _turn(runner, session.id, "hi")
    finally:
        await toolset.close()
    assert events[-1].error_code is ErrorCode.INTERNAL
    assert f"{InvalidConfigError.__name__}: agent 'desk'" in (events[-1].error_message or "")
    assert "names are taken: ['lookup_order']" in (events[-1].error_message or "")


def test_without_the_sdk_the_import_names_the_extra(tmp_path: Path) -> None:
    script = tmp_path / "hidden.py"
    script.write_text(
        textwrap.dedent(
            """
            import importlib.abc, sys

            class Hide(importlib.abc.MetaPathFinder):
                def find_spec(self, name, path=None, target=None):
                    if name == "mcp" or name.startswith("mcp."):
                        raise ImportError(f"No module named {name!r}")
                    return None

            sys.meta_path.insert(0, Hide())
            try:
                import agentlog.tools.mcp
            except ImportError as exc:
                print(exc)
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.stdout.strip() == "McpToolset needs the mcp SDK: pip install 'agentlog[mcp]'"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_readme_example_runs(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    body = text.split("\n## MCP tools\n", 1)[1].split("\n## ", 1)[0]
    server, agent = re.findall(r"```python\n(.*?)```", body, re.DOTALL)
    (tmp_path / "orders_server.py").write_text(server, encoding="utf-8")
    (tmp_path / "agent.py").write_text(agent, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "agent.py"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "user Where is A-1001?",
        "lookup_order {'order_id': 'A-1001', 'status': 'delivered'}",
        "desk A-1001 was delivered.",
    ]
