"""``SqliteSessionService``: the embedded default, one file in WAL mode.

Reads run on a reader thread with a connection of their own, so the event loop never blocks on
disk and a read never waits for a write's fsync. Writes (appends, new and deleted sessions,
leases) go through a group commit (:mod:`agentlog._stores.group_commit`): writes made at the
same moment, from any sessions, share one transaction and one fsync, each in a savepoint of
its own, so each still succeeds or fails alone; a lone write runs on the calling thread. Several
processes may share the file: each batch takes SQLite's write lock (``BEGIN IMMEDIATE``) and
waits for it up to ``timeout`` seconds.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from agentlog._stores.batching import Batcher, Failed
from agentlog._stores.event_cache import EventCache, SessionKey
from agentlog._stores.group_commit import GroupCommit
from agentlog._stores.sqlite import SqliteWorker, migrate, transaction
from agentlog.errors import (
    DuplicateEventError,
    LeaseLostError,
    SessionExistsError,
    SessionNotFoundError,
    StaleSessionError,
    StoreError,
)
from agentlog.events import REMOVED, Event
from agentlog.ids import new_session_id
from agentlog.sessions._first_append import at_version, plan_first
from agentlog.sessions._plan import (
    AppendPlan,
    StoredHead,
    check_ids,
    initial_delta,
    plan_append,
    refused_append,
    session_after,
)
from agentlog.sessions.base import GetSessionConfig, Session, stored_session
from agentlog.sessions.codec import (
    EVENT_FORMAT_VERSION,
    decode_events,
    decode_state,
    encode_value,
)
from agentlog.sessions.leases import Lease, LeasedAppend, TurnState
from agentlog.sessions.migrations import MIGRATIONS_TABLE, load_migrations
from agentlog.state import ScopedDelta, merged_view

__all__ = ["SqliteSessionService"]

T = TypeVar("T")


class SqliteSessionService:
    """Sessions in one SQLite file (WAL; every commit durable unless told otherwise).

    Args:
        path: the database file (created if missing), or ``":memory:"``.
        timeout: seconds to wait for another process's write lock before
            ``StoreUnavailableError``.
        risk_losing_recent_commits_on_power_loss: use ``synchronous=NORMAL``: faster
            commits, and an operating-system crash or power cut may lose the last few (the
            file stays consistent). Off by default: every commit is fsynced (``FULL``).
        inline_appends: run a write that has no other write to share its transaction with
            on the calling thread when no other process holds the database, instead of
            handing it to the writer thread. The hand-over costs more than the write's SQL;
            the price is that the event loop waits for that commit's fsync (about 0.2 ms on a
            local SSD). Writes made together are committed together on the writer thread
            either way, and so is a write that finds the file locked. Turn it off on slow
            disks.
        cache_events: keep up to this many decoded events of recently loaded sessions, so
            that a full load reads and decodes only the events stored since this store last
            saw the session (checked against the stored session in the same read, so other
            processes' appends and deletions are always seen; see
            :mod:`agentlog._stores.event_cache`). A decoded event takes about ten times its
            JSON in memory (about 5 KB for a support session's). ``0`` decodes every event
            on every load. A record corrupted on disk after it was cached is noticed only once
            the cache has dropped it.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 10.0,
        risk_losing_recent_commits_on_power_loss: bool = False,
        inline_appends: bool = True,
        cache_events: int = 10_000,
    ) -> None:
        if cache_events < 0:
            raise ValueError("cache_events must be 0 or more")
        self._path = str(path)
        self._cache = EventCache(cache_events) if cache_events else None
        self._synchronous = "NORMAL" if risk_losing_recent_commits_on_power_loss else "FULL"
        self._inline: sqlite3.Connection | None = None
        worker = functools.partial(
            SqliteWorker,
            self._path,
            owner="SqliteSessionService",
            timeout=timeout,
            synchronous=self._synchronous,
            foreign_keys=True,
            say_failed=True,
        )
        self._db = worker(thread_name="agentlog-sqlite", setup=_migrate)
        """Reads (and, for ``:memory:``, whose every connection is a database of its own,
        writes too)."""
        self._writer = self._db
        if self._path != ":memory:":
            try:
                self._writer = worker(thread_name="agentlog-sqlite-writer", setup=_no_setup)
                if inline_appends:
                    self._inline = self._db.connect(timeout=0.0, same_thread=False)
            except BaseException:
                if self._writer is not self._db:
                    self._writer.abandon()
                self._db.abandon()
                raise
        self._writes = GroupCommit(self._writer, self._inline)
        self._submit = self._writes.submit
        self._join = self._writes.join
        self._pks: dict[SessionKey, int] = {}
        """Sessions' primary keys, as appends found them (see ``_append``)."""
        self._reads: Batcher[Callable[[sqlite3.Connection], Any]] = Batcher(
            self._read_batch, closed_error=self._db.closed_error
        )
        """Reads made together go to the reader thread in one hand-over."""

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    @property
    def synchronous(self) -> str:
        """The ``PRAGMA synchronous`` level in force: ``FULL`` or ``NORMAL``."""
        return self._synchronous

    # --- the contract -----------------------------------------------------------------------

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: Mapping[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session:
        """See ``SessionService.create_session``."""
        check_ids(app_name, user_id, session_id)
        delta = initial_delta(state)
        sid = session_id or new_session_id()
        return await self._writes.write(
            functools.partial(
                self._create, app_name=app_name, user_id=user_id, sid=sid, delta=delta
            )
        )

    def _create(
        self, conn: sqlite3.Connection, *, app_name: str, user_id: str, sid: str, delta: ScopedDelta
    ) -> Session:
        now = time.time()
        try:
            pk = conn.execute(
                "INSERT INTO sessions (app_name, user_id, session_id, version, create_time,"
                " last_update_time) VALUES (?, ?, ?, 0, ?, ?)",
                (app_name, user_id, sid, now, now),
            ).lastrowid
        except sqlite3.IntegrityError as exc:
            raise SessionExistsError(app_name, user_id, sid) from exc
        assert pk is not None  # an INSERT into a rowid table always sets it
        _write_delta(conn, pk, app_name, user_id, delta)
        return self._load(conn, app_name, user_id, sid, None, with_events=False)

    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: GetSessionConfig | None = None,
    ) -> Session:
        """See ``SessionService.get_session``."""
        check_ids(app_name, user_id, session_id)
        return await self._read(self._get, app_name, user_id, session_id, config)

    def _get(
        self,
        conn: sqlite3.Connection,
        app_name: str,
        user_id: str,
        sid: str,
        config: GetSessionConfig | None,
    ) -> Session:
        # One read transaction: the session row, its state and its events from one snapshot.
        return transaction(conn, "BEGIN", lambda: self._load(conn, app_name, user_id, sid, config))

    def _load(
        self,
        conn: sqlite3.Connection,
        app_name: str,
        user_id: str,
        sid: str,
        config: GetSessionConfig | None,
        *,
        with_events: bool = True,
        skip_corrupt: bool = False,
    ) -> Session:
        row = conn.execute(
            "SELECT pk, version, last_update_time, create_time FROM sessions"
            " WHERE app_name = ? AND user_id = ? AND session_id = ?",
            (app_name, user_id, sid),
        ).fetchone()
        if row is None:
            raise SessionNotFoundError(app_name, user_id, sid)
        pk, version, last_update_time, create_time = row
        events: tuple[Event, ...] = ()
        if with_events and config is None and self._cache is not None:
            key = (app_name, user_id, sid)
            events = _all_events(conn, self._cache, key, (pk, create_time), version)
        elif with_events:
            events = decode_events(self._event_rows(conn, pk, config), session_id=sid)
        return stored_session(
            id=sid,
            app_name=app_name,
            user_id=user_id,
            state=merged_view(
                _state(conn, "app_state", app_name, session_id=sid, skip_corrupt=skip_corrupt),
                _state(
                    conn, "user_state", app_name, user_id, session_id=sid, skip_corrupt=skip_corrupt
                ),
                _state(conn, "session_state", pk, session_id=sid, skip_corrupt=skip_corrupt),
            ),
            events=events,
            version=version,
            last_update_time=last_update_time,
            create_time=create_time,
        )

    @staticmethod
    def _event_rows(
        conn: sqlite3.Connection, pk: int, config: GetSessionConfig | None
    ) -> list[tuple[str, int, bytes]]:
        columns = (
            "SELECT event_id, format_version, CAST(payload AS BLOB) FROM events"
            " WHERE session_pk = ?"
        )
        params: list[Any] = [pk]
        if config is not None and config.from_latest_compaction:
            # Timestamps are never negative, so -1 lets every event through when no compaction
            # is stored.
            columns += (
                " AND timestamp > coalesce((SELECT max(compaction_end) FROM events"
                " WHERE session_pk = ? AND compaction_end IS NOT NULL), -1)"
            )
            params.append(pk)
        if config is not None and config.after_timestamp is not None:
            columns += " AND timestamp >= ?"
            params.append(config.after_timestamp)
        if config is not None and config.num_recent_events is not None:
            params.append(config.num_recent_events)
            rows = conn.execute(columns + " ORDER BY seq DESC LIMIT ?", params).fetchall()
            rows.reverse()
            return rows
        return conn.execute(columns + " ORDER BY seq", params).fetchall()

    async def list_sessions(self, *, app_name: str, user_id: str | None = None) -> list[Session]:
        """See ``SessionService.list_sessions``."""
        check_ids(app_name, user_id)
        return await self._read(self._list, app_name, user_id)

    def _list(self, conn: sqlite3.Connection, app_name: str, user_id: str | None) -> list[Session]:
        sql = "SELECT user_id, session_id FROM sessions WHERE app_name = ?"
        params: list[Any] = [app_name]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)

        def body() -> list[Session]:
            rows = conn.execute(sql + " ORDER BY create_time, pk", params).fetchall()
            # A state row that does not decode fails the loads of the sessions it belongs to,
            # not the listing of every other one.
            return [
                self._load(conn, app_name, u, s, None, with_events=False, skip_corrupt=True)
                for u, s in rows
            ]

        return transaction(conn, "BEGIN", body)

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SessionService.delete_session``."""
        check_ids(app_name, user_id, session_id)
        try:
            await self._writes.write(
                functools.partial(_delete, app_name=app_name, user_id=user_id, sid=session_id)
            )
        finally:
            self._pks.pop((app_name, user_id, session_id), None)
            if self._cache is not None:
                self._cache.drop((app_name, user_id, session_id))

    async def append_event(self, session: Session, event: Event) -> Session:
        """See ``SessionService.append_event``."""
        plan = plan_append(session, event)
        if plan is None:
            return session
        held = session.__dict__  # read as a dict: cheaper than a model's attributes
        key = (held["app_name"], held["user_id"], held["id"])
        pks = self._pks
        try:
            known = pks.get(key)
            write = _Append(session, plan, known, held)
            joined = self._join(write)  # the usual case with many writers: just a future
            token = await (joined if joined is not None else self._submit(write))
        except StoreError:
            pks.pop(key, None)  # perhaps another session's now: looked up next time
            raise
        if token[0] != known:
            if len(pks) >= _MAX_PKS:
                pks.clear()
            pks[key] = token[0]
        after = session_after(session, plan)
        cache = self._cache
        # Most appends are to sessions not cached: then no call (see EventCache.extend).
        if cache is not None and key in cache.keys:
            grown = (held["events"], after.__dict__["events"])
            cache.extend(key, token, plan.expected_version, plan.event, grown=grown)
        return after

    async def acquire_lease(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        owner: str,
        invocation_id: str,
        ttl_s: float,
    ) -> Lease | None:
        """See ``SessionLeases.acquire_lease``."""
        check_ids(app_name, user_id, session_id)
        return await self._writes.write(
            functools.partial(
                _acquire,
                app_name=app_name,
                user_id=user_id,
                sid=session_id,
                owner=owner,
                invocation_id=invocation_id,
                ttl_s=ttl_s,
            )
        )

    async def acquire_lease_and_append(
        self,
        event: Event,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        owner: str,
        invocation_id: str,
        ttl_s: float,
        expected_version: int | None = None,
    ) -> LeasedAppend | None:
        """See ``LeaseAppends.acquire_lease_and_append``."""
        check_ids(app_name, user_id, session_id)
        first = plan_first(event, app_name=app_name, user_id=user_id, session_id=session_id)
        taken = await self._writes.write(
            functools.partial(
                _acquire_appending,
                first=first,
                app_name=app_name,
                user_id=user_id,
                sid=session_id,
                owner=owner,
                invocation_id=invocation_id,
                ttl_s=ttl_s,
                expected_version=expected_version,
            )
        )
        if taken is None:
            return None
        taken_as, pk = taken
        plan, lease = taken_as.appended, taken_as.lease
        if plan is not None:
            key = (app_name, user_id, session_id)
            if len(self._pks) >= _MAX_PKS:
                self._pks.clear()
            self._pks[key] = pk
            if self._cache is not None and lease.create_time is not None:
                self._cache.extend(key, (pk, lease.create_time), plan.expected_version, plan.event)
        return taken_as

    async def renew_lease(self, lease: Lease, ttl_s: float) -> Lease:
        """See ``SessionLeases.renew_lease``."""
        return await self._writes.write(functools.partial(_renew, lease=lease, ttl_s=ttl_s))

    async def release_lease(self, lease: Lease) -> None:
        """See ``SessionLeases.release_lease``."""
        await self._writes.write(functools.partial(_release, lease=lease))

    async def read_turn(self, *, app_name: str, user_id: str, session_id: str) -> TurnState:
        """See ``SessionLeases.read_turn``."""
        check_ids(app_name, user_id, session_id)
        return await self._read(self._read_turn, app_name, user_id, session_id)

    @staticmethod
    def _read_turn(conn: sqlite3.Connection, app_name: str, user_id: str, sid: str) -> TurnState:
        row = conn.execute(
            "SELECT version, lease_token, CASE WHEN lease_owner IS NOT NULL"
            " AND lease_expires >= ? THEN lease_invocation END FROM sessions"
            " WHERE app_name = ? AND user_id = ? AND session_id = ?",
            (time.time(), app_name, user_id, sid),
        ).fetchone()
        if row is None:
            raise SessionNotFoundError(app_name, user_id, sid)
        return TurnState(version=row[0], token=row[1], running=row[2])

    async def get_app_state(self, *, app_name: str) -> dict[str, Any]:
        """See ``SessionService.get_app_state``."""
        check_ids(app_name)
        return await self._read(_state, "app_state", app_name)

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        """See ``SessionService.get_user_state``."""
        check_ids(app_name, user_id)
        return await self._read(_state, "user_state", app_name, user_id)

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` on the reader thread, with the reads made with it."""
        result: T = await self._reads.submit(lambda conn: fn(conn, *args))
        return result

    async def _read_batch(self, reads: list[Callable[[sqlite3.Connection], Any]]) -> list[Any]:
        return await self._db.run(_each, reads, self._db.translated)

    async def close(self) -> None:
        """See ``SessionService.close``."""
        await self._reads.close()
        await self._writes.close()
        if self._writer is not self._db:
            await self._writer.close()
        await self._db.close(also=self._close_inline)

    def _close_inline(self) -> None:
        if self._inline is not None:
            self._inline.close()
            self._inline = None


