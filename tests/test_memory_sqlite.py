"""The SQLite memory store against the shared conformance suite (with and without FTS5), plus
what only SQLite has."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from agentlog import SqliteSessionService, StoreUnavailableError
from agentlog.errors import InvalidMemoryEntryError
from agentlog.memory import MemoryService, SqliteMemoryService
from agentlog.memory import sqlite as memory_sqlite
from agentlog.testing.memory import MemoryServiceConformance, entry


class TestSqliteMemoryService(MemoryServiceConformance):
    @pytest.fixture(autouse=True)
    def _tmp(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.count = 0

    async def make_service(self) -> MemoryService:
        self.count += 1
        service = SqliteMemoryService(self.tmp_path / f"memory{self.count}.db")
        assert service.full_text
        return service


class TestSqliteMemoryServiceWithoutFts5(TestSqliteMemoryService):
    """The same contract when the SQLite build has no FTS5: search scans instead."""

    @pytest.fixture(autouse=True)
    def _no_fts5(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(memory_sqlite, "_fts5_available", lambda conn: False)

    async def make_service(self) -> MemoryService:
        self.count += 1
        service = SqliteMemoryService(self.tmp_path / f"scan{self.count}.db")
        assert not service.full_text
        return service


def migrations(path: Path, table: str) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT version, name FROM {table} ORDER BY version").fetchall()


async def test_migrations_are_recorded_once_in_their_own_table(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    for _ in range(2):
        await SqliteMemoryService(path).close()
    assert migrations(path, "agentlog_memory_migrations") == [
        (1, "initial"),
        (2, "fts5"),
        (3, "agent_statement"),
    ]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_shares_a_file_with_the_session_store(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    sessions = SqliteSessionService(path)
    memory = SqliteMemoryService(path)
    session = await sessions.create_session(app_name="a", user_id="u")
    await memory.add([entry("Refund issued for A-1001", app_name="a", user_id="u")])
    assert (await memory.search(app_name="a", user_id="u", query="A-1001"))[0].entry.user_id == "u"
    assert (await sessions.list_sessions(app_name="a"))[0].id == session.id
    await sessions.close()
    await memory.close()
    assert migrations(path, "agentlog_memory_migrations")[0] == (1, "initial")
    assert migrations(path, "agentlog_migrations")[0] == (1, "initial")


async def test_entries_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "durable.db"
    first = SqliteMemoryService(path)
    added = await first.add([entry("Customer prefers email", session_id="s7")])
    await first.close()
    again = SqliteMemoryService(path)
    assert await again.list(app_name="conformance", user_id="u1") == added
    await again.close()


async def test_fts5_catches_up_on_entries_stored_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "late.db"
    with monkeypatch.context() as patch:
        patch.setattr(memory_sqlite, "_fts5_available", lambda conn: False)
        scan = SqliteMemoryService(path)
        await scan.add([entry("Parcel Z-00042 is late")])
        await scan.close()
    assert migrations(path, "agentlog_memory_migrations") == [
        (1, "initial"),
        (3, "agent_statement"),
    ]
    indexed = SqliteMemoryService(path)
    assert indexed.full_text
    hits = await indexed.search(app_name="conformance", user_id="u1", query="z00042")
    assert [hit.entry.text for hit in hits] == ["Parcel Z-00042 is late"]
    await indexed.close()


def test_unreachable_file_is_store_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreUnavailableError, match="cannot open"):
        SqliteMemoryService(blocker / "sub" / "x.db")


def test_not_a_database_is_store_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not a sqlite file" * 100)
    with pytest.raises(StoreUnavailableError):
        SqliteMemoryService(path)


async def test_a_store_made_before_agent_statement_keeps_its_entries_and_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    with monkeypatch.context() as patch:
        older = [m for m in memory_sqlite.load_migrations("sqlite") if m.version < 3]
        patch.setattr(memory_sqlite, "load_migrations", lambda dialect: older)
        old = SqliteMemoryService(path)
        kept = await old.add([entry("Parcel Z-00042 is late", provenance="user_claim")])
        with pytest.raises(InvalidMemoryEntryError):  # the old CHECK refuses the third label
            await old.add([entry("The desk said it would call back", provenance="agent_statement")])
        await old.close()
    store = SqliteMemoryService(path)
    assert store.full_text
    said = await store.add(
        [entry("The desk said it would call back", provenance="agent_statement")]
    )
    assert await store.list(app_name="conformance", user_id="u1") == [*kept, *said]
    for query, text in (("z00042", "Parcel Z-00042 is late"), ("call back", said[0].text)):
        hits = await store.search(app_name="conformance", user_id="u1", query=query)
        assert [hit.entry.text for hit in hits] == [text]  # the index follows the new table
    await store.close()
