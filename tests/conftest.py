"""Shared fixtures: for the runner and agent tests, a store (in memory or SQLite) and a harness
that creates sessions, runs turns and reads back what was stored; for every PostgreSQL test, the
server and throwaway schemas on it (see ``_postgres.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from _postgres import drop_schemas, new_schema_name, require_dsn
from agentlog import Content, Event, InMemorySessionService, Session, SqliteSessionService
from agentlog.agents import BaseAgent
from agentlog.run_config import RunConfig
from agentlog.runner import Runner
from agentlog.sessions.base import SessionService

APP = "refunds"
USER = "ana"


class Harness:
    """A store plus helpers; every session it makes belongs to ``APP`` / ``USER``."""

    def __init__(self, store: SessionService, kind: str) -> None:
        self.store = store
        self.kind = kind
        self.app = APP
        self.user = USER

    async def session(self, state: Mapping[str, Any] | None = None) -> str:
        session = await self.store.create_session(app_name=APP, user_id=USER, state=state)
        return session.id

    def runner(self, agent: BaseAgent, **kwargs: Any) -> Runner:
        return Runner(agent=agent, session_service=self.store, app_name=APP, **kwargs)

    async def run(
        self,
        runner: Runner,
        session_id: str,
        message: str | Content,
        *,
        run_config: RunConfig | None = None,
        state_delta: Mapping[str, Any] | None = None,
    ) -> list[Event]:
        """Run one turn to the end of its stream and return every event yielded."""
        content = Content.from_text(message) if isinstance(message, str) else message
        return [
            event
            async for event in runner.run_async(
                user_id=USER,
                session_id=session_id,
                new_message=content,
                run_config=run_config,
                state_delta=state_delta,
            )
        ]

    async def load(self, session_id: str) -> Session:
        return await self.store.get_session(app_name=APP, user_id=USER, session_id=session_id)

    async def events(self, session_id: str) -> tuple[Event, ...]:
        return (await self.load(session_id)).events


def _make_store(kind: str, tmp_path: Path) -> SessionService:
    if kind == "memory":
        return InMemorySessionService()
    return SqliteSessionService(tmp_path / "sessions.db")


@pytest.fixture(params=["memory", "sqlite"])
async def h(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """A harness over each store, for tests where the store matters."""
    store = _make_store(request.param, tmp_path)
    yield Harness(store, request.param)
    await store.close()


@pytest.fixture
async def mh(tmp_path: Path) -> AsyncIterator[Harness]:
    """A harness over the in-memory store, for tests about agent logic only."""
    store = _make_store("memory", tmp_path)
    yield Harness(store, "memory")
    await store.close()


@pytest.fixture(scope="session")
def postgres_dsn() -> str:
    """The test server's DSN; a test asking for it is skipped, saying why, when
    ``AGENTLOG_TEST_POSTGRES_DSN`` is unset."""
    return require_dsn()


@pytest.fixture
def new_postgres_schema(postgres_dsn: str) -> Iterator[Callable[[], str]]:
    """Hands out fresh schema names for this test; each is dropped when the test is done."""
    made: list[str] = []

    def new() -> str:
        made.append(new_schema_name())
        return made[-1]

    yield new
    drop_schemas(postgres_dsn, made)


@pytest.fixture
def postgres_schema(new_postgres_schema: Callable[[], str]) -> str:
    """A fresh schema name for this test, dropped when it is done."""
    return new_postgres_schema()