# --- the writes, each run whole inside a batch's transaction (agentlog._stores.group_commit) ---


def _each(
    conn: sqlite3.Connection,
    reads: list[Callable[[sqlite3.Connection], Any]],
    translated: Callable[[BaseException], BaseException],
) -> list[Any]:
    """Every read of a batch, each on its own (its own transaction): its result, or its
    error alone."""
    outcomes: list[Any] = []
    for read in reads:
        try:
            outcomes.append(read(conn))
        except Exception as exc:
            outcomes.append(Failed(translated(exc)))
    return outcomes


def _no_setup(conn: sqlite3.Connection) -> None:
    """The writer's connection needs nothing more: the reader's opening migrated the file."""


class _Append:
    """One planned append, a write of the group commit: the session row updated, the event
    row inserted, the delta's state rows written; its result is the session row's cache
    token (primary key and creation time).

    The row is updated by its primary key with every check in the WHERE (an UPDATE ...
    RETURNING costs SQLite a temporary table, more than a lookup and an update). The key is
    ``known_pk`` when the store has seen it and the session carries its creation time, which
    the update checks, so a key now naming another session (deleted and made again) matches
    nothing; otherwise it is looked up first, under the same write lock.
    """

    __slots__ = ("held", "known_pk", "plan", "session")

    def __init__(
        self, session: Session, plan: AppendPlan, known_pk: int | None, held: dict[str, Any]
    ) -> None:
        self.session = session
        self.held = held
        """``session.__dict__``, which its caller read already: a model's costs a lookup."""
        self.plan = plan
        self.known_pk = known_pk

    def __call__(self, conn: sqlite3.Connection) -> tuple[int, float]:
        session, plan = self.session, self.plan
        token = self._token(conn)
        pk = token[0]
        if conn.execute(*_update(session, plan, pk, time.time())).rowcount != 1:
            raise _stale_or_missing(conn, session, plan.expected_version)
        try:
            conn.execute(*_event_insert(pk, plan))
        except sqlite3.IntegrityError as exc:
            raise DuplicateEventError(session.id, plan.event.id) from exc
        delta = plan.delta
        if delta.session and not (delta.app or delta.user):  # the usual delta
            _upsert(conn, delta.session, "session_state", (pk,))
        elif delta.session or delta.app or delta.user:
            held = session.__dict__
            _write_delta(conn, pk, held["app_name"], held["user_id"], delta)
        return token

    @staticmethod
    def many(conn: sqlite3.Connection, appends: list[_Append]) -> list[tuple[int, float]]:
        """Several appends, in the order given: the session rows' updates by one
        ``executemany``, the events and the session state by multi-row ``INSERT``s (one
        statement for many rows costs SQLite and the driver less than a row at a time).
        Raises, having written part of them, if one would fail (the group commit then
        writes each alone, which raises that one's own error)."""
        now = time.time()
        tokens = []
        updates = []
        events: list[Any] = []
        compaction = False
        states: list[Any] = []
        others: dict[str, list[tuple[Any, ...]]] = {}
        unleased = True
        for append in appends:
            # Models read as dicts: a pydantic model's attribute costs several times an item.
            held, plan = append.held, append.plan
            create_time = held["create_time"]
            pk = append.known_pk
            if pk is None or create_time is None:
                token = append._token(conn)
                pk = token[0]
            else:  # what _token answers without a lookup
                token = (pk, create_time)
            tokens.append(token)
            event = plan.event.__dict__
            version = plan.expected_version
            timestamp = event["timestamp"]
            if held["lease_token"] is not None or create_time is None:
                unleased = False
            elif unleased:
                updates.append((version + 1, timestamp, pk, version, create_time, now))
            covers = event["actions"].compaction
            events += (
                pk,
                version + 1,
                event["id"],
                event["invocation_id"],
                event["author"],
                timestamp,
                EVENT_FORMAT_VERSION,
                plan.payload,
                None if covers is None else covers.end_timestamp,
            )
            if covers is not None:
                compaction = True
            delta = plan.delta
            # The state tables are apart from the others, so their rows may follow all the
            # events'; within each, the order of the appends is kept.
            for key, value in delta.session.items():
                if value is REMOVED:
                    raise _NotTogether  # a deletion among upserts: one by one instead
                states += (pk, key, encode_value(value))
            if delta.app or delta.user:
                app_name, user_id = held["app_name"], held["user_id"]
                for scope, owner, changes in (
                    ("app_state", (app_name,), delta.app),
                    ("user_state", (app_name, user_id), delta.user),
                ):
                    for key, value in changes.items():
                        if value is REMOVED:
                            raise _NotTogether
                        others.setdefault(scope, []).append((*owner, key, encode_value(value)))
        if not unleased:  # the general statement for all of them, in their order
            updates = [
                _update(a.session, a.plan, t[0], now)[1]
                for a, t in zip(appends, tokens, strict=True)
            ]
        sql = _UPDATE_UNLEASED if unleased else _UPDATE_SESSION
        if conn.executemany(sql, updates).rowcount != len(updates):
            raise _NotTogether
        if compaction:
            _insert_rows(conn, _INSERT_EVENT, _EVENT_COLUMNS, events)
        else:  # compaction_end left to its default, NULL: no None for the driver to adapt
            del events[_EVENT_COLUMNS - 1 :: _EVENT_COLUMNS]
            _insert_rows(conn, _INSERT_PLAIN_EVENT, _EVENT_COLUMNS - 1, events)
        if states:
            _insert_rows(conn, _UPSERT_SQL["session_state"], 3, states)
        for scope, rows in others.items():
            conn.executemany(_UPSERT_SQL[scope], rows)
        return tokens

    def _token(self, conn: sqlite3.Connection) -> tuple[int, float]:
        session = self.session
        pk, create_time = self.known_pk, session.__dict__["create_time"]
        if pk is None or create_time is None:
            row = conn.execute(_SESSION_PK, (session.app_name, session.user_id, session.id))
            found = row.fetchone()
            if found is None:
                raise SessionNotFoundError(session.app_name, session.user_id, session.id)
            return found[0], found[1]
        return pk, create_time


