"""Reading a whole session store for the records it cannot load, and quarantining one.

:func:`check_store` reads every session, event and state row of a SQLite file or a PostgreSQL
database and decodes each as a load does (:mod:`agentlog.sessions.codec`); every record a load
would fail on is a :class:`Problem` naming it (:class:`RecordRef`) and saying why. It only
reads. ``agentlog check --db PATH_OR_DSN`` (:mod:`agentlog.cli.check`) prints them and exits 1
if there are any.

What a damaged record does to a store, and what quarantine changes:

- A corrupt event fails the loads of its session that include it, with a ``CorruptRecordError``
  naming the table, the event id and the session. Other sessions, listings, and filtered loads
  that leave it out are unaffected.
- A corrupt state row is part of the state every load of its scope shows, and a state an agent
  acts on is never silently short of a key: a ``session_state`` row fails the loads of its
  session, a ``user_state`` row those of the user's sessions and ``get_user_state``, an
  ``app_state`` row those of every session of the app and ``get_app_state``; each error names
  the row. ``list_sessions`` leaves such a row out of the states it lists (and logs a warning),
  so one bad row does not hide every other session.
- :func:`quarantine` moves one such record into the ``quarantine`` table (migration 0004) in
  one transaction, kept as it was with the reason, never deleted; the rest of its session then
  loads. A quarantined state row reads as a key never set. A quarantined event leaves a gap in
  its session's sequence: ``Session.version`` still counts it, so appends go on from the stored
  version and a whole load returns one event fewer than ``version``; the decoded-event cache
  keeps no session with such a gap, so each of its full loads decodes every event.
- A session row is checked too (its ``version`` must count at least its newest event, or the
  next append collides; its times must be numbers) but cannot be quarantined: its events and
  state would go with it.
"""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import quote, unquote

from agentlog._stores.sqlite import migrate, transaction
from agentlog.errors import CorruptRecordError, QuarantineRefusedError, StoreUnavailableError
from agentlog.sessions.codec import decode_event, decode_value
from agentlog.sessions.migrations import MIGRATIONS_TABLE, load_migrations

__all__ = [
    "CheckReport",
    "Problem",
    "RecordRef",
    "Table",
    "check_store",
    "quarantine",
]

Table = Literal["sessions", "events", "session_state", "app_state", "user_state"]

_PARTS: Final[dict[str, tuple[str, ...]]] = {
    "sessions": ("user_id", "session_id"),
    "events": ("user_id", "session_id", "key"),
    "session_state": ("user_id", "session_id", "key"),
    "app_state": ("key",),
    "user_state": ("user_id", "key"),
}
"""What names a record of each table, after its app."""


