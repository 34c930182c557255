"""The PostgreSQL store against the shared conformance suite, plus what only PostgreSQL has.

Needs a server: set ``AGENTLOG_TEST_POSTGRES_DSN`` (for example
``postgresql://postgres@127.0.0.1:5432/test``). Every store lives in a fresh schema, dropped
when the test is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
import uuid
from collections.abc import Callable

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from _postgres import execute
from agentlog import (
    Content,
    Event,
    EventActions,
    EventCompaction,
    FunctionCall,
    GetSessionConfig,
    Part,
    Session,
    StoreUnavailableError,
)
from agentlog.sessions.base import SessionService
from agentlog.sessions.codec import encode_event
from agentlog.sessions.migrations import load_migrations
from agentlog.sessions.postgres import PostgresSessionService
from agentlog.testing.sessions import ServiceSpec, SessionServiceConformance

# Every test here, even one that never reaches the server, is skipped without the variable.
pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("postgres_dsn")]


class TestPostgresSessionService(SessionServiceConformance):
    @pytest.fixture(autouse=True)
    def _server(self, postgres_dsn: str, new_postgres_schema: Callable[[], str]) -> None:
        self.dsn = postgres_dsn
        self.new_schema = new_postgres_schema

    async def make_service(self) -> SessionService:
        return PostgresSessionService(self.dsn, schema=self.new_schema(), max_size=4)

    def service_spec(self, service: SessionService) -> ServiceSpec:
        assert isinstance(service, PostgresSessionService)
        return ServiceSpec(
            "agentlog.sessions.postgres:PostgresSessionService",
            {"dsn": self.dsn, "schema": service.schema},
        )

    async def corrupt_event(self, service: SessionService, session: Session, event_id: str) -> None:
        # The column is JSON, so the server refuses text that does not parse; valid JSON that
        # is not an event is the corruption that can happen here.
        assert isinstance(service, PostgresSessionService)
        assert service.schema is not None
        await execute(
            self.dsn,
            service.schema,
            'UPDATE events SET payload = \'{"not": "an event"}\' WHERE event_id = %s',
            event_id,
        )


class TestPostgresUncached(TestPostgresSessionService):
    """The same contract with every load decoding every event (no decoded-event cache)."""

    async def make_service(self) -> SessionService:
        return PostgresSessionService(
            self.dsn, schema=self.new_schema(), max_size=4, cache_events=0
        )


async def test_unreachable_server_fails_fast_without_the_password() -> None:
    service = PostgresSessionService(
        "postgresql://agentlog:s3cret-pw@127.0.0.1:1/test", timeout=30.0
    )
    started = time.monotonic()
    with pytest.raises(StoreUnavailableError) as caught:
        await service.list_sessions(app_name="a")
    assert time.monotonic() - started < 5, "waited for the pool timeout instead of failing"
    message = str(caught.value)
    assert "127.0.0.1:1/test" in message
    assert "s3cret-pw" not in message
    await service.close()


def test_malformed_dsn_is_reported_without_the_password() -> None:
    with pytest.raises(StoreUnavailableError) as caught:
        PostgresSessionService("postgresql://agentlog:s3cret-pw@[::1/test")
    assert "s3cret-pw" not in str(caught.value)
    assert caught.value.__cause__ is None


@pytest.mark.parametrize(
    "name", ["", "1abc", "bad-name", "x; DROP TABLE sessions", 'q"uote', "pg_mine", "a" * 64, "é"]
)
def test_schema_name_is_validated(postgres_dsn: str, name: str) -> None:
    with pytest.raises(ValueError, match="schema"):
        PostgresSessionService(postgres_dsn, schema=name)


async def test_tables_live_in_the_schema_and_migrations_run_once(
    postgres_dsn: str, postgres_schema: str
) -> None:
    services = [PostgresSessionService(postgres_dsn, schema=postgres_schema) for _ in range(6)]
    try:
        await asyncio.gather(*(s.open() for s in services))
    finally:
        await asyncio.gather(*(s.close() for s in services))
    rows = await execute(
        postgres_dsn, postgres_schema, "SELECT version, name FROM agentlog_migrations"
    )
    assert rows == [(m.version, m.name) for m in load_migrations("postgres")]
    assert rows[:3] == [(1, "initial"), (2, "compaction_end"), (3, "session_leases")]
    tables = await execute(
        postgres_dsn,
        postgres_schema,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
        postgres_schema,
    )
    assert {t for (t,) in tables} >= {"sessions", "events", "session_state", "app_state"}


async def test_open_close_and_async_with(postgres_dsn: str, postgres_schema: str) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        s = await service.create_session(app_name="a", user_id="u")
    with pytest.raises(StoreUnavailableError, match="closed"):
        await service.open()
    with pytest.raises(StoreUnavailableError, match="closed"):
        await service.get_app_state(app_name="a")
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as again:
        assert (await again.get_session(app_name="a", user_id="u", session_id=s.id)).version == 0


async def wait_for_lock_waiter(dsn: str, schema: str) -> None:
    query = sql.SQL(
        "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = {}::regclass"
    ).format(sql.Literal(f"{schema}.sessions"))
    for _ in range(500):
        ((waiting,),) = await execute(dsn, schema, query)
        if waiting:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the append never waited for the lock")


async def test_busy_pool_is_store_unavailable(postgres_dsn: str, postgres_schema: str) -> None:
    async with PostgresSessionService(
        postgres_dsn, schema=postgres_schema, max_size=1, timeout=0.5
    ) as service:
        s = await service.create_session(app_name="a", user_id="u")
        async with await psycopg.AsyncConnection.connect(postgres_dsn) as blocker:
            await blocker.execute(
                sql.SQL("LOCK TABLE {}.sessions IN ACCESS EXCLUSIVE MODE").format(
                    sql.Identifier(postgres_schema)
                )
            )
            stuck = asyncio.create_task(service.list_sessions(app_name="a"))
            # The listing holds the pool's only connection (appends and loads are sent on
            # connections of their own).
            await wait_for_lock_waiter(postgres_dsn, postgres_schema)
            with pytest.raises(StoreUnavailableError, match="no connection within"):
                await service.get_app_state(app_name="a")
            await blocker.rollback()
        assert [listed.id for listed in await stuck] == [s.id]


async def test_dropped_connection_is_store_unavailable_then_recovers(
    postgres_dsn: str, postgres_schema: str
) -> None:
    app_name = f"agentlog_test_{uuid.uuid4().hex[:8]}"
    dsn = make_conninfo(postgres_dsn, application_name=app_name)
    async with PostgresSessionService(dsn, schema=postgres_schema, max_size=1) as service:
        s = await service.create_session(app_name="a", user_id="u")
        await service.get_session(app_name="a", user_id="u", session_id=s.id)  # connected
        async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as admin:
            await admin.execute(
                "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
                " WHERE application_name = %s",
                (app_name,),
            )
        with pytest.raises(StoreUnavailableError):
            await service.get_session(app_name="a", user_id="u", session_id=s.id)
        loaded = await service.get_session(app_name="a", user_id="u", session_id=s.id)
        assert loaded.version == 0


async def test_payload_text_is_kept_exactly(postgres_dsn: str, postgres_schema: str) -> None:
    # JSONB would refuse \u0000 and reorder object keys; the JSON column keeps both.
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        s = await service.create_session(app_name="a", user_id="u")
        event = Event(
            author="agent",
            invocation_id="i",
            content=Content(
                role="model",
                parts=(
                    Part(text="nul \x00 here"),
                    Part(function_call=FunctionCall(id="c", name="f", args={"z": 1, "a": 2})),
                ),
            ),
            actions=EventActions(state_delta={"k": {"z": "\x00", "a": [1.5, -0.0]}}),
        )
        await service.append_event(s, event)
        loaded = await service.get_session(app_name="a", user_id="u", session_id=s.id)
        (stored,) = loaded.events
        assert stored.model_dump_json() == event.model_dump_json()
        value = loaded.state["k"]
        assert isinstance(value, dict)
        assert list(value) == ["z", "a"]


def test_import_without_the_extra_names_it() -> None:
    code = (
        "import sys; sys.modules['psycopg'] = None\n"
        "try:\n"
        "    import agentlog.sessions.postgres\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'agentlog[postgres]'" in out.stdout


async def test_migration_2_backfills_compactions_stored_before_it(
    postgres_dsn: str, postgres_schema: str
) -> None:
    events = [
        Event(
            invocation_id=f"inv-{i}",
            author="user",
            content=Content.from_text(f"e{i}"),
            timestamp=100.0 + i,
        )
        for i in range(4)
    ]
    compaction = Event(
        invocation_id="c",
        author="agentlog_compactor",
        timestamp=102.5,
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=100.0,
                end_timestamp=101.0,
                event_ids=(events[0].id, events[1].id),
                summary=Content.from_text("e0 and e1", role="model"),
            )
        ),
    )
    rows = [*events[:3], compaction, events[3]]
    async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as conn:
        # The schema as release 0.1 left it: migration 1 only.
        await conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(postgres_schema)))
        await conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(postgres_schema)))
        await conn.execute(
            "CREATE TABLE agentlog_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        await conn.execute(load_migrations("postgres")[0].sql)  # type: ignore[arg-type]
        await conn.execute("INSERT INTO agentlog_migrations VALUES (1, 'initial', 0)")
        cursor = await conn.execute(
            "INSERT INTO sessions (app_name, user_id, session_id, version, create_time,"
            " last_update_time) VALUES ('app', 'u', 's1', %s, 0, 200) RETURNING pk",
            (len(rows),),
        )
        row = await cursor.fetchone()
        assert row is not None
        for seq, event in enumerate(rows, start=1):
            await conn.execute(
                "INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
                " format_version, payload) VALUES (%s, %s, %s, %s, %s, %s, 1, %s)",
                (
                    row[0],
                    seq,
                    event.id,
                    event.invocation_id,
                    event.author,
                    event.timestamp,
                    encode_event(event),
                ),
            )
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        loaded = await service.get_session(
            app_name="app",
            user_id="u",
            session_id="s1",
            config=GetSessionConfig(from_latest_compaction=True),
        )
    assert [e.id for e in loaded.events] == [events[2].id, compaction.id, events[3].id]
    assert loaded.events[1] == compaction
    ends = await execute(
        postgres_dsn, postgres_schema, "SELECT event_id, compaction_end FROM events ORDER BY pk"
    )
    assert ends == [(e.id, 101.0 if e is compaction else None) for e in rows]


async def test_a_load_cancelled_mid_pipeline_leaves_the_pool_usable(
    postgres_dsn: str, postgres_schema: str
) -> None:
    # A server cancels a request's task when its client hangs up, and anyio's cancel scopes
    # cancel again at every await the task makes on its way out, cleanup included. Cancelled
    # so at every point of its pipeline, a load must leave the pool's only connection fit for
    # the next one.
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema, max_size=1) as service:
        s = await service.create_session(app_name="a", user_id="u")
        for i in range(100):
            event = Event(author="user", invocation_id="i", content=Content.from_text(f"m{i}"))
            s = await service.append_event(s, event)
        for step in range(60):
            task = asyncio.create_task(
                service.get_session(app_name="a", user_id="u", session_id=s.id)
            )
            await asyncio.sleep(step * 0.00005)
            while not task.done():
                task.cancel()
                await asyncio.sleep(0)
            with contextlib.suppress(asyncio.CancelledError):
                await task
            loaded = await service.get_session(app_name="a", user_id="u", session_id=s.id)
            assert loaded.version == 100


async def test_appends_to_many_sessions_at_once_share_a_transaction(
    postgres_dsn: str, postgres_schema: str
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        sessions = [await service.create_session(app_name="a", user_id=f"u{i}") for i in range(30)]
        stored = await asyncio.gather(
            *(
                service.append_event(
                    s, Event(author="agent", invocation_id="i", content=Content.from_text(f"{i}"))
                )
                for i, s in enumerate(sessions)
            )
        )
        assert [s.version for s in stored] == [1] * 30
    # Rows a transaction wrote carry its id (xmin): the 30 events came in a batch or two.
    rows = await execute(
        postgres_dsn, postgres_schema, "SELECT count(DISTINCT xmin::text), count(*) FROM events"
    )
    assert rows[0][1] == 30
    assert rows[0][0] <= 2