def _update(session: Session, plan: AppendPlan, pk: int, now: float) -> tuple[str, tuple[Any, ...]]:
    """The statement updating session row ``pk`` for ``plan`` (if it still holds what the
    append was computed from), and its parameters."""
    # Models read as dicts: a pydantic model's attribute costs several times an item.
    held = session.__dict__
    create_time, lease_token = held["create_time"], held["lease_token"]
    version, timestamp = plan.expected_version, plan.event.__dict__["timestamp"]
    if lease_token is None and create_time is not None:
        return _UPDATE_UNLEASED, (version + 1, timestamp, pk, version, create_time, now)
    return _UPDATE_SESSION, (
        version + 1,
        timestamp,
        pk,
        version,
        create_time,
        create_time,
        lease_token,
        now,
        lease_token,
    )


def _event_insert(pk: int, plan: AppendPlan) -> tuple[str, tuple[Any, ...]]:
    """The statement inserting ``plan``'s event in session row ``pk``, and its parameters."""
    event = plan.event.__dict__
    row = (
        pk,
        plan.expected_version + 1,
        event["id"],
        event["invocation_id"],
        event["author"],
        event["timestamp"],
        EVENT_FORMAT_VERSION,
        plan.payload,
    )
    covers = event["actions"].compaction
    if covers is None:  # left to the column's default: a None costs the driver an adaptation
        return _INSERT_PLAIN_EVENT, row
    return _INSERT_EVENT, (*row, covers.end_timestamp)