@dataclass(frozen=True, slots=True)
class RecordRef:
    """One stored record, by the names a caller knows it by. Written
    ``table:app[:user][:session][:key]``, each name percent-encoded (so a ``:`` in one is
    ``%3A``), which :meth:`parse` reads back."""

    table: Table
    app_name: str
    user_id: str | None = None
    session_id: str | None = None
    key: str | None = None
    """The event id (``events``) or the state key (the state tables)."""

    def __str__(self) -> str:
        names = [self.app_name, *(getattr(self, part) for part in _PARTS[self.table])]
        return ":".join([self.table, *(quote(str(n), safe="") for n in names)])

    @classmethod
    def parse(cls, text: str) -> RecordRef:
        """The record ``text`` names, as ``str()`` writes it; ``QuarantineRefusedError`` if it
        is not such a name."""
        table, *names = text.strip().split(":")
        parts = _PARTS.get(table)
        if parts is None or len(names) != len(parts) + 1 or not all(names):
            raise QuarantineRefusedError(
                f"{text!r} is not a record name: write it as agentlog check prints it, e.g. "
                "events:APP:USER:SESSION:EVENT_ID or app_state:APP:KEY"
            )
        app, *rest = (unquote(n) for n in names)
        fields: dict[str, Any] = dict(zip(parts, rest, strict=True))
        return cls(table=table, app_name=app, **fields)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Problem:
    """A record a load cannot take, and why."""

    record: RecordRef
    reason: str

    def __str__(self) -> str:
        return f"{self.record}  {self.reason}"


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What :func:`check_store` found."""

    where: str
    """The store read (a path, or the DSN's server without its password)."""
    problems: tuple[Problem, ...]
    """Every record that cannot be loaded, table by table, in stored order."""
    rows: Mapping[str, int]
    """Rows read per table; ``quarantine`` counts the rows kept there."""

    @property
    def clean(self) -> bool:
        """Whether every record loads."""
        return not self.problems

    def lines(self) -> list[str]:
        """The report as a person reads it: one line a problem, then a summary."""
        read = ", ".join(f"{self.rows.get(t, 0)} {t}" for t in _PARTS)
        kept = self.rows.get("quarantine", 0)
        summary = f"read {read} in {self.where}" + (f"; {kept} quarantined" if kept else "")
        if self.clean:
            return [f"{summary}: every record loads"]
        return [
            *(str(p) for p in self.problems),
            f"{summary}: {len(self.problems)} record(s) cannot be loaded",
            "Move one aside (kept in the quarantine table) with --quarantine RECORD.",
        ]


# --- judging rows -------------------------------------------------------------------------------


def _event_problem(
    app: str, user: str, sid: str, event_id: str, fmt: Any, payload: Any
) -> Problem | None:
    try:
        decode_event(payload, fmt, session_id=sid, event_id=event_id)
    except CorruptRecordError as exc:
        return Problem(RecordRef("events", app, user, sid, event_id), exc.reason)
    return None


def _state_problem(ref: RecordRef, value: Any) -> Problem | None:
    try:
        decode_value(value, key=ref.key or "", table=ref.table)
    except CorruptRecordError as exc:
        return Problem(ref, exc.reason)
    return None


def _session_problem(
    app: str, user: str, sid: str, version: Any, times: tuple[Any, Any], newest_seq: Any
) -> Problem | None:
    ref = RecordRef("sessions", app, user, sid)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        return Problem(ref, f"version {version!r} is not a count of events")
    if newest_seq is not None and newest_seq > version:
        return Problem(
            ref,
            f"version {version} is below its newest event's sequence number {newest_seq}: "
            "the next append would collide with a stored event",
        )
    for name, value in zip(("create_time", "last_update_time"), times, strict=True):
        if not isinstance(value, int | float) or not math.isfinite(value):
            return Problem(ref, f"{name} {value!r} is not a time")
    return None


class _Findings:
    """Problems and row counts, as the rows of each table go by."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.rows: Counter[str] = Counter()

    def add(self, table: str, problem: Problem | None) -> None:
        self.rows[table] += 1
        if problem is not None:
            self.problems.append(problem)

    def see(self, table: str, row: tuple[Any, ...]) -> None:
        """Judge one row of ``table``, as :func:`_reads` selects it."""
        if table == "sessions":
            app, user, sid, version, created, updated, newest = row
            self.add(table, _session_problem(app, user, sid, version, (created, updated), newest))
        elif table == "events":
            self.add(table, _event_problem(*row))
        elif table == "session_state":
            app, user, sid, key, value = row
            ref = RecordRef("session_state", app, user, sid, key)
            self.add(table, _state_problem(ref, value))
        elif table == "user_state":
            app, user, key, value = row
            self.add(table, _state_problem(RecordRef("user_state", app, user, key=key), value))
        else:
            app, key, value = row
            self.add(table, _state_problem(RecordRef("app_state", app, key=key), value))

    def report(self, where: str) -> CheckReport:
        return CheckReport(where, tuple(self.problems), dict(self.rows))


# --- SQL ----------------------------------------------------------------------------------------

_Dialect = Literal["sqlite", "postgres"]


def _text(column: str, dialect: _Dialect) -> str:
    """A payload or value column as a load reads it: PostgreSQL's json as text (not parsed),
    SQLite's as bytes (text that is not UTF-8 is then the decoder's to report)."""
    return f"{column}::text" if dialect == "postgres" else f"CAST({column} AS BLOB)"


def _reads(dialect: _Dialect) -> list[tuple[str, str]]:
    """``(table, query)`` for every row the check reads, in the order it reports them."""
    return [
        (
            "sessions",
            "SELECT s.app_name, s.user_id, s.session_id, s.version, s.create_time,"
            " s.last_update_time, (SELECT max(seq) FROM events e WHERE e.session_pk = s.pk)"
            " FROM sessions s ORDER BY s.pk",
        ),
        (
            "events",
            "SELECT s.app_name, s.user_id, s.session_id, e.event_id, e.format_version, "
            + _text("e.payload", dialect)
            + " FROM events e JOIN sessions s ON s.pk = e.session_pk ORDER BY s.pk, e.seq",
        ),
        (
            "session_state",
            "SELECT s.app_name, s.user_id, s.session_id, st.key, "
            + _text("st.value", dialect)
            + " FROM session_state st JOIN sessions s ON s.pk = st.session_pk"
            " ORDER BY s.pk, st.key",
        ),
        (
            "app_state",
            "SELECT app_name, key, " + _text("value", dialect) + " FROM app_state"
            " ORDER BY app_name, key",
        ),
        (
            "user_state",
            "SELECT app_name, user_id, key, " + _text("value", dialect) + " FROM user_state"
            " ORDER BY app_name, user_id, key",
        ),
    ]


# The row a quarantine moves, by table: its columns (kept in the quarantine row), the session
# it belongs to, and how to delete it. ``?`` placeholders; PostgreSQL's are swapped in.
_FIND: Final[dict[str, tuple[str, str, str]]] = {
    "events": (
        "e.pk, e.seq, e.event_id, e.invocation_id, e.author, e.timestamp, e.format_version,"
        " {payload} AS payload, e.compaction_end, s.create_time",
        "FROM events e JOIN sessions s ON s.pk = e.session_pk WHERE s.app_name = ?"
        " AND s.user_id = ? AND s.session_id = ? AND e.event_id = ?",
        "DELETE FROM events WHERE pk = ?",
    ),
    "session_state": (
        "st.session_pk, st.key, {st_value} AS value, s.create_time",
        "FROM session_state st JOIN sessions s ON s.pk = st.session_pk WHERE s.app_name = ?"
        " AND s.user_id = ? AND s.session_id = ? AND st.key = ?",
        "DELETE FROM session_state WHERE session_pk = ? AND key = ?",
    ),
    "app_state": (
        "app_name, key, {value} AS value",
        "FROM app_state WHERE app_name = ? AND key = ?",
        "DELETE FROM app_state WHERE app_name = ? AND key = ?",
    ),
    "user_state": (
        "app_name, user_id, key, {value} AS value",
        "FROM user_state WHERE app_name = ? AND user_id = ? AND key = ?",
        "DELETE FROM user_state WHERE app_name = ? AND user_id = ? AND key = ?",
    ),
}

_KEEP: Final = (
    "INSERT INTO quarantine (source_table, record, app_name, user_id, session_id,"
    " session_create_time, original, reason, quarantined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True, slots=True)
class _Move:
    """One quarantine, as SQL: find the row, then keep it and delete it."""

    find: str
    find_params: tuple[Any, ...]
    delete: str

    @classmethod
    def of(cls, ref: RecordRef, dialect: _Dialect) -> _Move:
        if ref.table == "sessions":
            raise QuarantineRefusedError(
                f"{ref} is a session row, which cannot be quarantined: its events and state "
                "would go with it (fix its columns by hand, or delete the session)"
            )
        columns, source, delete = _FIND[ref.table]
        columns = columns.format(
            payload=_text("e.payload", dialect),
            value=_text("value", dialect),
            st_value=_text("st.value", dialect),
        )
        names = [ref.app_name, *(getattr(ref, p) for p in _PARTS[ref.table])]
        find = f"SELECT {columns} {source}"
        if dialect == "postgres":
            find, delete = find.replace("?", "%s") + " FOR UPDATE", delete.replace("?", "%s")
        return cls(find, tuple(names), delete)

    def delete_params(self, ref: RecordRef, row: Mapping[str, Any]) -> tuple[Any, ...]:
        if ref.table == "events":
            return (row["pk"],)
        if ref.table == "session_state":
            return (row["session_pk"], row["key"])
        return self.find_params


def _judge(ref: RecordRef, row: Mapping[str, Any]) -> Problem:
    """The problem of the row ``ref`` names; refused if there is none."""
    if ref.table == "events":
        problem = _event_problem(
            ref.app_name,
            str(ref.user_id),
            str(ref.session_id),
            str(ref.key),
            row["format_version"],
            row["payload"],
        )
    else:
        problem = _state_problem(ref, row["value"])
    if problem is None:
        raise QuarantineRefusedError(f"{ref} loads as it is; nothing was quarantined")
    return problem


def _kept(ref: RecordRef, problem: Problem, row: Mapping[str, Any]) -> tuple[Any, ...]:
    """The quarantine row for ``row``: its columns as JSON (bytes that are not UTF-8 as
    ``{"hex": ...}``)."""
    original = {
        name: _jsonable(value) for name, value in row.items() if name not in ("pk", "create_time")
    }
    return (
        ref.table,
        str(ref),
        ref.app_name,
        ref.user_id,
        ref.session_id,
        row.get("create_time"),
        json.dumps(original, ensure_ascii=False),
        problem.reason,
        time.time(),
    )


def _jsonable(value: Any) -> Any:
    if not isinstance(value, bytes):
        return value
    try:
        return value.decode()
    except UnicodeDecodeError:
        return {"hex": value.hex()}


# --- SQLite -------------------------------------------------------------------------------------


def _open_sqlite(path: str) -> sqlite3.Connection:
    if not Path(path).is_file():
        raise StoreUnavailableError(f"no SQLite file {path!r}")
    try:
        conn = sqlite3.connect(path, isolation_level=None)
        found = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sessions'"
        ).fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreUnavailableError(f"cannot read SQLite file {path!r}: {exc}") from exc
    if found is None:
        conn.close()
        raise StoreUnavailableError(f"{path!r} holds no agentlog sessions")
    return conn


def _check_sqlite(path: str) -> CheckReport:
    conn = _open_sqlite(path)
    findings = _Findings()
    try:

        def read() -> None:
            for table, query in _reads("sqlite"):
                for row in conn.execute(query):
                    findings.see(table, row)
            if conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'quarantine'"
            ).fetchone():
                (kept,) = conn.execute("SELECT count(*) FROM quarantine").fetchone()
                findings.rows["quarantine"] = kept

        transaction(conn, "BEGIN", read)  # one snapshot, however long the read
    except sqlite3.DatabaseError as exc:
        raise StoreUnavailableError(f"cannot read SQLite file {path!r}: {exc}") from exc
    finally:
        conn.close()
    return findings.report(path)


def _quarantine_sqlite(path: str, ref: RecordRef) -> Problem:
    move = _Move.of(ref, "sqlite")
    conn = _open_sqlite(path)
    try:
        migrate(conn, MIGRATIONS_TABLE, load_migrations("sqlite"))
        conn.row_factory = sqlite3.Row

        def body() -> Problem:
            found = conn.execute(move.find, move.find_params).fetchone()
            if found is None:
                raise QuarantineRefusedError(f"no record {ref} is stored")
            row = dict(found)
            problem = _judge(ref, row)
            conn.execute(_KEEP, _kept(ref, problem, row))
            conn.execute(move.delete, move.delete_params(ref, row))
            return problem

        return transaction(conn, "BEGIN IMMEDIATE", body)
    except sqlite3.DatabaseError as exc:
        raise StoreUnavailableError(f"cannot quarantine in SQLite file {path!r}: {exc}") from exc
    finally:
        conn.close()


# --- PostgreSQL ---------------------------------------------------------------------------------


def _pool(dsn: str, schema: str | None) -> Any:
    """The stores' pool helper (parses the DSN, migrates on open, hides the password)."""
    try:
        from agentlog._stores.postgres import PostgresPool
    except ImportError as exc:  # pragma: no cover - exercised without the extra
        raise StoreUnavailableError(
            "checking a PostgreSQL store needs the postgres extra: pip install 'agentlog[postgres]'"
        ) from exc
    return PostgresPool(
        dsn,
        owner="agentlog check",
        schema=schema,
        min_size=0,
        max_size=1,
        timeout=10.0,
        pool_name="agentlog-check",
        migrations_table=MIGRATIONS_TABLE,
        migrations=lambda: load_migrations("postgres"),
    )


