"""google-adk's real ``Runner`` on ``AgentlogSessionService``, with a canned ADK model."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from google.adk.agents import LlmAgent
from google.adk.errors import StaleSessionError
from google.adk.events import Event as AdkEvent
from google.adk.events import EventActions
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService as AdkInMemorySessionService
from google.adk.sessions.base_session_service import GetSessionConfig
from google.adk.tools import FunctionTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from adk_support import CannedLlm, calls, says, texts, user_text
from agentlog import InMemorySessionService, SqliteSessionService
from agentlog.adk import AgentlogSessionService, register_adk_services
from agentlog.errors import InvalidConfigError
from agentlog.sessions.base import SessionService

APP = "shop"
USER = "ana"

# ADK marks some of what its Runner does as experimental, with a warning each time.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]")


def lookup_order(order_id: str, tool_context: ToolContext) -> dict[str, Any]:
    """Look an order up.

    Args:
        order_id: the order's id.
    """
    tool_context.state["temp:looked_up"] = order_id
    tool_context.state["user:last_order"] = order_id
    tool_context.state["app:lookups"] = tool_context.state.get("app:lookups", 0) + 1
    tool_context.state["orders_seen"] = [*tool_context.state.get("orders_seen", []), order_id]
    return {"order_id": order_id, "status": "shipped"}


def read_temp(tool_context: ToolContext) -> dict[str, Any]:
    """Report what an earlier tool of this invocation left in temp: state."""
    return {"looked_up": tool_context.state.get("temp:looked_up")}


REFUNDS: list[str] = []


def refund(order_id: str) -> dict[str, Any]:
    """Refund an order (asks a human first).

    Args:
        order_id: the order's id.
    """
    REFUNDS.append(order_id)
    return {"refunded": order_id}


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    made: SessionService = (
        InMemorySessionService()
        if request.param == "memory"
        else SqliteSessionService(tmp_path / "adk.db")
    )
    yield made
    await made.close()


def runner_for(service: Any, model: CannedLlm, tools: list[Any]) -> Runner:
    agent = LlmAgent(name="desk", model=model, instruction="You help with orders.", tools=tools)
    return Runner(app_name=APP, agent=agent, session_service=service)


async def turn(
    runner: Runner, session_id: str, message: types.Content, user: str = USER
) -> list[AdkEvent]:
    return [
        e async for e in runner.run_async(user_id=user, session_id=session_id, new_message=message)
    ]


def dumped(events: list[AdkEvent]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json", exclude_none=True) for e in events]


async def test_a_tool_turn_is_stored_as_agentlog_events_and_reads_back_as_adk_ran_it(
    store: SessionService,
) -> None:
    service = AgentlogSessionService(store)
    model = CannedLlm([calls("lookup_order", "c1", order_id="A-1"), says("It shipped.")])
    runner = runner_for(service, model, [lookup_order])
    session = await service.create_session(app_name=APP, user_id=USER, state={"tier": "gold"})
    yielded = await turn(runner, session.id, user_text("Where is A-1?"))

    # agentlog sees the turn natively: the call, the result with its routed delta, the answer.
    stored = (await store.get_session(app_name=APP, user_id=USER, session_id=session.id)).events
    assert [e.author for e in stored] == ["user", "desk", "desk", "desk"]
    assert stored[1].function_calls()[0].name == "lookup_order"
    assert stored[2].function_responses()[0].response == {"order_id": "A-1", "status": "shipped"}
    assert stored[3].text() == "It shipped."
    assert stored[3].usage is not None
    assert stored[3].usage.input_tokens == 7
    assert "temp:looked_up" not in stored[2].actions.state_delta

    # ADK reads back exactly the events its Runner produced (the three it yielded).
    loaded = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert loaded is not None
    assert dumped(loaded.events[1:]) == dumped(yielded)
    assert loaded.state == {
        "tier": "gold",
        "user:last_order": "A-1",
        "app:lookups": 1,
        "orders_seen": ["A-1"],
    }

    # The next turn's request carries the history stored by the last one.
    model.add(says("Anything else?"))
    await turn(runner, session.id, user_text("Thanks"))
    history = model.requests[-1].contents
    assert any(p.function_response for c in history for p in c.parts or ())
    assert texts(model.requests[-1])[-3:] == ["Where is A-1?", "It shipped.", "Thanks"]
    assert model.unused == 0


async def test_state_scopes_and_temp(store: SessionService) -> None:
    service = AgentlogSessionService(store)
    model = CannedLlm(
        [
            calls("lookup_order", "c1", order_id="A-1"),
            calls("read_temp", "c2"),
            says("done"),
        ]
    )
    runner = runner_for(service, model, [lookup_order, read_temp])
    first = await service.create_session(app_name=APP, user_id=USER)
    events = await turn(runner, first.id, user_text("Where is A-1?"))

    # temp: reached the next tool of the same invocation, and nothing stored it.
    answers = [e.get_function_responses()[0] for e in events if e.get_function_responses()]
    assert answers[1].response == {"looked_up": "A-1"}
    stored = (await store.get_session(app_name=APP, user_id=USER, session_id=first.id)).events
    assert all(not k.startswith("temp:") for e in stored for k in e.actions.state_delta)
    loaded = await service.get_session(app_name=APP, user_id=USER, session_id=first.id)
    assert loaded is not None
    assert "temp:looked_up" not in loaded.state

    # app: is every user's, user: this user's across sessions, the rest this session's.
    same_user = await service.create_session(app_name=APP, user_id=USER)
    other_user = await service.create_session(app_name=APP, user_id="bo")
    assert same_user.state == {"app:lookups": 1, "user:last_order": "A-1"}
    assert other_user.state == {"app:lookups": 1}
    assert await service.get_user_state(app_name=APP, user_id=USER) == {"last_order": "A-1"}
    assert await store.get_app_state(app_name=APP) == {"lookups": 1}


async def test_a_stale_session_raises_adks_error_and_stores_nothing(store: SessionService) -> None:
    service = AgentlogSessionService(store)
    session = await service.create_session(app_name=APP, user_id=USER)
    mine = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    theirs = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert mine is not None
    assert theirs is not None
    await service.append_event(
        mine, AdkEvent(author="user", invocation_id="i1", content=user_text("a"))
    )
    lost = AdkEvent(
        author="user",
        invocation_id="i2",
        content=user_text("b"),
        actions=EventActions(state_delta={"k": 1}),
    )
    with pytest.raises(StaleSessionError, match="modified in storage since it was loaded"):
        await service.append_event(theirs, lost)
    stored = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert [e.text() for e in stored.events] == ["a"]
    assert "k" not in stored.state

    # Reloaded, the same writer appends; and the first one, still current, goes on too.
    again = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert again is not None
    await service.append_event(again, lost)
    with pytest.raises(StaleSessionError):
        await service.append_event(mine, AdkEvent(author="user", invocation_id="i3"))


async def test_a_session_made_elsewhere_appends_only_if_it_holds_what_is_stored(
    store: SessionService,
) -> None:
    service = AgentlogSessionService(store)
    made = await service.create_session(app_name=APP, user_id=USER)
    # A session object this service did not hand out (ADK's own in-memory store made it).
    foreign = await AdkInMemorySessionService().create_session(
        app_name=APP, user_id=USER, session_id=made.id
    )
    await service.append_event(foreign, AdkEvent(author="user", invocation_id="i1"))
    behind = await AdkInMemorySessionService().create_session(
        app_name=APP, user_id=USER, session_id=made.id
    )
    with pytest.raises(StaleSessionError):
        await service.append_event(behind, AdkEvent(author="user", invocation_id="i2"))


async def test_list_delete_and_filters(store: SessionService) -> None:
    service = AgentlogSessionService(store)
    older = await service.create_session(app_name=APP, user_id=USER, state={"n": 1})
    newer = await service.create_session(app_name=APP, user_id="bo", session_id="s-bo")
    loaded = await service.get_session(app_name=APP, user_id=USER, session_id=older.id)
    assert loaded is not None
    for n in range(5):
        event = AdkEvent(author="user", invocation_id=f"i{n}", content=user_text(f"m{n}"))
        await service.append_event(loaded, event)

    listed = (await service.list_sessions(app_name=APP)).sessions
    assert [s.id for s in listed] == [newer.id, older.id]  # least recently updated first
    assert all(not s.events for s in listed)
    assert listed[1].state == {"n": 1}
    assert [s.id for s in (await service.list_sessions(app_name=APP, user_id="bo")).sessions] == [
        "s-bo"
    ]

    def text_of(session: Any) -> list[str]:
        return [e.content.parts[0].text for e in session.events]

    recent = await service.get_session(
        app_name=APP,
        user_id=USER,
        session_id=older.id,
        config=GetSessionConfig(num_recent_events=2),
    )
    assert recent is not None
    assert text_of(recent) == ["m3", "m4"]
    cut = loaded.events[2].timestamp
    after = await service.get_session(
        app_name=APP,
        user_id=USER,
        session_id=older.id,
        config=GetSessionConfig(after_timestamp=cut),
    )
    assert after is not None
    assert text_of(after) == ["m2", "m3", "m4"]
    none = await service.get_session(
        app_name=APP,
        user_id=USER,
        session_id=older.id,
        config=GetSessionConfig(num_recent_events=0),
    )
    assert none is not None
    assert none.events == []
    assert none.state == {"n": 1}
    # A filtered load still appends where the session is.
    await service.append_event(recent, AdkEvent(author="user", invocation_id="i9"))

    await service.delete_session(app_name=APP, user_id=USER, session_id=older.id)
    assert await service.get_session(app_name=APP, user_id=USER, session_id=older.id) is None
    await service.delete_session(app_name=APP, user_id=USER, session_id=older.id)  # no error
    assert [s.id for s in (await service.list_sessions(app_name=APP)).sessions] == ["s-bo"]


async def test_a_tool_confirmation_survives_a_restart_and_the_tool_runs_once(
    tmp_path: Path,
) -> None:
    REFUNDS.clear()
    path = tmp_path / "adk.db"
    tool = FunctionTool(refund, require_confirmation=True)
    service = AgentlogSessionService(SqliteSessionService(path))
    model = CannedLlm([calls("refund", "c1", order_id="A-1")])
    session = await service.create_session(app_name=APP, user_id=USER)
    events = await turn(runner_for(service, model, [tool]), session.id, user_text("Refund A-1"))
    request = next(
        c for e in events for c in e.get_function_calls() if c.name == "adk_request_confirmation"
    )
    assert REFUNDS == []
    stored = await service.store.get_session(app_name=APP, user_id=USER, session_id=session.id)
    asked = [e for e in stored.events if e.actions.requested_tool_confirmations]
    assert list(asked[0].actions.requested_tool_confirmations) == ["c1"]
    await service.close()

    # Another process, the same file: the pending request is there to be answered.
    service = AgentlogSessionService(SqliteSessionService(path))
    model = CannedLlm([says("Refunded.")])
    answer = types.Content(
        role="user",
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    id=request.id, name="adk_request_confirmation", response={"confirmed": True}
                )
            )
        ],
    )
    events = await turn(runner_for(service, model, [tool]), session.id, answer)
    assert REFUNDS == ["A-1"]
    assert events[-1].content is not None
    assert events[-1].content.parts[0].text == "Refunded."
    loaded = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert loaded is not None
    results = [r for e in loaded.events for r in e.get_function_responses() if r.name == "refund"]
    # ADK's placeholder answer while the request was pending, then the tool's one result.
    assert [r.response for r in results][-1:] == [{"refunded": "A-1"}]
    assert [r.response for r in results].count({"refunded": "A-1"}) == 1
    await service.close()


async def test_loads_reuse_converted_events_and_see_new_ones(store: SessionService) -> None:
    service = AgentlogSessionService(store)
    session = await service.create_session(app_name=APP, user_id=USER)
    await service.append_event(session, AdkEvent(author="user", invocation_id="i1"))
    first = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert first is not None
    await service.append_event(first, AdkEvent(author="user", invocation_id="i2"))
    second = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert second is not None
    assert second.events[0] is first.events[0]
    assert [e.invocation_id for e in second.events] == ["i1", "i2"]
    # Deleted and made again under its id: nothing of the old session comes back.
    await service.delete_session(app_name=APP, user_id=USER, session_id=session.id)
    await service.create_session(app_name=APP, user_id=USER, session_id=session.id)
    again = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert again is not None
    assert again.events == []


async def test_from_url_and_adks_command_line_registry(tmp_path: Path, monkeypatch: Any) -> None:
    from google.adk.cli.utils.service_factory import create_session_service_from_options

    monkeypatch.chdir(tmp_path)
    service = AgentlogSessionService.from_url("sqlite+aiosqlite:///app.db")
    made = await service.create_session(app_name=APP, user_id=USER, session_id="s1")
    await service.close()
    assert (tmp_path / "app.db").is_file()

    register_adk_services()
    from_cli = create_session_service_from_options(
        base_dir=tmp_path, session_service_uri="agentlog+sqlite:///app.db"
    )
    assert isinstance(from_cli, AgentlogSessionService)
    loaded = await from_cli.get_session(app_name=APP, user_id=USER, session_id=made.id)
    assert loaded is not None
    assert loaded.id == "s1"
    await from_cli.close()

    memory = AgentlogSessionService.from_url("memory://")
    assert isinstance(memory.store, InMemorySessionService)
    with pytest.raises(InvalidConfigError, match="no agentlog store"):
        AgentlogSessionService.from_url("mysql://x/y")


def test_a_file_of_adks_own_tables_is_refused(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "adk.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE app_states (app_name TEXT PRIMARY KEY, state TEXT)")
    with pytest.raises(InvalidConfigError, match="google-adk's DatabaseSessionService tables"):
        AgentlogSessionService.from_url(f"sqlite:///{path}")


@pytest.mark.parametrize("module", ["agentlog.adk", "agentlog.adk.codec", "agentlog.adk.service"])
def test_import_without_google_adk_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    import importlib
    import sys

    import google

    for name in [n for n in sys.modules if n == "agentlog.adk" or n.startswith("agentlog.adk.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(google, "adk", raising=False)
    monkeypatch.setitem(sys.modules, "google.adk", None)
    for name in [n for n in sys.modules if n.startswith("google.adk.")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"pip install 'agentlog\[adk\]'"):
        importlib.import_module(module)


async def test_concurrent_appends_through_one_session_object_all_land(
    store: SessionService,
) -> None:
    import asyncio

    class Yielding:
        """The store, letting other tasks run before each append, as a network store does."""

        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        async def append_event(self, session: Any, event: Any) -> Any:
            await asyncio.sleep(0)
            return await store.append_event(session, event)

    service = AgentlogSessionService(Yielding())  # type: ignore[arg-type]
    session = await service.create_session(app_name=APP, user_id=USER)
    # Parallel branches of one invocation share its session object, as ADK runs them.
    events = [
        AdkEvent(author="desk", invocation_id="i", content=user_text(f"b{n}")) for n in range(5)
    ]
    await asyncio.gather(*(service.append_event(session, e) for e in events))
    stored = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert sorted(e.text() for e in stored.events) == [f"b{n}" for n in range(5)]
    assert len(session.events) == 5