def _insert_rows(conn: sqlite3.Connection, insert: str, width: int, params: list[Any]) -> None:
    """``insert`` (one row's ``INSERT ... VALUES (?, ...)``, perhaps with an ``ON CONFLICT``)
    for every ``width`` parameters of ``params``, in order, a few statements of many rows.

    The rows go in chunks of a power of two, up to :data:`_MAX_ROWS`, so a few statements'
    texts serve every batch and stay prepared in the driver's cache."""
    rows, start = len(params) // width, 0
    while rows:
        size = min(1 << (rows.bit_length() - 1), _MAX_ROWS)
        end = start + size * width
        conn.execute(_many_rows(insert, size), params[start:end])
        rows -= size
        start = end


@functools.cache
def _many_rows(insert: str, rows: int) -> str:
    """``insert`` with ``rows`` rows of values rather than one."""
    head, _, tail = insert.partition(" VALUES ")
    row, close, rest = tail.partition(")")
    return f"{head} VALUES {', '.join([row + close] * rows)}{rest}"


class _NotTogether(Exception):
    """Appends that cannot be written together, for the group commit to write one by one."""


_UPDATE_SESSION: Final = (
    "UPDATE sessions SET version = ?, last_update_time = ? WHERE pk = ? AND version = ?"
    " AND (? IS NULL OR create_time = ?)"
    # Under a lease: that lease's token. Under none: no live lease of another.
    " AND CASE WHEN ? IS NULL THEN lease_owner IS NULL OR lease_expires < ?"
    " ELSE lease_token = ? END"
)

