"""Damage contained and visible: a record that cannot be decoded names itself and fails only the
reads that need it; ``agentlog check`` lists every such record and quarantines one.

Each test runs on SQLite and on PostgreSQL (with ``AGENTLOG_TEST_POSTGRES_DSN``), with rows
corrupted by raw SQL the way a disk, a migration gone wrong or a hand edit leaves them.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest
from typer.testing import CliRunner

from agentlog import (
    Content,
    CorruptRecordError,
    Event,
    GetSessionConfig,
    Session,
    SqliteSessionService,
)
from agentlog.check import Problem, RecordRef, check_store, quarantine
from agentlog.cli import app
from agentlog.cli.check import run
from agentlog.errors import QuarantineRefusedError, StoreUnavailableError
from agentlog.server.replay import read_after
from agentlog.sessions.base import SessionService

APP = "refunds"


@dataclass
class Backend:
    """One kind of store under test: how to open it, reach its rows, and name it to the check."""

    kind: str
    db: str
    """What ``agentlog check --db`` takes."""
    open: Callable[..., SessionService]
    sql: Callable[..., Any]
    """Run one statement with ``?`` placeholders; its rows."""
    bad_payload: str
    """A payload its column holds that is no event."""
    bad_value: str
    """A state value its column holds that no load takes."""
    opened: list[SessionService] = field(default_factory=list)

    def store(self, **options: Any) -> SessionService:
        store = self.open(**options)
        self.opened.append(store)
        return store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        path = tmp_path / "store.db"

        def sqlite_sql(query: str, *params: Any) -> list[Any]:
            with sqlite3.connect(path) as conn:
                return conn.execute(query, params).fetchall()

        made = Backend(
            "sqlite",
            str(path),
            lambda **o: SqliteSessionService(path, **o),
            sqlite_sql,
            bad_payload="{not json",
            bad_value="NaN",
        )
    else:
        made = await _postgres_backend(request)
    yield made
    for store in made.opened:
        await store.close()


async def _postgres_backend(request: pytest.FixtureRequest) -> Backend:
    import psycopg

    from agentlog.sessions.postgres import PostgresSessionService

    dsn: str = request.getfixturevalue("postgres_dsn")
    schema: str = request.getfixturevalue("new_postgres_schema")()
    # The check reaches the schema as a user would: a URI whose options set the search_path.
    options = quote(f"-csearch_path={schema}", safe="")
    in_schema = f"{dsn}{'&' if '?' in dsn else '?'}options={options}"

    def postgres_sql(query: str, *params: Any) -> list[Any]:
        with psycopg.connect(in_schema, autocommit=True) as conn:
            cursor = conn.execute(query.replace("?", "%s"), params)  # type: ignore[call-overload]
            return cursor.fetchall() if cursor.description else []

    # The JSON columns refuse text that does not parse: valid JSON that is no event, and a
    # number no reader can hold, are what can go wrong there.
    return Backend(
        "postgres",
        in_schema,
        lambda **o: PostgresSessionService(dsn, schema=schema, **o),
        postgres_sql,
        bad_payload='{"not": "an event"}',
        bad_value="1e999",
    )


def said(text: str) -> Event:
    return Event(invocation_id="inv", author="user", content=Content.from_text(text))


async def session_with(store: SessionService, sid: str, *texts: str, **state: Any) -> Session:
    s = await store.create_session(app_name=APP, user_id="ana", session_id=sid, state=state)
    for text in texts:
        s = await store.append_event(s, said(text))
    return s


async def load(store: SessionService, sid: str, user: str = "ana", **config: Any) -> Session:
    return await store.get_session(
        app_name=APP,
        user_id=user,
        session_id=sid,
        config=GetSessionConfig(**config) if config else None,
    )


# --- what the stores do with a record they cannot decode ---------------------------------------


@pytest.mark.parametrize("cache_events", [10_000, 0])
async def test_a_corrupt_event_fails_only_the_loads_that_include_it(
    backend: Backend, cache_events: int
) -> None:
    store = backend.store(cache_events=cache_events)
    s1 = await session_with(store, "s1", "first", "second", "third")
    await session_with(store, "s2", "elsewhere")
    backend.sql(
        "UPDATE events SET payload = ? WHERE event_id = ?", backend.bad_payload, s1.events[1].id
    )
    store = backend.store(cache_events=cache_events)  # a process that never decoded it

    with pytest.raises(CorruptRecordError) as caught:
        await load(store, "s1")
    assert (caught.value.table, caught.value.key, caught.value.session_id) == (
        "events",
        s1.events[1].id,
        "s1",
    )
    assert s1.events[1].id in str(caught.value)
    assert [e.text() for e in (await load(store, "s1", num_recent_events=1)).events] == ["third"]
    assert [e.text() for e in (await load(store, "s2")).events] == ["elsewhere"]
    assert [s.id for s in await store.list_sessions(app_name=APP)] == ["s1", "s2"]


@pytest.mark.parametrize(
    ("table", "where", "owner"),
    [
        ("session_state", "key = 'k'", None),
        ("user_state", "key = 'tier'", "ana"),
        ("app_state", "app_name = 'refunds' AND key = 'limit'", APP),
    ],
)
async def test_a_corrupt_state_row_names_itself_in_the_loads_of_its_scope_only(
    backend: Backend, table: str, where: str, owner: str | None
) -> None:
    store = backend.store()
    await session_with(store, "s1", "hi", k="v", **{"user:tier": "gold", "app:limit": 50})
    await session_with(store, "s2", "hello")
    other = await store.create_session(app_name="other-app", user_id="bo", state={"app:limit": 1})
    backend.sql(f"UPDATE {table} SET value = ? WHERE {where}", backend.bad_value)

    with pytest.raises(CorruptRecordError) as caught:
        await load(store, "s1")
    error = caught.value
    assert (error.table, error.owner, error.session_id) == (table, owner, "s1")
    assert error.key in str(error)
    assert table in str(error)
    # Sessions outside the row's scope load; s2 shares the user and the app, not s1's own state.
    if table == "session_state":
        assert (await load(store, "s2")).state["user:tier"] == "gold"
    else:
        with pytest.raises(CorruptRecordError):
            await load(store, "s2")
    loaded_other = await store.get_session(app_name="other-app", user_id="bo", session_id=other.id)
    assert loaded_other.state == {"app:limit": 1}
    # A listing leaves the row out instead of failing for every session.
    listed = {s.id: s.state for s in await store.list_sessions(app_name=APP)}
    assert set(listed) == {"s1", "s2"}
    shown = {"session_state": "k", "user_state": "user:tier", "app_state": "app:limit"}[table]
    assert shown not in listed["s1"]
    if table == "app_state":
        with pytest.raises(CorruptRecordError, match="app_state key 'limit' of app 'refunds'"):
            await store.get_app_state(app_name=APP)
    if table == "user_state":
        with pytest.raises(CorruptRecordError, match="user_state key 'tier' of user 'ana'"):
            await store.get_user_state(app_name=APP, user_id="ana")


# --- agentlog check -----------------------------------------------------------------------------


async def test_a_clean_store_checks_clean(backend: Backend) -> None:
    store = backend.store()
    await session_with(store, "s1", "a", "b", k=1, **{"app:x": [1, 2], "user:y": {"z": None}})
    report = await check_store(backend.db)
    assert report.clean
    assert report.problems == ()
    assert {t: report.rows[t] for t in ("sessions", "events", "session_state")} == {
        "sessions": 1,
        "events": 2,
        "session_state": 1,
    }
    assert report.lines()[-1].endswith("every record loads")


async def test_every_record_that_cannot_be_loaded_is_listed(backend: Backend) -> None:
    store = backend.store()
    s1 = await session_with(store, "s1", "a", "b", "c", k=1, **{"user:tier": "gold"})
    s2 = await session_with(store, "s:2", "d", note="x", **{"app:limit": 5})
    await session_with(store, "s3", "fine")
    backend.sql(
        "UPDATE events SET payload = ? WHERE event_id = ?", backend.bad_payload, s1.events[0].id
    )
    backend.sql("UPDATE events SET format_version = 99 WHERE event_id = ?", s1.events[2].id)
    backend.sql("UPDATE session_state SET value = ? WHERE key = 'note'", backend.bad_value)
    backend.sql("UPDATE app_state SET value = ? WHERE key = 'limit'", backend.bad_value)
    backend.sql("UPDATE user_state SET value = '\"\\ud800\"' WHERE key = 'tier'")
    backend.sql("UPDATE sessions SET version = 1 WHERE session_id = 's1'")

    report = await check_store(backend.db)
    found = {str(p.record): p.reason for p in report.problems}
    assert list(found) == [
        "sessions:refunds:ana:s1",
        f"events:refunds:ana:s1:{s1.events[0].id}",
        f"events:refunds:ana:s1:{s1.events[2].id}",
        "session_state:refunds:ana:s%3A2:note",
        "app_state:refunds:limit",
        "user_state:refunds:ana:tier",
    ]
    assert "newest event's sequence number 3" in found["sessions:refunds:ana:s1"]
    assert "format version 99" in found[f"events:refunds:ana:s1:{s1.events[2].id}"]
    assert "not a JSON number" in found["app_state:refunds:limit"]
    assert "lone surrogate" in found["user_state:refunds:ana:tier"]
    assert not report.clean
    assert report.rows["events"] == 5
    assert s2.id == "s:2"

    lines: list[str] = []
    assert await run(backend.db, echo=lines.append) == 1
    assert lines[: len(found)] == [str(p) for p in report.problems]


async def test_quarantine_moves_the_record_aside_and_the_session_loads_and_appends(
    backend: Backend,
) -> None:
    store = backend.store()
    s1 = await session_with(store, "s1", "a", "b", "c")
    bad = s1.events[1]
    backend.sql("UPDATE events SET payload = ? WHERE event_id = ?", backend.bad_payload, bad.id)
    record = f"events:refunds:ana:s1:{bad.id}"

    moved = await quarantine(backend.db, record)
    assert isinstance(moved, Problem)
    assert str(moved.record) == record
    kept = backend.sql("SELECT source_table, record, session_id, original, reason FROM quarantine")
    assert len(kept) == 1
    source, name, session_id, original, reason = kept[0]
    assert (source, name, session_id, reason) == ("events", record, "s1", moved.reason)
    assert '"seq": 2' in original
    assert bad.id in original

    texts = ["a", "c"]
    for cache_events in (10_000, 0):
        fresh = backend.store(cache_events=cache_events)
        loaded = await load(fresh, "s1")
        assert [e.text() for e in loaded.events] == texts
        # The quarantined event still counts: appends go on from the stored version.
        assert loaded.version == len(texts) + 1
        after = await fresh.append_event(loaded, said(f"new {cache_events}"))
        texts.append(f"new {cache_events}")
        assert after.version == len(texts) + 1
        assert [e.text() for e in (await load(fresh, "s1")).events] == texts
        assert [e.text() for e in (await load(fresh, "s1", num_recent_events=2)).events] == (
            texts[-2:]
        )
    report = await check_store(backend.db)
    assert report.clean
    assert report.rows["quarantine"] == 1


async def test_a_quarantined_state_row_reads_as_never_set(backend: Backend) -> None:
    store = backend.store()
    await session_with(store, "s1", "a", **{"app:limit": 5, "app:rate": 2})
    backend.sql("UPDATE app_state SET value = ? WHERE key = 'limit'", backend.bad_value)
    await quarantine(backend.db, RecordRef("app_state", APP, key="limit"))
    assert (await load(store, "s1")).state == {"app:rate": 2}
    assert await store.get_app_state(app_name=APP) == {"rate": 2}
    (kept,) = backend.sql("SELECT original FROM quarantine WHERE source_table = 'app_state'")
    assert backend.bad_value in kept[0]


async def test_quarantine_refuses_what_it_should_not_move(backend: Backend) -> None:
    store = backend.store()
    s1 = await session_with(store, "s1", "a", k=1)
    backend.sql("UPDATE sessions SET version = 0")
    refused = [
        f"events:refunds:ana:s1:{s1.events[0].id}",  # loads as it is
        "events:refunds:ana:s1:no-such-event",
        "session_state:refunds:ana:s1:k",
        "app_state:refunds:nothing",
        "sessions:refunds:ana:s1",  # its events would go with it
        "events:refunds:ana",  # not a record's name
        "tables:refunds:x",
        "",
    ]
    for name in refused:
        with pytest.raises(QuarantineRefusedError):
            await quarantine(backend.db, name)
    assert backend.sql("SELECT count(*) FROM quarantine") == [(0,)]
    assert len((await load(store, "s1", num_recent_events=5)).events) == 1


async def test_a_replay_of_a_session_with_a_quarantined_event_ends(backend: Backend) -> None:
    store = backend.store()
    s1 = await session_with(store, "s1", *(f"m{i}" for i in range(70)))
    backend.sql(
        "UPDATE events SET payload = ? WHERE event_id = ?", backend.bad_payload, s1.events[3].id
    )
    await quarantine(backend.db, f"events:refunds:ana:s1:{s1.events[3].id}")
    counted = _Counting(store, budget=10)
    # The replay reads the tail and widens it until it holds every event: the version still
    # counts the quarantined one, which it can never read.
    replay = await read_after(cast(SessionService, counted), APP, ("ana", "s1"), s1.events[1].id)
    assert [e.text() for e in replay.events] == [f"m{i}" for i in range(2, 70) if i != 3]
    whole = await read_after(cast(SessionService, counted), APP, ("ana", "s1"), None)
    assert len(whole.events) == 69


class _Counting:
    """A store whose loads fail once there have been ``budget`` of them: a loop that never
    ends shows as an error, not as a test that hangs."""

    def __init__(self, store: SessionService, budget: int) -> None:
        self._store = store
        self._left = budget

    async def get_session(self, **kwargs: Any) -> Session:
        self._left -= 1
        if self._left < 0:
            raise AssertionError("too many loads: the replay does not end")
        return await self._store.get_session(**kwargs)


# --- the command --------------------------------------------------------------------------------


def cli(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["check", *args])
    return result.exit_code, result.output.strip().splitlines()


async def test_the_command_lists_quarantines_and_exits_by_what_it_found(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AGENTLOG_DB", raising=False)
    store = backend.store()
    s1 = await session_with(store, "s1", "a", "b")

    async def command(*args: str) -> tuple[int, list[str]]:
        # On a thread: the command runs an event loop of its own.
        return await asyncio.to_thread(cli, "--db", backend.db, *args)

    assert (await command())[0] == 0
    backend.sql("UPDATE events SET format_version = 0 WHERE event_id = ?", s1.events[0].id)
    record = f"events:refunds:ana:s1:{s1.events[0].id}"

    code, lines = await command()
    assert code == 1
    assert lines[0] == f"{record}  format version 0 is not one this release reads (it reads 1 to 1)"
    assert "1 record(s) cannot be loaded" in lines[1]

    code, lines = await command("--quarantine", record)
    assert code == 0, lines
    assert lines[0].startswith(f"quarantined {record}")
    assert lines[-1].endswith("every record loads")

    code, lines = await command("--quarantine", record)
    assert (code, lines) == (2, [f"Error: no record {record} is stored"])


def test_the_command_names_a_store_it_cannot_read(tmp_path: Path) -> None:
    missing = tmp_path / "nope.db"
    code, lines = cli("--db", str(missing))
    assert code == 2
    assert lines[0] == f"Error: no SQLite file {str(missing)!r}"
    assert not missing.exists()
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    code, lines = cli("--db", str(empty))
    assert (code, lines[0]) == (2, f"Error: {str(empty)!r} holds no agentlog sessions")
    with pytest.raises(StoreUnavailableError):
        asyncio.run(check_store(str(missing)))


@pytest.mark.parametrize(
    "ref",
    [
        RecordRef("events", "refunds", "ana", "s1", "01JABC"),
        RecordRef("session_state", "a:b", "u%1", "s 1", "ü:k"),
        RecordRef("app_state", "app", key="key/with/slashes"),
        RecordRef("user_state", "app", "ana", key=":"),
        RecordRef("sessions", "app", "ana", "s"),
    ],
)
def test_a_record_name_reads_back_as_the_record(ref: RecordRef) -> None:
    assert RecordRef.parse(str(ref)) == ref
    assert str(ref).count(":") == 1 + sum(
        getattr(ref, p) is not None for p in ("user_id", "session_id", "key")
    )


@pytest.mark.postgres
async def test_a_postgres_schema_can_be_named_instead_of_set_in_the_dsn(
    postgres_dsn: str, postgres_schema: str
) -> None:
    from agentlog.sessions.postgres import PostgresSessionService

    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as store:
        s = await session_with(store, "s1", "a", "b", **{"app:limit": 5})
        await store.append_event(s, said("c"))
    report = await check_store(postgres_dsn, schema=postgres_schema)
    assert report.clean
    assert (report.rows["events"], report.rows["app_state"]) == (3, 1)
    assert report.where.endswith(f"(schema {postgres_schema})")
    with pytest.raises(StoreUnavailableError, match="holds no agentlog sessions"):
        await check_store(postgres_dsn, schema=f"{postgres_schema}_none")


async def test_sqlite_text_that_is_not_utf8_is_a_corrupt_record_not_an_outage(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bytes.db"
    store = SqliteSessionService(path, cache_events=0)
    try:
        s1 = await session_with(store, "s1", "hi", k="v")
        with sqlite3.connect(path) as conn:
            # What a torn write or a foreign writer can leave in a TEXT column.
            conn.execute("UPDATE events SET payload = CAST(X'7BFF7D' AS TEXT)")
            conn.execute("UPDATE session_state SET value = CAST(X'22FF22' AS TEXT)")
        with pytest.raises(CorruptRecordError) as caught:
            await load(store, "s1")
        assert caught.value.key == s1.events[0].id
        with pytest.raises(CorruptRecordError, match="session_state key 'k'"):
            await load(store, "s1", num_recent_events=0)
    finally:
        await store.close()
    report = await check_store(str(path))
    assert [str(p.record) for p in report.problems] == [
        f"events:refunds:ana:s1:{s1.events[0].id}",
        "session_state:refunds:ana:s1:k",
    ]
    await quarantine(str(path), report.problems[0].record)
    (original,) = sqlite3.connect(path).execute("SELECT original FROM quarantine").fetchone()
    assert '"payload": {"hex": "7bff7d"}' in original