@asynccontextmanager
async def _read_only(dsn: str, schema: str | None) -> AsyncIterator[Any]:
    """A connection in one read-only snapshot, without migrating anything."""
    import psycopg
    from psycopg import sql

    pool = _pool(dsn, schema)
    try:
        async with await psycopg.AsyncConnection.connect(dsn, connect_timeout=10) as conn:
            await conn.set_read_only(True)
            await conn.set_isolation_level(psycopg.IsolationLevel.REPEATABLE_READ)
            if schema is not None:
                await conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
            cursor = await conn.execute("SELECT to_regclass('sessions') IS NOT NULL")
            row = await cursor.fetchone()
            if row is None or not row[0]:
                raise StoreUnavailableError(f"{_describe(dsn, schema)} holds no agentlog sessions")
            yield conn
    except psycopg.Error as exc:
        raise pool.unavailable(exc) from exc


async def _check_postgres(dsn: str, schema: str | None) -> CheckReport:
    findings = _Findings()
    async with _read_only(dsn, schema) as conn:
        for table, query in _reads("postgres"):
            # A server-side cursor: the rows stream, however many the store holds.
            async with conn.cursor(name=f"agentlog_check_{table}") as cursor:
                await cursor.execute(query)
                async for row in cursor:
                    findings.see(table, row)
        cursor = await conn.execute("SELECT to_regclass('quarantine') IS NOT NULL")
        row = await cursor.fetchone()
        if row is not None and row[0]:
            cursor = await conn.execute("SELECT count(*) FROM quarantine")
            (kept,) = await cursor.fetchone() or (0,)
            findings.rows["quarantine"] = kept
    return findings.report(_describe(dsn, schema))