_UPDATE_UNLEASED: Final = (
    "UPDATE sessions SET version = ?, last_update_time = ? WHERE pk = ? AND version = ?"
    " AND create_time = ? AND (lease_owner IS NULL OR lease_expires < ?)"
)
""":data:`_UPDATE_SESSION` for a session holding its creation time and no lease: the same
checks, without the NULL parameters (the driver adapts each None, at a cost)."""

_INSERT_EVENT: Final = (
    "INSERT INTO events (session_pk, seq, event_id, invocation_id, author,"
    " timestamp, format_version, payload, compaction_end)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

_INSERT_PLAIN_EVENT: Final = (
    "INSERT INTO events (session_pk, seq, event_id, invocation_id, author,"
    " timestamp, format_version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
""":data:`_INSERT_EVENT` for an event that is not a compaction (``compaction_end`` NULL)."""

_EVENT_COLUMNS: Final = 9
"""The parameters of one row of :data:`_INSERT_EVENT`."""

_MAX_ROWS: Final = 64
"""The most rows in one multi-row ``INSERT``: past it, a longer statement saves little."""

_MAX_PKS: Final = 100_000
"""Primary keys kept before the map starts again."""

_SESSION_PK: Final = (
    "SELECT pk, create_time FROM sessions WHERE app_name = ? AND user_id = ? AND session_id = ?"
)


def _delete(conn: sqlite3.Connection, *, app_name: str, user_id: str, sid: str) -> None:
    cursor = conn.execute(
        "DELETE FROM sessions WHERE app_name = ? AND user_id = ? AND session_id = ?",
        (app_name, user_id, sid),
    )
    if cursor.rowcount == 0:
        raise SessionNotFoundError(app_name, user_id, sid)


def _acquire(
    conn: sqlite3.Connection,
    *,
    app_name: str,
    user_id: str,
    sid: str,
    owner: str,
    invocation_id: str,
    ttl_s: float,
) -> Lease | None:
    taken = _acquire_appending(
        conn,
        first=None,
        app_name=app_name,
        user_id=user_id,
        sid=sid,
        owner=owner,
        invocation_id=invocation_id,
        ttl_s=ttl_s,
        expected_version=None,
    )
    return None if taken is None else taken[0].lease


def _acquire_appending(
    conn: sqlite3.Connection,
    *,
    first: AppendPlan | None,
    app_name: str,
    user_id: str,
    sid: str,
    owner: str,
    invocation_id: str,
    ttl_s: float,
    expected_version: int | None,
) -> tuple[LeasedAppend, int] | None:
    """Take the lease (``None`` while another holds it) and append ``first``, when given, at
    the version found, in one write: the session row updated once for both (its lease,
    version and last update). Under the write lock, so the read and the update are one step
    for every process."""
    row = conn.execute(
        "SELECT pk, lease_owner, lease_invocation, lease_expires, lease_token, version,"
        " create_time, last_update_time FROM sessions"
        " WHERE app_name = ? AND user_id = ? AND session_id = ?",
        (app_name, user_id, sid),
    ).fetchone()
    if row is None:
        raise SessionNotFoundError(app_name, user_id, sid)
    pk, held_by, held_for, expires, token, version, create_time, last_update = row
    if expected_version is not None and version != expected_version:
        raise StaleSessionError(sid, expected_version, version)
    now = time.time()
    if held_by is not None and expires >= now:
        return None
    token += 1
    plan = None
    if first is not None and held_by is None:
        plan = at_version(first, version, last_update)
    if plan is None:
        conn.execute(
            "UPDATE sessions SET lease_token = ?, lease_owner = ?, lease_invocation = ?,"
            " lease_expires = ? WHERE pk = ?",
            (token, owner, invocation_id, now + ttl_s, pk),
        )
    else:
        event = plan.event
        conn.execute(
            "UPDATE sessions SET lease_token = ?, lease_owner = ?, lease_invocation = ?,"
            " lease_expires = ?, version = ?, last_update_time = ? WHERE pk = ?",
            (token, owner, invocation_id, now + ttl_s, plan.new_version, event.timestamp, pk),
        )
        try:
            conn.execute(*_event_insert(pk, plan))
        except sqlite3.IntegrityError as exc:
            raise DuplicateEventError(sid, event.id) from exc
        _write_delta(conn, pk, app_name, user_id, plan.delta)
    lease = Lease(
        app_name=app_name,
        user_id=user_id,
        session_id=sid,
        token=token,
        owner=owner,
        invocation_id=invocation_id,
        expires_at=now + ttl_s,
        interrupted=held_for if held_by is not None else None,
        version=version,
        create_time=create_time,
    )
    return LeasedAppend(lease, plan), pk


def _renew(conn: sqlite3.Connection, *, lease: Lease, ttl_s: float) -> Lease:
    expires = time.time() + ttl_s
    renewed = conn.execute(
        "UPDATE sessions SET lease_expires = ?"
        " WHERE app_name = ? AND user_id = ? AND session_id = ? AND lease_token = ?"
        " AND lease_owner IS NOT NULL",
        (expires, lease.app_name, lease.user_id, lease.session_id, lease.token),
    ).rowcount
    if renewed != 1:
        raise LeaseLostError(lease.session_id, lease.token)
    return lease.model_copy(update={"expires_at": expires})


def _release(conn: sqlite3.Connection, *, lease: Lease) -> None:
    conn.execute(
        "UPDATE sessions SET lease_owner = NULL, lease_invocation = NULL"
        " WHERE app_name = ? AND user_id = ? AND session_id = ? AND lease_token = ?",
        (lease.app_name, lease.user_id, lease.session_id, lease.token),
    )


def _migrate(conn: sqlite3.Connection) -> None:
    migrate(conn, MIGRATIONS_TABLE, load_migrations("sqlite"))


def _all_events(
    conn: sqlite3.Connection,
    cache: EventCache,
    key: SessionKey,
    token: tuple[int, float],
    version: int,
) -> tuple[Event, ...]:
    """Every stored event: those cached for this incarnation, then the ones after them."""
    cached = cache.get(key, token, version)
    if cached is not None and cached.version == version:
        return cached.events
    start = cached.version if cached is not None else 0
    rows = conn.execute(
        "SELECT event_id, format_version, CAST(payload AS BLOB) FROM events"
        " WHERE session_pk = ? AND seq > ? ORDER BY seq",
        (token[0], start),
    ).fetchall()
    return cache.grow(key, token, version, cached, decode_events(rows, session_id=key[2]))


# Loads read payloads and state values as bytes (CAST AS BLOB) and leave them to the decoder:
# text that is not UTF-8 is then a corrupt record naming itself, where the driver's decoding
# failed the read as if the store were down. It is faster too: the decoder parses bytes as is.
_STATE_SQL: Final = {
    "app_state": "SELECT key, CAST(value AS BLOB) FROM app_state WHERE app_name = ?",
    "user_state": "SELECT key, CAST(value AS BLOB) FROM user_state"
    " WHERE app_name = ? AND user_id = ?",
    "session_state": "SELECT key, CAST(value AS BLOB) FROM session_state WHERE session_pk = ?",
}


def _state(
    conn: sqlite3.Connection,
    table: str,
    *owner: Any,
    session_id: str | None = None,
    skip_corrupt: bool = False,
) -> dict[str, Any]:
    """One scope's state; ``owner`` is the app name (and user id), or the session's pk."""
    return decode_state(
        conn.execute(_STATE_SQL[table], owner),
        table=table,
        session_id=session_id,
        owner=None if table == "session_state" else owner[-1],
        skip_corrupt=skip_corrupt,
    )


def _write_delta(
    conn: sqlite3.Connection, pk: int, app_name: str, user_id: str, delta: ScopedDelta
) -> None:
    if delta.session:
        _upsert(conn, delta.session, "session_state", (pk,))
    if delta.app:
        _upsert(conn, delta.app, "app_state", (app_name,))
    if delta.user:
        _upsert(conn, delta.user, "user_state", (app_name, user_id))


_UPSERT_SQL: Final = {
    "session_state": "INSERT INTO session_state (session_pk, key, value) VALUES (?, ?, ?)"
    " ON CONFLICT (session_pk, key) DO UPDATE SET value = excluded.value",
    "app_state": "INSERT INTO app_state (app_name, key, value) VALUES (?, ?, ?)"
    " ON CONFLICT (app_name, key) DO UPDATE SET value = excluded.value",
    "user_state": "INSERT INTO user_state (app_name, user_id, key, value) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (app_name, user_id, key) DO UPDATE SET value = excluded.value",
}
_DELETE_SQL: Final = {
    "session_state": "DELETE FROM session_state WHERE session_pk = ? AND key = ?",
    "app_state": "DELETE FROM app_state WHERE app_name = ? AND key = ?",
    "user_state": "DELETE FROM user_state WHERE app_name = ? AND user_id = ? AND key = ?",
}


def _upsert(
    conn: sqlite3.Connection, changes: Mapping[str, Any], table: str, owner: tuple[Any, ...]
) -> None:
    """Write ``changes`` to ``table``'s rows of ``owner``: the deletions one by one, the
    upserts in one multi-row statement (a delta's keys are distinct, so no row is written
    twice and their order does not matter)."""
    rows: list[Any] = []
    for key, value in changes.items():
        if value is REMOVED:
            conn.execute(_DELETE_SQL[table], (*owner, key))
        else:
            rows += (*owner, key, encode_value(value))
    if len(rows) == len(owner) + 2:  # one row: the statement as written, no slice of rows
        conn.execute(_UPSERT_SQL[table], rows)
    elif rows:
        _insert_rows(conn, _UPSERT_SQL[table], len(owner) + 2, rows)


def _stale_or_missing(
    conn: sqlite3.Connection, session: Session, expected_version: int
) -> StoreError:
    row = conn.execute(
        "SELECT version, create_time, lease_token,"
        " lease_owner IS NOT NULL AND lease_expires >= ? FROM sessions"
        " WHERE app_name = ? AND user_id = ? AND session_id = ?",
        (time.time(), session.app_name, session.user_id, session.id),
    ).fetchone()
    head = None if row is None else StoredHead(row[0], row[1], row[2], bool(row[3]))
    return refused_append(session, expected_version, head)
