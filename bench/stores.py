"""Session stores side by side: agentlog, google-adk and a bare-driver floor, in one run.

Run from the repository root with the bench venv (``bash bench/setup.sh`` makes it)::

    .venv-bench/bin/python -m bench.stores [--appends 2000] [--load-events 10000]

Two measurements, on fresh database files and PostgreSQL schemas made for this run:

1. ``append_event`` throughput and latency: one writer appends ``--appends`` small events (a
   text part and a ``state_delta`` of one or two session keys) to one session per store. The
   stores take turns: ``--rounds`` rounds, each store appending its next slice of events in
   each round, so a slow spell of the machine (other processes, a slow disk) falls on every
   store alike.
2. ``get_session`` of a session holding ``--load-events`` events, by one open service: one
   untimed warm-up, then ``--loads`` timed loads, the stores again taking turns. Load sessions
   are filled beforehand through each store's own ``append_event`` with commits not waiting for
   disk (SQLite files on tmpfs, then copied to the work directory; PostgreSQL with
   ``synchronous_commit=off``). The in-memory stores are loaded last, one at a time, so the
   events they hold do not slow the others' garbage collection. agentlog's durable stores
   load with their decoded-event cache off (``cache_events=0``): every load decodes every
   event, as a process's first load of a session does (``bench.runner`` shows the cache).

Progress goes to stderr, the tables to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import json
import logging
import os
import platform
import random
import shutil
import sqlite3
import statistics
import sys
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

APP: Final = "bench-app"
USER: Final = "bench-user"
DEFAULT_DSN: Final = "postgresql://postgres@127.0.0.1:5432/test"
TIMESTAMP_STEP: Final = 1e-4
"""Seconds between consecutive event timestamps. Events are stamped from just after their
session's creation on, so no store ever has to move a timestamp forward."""

Backend = Literal["SQLite", "PostgreSQL", "memory"]
Kind = Literal["agentlog", "google-adk", "floor", "diagnostic"]

_T0 = time.perf_counter()


def log(message: str) -> None:
    """Progress, to stderr."""
    print(f"[{time.perf_counter() - _T0:7.1f}s] {message}", file=sys.stderr, flush=True)


# --- the workload --------------------------------------------------------------------------------

_VOCABULARY: Final = (
    "the order shipped yesterday and should arrive within three business days please check "
    "tracking number refund policy allows returns for thirty days after delivery customer asked "
    "about invoice payment failed card declined retry later account settings updated address "
    "changed warehouse delay weather carrier support ticket escalated agent summary weather "
    "forecast meeting tomorrow calendar invite sent flight booking confirmed hotel reservation "
    "price estimate discount code applied subscription renewal cancelled upgraded plan"
)
_WORDS: Final = _VOCABULARY.split()
_INTENTS: Final = ("track_order", "refund", "billing", "address_change", "smalltalk", "booking")


@dataclass(frozen=True, slots=True)
class Spec:
    """One event of the workload, independent of any library's event type."""

    invocation_id: str
    author: str
    role: Literal["user", "model"]
    text: str
    delta: dict[str, Any]
    offset: float
    """Seconds after the session's base time; the event's timestamp is ``base + offset``."""


