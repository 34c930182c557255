"""A lone SQLite append writes its delta's upserts in one multi-row statement per scope, and
stores what one statement per key stored: deletions, several keys, app and user scopes
(issue 15: one writer's append, closer to the bare driver's)."""

from __future__ import annotations

from pathlib import Path

from agentlog import Content, Event, EventActions, SqliteSessionService
from agentlog.events import REMOVED


def _event(at: float, delta: dict[str, object]) -> Event:
    return Event(
        invocation_id="inv",
        author="agent",
        timestamp=at,
        content=Content.from_text("hi", role="model"),
        actions=EventActions(state_delta=delta),
    )


async def test_a_lone_append_upserts_its_session_keys_in_one_statement(tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    session = await store.create_session(app_name="a", user_id="u", state={"gone": 1, "kept": 0})
    statements: list[str] = []
    assert store._inline is not None
    store._inline.set_trace_callback(statements.append)
    delta = {"kept": 2, "new": "x", "more": [1, 2], "gone": REMOVED, "flag": False}
    session = await store.append_event(session, _event(session.last_update_time + 1, delta))
    store._inline.set_trace_callback(None)
    upserts = [s for s in statements if s.startswith("INSERT INTO session_state")]
    assert len(upserts) == 1  # a statement per key before
    assert upserts[0].count("), (") == 3  # four rows
    assert [s for s in statements if s.startswith("DELETE FROM session_state")]
    expected = {"kept": 2, "new": "x", "more": [1, 2], "flag": False}
    assert session.state == expected
    loaded = await store.get_session(app_name="a", user_id="u", session_id=session.id)
    assert loaded.state == expected
    assert loaded.events == session.events
    await store.close()


async def test_a_lone_append_writes_every_scope_it_routes(tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    session = await store.create_session(app_name="a", user_id="u", state={"user:old": 1})
    delta = {
        "app:a1": 1,
        "app:a2": "two",
        "user:u1": True,
        "user:u2": {"k": 1},
        "user:old": REMOVED,
        "s": 3,
        "temp:t": 4,
    }
    session = await store.append_event(session, _event(session.last_update_time + 1, delta))
    assert await store.get_app_state(app_name="a") == {"a1": 1, "a2": "two"}
    assert await store.get_user_state(app_name="a", user_id="u") == {"u1": True, "u2": {"k": 1}}
    loaded = await store.get_session(app_name="a", user_id="u", session_id=session.id)
    assert loaded.state == session.state
    assert loaded.state["s"] == 3
    assert "temp:t" not in loaded.state
    assert "user:old" not in loaded.state
    await store.close()