def _describe(dsn: str, schema: str | None) -> str:
    from psycopg.conninfo import conninfo_to_dict

    params = conninfo_to_dict(dsn)
    where = (
        f"PostgreSQL {params.get('host') or 'localhost'}:{params.get('port') or 5432}"
        f"/{params.get('dbname') or params.get('user') or ''}"
    )
    return where + (f" (schema {schema})" if schema else "")


async def _quarantine_postgres(dsn: str, schema: str | None, ref: RecordRef) -> Problem:
    from psycopg.rows import dict_row

    move = _Move.of(ref, "postgres")
    pool = _pool(dsn, schema)
    try:
        async with pool.connection() as conn, conn.transaction():
            cursor = conn.cursor(row_factory=dict_row)
            await cursor.execute(move.find, move.find_params)
            row = await cursor.fetchone()
            if row is None:
                raise QuarantineRefusedError(f"no record {ref} is stored")
            problem = _judge(ref, row)
            await conn.execute(_KEEP.replace("?", "%s"), _kept(ref, problem, row))
            await conn.execute(move.delete, move.delete_params(ref, row))
            return problem
    finally:
        await pool.close()


# --- entry points -------------------------------------------------------------------------------


def _is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


async def check_store(db: str, *, schema: str | None = None) -> CheckReport:
    """Read every record of the store ``db`` (a SQLite file, or a ``postgresql://`` DSN, with
    the tables in ``schema`` if given) and report those a load cannot take. Writes nothing.

    Raises ``StoreUnavailableError`` when the store cannot be read (no such file, no server,
    no agentlog tables there).
    """
    if _is_postgres(db):
        return await _check_postgres(db, schema)
    return await asyncio.to_thread(_check_sqlite, db)


async def quarantine(db: str, record: RecordRef | str, *, schema: str | None = None) -> Problem:
    """Move the record ``record`` names out of the tables a load reads and into the
    ``quarantine`` table (running pending migrations first), in one transaction; return its
    problem.

    Raises ``QuarantineRefusedError`` (nothing moved) when the name is malformed, no such
    record is stored, it loads as it is, or it is a session row.
    """
    ref = record if isinstance(record, RecordRef) else RecordRef.parse(record)
    if _is_postgres(db):
        return await _quarantine_postgres(db, schema, ref)
    return await asyncio.to_thread(_quarantine_sqlite, db, ref)