def make_specs(n: int, seed: int) -> list[Spec]:
    """``n`` realistic small events: a user turn and a model answer per invocation, 15-70
    words of text each, and a delta of one or two session-scoped keys."""
    rng = random.Random(seed)
    specs = []
    for i in range(n):
        user = i % 2 == 0
        text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(15, 70)))
        delta: dict[str, Any] = {"turn_count": i // 2 + 1}
        if not user:
            delta["last_intent"] = rng.choice(_INTENTS)
        specs.append(
            Spec(
                invocation_id=f"inv-{i // 2:07d}",
                author="user" if user else "support_agent",
                role="user" if user else "model",
                text=text.capitalize() + ".",
                delta=delta,
                offset=(i + 1) * TIMESTAMP_STEP,
            )
        )
    return specs


def base_after(created: float) -> float:
    """The base time for a session's events: just after its creation time."""
    return created + 0.001


# --- results -------------------------------------------------------------------------------------


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, round(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class AppendResult:
    """Appends timed so far, over every round."""

    count: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    round_rates: list[float] = field(default_factory=list)
    """Appends/s of each round's slice: their spread shows how steady the machine was."""

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    @property
    def p50(self) -> float:
        return percentile(self.latencies_ms, 50)

    @property
    def p99(self) -> float:
        return percentile(self.latencies_ms, 99)


@dataclass
class Row:
    """One store's results."""

    name: str
    backend: Backend
    kind: Kind
    durability: str
    append: AppendResult | None = None
    loads_ms: list[float] | None = None
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def load_median(self) -> float | None:
        return statistics.median(self.loads_ms) if self.loads_ms else None


def check_count(got: int, expected: int, what: str) -> None:
    if got != expected:
        raise RuntimeError(f"{what}: {got} events, expected {expected}")


# --- the run's context ---------------------------------------------------------------------------


@dataclass
class Context:
    """What every store needs: sizes, the workload, where files and schemas go."""

    appends: int
    load_events: int
    loads: int
    rounds: int
    append_specs: list[Spec]
    load_specs: list[Spec]
    workdir: Path
    fastdir: Path
    """Where load files are filled (tmpfs when there is one), then copied to ``workdir``."""
    dsn: str | None
    schemas: list[str] = field(default_factory=list)

    def db_file(self, name: str) -> Path:
        path = self.workdir / f"{name}.db"
        remove_sqlite(path)
        return path

    def fill_file(self, name: str) -> Path:
        path = self.fastdir / f"{name}.db"
        remove_sqlite(path)
        return path

    def schema(self, name: str) -> str:
        """A fresh PostgreSQL schema for this run, dropped at the end."""
        import psycopg

        assert self.dsn is not None
        schema = f"bench_{os.getpid()}_{name}"
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            conn.execute(f'CREATE SCHEMA "{schema}"')
        self.schemas.append(schema)
        return schema

    def drop_schemas(self) -> None:
        import psycopg

        if not self.schemas or self.dsn is None:
            return
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            for schema in self.schemas:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        self.schemas.clear()


def remove_sqlite(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def set_wal(path: Path) -> None:
    """Make a new SQLite file in WAL mode (the mode is stored in the file and kept by every
    later connection)."""
    conn = sqlite3.connect(path)
    try:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise RuntimeError(f"{path}: journal_mode stayed {mode!r}")
    finally:
        conn.close()


def journal_mode(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        conn.close()


def move_to_disk(filled: Path, target: Path) -> None:
    """Checkpoint a filled SQLite file and copy it to ``target`` (same journal mode)."""
    conn = sqlite3.connect(filled)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    remove_sqlite(target)
    shutil.copyfile(filled, target)
    remove_sqlite(filled)


def disk_sync_ms(folder: Path, writes: int = 100) -> float:
    """The median time of a 4 KiB write and its fdatasync in ``folder``: the disk's share of a
    durable commit, to read the append rows against."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sync-probe"
    times = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        block = b"\0" * 4096
        for i in range(writes):
            start = time.perf_counter()
            os.pwrite(fd, block, i * 4096)
            os.fdatasync(fd)
            times.append((time.perf_counter() - start) * 1e3)
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    return statistics.median(times)


def with_options(dsn: str, **settings: str) -> str:
    """``dsn`` with server settings passed as libpq ``options``."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    existing = str(conninfo_to_dict(dsn).get("options") or "")
    extra = " ".join(f"-c {key}={value}" for key, value in settings.items())
    return make_conninfo(dsn, options=f"{existing} {extra}".strip())


# --- what each store provides --------------------------------------------------------------------


async def _nothing() -> None:
    return None


@dataclass
class Appender:
    """One store, opened, with a session and the events to append to it."""

    append: Callable[[Any, Any], Awaitable[Any]]
    """``append(session, event)``: the session to use next."""
    session: Any
    events: list[Any]
    count: Callable[[], Awaitable[int]]
    """How many events the store holds for the session."""
    close: Callable[[], Awaitable[None]] = _nothing
    notes: Callable[[], list[str]] = list


@dataclass
class Loader:
    """One store, opened, holding a filled session: ``load()`` returns its event count."""

    load: Callable[[], Awaitable[int]]
    close: Callable[[], Awaitable[None]] = _nothing


# --- agentlog ------------------------------------------------------------------------------------


def agentlog_events(specs: Sequence[Spec], base: float) -> list[Any]:
    from agentlog.events import Content, Event, EventActions, Part

    return [
        Event(
            invocation_id=s.invocation_id,
            author=s.author,
            timestamp=base + s.offset,
            content=Content(role=s.role, parts=(Part(text=s.text),)),
            actions=EventActions(state_delta=s.delta),
        )
        for s in specs
    ]


async def agentlog_appender(service: Any, ctx: Context) -> Appender:
    session = await service.create_session(app_name=APP, user_id=USER)
    events = agentlog_events(ctx.append_specs, base_after(session.last_update_time))

    async def count() -> int:
        stored = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
        return len(stored.events)

    return Appender(service.append_event, session, events, count, service.close)


async def agentlog_fill(service: Any, specs: Sequence[Spec]) -> str:
    """A session holding ``specs``, appended through ``service``; returns its id."""
    session = await service.create_session(app_name=APP, user_id=USER)
    for event in agentlog_events(specs, base_after(session.last_update_time)):
        session = await service.append_event(session, event)
    return str(session.id)


def agentlog_loader(service: Any, sid: str) -> Loader:
    async def load() -> int:
        session = await service.get_session(app_name=APP, user_id=USER, session_id=sid)
        return len(session.events)

    return Loader(load, service.close)


async def agentlog_memory_appender(ctx: Context, row: Row) -> Appender:
    from agentlog.sessions import InMemorySessionService

    return await agentlog_appender(InMemorySessionService(), ctx)


async def agentlog_memory_loader(ctx: Context, row: Row) -> Loader:
    from agentlog.sessions import InMemorySessionService

    service = InMemorySessionService()
    return agentlog_loader(service, await agentlog_fill(service, ctx.load_specs))


async def agentlog_sqlite_appender(ctx: Context, row: Row) -> Appender:
    from agentlog.sessions import SqliteSessionService

    return await agentlog_appender(SqliteSessionService(ctx.db_file("agentlog-append")), ctx)


async def agentlog_sqlite_loader(ctx: Context, row: Row) -> Loader:
    from agentlog.sessions import SqliteSessionService

    filled = ctx.fill_file("agentlog-load")
    filler = SqliteSessionService(filled, risk_losing_recent_commits_on_power_loss=True)
    try:
        sid = await agentlog_fill(filler, ctx.load_specs)
    finally:
        await filler.close()
    target = ctx.db_file("agentlog-load")
    move_to_disk(filled, target)
    return agentlog_loader(SqliteSessionService(target, cache_events=0), sid)


def agentlog_postgres_class() -> Any:
    from agentlog.sessions.postgres import PostgresSessionService

    return PostgresSessionService


async def open_agentlog_postgres(dsn: str, schema: str, **options: Any) -> Any:
    service = agentlog_postgres_class()(dsn, schema=schema, **options)
    opener = getattr(service, "open", None)
    if opener is not None and asyncio.iscoroutinefunction(opener):
        await opener()
    return service


async def agentlog_postgres_appender(ctx: Context, row: Row) -> Appender:
    assert ctx.dsn is not None
    service = await open_agentlog_postgres(ctx.dsn, ctx.schema("agentlog_append"))
    return await agentlog_appender(service, ctx)


async def agentlog_postgres_loader(ctx: Context, row: Row) -> Loader:
    assert ctx.dsn is not None
    schema = ctx.schema("agentlog_load")
    filler = await open_agentlog_postgres(with_options(ctx.dsn, synchronous_commit="off"), schema)
    try:
        sid = await agentlog_fill(filler, ctx.load_specs)
    finally:
        await filler.close()
    return agentlog_loader(await open_agentlog_postgres(ctx.dsn, schema, cache_events=0), sid)


# --- google-adk ----------------------------------------------------------------------------------


def adk(module: str) -> Any:
    """A google-adk (or google-genai) module, untyped: it is installed in the bench venv only."""
    return importlib.import_module(module)


def adk_events(specs: Sequence[Spec], base: float) -> list[Any]:
    Event = adk("google.adk.events.event").Event
    EventActions = adk("google.adk.events.event_actions").EventActions
    types = adk("google.genai.types")

    return [
        Event(
            invocation_id=s.invocation_id,
            author=s.author,
            timestamp=base + s.offset,
            content=types.Content(role=s.role, parts=[types.Part(text=s.text)]),
            actions=EventActions(state_delta=dict(s.delta)),
        )
        for s in specs
    ]


async def _close(service: Any) -> None:
    close = getattr(service, "close", None)  # google-adk's in-memory store has none
    if close is not None:
        await close()


async def adk_appender(service: Any, ctx: Context) -> Appender:
    session = await service.create_session(app_name=APP, user_id=USER)
    events = adk_events(ctx.append_specs, base_after(session.last_update_time))

    async def append(current: Any, event: Any) -> Any:
        # google-adk's append_event returns the event and updates the session in place.
        await service.append_event(current, event)
        return current

    async def count() -> int:
        stored = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
        return len(stored.events)

    return Appender(append, session, events, count, lambda: _close(service))


async def adk_fill(service: Any, specs: Sequence[Spec]) -> str:
    session = await service.create_session(app_name=APP, user_id=USER)
    for event in adk_events(specs, base_after(session.last_update_time)):
        await service.append_event(session, event)
    return str(session.id)


def adk_loader(service: Any, sid: str) -> Loader:
    async def load() -> int:
        session = await service.get_session(app_name=APP, user_id=USER, session_id=sid)
        return len(session.events)

    return Loader(load, lambda: _close(service))


def adk_sqlite_service(path: Path) -> Any:
    SqliteSessionService = adk("google.adk.sessions.sqlite_session_service").SqliteSessionService
    return SqliteSessionService(str(path))


def adk_database_service(url: str, **kwargs: Any) -> Any:
    module = adk("google.adk.sessions.database_session_service")
    DatabaseSessionService = module.DatabaseSessionService
    return DatabaseSessionService(url, **kwargs)


async def adk_memory_appender(ctx: Context, row: Row) -> Appender:
    InMemorySessionService = adk("google.adk.sessions").InMemorySessionService
    return await adk_appender(InMemorySessionService(), ctx)


async def adk_memory_loader(ctx: Context, row: Row) -> Loader:
    InMemorySessionService = adk("google.adk.sessions").InMemorySessionService
    service = InMemorySessionService()
    return adk_loader(service, await adk_fill(service, ctx.load_specs))


async def adk_sqlite_appender(ctx: Context, row: Row) -> Appender:
    path = ctx.db_file("adk-sqlite-append")
    set_wal(path)
    appender = await adk_appender(adk_sqlite_service(path), ctx)
    appender.notes = lambda: [f"journal_mode after the run: {journal_mode(path)}"]
    return appender


async def adk_sqlite_default_appender(ctx: Context, row: Row) -> Appender:
    """google-adk's SqliteSessionService on a file it creates itself: SQLite's defaults."""
    path = ctx.db_file("adk-sqlite-default")
    appender = await adk_appender(adk_sqlite_service(path), ctx)
    appender.notes = lambda: [
        f"journal_mode after the run: {journal_mode(path)}; appends only, its load is the WAL row's"
    ]
    return appender


async def adk_sqlite_loader(ctx: Context, row: Row) -> Loader:
    filled = ctx.fill_file("adk-sqlite-load")
    set_wal(filled)
    filler = adk_sqlite_service(filled)
    try:
        sid = await adk_fill(filler, ctx.load_specs)
    finally:
        await filler.close()
    target = ctx.db_file("adk-sqlite-load")
    move_to_disk(filled, target)
    return adk_loader(adk_sqlite_service(target), sid)


async def adk_database_sqlite_appender(ctx: Context, row: Row) -> Appender:
    path = ctx.db_file("adk-database-append")
    set_wal(path)
    appender = await adk_appender(adk_database_service(f"sqlite+aiosqlite:///{path}"), ctx)
    appender.notes = lambda: [f"journal_mode after the run: {journal_mode(path)}"]
    return appender


async def adk_database_sqlite_loader(ctx: Context, row: Row) -> Loader:
    filled = ctx.fill_file("adk-database-load")
    set_wal(filled)
    filler = adk_database_service(f"sqlite+aiosqlite:///{filled}")
    try:
        sid = await adk_fill(filler, ctx.load_specs)
    finally:
        await filler.close()
    target = ctx.db_file("adk-database-load")
    move_to_disk(filled, target)
    return adk_loader(adk_database_service(f"sqlite+aiosqlite:///{target}"), sid)


def asyncpg_url(dsn: str) -> str:
    """A SQLAlchemy asyncpg URL for a libpq URL or keyword DSN."""
    from psycopg.conninfo import conninfo_to_dict

    params = conninfo_to_dict(dsn)
    user = params.get("user") or "postgres"
    password = f":{params['password']}" if params.get("password") else ""
    host = params.get("host") or "127.0.0.1"
    port = params.get("port") or 5432
    dbname = params.get("dbname") or user
    return f"postgresql+asyncpg://{user}{password}@{host}:{port}/{dbname}"


def adk_postgres_service(dsn: str, schema: str, **settings: str) -> Any:
    server_settings = {"search_path": schema, **settings}
    return adk_database_service(asyncpg_url(dsn), connect_args={"server_settings": server_settings})


async def adk_database_postgres_appender(ctx: Context, row: Row) -> Appender:
    assert ctx.dsn is not None
    return await adk_appender(adk_postgres_service(ctx.dsn, ctx.schema("adk_append")), ctx)


async def adk_database_postgres_loader(ctx: Context, row: Row) -> Loader:
    assert ctx.dsn is not None
    schema = ctx.schema("adk_load")
    filler = adk_postgres_service(ctx.dsn, schema, synchronous_commit="off")
    try:
        sid = await adk_fill(filler, ctx.load_specs)
    finally:
        await filler.close()
    return adk_loader(adk_postgres_service(ctx.dsn, schema), sid)


# --- the floor: a bare driver doing the same work -------------------------------------------------

_FLOOR_SQLITE_SCHEMA: Final = """
CREATE TABLE sessions (
    pk INTEGER PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT '{}',
    last_update_time REAL NOT NULL,
    UNIQUE (app_name, user_id, session_id)
);
CREATE TABLE events (
    pk INTEGER PRIMARY KEY,
    session_pk INTEGER NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    invocation_id TEXT NOT NULL,
    author TEXT NOT NULL,
    timestamp REAL NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (session_pk, seq),
    UNIQUE (session_pk, event_id)
);
CREATE INDEX events_by_time ON events (session_pk, timestamp);
"""

_FLOOR_PG_SCHEMA: Final = """
CREATE TABLE sessions (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    state JSONB NOT NULL DEFAULT '{}',
    last_update_time DOUBLE PRECISION NOT NULL,
    UNIQUE (app_name, user_id, session_id)
);
CREATE TABLE events (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_pk BIGINT NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    invocation_id TEXT NOT NULL,
    author TEXT NOT NULL,
    timestamp DOUBLE PRECISION NOT NULL,
    payload JSONB NOT NULL,
    UNIQUE (session_pk, seq),
    UNIQUE (session_pk, event_id)
);
CREATE INDEX events_by_time ON events (session_pk, timestamp);
"""

_FLOOR_PG_ONE_STATEMENT: Final = (
    "WITH s AS (UPDATE sessions SET version = %s, last_update_time = %s,"
    " state = state || %s::jsonb WHERE pk = %s AND version = %s RETURNING pk)"
    " INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp, payload)"
    " SELECT s.pk, %s, %s, %s, %s, %s, %s::jsonb FROM s RETURNING seq"
)


@dataclass(frozen=True, slots=True)
class FloorEvent:
    event_id: str
    invocation_id: str
    author: str
    timestamp: float
    body: dict[str, Any]
    delta: dict[str, Any]


def floor_pg_params(pk: int, version: int, event: FloorEvent) -> tuple[Any, ...]:
    """The parameters of :data:`_FLOOR_PG_ONE_STATEMENT` for appending ``event`` to the session
    ``pk`` at ``version``, in the statement's order."""
    return (
        version + 1,
        event.timestamp,
        json.dumps(event.delta),
        pk,
        version,
        version + 1,
        event.event_id,
        event.invocation_id,
        event.author,
        event.timestamp,
        json.dumps(event.body, separators=(",", ":")),
    )


@dataclass
class FloorSession:
    pk: int
    version: int = 0


def floor_events(specs: Sequence[Spec], base: float) -> list[FloorEvent]:
    events = []
    for s in specs:
        event_id = uuid.uuid4().hex
        ts = base + s.offset
        body = {
            "id": event_id,
            "invocation_id": s.invocation_id,
            "author": s.author,
            "timestamp": ts,
            "content": {"role": s.role, "parts": [{"text": s.text}]},
            "actions": {"state_delta": s.delta},
        }
        events.append(FloorEvent(event_id, s.invocation_id, s.author, ts, body, s.delta))
    return events


def floor_sqlite_open(path: Path, synchronous: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def floor_sqlite_session(conn: sqlite3.Connection) -> tuple[FloorSession, float]:
    conn.executescript(_FLOOR_SQLITE_SCHEMA)
    now = time.time()
    row = conn.execute(
        "INSERT INTO sessions (app_name, user_id, session_id, last_update_time)"
        " VALUES (?, ?, ?, ?) RETURNING pk",
        (APP, USER, uuid.uuid4().hex, now),
    ).fetchone()
    return FloorSession(int(row[0])), now


def floor_sqlite_append(
    conn: sqlite3.Connection, session: FloorSession, event: FloorEvent
) -> FloorSession:
    """One durable append: the session row (version check, state merged) and the event row."""
    version = session.version
    conn.execute("BEGIN IMMEDIATE")
    try:
        cursor = conn.execute(
            "UPDATE sessions SET version = ?, last_update_time = ?, state = json_patch(state, ?)"
            " WHERE pk = ? AND version = ?",
            (version + 1, event.timestamp, json.dumps(event.delta), session.pk, version),
        )
        if cursor.rowcount != 1:
            raise RuntimeError("stale session")
        conn.execute(
            "INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
            " payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                session.pk,
                version + 1,
                event.event_id,
                event.invocation_id,
                event.author,
                event.timestamp,
                json.dumps(event.body, separators=(",", ":")),
            ),
        )
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    session.version += 1
    return session


def floor_sqlite_count(conn: sqlite3.Connection, session: FloorSession) -> int:
    sql = "SELECT count(*) FROM events WHERE session_pk = ?"
    return int(conn.execute(sql, (session.pk,)).fetchone()[0])


def floor_sqlite_load(conn: sqlite3.Connection, pk: int) -> int:
    """The session row and every payload, parsed; no event objects."""
    conn.execute("BEGIN")
    try:
        row = conn.execute("SELECT state FROM sessions WHERE pk = ?", (pk,)).fetchone()
        json.loads(row[0])
        events = [
            json.loads(payload)
            for (payload,) in conn.execute(
                "SELECT payload FROM events WHERE session_pk = ? ORDER BY seq", (pk,)
            )
        ]
    finally:
        conn.execute("COMMIT")
    return len(events)


async def floor_sqlite_appender(ctx: Context, row: Row) -> Appender:
    conn = floor_sqlite_open(ctx.db_file("floor-append"), "FULL")
    session, created = floor_sqlite_session(conn)
    events = floor_events(ctx.append_specs, base_after(created))

    async def append(current: FloorSession, event: FloorEvent) -> FloorSession:
        return floor_sqlite_append(conn, current, event)

    async def count() -> int:
        return floor_sqlite_count(conn, session)

    async def close() -> None:
        conn.close()

    return Appender(append, session, events, count, close)


async def floor_sqlite_thread_appender(ctx: Context, row: Row) -> Appender:
    """The sqlite3 floor called through a one-thread executor, as an async API over a blocking
    driver must: two thread wake-ups per append and nothing else added."""
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="floor-sqlite")
    loop = asyncio.get_running_loop()
    path = ctx.db_file("floor-thread-append")
    conn = await loop.run_in_executor(executor, floor_sqlite_open, path, "FULL")
    session, created = await loop.run_in_executor(executor, floor_sqlite_session, conn)
    events = floor_events(ctx.append_specs, base_after(created))

    async def append(current: FloorSession, event: FloorEvent) -> FloorSession:
        return await loop.run_in_executor(executor, floor_sqlite_append, conn, current, event)

    async def count() -> int:
        return await loop.run_in_executor(executor, floor_sqlite_count, conn, session)

    async def close() -> None:
        await loop.run_in_executor(executor, conn.close)
        executor.shutdown(wait=True)

    return Appender(append, session, events, count, close)


async def floor_sqlite_loader(ctx: Context, row: Row) -> Loader:
    filled = ctx.fill_file("floor-load")
    conn = floor_sqlite_open(filled, "OFF")
    try:
        session, created = floor_sqlite_session(conn)
        for event in floor_events(ctx.load_specs, base_after(created)):
            floor_sqlite_append(conn, session, event)
    finally:
        conn.close()
    target = ctx.db_file("floor-load")
    move_to_disk(filled, target)
    conn = floor_sqlite_open(target, "FULL")

    async def load() -> int:
        return floor_sqlite_load(conn, session.pk)

    async def close() -> None:
        conn.close()

    return Loader(load, close)


def floor_pg_session(conn: Any) -> tuple[FloorSession, float]:
    now = time.time()
    with conn.transaction():
        conn.execute(_FLOOR_PG_SCHEMA)
        row = conn.execute(
            "INSERT INTO sessions (app_name, user_id, session_id, last_update_time)"
            " VALUES (%s, %s, %s, %s) RETURNING pk",
            (APP, USER, uuid.uuid4().hex, now),
        ).fetchone()
    return FloorSession(int(row[0])), now


def floor_pg_append(conn: Any, session: FloorSession, event: FloorEvent) -> FloorSession:
    """BEGIN; UPDATE the session row; INSERT the event row; COMMIT."""
    version = session.version
    with conn.transaction():
        cursor = conn.execute(
            "UPDATE sessions SET version = %s, last_update_time = %s,"
            " state = state || %s::jsonb WHERE pk = %s AND version = %s",
            (version + 1, event.timestamp, json.dumps(event.delta), session.pk, version),
        )
        if cursor.rowcount != 1:
            raise RuntimeError("stale session")
        conn.execute(
            "INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
            " payload) VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb)",
            (
                session.pk,
                version + 1,
                event.event_id,
                event.invocation_id,
                event.author,
                event.timestamp,
                json.dumps(event.body, separators=(",", ":")),
            ),
        )
    session.version += 1
    return session


def floor_pg_append_one_statement(
    conn: Any, session: FloorSession, event: FloorEvent
) -> FloorSession:
    """The same append as one statement in autocommit: its own transaction, one round trip."""
    version = session.version
    cursor = conn.execute(
        _FLOOR_PG_ONE_STATEMENT,
        floor_pg_params(session.pk, version, event),
    )
    if cursor.fetchone() is None:
        raise RuntimeError("stale session")
    session.version += 1
    return session


def floor_pg_load(conn: Any, pk: int) -> int:
    """The session row and every payload (psycopg parses JSONB); no event objects."""
    with conn.transaction():
        conn.execute("SELECT state FROM sessions WHERE pk = %s", (pk,)).fetchone()
        events = [
            payload
            for (payload,) in conn.execute(
                "SELECT payload FROM events WHERE session_pk = %s ORDER BY seq", (pk,)
            )
        ]
    return len(events)


async def floor_pg_appender(
    ctx: Context,
    name: str,
    append_one: Callable[[Any, FloorSession, FloorEvent], FloorSession],
    *,
    autocommit: bool,
) -> Appender:
    import psycopg

    assert ctx.dsn is not None
    conn = psycopg.connect(
        with_options(ctx.dsn, search_path=ctx.schema(name)), autocommit=autocommit
    )
    session, created = floor_pg_session(conn)
    events = floor_events(ctx.append_specs, base_after(created))

    async def append(current: FloorSession, event: FloorEvent) -> FloorSession:
        return append_one(conn, current, event)

    async def count() -> int:
        sql = "SELECT count(*) FROM events WHERE session_pk = %s"
        row = conn.execute(sql, (session.pk,)).fetchone()
        return int(row[0]) if row else 0

    async def close() -> None:
        conn.close()

    return Appender(append, session, events, count, close)


async def floor_pg_async_appender(ctx: Context, row: Row) -> Appender:
    """The one-statement floor over psycopg's async connection, as an asyncio store must
    drive it: what the async API adds to the bare statement, and nothing else."""
    import psycopg

    assert ctx.dsn is not None
    dsn = with_options(ctx.dsn, search_path=ctx.schema("floor_async_append"))
    with psycopg.connect(dsn, autocommit=True) as setup:
        session, created = floor_pg_session(setup)
    conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    events = floor_events(ctx.append_specs, base_after(created))

    async def append(current: FloorSession, event: FloorEvent) -> FloorSession:
        version = current.version
        cursor = await conn.execute(
            _FLOOR_PG_ONE_STATEMENT,
            floor_pg_params(current.pk, version, event),
        )
        if await cursor.fetchone() is None:
            raise RuntimeError("stale session")
        current.version += 1
        return current

    async def count() -> int:
        cursor = await conn.execute(
            "SELECT count(*) FROM events WHERE session_pk = %s", (session.pk,)
        )
        found = await cursor.fetchone()
        return int(found[0]) if found else 0

    return Appender(append, session, events, count, conn.close)


async def floor_pg_transaction_appender(ctx: Context, row: Row) -> Appender:
    return await floor_pg_appender(ctx, "floor_append", floor_pg_append, autocommit=False)


async def floor_pg_statement_appender(ctx: Context, row: Row) -> Appender:
    return await floor_pg_appender(
        ctx, "floor1_append", floor_pg_append_one_statement, autocommit=True
    )


async def floor_pg_loader(ctx: Context, row: Row) -> Loader:
    import psycopg

    assert ctx.dsn is not None
    schema = ctx.schema("floor_load")
    fill_dsn = with_options(ctx.dsn, search_path=schema, synchronous_commit="off")
    with psycopg.connect(fill_dsn) as filler:
        session, created = floor_pg_session(filler)
        for event in floor_events(ctx.load_specs, base_after(created)):
            floor_pg_append(filler, session, event)
    conn = psycopg.connect(with_options(ctx.dsn, search_path=schema))

    async def load() -> int:
        return floor_pg_load(conn, session.pk)

    async def close() -> None:
        conn.close()

    return Loader(load, close)


# --- the stores ----------------------------------------------------------------------------------

AppenderFactory = Callable[[Context, Row], Awaitable[Appender]]
LoaderFactory = Callable[[Context, Row], Awaitable[Loader]]

_SQLITE_FULL: Final = "WAL, synchronous=FULL"
_PG_DEFAULT: Final = "server default (see notes)"
_NONE: Final = "none (reference)"


@dataclass
class Store:
    row: Row
    appender: AppenderFactory
    loader: LoaderFactory | None


def stores() -> list[Store]:
    return [
        Store(
            Row("agentlog SqliteSessionService", "SQLite", "agentlog", _SQLITE_FULL),
            agentlog_sqlite_appender,
            agentlog_sqlite_loader,
        ),
        Store(
            Row("google-adk SqliteSessionService", "SQLite", "google-adk", _SQLITE_FULL),
            adk_sqlite_appender,
            adk_sqlite_loader,
        ),
        Store(
            Row(
                "google-adk SqliteSessionService, its default file",
                "SQLite",
                "google-adk",
                "rollback journal (DELETE), FULL",
            ),
            adk_sqlite_default_appender,
            None,
        ),
        Store(
            Row(
                "google-adk DatabaseSessionService (aiosqlite)",
                "SQLite",
                "google-adk",
                _SQLITE_FULL,
            ),
            adk_database_sqlite_appender,
            adk_database_sqlite_loader,
        ),
        Store(
            Row("floor: sqlite3", "SQLite", "floor", _SQLITE_FULL),
            floor_sqlite_appender,
            floor_sqlite_loader,
        ),
        Store(
            Row("floor: sqlite3 via a worker thread", "SQLite", "diagnostic", _SQLITE_FULL),
            floor_sqlite_thread_appender,
            None,
        ),
        Store(
            Row("agentlog PostgresSessionService", "PostgreSQL", "agentlog", _PG_DEFAULT),
            agentlog_postgres_appender,
            agentlog_postgres_loader,
        ),
        Store(
            Row(
                "google-adk DatabaseSessionService (asyncpg)",
                "PostgreSQL",
                "google-adk",
                _PG_DEFAULT,
            ),
            adk_database_postgres_appender,
            adk_database_postgres_loader,
        ),
        Store(
            Row("floor: psycopg 3, BEGIN/UPDATE/INSERT/COMMIT", "PostgreSQL", "floor", _PG_DEFAULT),
            floor_pg_transaction_appender,
            floor_pg_loader,
        ),
        Store(
            Row("floor: psycopg 3, one CTE statement", "PostgreSQL", "floor", _PG_DEFAULT),
            floor_pg_statement_appender,
            None,
        ),
        Store(
            Row(
                "floor: psycopg 3 async, one CTE statement",
                "PostgreSQL",
                "diagnostic",
                _PG_DEFAULT,
            ),
            floor_pg_async_appender,
            None,
        ),
        Store(
            Row("agentlog InMemorySessionService", "memory", "agentlog", _NONE),
            agentlog_memory_appender,
            agentlog_memory_loader,
        ),
        Store(
            Row("google-adk InMemorySessionService", "memory", "google-adk", _NONE),
            adk_memory_appender,
            adk_memory_loader,
        ),
    ]


# --- running them --------------------------------------------------------------------------------


def fail(row: Row, what: str, exc: BaseException) -> None:
    row.skipped = f"{what} failed: {type(exc).__name__}: {exc}"
    log(f"{row.name}: {row.skipped}")


async def close_quietly(row: Row, close: Callable[[], Awaitable[None]]) -> None:
    try:
        await close()
    except Exception as exc:
        row.notes.append(f"close failed: {type(exc).__name__}: {exc}")


async def run_appends(ctx: Context, selected: Sequence[Store]) -> None:
    """Every store appends its events in ``ctx.rounds`` slices, the stores taking turns."""
    open_: list[tuple[Store, Appender]] = []
    for store in selected:
        try:
            appender = await store.appender(ctx, store.row)
        except Exception as exc:
            fail(store.row, "opening", exc)
            continue
        store.row.append = AppendResult()
        open_.append((store, appender))
    size = -(-ctx.appends // ctx.rounds)
    clock = time.perf_counter_ns
    for round_ in range(ctx.rounds):
        lo, hi = round_ * size, min(ctx.appends, (round_ + 1) * size)
        if lo >= hi:
            break
        # Rotate the order so no store always runs first or last.
        shift = round_ % max(1, len(open_))
        for store, appender in open_[shift:] + open_[:shift]:
            result = store.row.append
            if store.row.skipped or result is None:
                continue
            gc.collect()
            session, events = appender.session, appender.events[lo:hi]
            try:
                start = clock()
                for event in events:
                    t = clock()
                    session = await appender.append(session, event)
                    result.latencies_ms.append((clock() - t) / 1e6)
                took = (clock() - start) / 1e9
                result.seconds += took
                result.round_rates.append(len(events) / took if took else 0.0)
            except Exception as exc:
                fail(store.row, "appending", exc)
                continue
            appender.session = session
            result.count += len(events)
        rates = ", ".join(
            f"{s.row.name.split(' (')[0]} {s.row.append.rate:,.0f}/s"
            for s, _ in open_
            if s.row.append and not s.row.skipped
        )
        log(f"appends round {round_ + 1}/{ctx.rounds} ({hi:,} each so far): {rates}")
    for store, appender in open_:
        if not store.row.skipped:
            try:
                check_count(await appender.count(), ctx.appends, "stored append session")
                store.row.notes.extend(appender.notes())
            except Exception as exc:
                fail(store.row, "checking", exc)
        await close_quietly(store.row, appender.close)


async def time_loads(ctx: Context, group: Sequence[tuple[Store, Loader]]) -> None:
    """A warm-up load each, then ``ctx.loads`` timed loads each, the stores taking turns."""
    for store, loader in group:
        try:
            check_count(await loader.load(), ctx.load_events, "warm-up load")
            store.row.loads_ms = []
        except Exception as exc:
            fail(store.row, "loading", exc)
    for i in range(ctx.loads):
        shift = i % max(1, len(group))
        for store, loader in list(group[shift:]) + list(group[:shift]):
            if store.row.skipped or store.row.loads_ms is None:
                continue
            gc.collect()
            try:
                t = time.perf_counter_ns()
                count = await loader.load()
                store.row.loads_ms.append((time.perf_counter_ns() - t) / 1e6)
                check_count(count, ctx.load_events, "load")
            except Exception as exc:
                fail(store.row, "loading", exc)


async def run_loads(ctx: Context, selected: Sequence[Store]) -> None:
    """Fill and open every persistent store, time their loads by turns, then the in-memory
    stores one at a time."""
    persistent = [s for s in selected if s.loader and s.row.backend != "memory"]
    memory = [s for s in selected if s.loader and s.row.backend == "memory"]
    open_: list[tuple[Store, Loader]] = []
    for store in persistent:
        if store.row.skipped or store.loader is None:
            continue
        log(f"{store.row.name}: filling a {ctx.load_events:,}-event session")
        try:
            open_.append((store, await store.loader(ctx, store.row)))
        except Exception as exc:
            fail(store.row, "filling", exc)
    log(f"loading: {ctx.loads} loads each, {len(open_)} stores taking turns")
    await time_loads(ctx, open_)
    for store, loader in open_:
        await close_quietly(store.row, loader.close)
    del open_
    for store in memory:
        if store.row.skipped or store.loader is None:
            continue
        log(f"{store.row.name}: filling and loading")
        gc.collect()
        try:
            loader = await store.loader(ctx, store.row)
        except Exception as exc:
            fail(store.row, "filling", exc)
            continue
        await time_loads(ctx, [(store, loader)])
        await close_quietly(store.row, loader.close)
        del loader
    for store in selected:
        if store.row.loads_ms:
            log(f"{store.row.name}: load median {store.row.load_median:,.1f} ms")


async def run_all(ctx: Context, selected: Sequence[Store]) -> None:
    logging.getLogger("google_adk").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        # google-adk warns about experimental features; keep that off the report.
        warnings.simplefilter("ignore")
        await run_appends(ctx, selected)
        await run_loads(ctx, selected)


def postgres_status(dsn: str) -> tuple[bool, str]:
    """Whether ``dsn`` answers, and a note on its durability settings."""
    try:
        import psycopg

        with psycopg.connect(dsn, connect_timeout=5, autocommit=True) as conn:
            settings = {}
            for name in ("server_version", "synchronous_commit", "fsync", "wal_sync_method"):
                row = conn.execute(f"SHOW {name}").fetchone()
                settings[name] = row[0] if row else "?"
    except Exception as exc:
        return False, f"PostgreSQL at {redact(dsn)} unreachable: {exc}".strip()
    return True, (
        f"PostgreSQL {settings['server_version']} at {redact(dsn)}: synchronous_commit="
        f"{settings['synchronous_commit']}, fsync={settings['fsync']}, wal_sync_method="
        f"{settings['wal_sync_method']} (the same server and settings for every PostgreSQL row)"
    )


def redact(dsn: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    try:
        params = conninfo_to_dict(dsn)
    except Exception:
        return "<dsn>"
    if "password" in params:
        params["password"] = "***"
    return make_conninfo("", **params)


# --- the report ----------------------------------------------------------------------------------


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}x"


def agentlog_row(rows: Sequence[Row], backend: Backend) -> Row | None:
    for row in rows:
        if row.backend == backend and row.kind == "agentlog" and row.skipped is None:
            return row
    return None


def append_speedup(rows: Sequence[Row], row: Row) -> float | None:
    """agentlog's appends/s over ``row``'s, on the same backend."""
    ours = agentlog_row(rows, row.backend)
    if ours is None or row.kind == "agentlog" or ours.append is None or row.append is None:
        return None
    return ratio(ours.append.rate, row.append.rate)


def load_speedup(rows: Sequence[Row], row: Row) -> float | None:
    """``row``'s load time over agentlog's, on the same backend."""
    ours = agentlog_row(rows, row.backend)
    if ours is None or row.kind == "agentlog":
        return None
    return ratio(row.load_median, ours.load_median)


def measured(row: Row) -> bool:
    return row.skipped is None


def target_lines(rows: Sequence[Row], section: Any = None) -> list[tuple[str, str, bool | None]]:
    """(target, measured, met) for each target of the issues (the concurrent ones with
    ``section``, a ``bench.concurrent.Section``)."""
    out: list[tuple[str, str, bool | None]] = []
    ok = [r for r in rows if measured(r)]

    def fastest_appends(backend: Backend, kind: Kind) -> Row | None:
        rows_ = [r for r in ok if r.backend == backend and r.kind == kind and r.append]
        return max(rows_, key=lambda r: r.append.rate if r.append else 0.0, default=None)

    def fastest_load(backend: Backend, kind: Kind) -> Row | None:
        rows_ = [r for r in ok if r.backend == backend and r.kind == kind and r.loads_ms]
        return min(rows_, key=lambda r: r.load_median or float("inf"), default=None)

    goals: tuple[tuple[Backend, float], ...] = (("SQLite", 10.0), ("PostgreSQL", 10.0))
    backends: tuple[Backend, ...] = ("SQLite", "PostgreSQL")
    for backend, goal in goals:
        ours, theirs = agentlog_row(ok, backend), fastest_appends(backend, "google-adk")
        label = f"{backend} appends >= {goal:g}x google-adk's fastest {backend} store"
        if ours is None or ours.append is None or theirs is None or theirs.append is None:
            out.append((label, "not measured", None))
            continue
        value = ours.append.rate / theirs.append.rate
        text = f"{value:.2f}x ({ours.append.rate:,.0f}/s vs {theirs.append.rate:,.0f}/s, "
        out.append((label, text + f"{theirs.name})", value >= goal))
    for backend in backends:
        ours, theirs = agentlog_row(ok, backend), fastest_load(backend, "google-adk")
        label = f"{backend} load >= 3x google-adk's fastest {backend} store"
        if ours is None or not ours.load_median or theirs is None or not theirs.load_median:
            out.append((label, "not measured", None))
            continue
        value = theirs.load_median / ours.load_median
        text = f"{value:.2f}x ({ours.load_median:,.1f} ms vs {theirs.load_median:,.1f} ms, "
        out.append((label, text + f"{theirs.name})", value >= 3.0))
    within: tuple[tuple[Backend, float], ...] = (("SQLite", 1.3), ("PostgreSQL", 1.5))
    for backend, limit in within:
        ours, base = agentlog_row(ok, backend), fastest_appends(backend, "floor")
        label = f"{backend} appends within {limit:g}x of the fastest bare-driver floor"
        if ours is None or ours.append is None or base is None or base.append is None:
            out.append((label, "not measured", None))
            continue
        value = base.append.rate / ours.append.rate
        text = f"floor/agentlog {value:.2f}x ({base.append.rate:,.0f}/s vs "
        out.append((label, text + f"{ours.append.rate:,.0f}/s, {base.name})", value <= limit))
    if section is not None:
        out += concurrent_targets(ok, section, fastest_appends("SQLite", "floor"))
    return out


def concurrent_targets(
    ok: Sequence[Row], section: Any, sqlite_floor: Row | None
) -> list[tuple[str, str, bool | None]]:
    """The many-writers targets: 200 sessions at once from one process."""
    out: list[tuple[str, str, bool | None]] = []

    def at(kind: str, sessions: int = 200) -> Any:
        found = [m for m in section.rows if m.kind == kind and m.sessions == sessions]
        return min(found, key=lambda m: m.processes, default=None)

    sqlite, pg = at("agentlog-sqlite"), at("agentlog-postgres")
    label = "SQLite, 200 sessions at once: >= 3x the bare single-writer floor's appends/s"
    if sqlite is None or sqlite_floor is None or sqlite_floor.append is None:
        out.append((label, "not measured", None))
    else:
        value = sqlite.rate / sqlite_floor.append.rate
        text = f"{value:.1f}x ({sqlite.rate:,.0f}/s vs {sqlite_floor.append.rate:,.0f}/s)"
        out.append((label, text, value >= 3.0))
    label = "SQLite, 200 sessions at once: p99 append latency under 10 ms"
    if sqlite is None:
        out.append((label, "not measured", None))
    else:
        p99 = sqlite.percentile(99)
        out.append((label, f"{p99:.2f} ms", p99 < 10.0))
    label = "PostgreSQL, 200 sessions at once: >= 3x agentlog's single-writer appends/s"
    single = agentlog_row(ok, "PostgreSQL")
    if pg is None or single is None or single.append is None:
        out.append((label, "not measured", None))
    else:
        value = pg.rate / single.append.rate
        text = f"{value:.1f}x ({pg.rate:,.0f}/s vs {single.append.rate:,.0f}/s)"
        out.append((label, text, value >= 3.0))
    return out


def spread(rates: Sequence[float]) -> str:
    if not rates:
        return ""
    return f"{min(rates):,.0f}-{max(rates):,.0f}"


def render(
    rows: Sequence[Row], ctx: Context, notes: Sequence[str], plain: bool, section: Any = None
) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    width = None if sys.stdout.isatty() else 190
    console = Console(width=width, no_color=plain, highlight=False, markup=False)
    style = box.ASCII if plain else box.SIMPLE_HEAVY

    appends = Table(
        title=(
            f"append_event: {ctx.appends:,} appends to one session per store, one writer, "
            f"in {ctx.rounds} rounds taken by turns"
        ),
        box=style,
        title_justify="left",
    )
    appends.add_column("store")
    appends.add_column("backend")
    appends.add_column("durability")
    appends.add_column("appends/s", justify="right")
    appends.add_column("p50 ms", justify="right")
    appends.add_column("p99 ms", justify="right")
    appends.add_column("rounds min-max/s", justify="right")
    appends.add_column("agentlog ÷ this", justify="right")
    for row in rows:
        if row.append is None or row.skipped:
            appends.add_row(row.name, row.backend, row.durability, "skipped", "", "", "", "")
            continue
        appends.add_row(
            row.name,
            row.backend,
            row.durability,
            f"{row.append.rate:,.0f}",
            f"{row.append.p50:.3f}",
            f"{row.append.p99:.3f}",
            spread(row.append.round_rates),
            fmt_ratio(append_speedup(rows, row)),
        )
    console.print(appends)

    loads = Table(
        title=(
            f"get_session of a {ctx.load_events:,}-event session: {ctx.loads} loads each after "
            "one warm-up, by turns, one open service"
        ),
        box=style,
        title_justify="left",
    )
    loads.add_column("store")
    loads.add_column("backend")
    loads.add_column("median ms", justify="right")
    loads.add_column("min ms", justify="right")
    loads.add_column("max ms", justify="right")
    loads.add_column("this ÷ agentlog", justify="right")
    for row in rows:
        if not row.loads_ms or row.skipped:
            loads.add_row(
                row.name, row.backend, "skipped" if row.skipped else "not run", "", "", ""
            )
            continue
        loads.add_row(
            row.name,
            row.backend,
            f"{statistics.median(row.loads_ms):,.1f}",
            f"{min(row.loads_ms):,.1f}",
            f"{max(row.loads_ms):,.1f}",
            fmt_ratio(load_speedup(rows, row)),
        )
    console.print(loads)

    if section is not None:
        render_concurrent(console, style, rows, section)
    console.print("Targets (from the issues):")
    for label, value, met in target_lines(rows, section):
        verdict = "n/a " if met is None else ("MET " if met else "MISS")
        console.print(f"  [{verdict}] {label}: {value}")
    console.print(
        "  Measured before on this machine (google-adk 2.13): SqliteSessionService ~390/s, "
        "DatabaseSessionService ~190/s on SQLite and ~200/s on PostgreSQL; floor ~5,800/s "
        "SQLite (WAL, FULL), ~1,500/s PostgreSQL."
    )
    console.print("Notes:")
    for note in [*notes, *(section.notes if section is not None else [])]:
        console.print(f"  - {note}")
    for row in rows:
        if row.skipped:
            console.print(f"  - {row.name}: skipped: {row.skipped}")
        for note in row.notes:
            console.print(f"  - {row.name}: {note}")


def render_concurrent(console: Any, style: Any, rows: Sequence[Row], section: Any) -> None:
    """The concurrent section's two tables."""
    from rich.table import Table

    from bench.concurrent import STORE_NAMES

    floors = {
        backend: max(
            (
                r.append.rate
                for r in rows
                if r.backend == backend and r.kind == "floor" and r.append
            ),
            default=None,
        )
        for backend in ("SQLite", "PostgreSQL")
    }
    table = Table(
        title="append_event, many writers at once: each session awaits its append before the "
        "next, for the same time per row",
        box=style,
        title_justify="left",
    )
    for column in ("store", "backend", "processes", "sessions"):
        table.add_column(column, justify="right" if column in ("processes", "sessions") else "left")
    for column in ("appends/s", "p50 ms", "p99 ms", "÷ single-writer floor"):
        table.add_column(column, justify="right")
    for m in section.rows:
        name, backend = STORE_NAMES[m.kind]
        floor = floors.get(backend)
        table.add_row(
            name,
            backend,
            str(m.processes),
            str(m.sessions),
            f"{m.rate:,.0f}" + (" (ran out)" if m.ran_out else ""),
            f"{m.percentile(50):.2f}",
            f"{m.percentile(99):.2f}",
            fmt_ratio(m.rate / floor if floor else None),
        )
    console.print(table)
    if section.contention:
        table = Table(
            title="one session, several processes appending to it (a stale append waits a "
            "jittered pause, reloads and tries again)",
            box=style,
            title_justify="left",
        )
        for column in ("store", "processes", "appends/s", "p99 ms", "stale retries / append"):
            table.add_column(column, justify="left" if column == "store" else "right")
        for m in section.contention:
            table.add_row(
                STORE_NAMES[m.kind][0],
                str(m.processes),
                f"{m.rate:,.0f}",
                f"{m.percentile(99):.2f}",
                f"{m.retries / m.count:.2f}" if m.count else "",
            )
        console.print(table)


def results_json(
    rows: Sequence[Row], ctx: Context, notes: Sequence[str], section: Any = None
) -> dict[str, Any]:
    concurrent = [
        {
            "kind": m.kind,
            "processes": m.processes,
            "sessions": m.sessions,
            "appends": m.count,
            "seconds": m.seconds,
            "rate": m.rate,
            "p50_ms": m.percentile(50),
            "p99_ms": m.percentile(99),
            "retries": m.retries,
            "ran_out": m.ran_out,
        }
        for m in ([*section.rows, *section.contention] if section is not None else [])
    ]
    return {
        "concurrent": concurrent,
        "appends": ctx.appends,
        "rounds": ctx.rounds,
        "load_events": ctx.load_events,
        "loads": ctx.loads,
        "notes": list(notes),
        "targets": [
            {"target": label, "measured": value, "met": met}
            for label, value, met in target_lines(rows, section)
        ],
        "rows": [
            {
                "name": row.name,
                "backend": row.backend,
                "kind": row.kind,
                "durability": row.durability,
                "skipped": row.skipped,
                "notes": row.notes,
                "append": None
                if row.append is None or row.skipped
                else {
                    "rate": row.append.rate,
                    "p50_ms": row.append.p50,
                    "p99_ms": row.append.p99,
                    "count": row.append.count,
                    "seconds": row.append.seconds,
                    "round_rates": row.append.round_rates,
                },
                "loads_ms": row.loads_ms,
                "load_median_ms": row.load_median,
            }
            for row in rows
        ],
    }


# --- main ----------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.stores",
        description="agentlog's session stores against google-adk's and a bare-driver floor.",
    )
    parser.add_argument("--appends", type=int, default=2000, help="appends per store (2000)")
    parser.add_argument(
        "--rounds", type=int, default=8, help="turns the appends are split into (8)"
    )
    parser.add_argument(
        "--load-events", type=int, default=10_000, help="events in the loaded session (10000)"
    )
    parser.add_argument("--loads", type=int, default=5, help="timed get_session calls (5)")
    parser.add_argument(
        "--postgres-dsn",
        default=os.environ.get("AGENTLOG_BENCH_POSTGRES_DSN", DEFAULT_DSN),
        help="PostgreSQL to use (env AGENTLOG_BENCH_POSTGRES_DSN; default %(default)s)",
    )
    parser.add_argument("--no-postgres", action="store_true", help="skip the PostgreSQL rows")
    parser.add_argument(
        "--only", default="", help="comma-separated substrings: only stores whose name has one"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path(__file__).resolve().parent / ".work",
        help="where the SQLite files go (bench/.work)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the files and schemas")
    parser.add_argument("--json", type=Path, help="also write the results here as JSON")
    parser.add_argument("--plain", action="store_true", help="ASCII table, no colour")
    parser.add_argument("--seed", type=int, default=20_240_601, help="workload seed")
    parser.add_argument(
        "--concurrent",
        default="1,10,100,200",
        help="sessions appending at once in the concurrent section, comma-separated "
        "(%(default)s; empty to skip it)",
    )
    parser.add_argument(
        "--concurrent-processes",
        type=int,
        default=4,
        help="processes the sessions are also split over (%(default)s)",
    )
    parser.add_argument(
        "--concurrent-seconds",
        type=float,
        default=2.0,
        help="seconds each concurrent configuration runs (%(default)s)",
    )
    args = parser.parse_args(argv)
    if min(args.appends, args.load_events, args.loads, args.rounds) < 1:
        parser.error("--appends, --rounds, --load-events and --loads must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    run_dir = args.workdir / f"run-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    shm = Path("/dev/shm")
    fastdir = shm / f"agentlog-bench-{os.getpid()}" if shm.is_dir() else run_dir / "fill"
    fastdir.mkdir(parents=True, exist_ok=True)

    load_before = os.getloadavg()
    sync_before = disk_sync_ms(run_dir)
    notes = [
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"{os.cpu_count()} CPUs; files in {run_dir}.",
        "Each event: a text part of 15-70 words and a state_delta of 1-2 session keys; "
        "google-adk's stores get google-adk Events built from the same data.",
        "google-adk's SQLite stores have no journal or sync setting: their files are created "
        "in WAL mode first (SQLite keeps the mode in the file) and SQLite's default "
        "synchronous=FULL applies. Its SqliteSessionService opens a new connection per call.",
        "Floor: a bare driver doing the same work and nothing else, in one transaction: "
        "update the session row (version check, state merged in SQL), insert the event row "
        "(JSON payload), on tables and indexes like agentlog's. Its load fetches the payloads "
        "and parses the JSON, building no event objects. 'via a worker thread' is the sqlite3 "
        "floor behind a one-thread executor: the least an async API over sqlite3 adds.",
        "Load sessions were filled through each store's own append_event with commits not "
        f"waiting for disk (SQLite files in {fastdir.parent}, then copied; PostgreSQL with "
        "synchronous_commit=off) and are read at the normal settings.",
    ]
    dsn: str | None = None if args.no_postgres else args.postgres_dsn
    pg_skip: str | None = "--no-postgres" if args.no_postgres else None
    if dsn is not None:
        ok, message = postgres_status(dsn)
        notes.append(message)
        if not ok:
            pg_skip, dsn = message, None

    ctx = Context(
        appends=args.appends,
        load_events=args.load_events,
        loads=args.loads,
        rounds=min(args.rounds, args.appends),
        append_specs=make_specs(args.appends, args.seed),
        load_specs=make_specs(args.load_events, args.seed + 1),
        workdir=run_dir,
        fastdir=fastdir,
        dsn=dsn,
    )
    only = [part.strip().lower() for part in args.only.split(",") if part.strip()]
    selected = [s for s in stores() if not only or any(o in s.row.name.lower() for o in only)]
    for store in selected:
        if store.row.backend == "PostgreSQL" and pg_skip is not None:
            store.row.skipped = pg_skip
        elif store.row.name.startswith("agentlog Postgres"):
            try:
                agentlog_postgres_class()
            except ImportError as exc:
                store.row.skipped = f"agentlog.sessions.postgres does not import ({exc})"
        if store.row.skipped:
            log(f"{store.row.name}: skipped: {store.row.skipped}")
    runnable = [s for s in selected if not s.row.skipped]
    log(
        f"{len(runnable)} stores: {ctx.appends:,} appends each in {ctx.rounds} rounds, then "
        f"{ctx.load_events:,}-event loads"
    )
    section = None
    try:
        asyncio.run(run_all(ctx, runnable))
        load_after = os.getloadavg()
        sync_after = disk_sync_ms(run_dir)
        counts = [int(n) for n in args.concurrent.split(",") if n.strip()]
        if counts:
            from bench.concurrent import STORE_NAMES, run_section

            kinds = [
                kind
                for kind, (name, backend) in STORE_NAMES.items()
                if (backend != "PostgreSQL" or dsn is not None)
                and (not only or any(o in name.lower() for o in only))
            ]
            log(f"concurrent section: {len(kinds)} stores, sessions {counts}")
            section = run_section(
                run_dir,
                dsn,
                ctx.schema,
                kinds,  # type: ignore[arg-type]
                counts,
                args.concurrent_processes,
                args.concurrent_seconds,
                args.seed,
                log,
            )
    finally:
        if not args.keep:
            try:
                ctx.drop_schemas()
            except Exception as exc:
                log(f"could not drop schemas {ctx.schemas}: {exc}")
            shutil.rmtree(run_dir, ignore_errors=True)
            shutil.rmtree(fastdir, ignore_errors=True)

    notes.append(
        f"Load average (1 min) {load_before[0]:.2f} at the start, {load_after[0]:.2f} at the "
        "end of the single-writer and load sections. Other work on the machine moves every "
        "row; the turns spread it over all stores."
    )
    notes.append(
        f"One 4 KiB write and fdatasync in {run_dir.parent}: median {sync_before:.2f} ms at the "
        f"start, {sync_after:.2f} ms at the end of those sections. Every durable append waits "
        "for one such flush, so where it is slow every store converges on it and the ratios "
        "shrink."
    )
    rows = [s.row for s in selected]
    render(rows, ctx, notes, args.plain, section)
    if args.json is not None:
        args.json.write_text(json.dumps(results_json(rows, ctx, notes, section), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
