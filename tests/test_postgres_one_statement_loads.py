"""PostgreSQL: a session's creation and its load are one statement each (not a pipeline of
``BEGIN``, one statement per table and ``COMMIT``), and what they return is what a load
made after them returns."""

from __future__ import annotations

import psycopg
import pytest

pytest.importorskip("psycopg")

from agentlog import Content, Event, EventActions
from agentlog.sessions.base import GetSessionConfig
from agentlog.sessions.postgres import PostgresSessionService

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("postgres_dsn")]


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement psycopg's async cursors send while the test runs."""
    sent: list[str] = []
    execute = psycopg.AsyncCursor.execute

    async def counted(
        self: psycopg.AsyncCursor[object], query: object, *args: object, **kwargs: object
    ) -> object:
        sent.append(str(query))
        return await execute(self, query, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", counted)
    return sent


def _event(text: str, delta: dict[str, object], timestamp: float) -> Event:
    return Event(
        author="agent",
        invocation_id="i",
        timestamp=timestamp,
        content=Content.from_text(text),
        actions=EventActions(state_delta=delta),
    )


async def test_a_creation_is_one_statement_and_returns_the_state_a_load_finds(
    postgres_dsn: str, postgres_schema: str, statements: list[str]
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        await service.create_session(
            app_name="a", user_id="u", state={"app:kept": 1, "app:over": 1, "user:mine": "x"}
        )
        statements.clear()
        created = await service.create_session(
            app_name="a",
            user_id="u",
            state={"app:over": [2, {"b": 1, "a": 2}], "user:new": 0, "here": "é\u0000"},
        )
        assert len(statements) == 1
        loaded = await service.get_session(app_name="a", user_id="u", session_id=created.id)
        assert dict(created.state) == dict(loaded.state)
        assert dict(created.state) == {
            "app:kept": 1,
            "app:over": [2, {"b": 1, "a": 2}],
            "user:mine": "x",
            "user:new": 0,
            "here": "é\u0000",
        }
        assert (created.version, created.create_time, created.last_update_time) == (
            loaded.version,
            loaded.create_time,
            loaded.last_update_time,
        )


@pytest.mark.parametrize("cache_events", [0, 100])
async def test_a_load_is_one_statement(
    postgres_dsn: str, postgres_schema: str, statements: list[str], cache_events: int
) -> None:
    async with PostgresSessionService(
        postgres_dsn, schema=postgres_schema, cache_events=cache_events
    ) as service:
        session = await service.create_session(
            app_name="a", user_id="u", state={"app:x": 1, "user:y": 2, "z": 3}
        )
        base = session.last_update_time
        for i in range(12):
            delta: dict[str, object] = {"n": i}
            session = await service.append_event(session, _event(f"m{i}", delta, base + i + 1))
        # The loads' own connection opened (its search_path set) by a first load.
        await service.get_session(app_name="a", user_id="u", session_id=session.id)
        statements.clear()
        loaded = await service.get_session(app_name="a", user_id="u", session_id=session.id)
        again = await service.get_session(app_name="a", user_id="u", session_id=session.id)
        assert len(statements) == 2
        for found in (loaded, again):
            assert found.events == session.events
            assert dict(found.state) == {"app:x": 1, "user:y": 2, "z": 3, "n": 11}
            assert found.version == 12


async def test_a_load_with_a_config_is_one_statement_and_keeps_the_events_order(
    postgres_dsn: str, postgres_schema: str, statements: list[str]
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        session = await service.create_session(app_name="a", user_id="u")
        base = session.last_update_time
        for i in range(10):
            session = await service.append_event(session, _event(f"m{i}", {}, base + i + 1))
        await service.get_session(app_name="a", user_id="u", session_id=session.id)
        statements.clear()
        recent = await service.get_session(
            app_name="a",
            user_id="u",
            session_id=session.id,
            config=GetSessionConfig(num_recent_events=3, after_timestamp=base + 2),
        )
        assert len(statements) == 1
        assert recent.events == session.events[-3:]
        after = await service.get_session(
            app_name="a",
            user_id="u",
            session_id=session.id,
            config=GetSessionConfig(after_timestamp=base + 8),
        )
        assert after.events == session.events[7:]
