"""The SQLite store against the shared conformance suite, plus what only SQLite has."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from agentlog import Session, SqliteSessionService, StoreUnavailableError
from agentlog.sessions.base import SessionService
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
    assert rows == [(1, "initial")]
    assert mode == "wal"


async def test_durability_setting_is_explicit(tmp_path: Path) -> None:
    durable = SqliteSessionService(tmp_path / "a.db")
    fast = SqliteSessionService(tmp_path / "b.db", risk_losing_recent_commits_on_power_loss=True)
    assert durable.synchronous == "FULL"
    assert fast.synchronous == "NORMAL"
    await durable.close()
    await fast.close()
