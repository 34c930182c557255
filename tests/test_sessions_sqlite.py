"""The SQLite store against the shared conformance suite, plus what only SQLite has."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from agentlog import (
    Content,
    Event,
    EventActions,
    EventCompaction,
    GetSessionConfig,
    Session,
    SqliteSessionService,
    StoreUnavailableError,
)
from agentlog.sessions.base import SessionService
from agentlog.sessions.codec import encode_event
from agentlog.sessions.migrations import load_migrations, split_statements
from agentlog.testing.sessions import ServiceSpec, SessionServiceConformance


class TestSqliteSessionService(SessionServiceConformance):
    @pytest.fixture(autouse=True)
    def _tmp(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.count = 0

    async def make_service(self) -> SessionService:
        self.count += 1
        return SqliteSessionService(self.tmp_path / f"store{self.count}.db")

    def service_spec(self, service: SessionService) -> ServiceSpec:
        assert isinstance(service, SqliteSessionService)
        return ServiceSpec("agentlog.sessions.sqlite:SqliteSessionService", {"path": service.path})

    async def corrupt_event(self, service: SessionService, session: Session, event_id: str) -> None:
        assert isinstance(service, SqliteSessionService)
        with sqlite3.connect(service.path) as conn:
            conn.execute("UPDATE events SET payload = '{not json' WHERE event_id = ?", (event_id,))


class TestSqliteUncached(TestSqliteSessionService):
    """The same contract with every load decoding every event (no decoded-event cache)."""

    async def make_service(self) -> SessionService:
        self.count += 1
        return SqliteSessionService(self.tmp_path / f"uncached{self.count}.db", cache_events=0)


class TestSqliteWorkerThreadAppends(TestSqliteSessionService):
    """The same contract with every append on the worker thread."""

    async def make_service(self) -> SessionService:
        self.count += 1
        return SqliteSessionService(self.tmp_path / f"worker{self.count}.db", inline_appends=False)


async def test_an_append_waits_on_the_worker_thread_while_another_writer_holds_the_file(
    tmp_path: Path,
) -> None:
    import asyncio
    import threading

    store = SqliteSessionService(tmp_path / "busy.db", timeout=5.0)
    session = await store.create_session(app_name="a", user_id="u")
    holder = sqlite3.connect(tmp_path / "busy.db", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the write lock
    threading.Timer(0.3, lambda: holder.execute("COMMIT")).start()
    loop_ticks = 0

    async def ticker() -> None:
        nonlocal loop_ticks
        while True:
            await asyncio.sleep(0.01)
            loop_ticks += 1

    tick = asyncio.create_task(ticker())
    after = await store.append_event(session, Event(invocation_id="i", author="agent"))
    tick.cancel()
    assert after.version == 1
    assert loop_ticks >= 10  # the event loop kept running while the append waited
    holder.close()
    await store.close()


def test_unreachable_file_is_store_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreUnavailableError, match="cannot open"):
        SqliteSessionService(blocker / "sub" / "x.db")


def test_not_a_database_is_store_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not a sqlite file" * 100)
    with pytest.raises(StoreUnavailableError):
        SqliteSessionService(path)


async def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    for _ in range(2):
        await SqliteSessionService(path).close()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT version, name FROM agentlog_migrations").fetchall()
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert rows == [(m.version, m.name) for m in load_migrations("sqlite")]
    assert rows[:3] == [(1, "initial"), (2, "compaction_end"), (3, "session_leases")]
    assert mode == "wal"


async def test_durability_setting_is_explicit(tmp_path: Path) -> None:
    durable = SqliteSessionService(tmp_path / "a.db")
    fast = SqliteSessionService(tmp_path / "b.db", risk_losing_recent_commits_on_power_loss=True)
    assert durable.synchronous == "FULL"
    assert fast.synchronous == "NORMAL"
    await durable.close()
    await fast.close()


async def test_migration_2_backfills_compactions_stored_before_it(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    events = [
        Event(invocation_id=f"inv-{i}", author="user", content=Content.from_text(f"e{i}"))
        for i in range(4)
    ]
    events = [e.model_copy(update={"timestamp": 100.0 + i}) for i, e in enumerate(events)]
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
    with sqlite3.connect(path) as conn:
        # The schema as release 0.1 left it: migration 1 only.
        conn.execute(
            "CREATE TABLE agentlog_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at REAL NOT NULL)"
        )
        for statement in split_statements(load_migrations("sqlite")[0].sql):
            conn.execute(statement)
        conn.execute("INSERT INTO agentlog_migrations VALUES (1, 'initial', 0)")
        for pk, sid, count in ((1, "s1", len(rows)), (2, "broken", 1)):
            conn.execute(
                "INSERT INTO sessions VALUES (?, 'app', 'u', ?, ?, 0, 200)", (pk, sid, count)
            )
        for seq, event in enumerate(rows, start=1):
            conn.execute(
                "INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
                " format_version, payload) VALUES (1, ?, ?, ?, ?, ?, 1, ?)",
                (
                    seq,
                    event.id,
                    event.invocation_id,
                    event.author,
                    event.timestamp,
                    encode_event(event),
                ),
            )
        # A corrupt row that mentions a compaction must not stop the migration.
        conn.execute(
            "INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
            " format_version, payload) VALUES (2, 1, 'x', 'i', 'a', 1, 1, '{\"compaction\": ')"
        )
    service = SqliteSessionService(path)
    try:
        loaded = await service.get_session(
            app_name="app",
            user_id="u",
            session_id="s1",
            config=GetSessionConfig(from_latest_compaction=True),
        )
        assert [e.id for e in loaded.events] == [events[2].id, compaction.id, events[3].id]
        assert loaded.events[1] == compaction
    finally:
        await service.close()
    with sqlite3.connect(path) as conn:
        ends = conn.execute("SELECT event_id, compaction_end FROM events ORDER BY pk").fetchall()
    assert ends == [(e.id, 101.0 if e is compaction else None) for e in rows] + [("x", None)]
