"""``PostgresSessionService``: sessions in PostgreSQL, through a psycopg 3 connection pool.

Needs the ``postgres`` extra. Pooled connections run in autocommit, and each write is one
statement: a chain of data-modifying CTEs that all hang off the session row (``s``), so a stale
or missing session writes nothing, and the statement is its own transaction. An append is
therefore atomic and costs one round trip. Reads that need several statements send them as one
pipeline inside one ``REPEATABLE READ`` transaction: one snapshot, one round trip.

Writes (appends, new sessions, leases) and loads made at the same moment, for any sessions,
are sent together (:mod:`agentlog._stores.pg_batches`): one pipeline, one transaction (one
commit for writes, one snapshot for loads), on connections of the store's own beside the pool.
Their appends changing session keys only (most do), and so the turns' first events taken with
their leases, are one statement for the batch (``_merge_appends``, ``_merge_lease_appends``:
each column a JSON array the server splits), checking each as its own statement would. A stale
or refused append among them still writes nothing (its row finds no session row to update)
and the others commit. A statement that fails (a duplicate event id, a deadlock) aborts the
batch's transaction, so nothing of it was written; each write of it is then sent again on its
own, so that one fails alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json.encoder
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, LiteralString

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.abc import Params

    from agentlog._stores.event_cache import EventCache
    from agentlog._stores.pg_batches import Cursor, Group, StatementBatches
    from agentlog._stores.pg_listen import (
        CHANNEL_SQL,
        Draft,
        Notice,
        OwnNotices,
        PgListener,
        ask_notice,
        draft_notice,
        end_notice,
        event_head,
        event_notice,
    )
    from agentlog._stores.postgres import Conn as _Conn
    from agentlog._stores.postgres import PostgresPool, PostgresStore
    from agentlog._stores.postgres import Row as _Row
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "agentlog.sessions.postgres needs the postgres extra: pip install 'agentlog[postgres]'"
    ) from exc

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
from agentlog.sessions._first_append import plan_first
from agentlog.sessions._pg_load import (
    CREATED_SELECT,
    LOAD_AFTER,
    LOAD_ALL,
    created_rows,
    key_params,
    load_query,
    split_load,
)
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
    encode_values,
)
from agentlog.sessions.leases import Lease, LeasedAppend, TurnState
from agentlog.sessions.migrations import MIGRATIONS_TABLE, load_migrations
from agentlog.state import ScopedDelta, merged_view

__all__ = ["PostgresSessionService"]

_Query = tuple[LiteralString, Params]

_BEGIN_SNAPSHOT: Final = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
_WHERE_SESSION: Final = "app_name = %s AND user_id = %s AND session_id = %s"
_APP_STATE: Final = "SELECT key, value::text FROM app_state WHERE app_name = %s"
_USER_STATE: Final = "SELECT key, value::text FROM user_state WHERE app_name = %s AND user_id = %s"

# Per scope: its table, the columns naming the owner, the owner's values (selected from CTE
# ``s``, so nothing is written when ``s`` is empty), and the condition matching the owner's rows.
_SCOPES: Final[
    tuple[tuple[str, LiteralString, LiteralString, LiteralString, LiteralString], ...]
] = (
    ("app", "app_state", "app_name", "%(app)s::text", "app_name = %(app)s"),
    (
        "user",
        "user_state",
        "app_name, user_id",
        "%(app)s::text, %(user)s::text",
        "app_name = %(app)s AND user_id = %(user)s",
    ),
    ("session", "session_state", "session_pk", "s.pk", "session_pk = (SELECT pk FROM s)"),
)
_DEADLOCK_RETRIES: Final = 3
_NOW: Final = "extract(epoch FROM clock_timestamp())::float8"
"""The lease clock: the server's, so every process sharing the database reads one clock."""


class PostgresSessionService(PostgresStore):
    """Sessions in PostgreSQL (psycopg 3, ``psycopg_pool.AsyncConnectionPool``).

    The pool opens on first use, or by ``await service.open()`` or ``async with service``; the
    first open creates ``schema`` if asked and runs pending migrations.

    Args:
        dsn: a libpq connection string or URI.
        schema: keep the tables in this schema (created if missing) instead of the connection's
            default ``search_path``; letters, digits and ``_`` only.
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens (writes and loads have up to two more
            each, of their own: see :mod:`agentlog._stores.pg_batches`).
        timeout: seconds to wait for a connection (to connect, or for a free one from the pool)
            before ``StoreUnavailableError``.
        cache_events: keep up to this many decoded events of recently loaded sessions, so
            that a full load reads and decodes only the events stored since this store last
            saw the session (checked against the stored session in the same snapshot, so
            other processes' appends and deletions are always seen; see
            :mod:`agentlog._stores.event_cache`). A decoded event takes about ten times its
            JSON in memory (about 5 KB for a support session's). ``0`` decodes every event
            on every load.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
        cache_events: int = 10_000,
    ) -> None:
        if cache_events < 0:
            raise ValueError("cache_events must be 0 or more")
        self._cache = EventCache(cache_events) if cache_events else None
        self._dsn = dsn
        self._pg = PostgresPool(
            dsn,
            owner="PostgresSessionService",
            schema=schema,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            pool_name="agentlog",
            migrations_table=MIGRATIONS_TABLE,
            migrations=lambda: load_migrations("postgres"),
        )
        self._writes = StatementBatches(self._pg)
        """Every write: those made together share a transaction and a commit."""
        self._reads = StatementBatches(self._pg, _BEGIN_SNAPSHOT)
        """Loads: those made together share a snapshot and a round trip."""
        self._own = OwnNotices()
        """What this store notifies: its listeners here get it from the store itself."""

    # --- plumbing ---------------------------------------------------------------------------

    async def _fetch(self, query: LiteralString, params: Params) -> list[_Row]:
        async with self._pg.connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def _transaction(
        self, begin: LiteralString, queries: Sequence[_Query]
    ) -> list[list[_Row]]:
        """Run ``queries`` in one transaction, sent as one pipeline: one round trip."""
        async with self._pg.connection() as conn:
            try:
                async with conn.pipeline():
                    await conn.execute(begin)
                    cursors = [await conn.execute(query, params) for query, params in queries]
                    await conn.execute("COMMIT")
            except BaseException:
                # A cancellation that lands again while the pipeline is being closed (anyio
                # cancels at every await once a client hangs up) leaves libpq in pipeline mode
                # reading IDLE while the server holds the transaction open; a ROLLBACK guarded
                # by that status let such a connection fail the pool's next user with
                # ActiveSqlTransaction. Closing never awaits, and the pool replaces it.
                with contextlib.suppress(psycopg.Error):
                    await conn.close()
                raise
            return [await cursor.fetchall() for cursor in cursors]

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
        now = time.time()
        params: dict[str, Any] = {"app": app_name, "user": user_id, "sid": sid, "now": now}
        insert = _statement(
            "s AS (INSERT INTO sessions (app_name, user_id, session_id, version, create_time,"
            " last_update_time) VALUES (%(app)s, %(user)s, %(sid)s, 0, %(now)s, %(now)s)"
            " ON CONFLICT ON CONSTRAINT sessions_key DO NOTHING RETURNING pk)",
            delta,
            params,
            select=CREATED_SELECT,
        )
        # One statement, which reads the app and user state as they were before it: what it
        # wrote of them (and the whole of the new session's) is laid over from the delta.
        (rows,) = await self._writes.run(Group([(insert, params)]))
        pk, app_rows, user_rows = created_rows(rows)
        if pk is None:
            raise SessionExistsError(app_name, user_id, sid)
        return _session(
            app_name,
            user_id,
            sid,
            [(0, now, now, pk)],
            _overlaid(app_rows, delta.app),
            _overlaid(user_rows, delta.user),
            _overlaid([], delta.session),
        )

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
        if config is None and self._cache is not None:
            return await self._get_all(app_name, user_id, session_id, self._cache)
        (rows,) = await self._reads.run(Group([load_query(app_name, user_id, session_id, config)]))
        results = split_load(rows)
        return _session(app_name, user_id, session_id, *results)

    async def _get_all(self, app_name: str, user_id: str, sid: str, cache: EventCache) -> Session:
        """A full load reading only the events stored after those cached (see
        :mod:`agentlog._stores.event_cache`); the primary key, never reused, tells a session
        made again under the same id."""
        key = (app_name, user_id, sid)
        known = cache.peek(key)
        start = known.version if known is not None else 0
        query: LiteralString = LOAD_ALL
        params = key_params(app_name, user_id, sid)
        if start:
            query = LOAD_AFTER
            params.append(start)
        (rows,) = await self._reads.run(Group([(query, params)]))
        session_rows, app_rows, user_rows, state_rows, event_rows = split_load(rows)
        if not session_rows:
            cache.drop(key)
            raise SessionNotFoundError(app_name, user_id, sid)
        ((version, _, _, pk),) = session_rows
        cached = cache.get(key, pk, version) if known is not None else None
        if cached is not known:
            # Another session under this id, or fewer events than cached: read it whole.
            return await self._get_uncached_all(app_name, user_id, sid, cache)
        events = cache.grow(key, pk, version, cached, decode_events(event_rows, session_id=sid))
        return _session(
            app_name, user_id, sid, session_rows, app_rows, user_rows, state_rows, events=events
        )

    async def _get_uncached_all(
        self, app_name: str, user_id: str, sid: str, cache: EventCache
    ) -> Session:
        (rows,) = await self._reads.run(Group([(LOAD_ALL, key_params(app_name, user_id, sid))]))
        session_rows, app_rows, user_rows, state_rows, event_rows = split_load(rows)
        session = _session(
            app_name, user_id, sid, session_rows, app_rows, user_rows, state_rows, event_rows
        )
        key, pk = (app_name, user_id, sid), session_rows[0][3]
        cache.grow(key, pk, session.version, None, session.events)
        return session

    async def list_sessions(self, *, app_name: str, user_id: str | None = None) -> list[Session]:
        """See ``SessionService.list_sessions``."""
        check_ids(app_name, user_id)
        where: LiteralString = "app_name = %s"
        params: list[Any] = [app_name]
        if user_id is not None:
            where += " AND user_id = %s"
            params.append(user_id)
        sessions, app_rows, user_rows, session_rows = await self._transaction(
            _BEGIN_SNAPSHOT,
            [
                (
                    "SELECT pk, user_id, session_id, version, last_update_time, create_time"
                    " FROM sessions"
                    " WHERE " + where + " ORDER BY create_time, pk",
                    params,
                ),
                (_APP_STATE, (app_name,)),
                (
                    "SELECT user_id, key, value::text FROM user_state WHERE app_name = %s"
                    " AND user_id IN (SELECT user_id FROM sessions WHERE " + where + ")",
                    [app_name, *params],
                ),
                (
                    "SELECT session_pk, key, value::text FROM session_state"
                    " WHERE session_pk IN (SELECT pk FROM sessions WHERE " + where + ")",
                    params,
                ),
            ],
        )
        user_state: dict[str, list[_Row]] = {}
        for user, key, value in user_rows:
            user_state.setdefault(user, []).append((key, value))
        session_state: dict[int, list[_Row]] = {}
        for pk, key, value in session_rows:
            session_state.setdefault(pk, []).append((key, value))
        return [
            stored_session(
                id=sid,
                app_name=app_name,
                user_id=user,
                # A state row that does not decode fails the loads of the sessions it belongs
                # to, not the listing of every other one.
                state=merged_view(
                    _state(app_rows, "app_state", app_name, sid, skip_corrupt=True),
                    _state(user_state.get(user, []), "user_state", user, sid, skip_corrupt=True),
                    _state(
                        session_state.get(pk, []), "session_state", None, sid, skip_corrupt=True
                    ),
                ),
                events=(),
                version=version,
                last_update_time=last_update_time,
                create_time=create_time,
            )
            for pk, user, sid, version, last_update_time, create_time in sessions
        ]

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SessionService.delete_session``."""
        check_ids(app_name, user_id, session_id)
        if self._cache is not None:
            self._cache.drop((app_name, user_id, session_id))
        deleted = await self._fetch(
            "DELETE FROM sessions WHERE " + _WHERE_SESSION + " RETURNING pk",
            (app_name, user_id, session_id),
        )
        if not deleted:
            raise SessionNotFoundError(app_name, user_id, session_id)

    async def append_event(self, session: Session, event: Event) -> Session:
        """See ``SessionService.append_event``."""
        plan = plan_append(session, event)
        if plan is None:
            return session
        alone = functools.partial(_append_alone, session_id=session.id, event_id=plan.event.id)
        query, params = _append_statement(session, plan, self._own.sender)
        # A delta of session keys only (most are) can be written beside other sessions'.
        merge = None if plan.delta.app or plan.delta.user else _merge_appends
        (rows,) = await self._writes.run(Group([(query, params)], alone, merge, params))
        if not rows:
            async with self._pg.connection() as conn:
                raise await _stale_or_missing(conn, session, plan)
        row = rows[0]
        if self._cache is not None:
            key = (session.app_name, session.user_id, session.id)
            self._cache.extend(key, row[0], plan.expected_version, plan.event)
        if self._own.listeners:
            self._own.deliver(Notice("event", session.app_name, session.user_id, session.id))
        return session_after(session, plan)

    async def close(self) -> None:
        """Wait for the writes under way, then close the connections; later calls raise
        ``StoreUnavailableError``. Idempotent."""
        await self._writes.close()
        await self._reads.close()
        await self._pg.close()

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
        # One statement: ``old`` locks the row (a concurrent acquire waits, then reads the row
        # as the winner left it) and ``won`` takes the lease only if it is free or expired.
        (rows,) = await self._write_one(
            "WITH old AS (SELECT pk, lease_owner, lease_invocation, lease_expires, version,"
            " create_time, "
            + _NOW
            + " AS now FROM sessions WHERE "
            + _WHERE_SESSION
            + " FOR UPDATE),"
            " won AS (UPDATE sessions s SET lease_token = s.lease_token + 1,"
            " lease_owner = %s, lease_invocation = %s, lease_expires = old.now + %s"
            " FROM old WHERE s.pk = old.pk"
            " AND (old.lease_owner IS NULL OR old.lease_expires < old.now)"
            " RETURNING s.lease_token, s.lease_expires)"
            " SELECT old.lease_owner, old.lease_invocation, won.lease_token, won.lease_expires,"
            " old.version, old.create_time FROM old LEFT JOIN won ON true",
            (app_name, user_id, session_id, owner, invocation_id, ttl_s),
        )
        if not rows:
            raise SessionNotFoundError(app_name, user_id, session_id)
        ((held_by, held_for, token, expires, version, create_time),) = rows
        if token is None:
            return None
        return Lease(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            token=token,
            owner=owner,
            invocation_id=invocation_id,
            expires_at=expires,
            interrupted=held_for if held_by is not None else None,
            version=version,
            create_time=create_time,
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
        query, params = _lease_append_statement(
            first,
            app_name,
            user_id,
            session_id,
            owner,
            invocation_id,
            ttl_s,
            expected_version,
            self._own.sender,
        )
        alone = functools.partial(
            _append_alone, session_id=session_id, event_id=event.id, stale_is_refusal=False
        )
        merge = None if first.delta.app or first.delta.user else _merge_lease_appends
        (rows,) = await self._writes.run(Group([(query, params)], alone, merge, params))
        if not rows:
            raise SessionNotFoundError(app_name, user_id, session_id)
        ((held_by, held_for, token, expires, version, create_time, pk, appended, *_),) = rows
        if expected_version is not None and version != expected_version:
            raise StaleSessionError(session_id, expected_version, version)
        if token is None:
            return None
        lease = Lease(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            token=token,
            owner=owner,
            invocation_id=invocation_id,
            expires_at=expires,
            interrupted=held_for if held_by is not None else None,
            version=version,
            create_time=create_time,
        )
        plan = dataclasses.replace(first, expected_version=version) if appended else None
        if plan is not None:
            if self._cache is not None:
                self._cache.extend((app_name, user_id, session_id), pk, version, plan.event)
            if self._own.listeners:
                self._own.deliver(Notice("event", app_name, user_id, session_id))
        return LeasedAppend(lease, plan)

    async def renew_lease(self, lease: Lease, ttl_s: float) -> Lease:
        """See ``SessionLeases.renew_lease``."""
        (rows,) = await self._write_one(
            "UPDATE sessions SET lease_expires = "
            + _NOW
            + " + %s WHERE "
            + _WHERE_SESSION
            + " AND lease_token = %s AND lease_owner IS NOT NULL RETURNING lease_expires",
            (ttl_s, lease.app_name, lease.user_id, lease.session_id, lease.token),
        )
        if not rows:
            raise LeaseLostError(lease.session_id, lease.token)
        return lease.model_copy(update={"expires_at": rows[0][0]})

    async def release_lease(self, lease: Lease) -> None:
        """See ``SessionLeases.release_lease``."""
        # The release notifies listeners in its own statement: the end of the turn.
        notice = end_notice(
            self._own.sender,
            lease.app_name,
            lease.user_id,
            lease.session_id,
            lease.invocation_id,
            lease.token,
        )
        (released,) = await self._write_one(
            "WITH r AS (UPDATE sessions SET lease_owner = NULL, lease_invocation = NULL WHERE "
            + _WHERE_SESSION
            + " AND lease_token = %s RETURNING pk) SELECT pk, pg_notify("
            + CHANNEL_SQL
            + ", %s) FROM r",
            (lease.app_name, lease.user_id, lease.session_id, lease.token, notice),
        )
        if released and self._own.listeners:
            self._own.deliver(Notice("end", lease.app_name, lease.user_id, lease.session_id))

    async def _write_one(self, query: LiteralString, params: Params) -> list[list[_Row]]:
        return await self._writes.run(Group([(query, params)]))

    def listener(
        self, on_notice: Callable[[Notice], None], on_gap: Callable[[], None]
    ) -> PgListener:
        """A listener for what this store's appends and releases notify, on a connection of
        its own (``await listener.start()``; see :mod:`agentlog._stores.pg_listen`)."""
        return PgListener(
            self._dsn, schema=self.schema, on_notice=on_notice, on_gap=on_gap, own=self._own
        )

    async def publish_draft(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        invocation_id: str,
        author: str,
        after: str,
        origin: str,
        text: str,
    ) -> None:
        """Notify listeners of a running turn's draft, made after its stored event ``after``
        by the server ``origin`` (never stored; cut to fit)."""
        draft = Draft(
            invocation_id=invocation_id, author=author, after=after, origin=origin, text=text
        )
        await self.publish_drafts(app_name=app_name, drafts=[(user_id, session_id, draft)])

    async def publish_drafts(
        self, *, app_name: str, drafts: Sequence[tuple[str, str, Draft]]
    ) -> None:
        """``publish_draft`` for several drafts, each ``(user_id, session_id, draft)``, in
        one statement (a server relays its turns' drafts together)."""
        sender = self._own.sender
        notices = [
            notice
            for user_id, session_id, draft in drafts
            if (notice := draft_notice(sender, app_name, user_id, session_id, draft)) is not None
        ]
        if notices:
            await self._fetch(
                "SELECT pg_notify(" + CHANNEL_SQL + ", n) FROM unnest(%s::text[]) AS n",
                (notices,),
            )
        for user_id, session_id, draft in drafts if self._own.listeners else ():
            self._own.deliver(Notice("draft", app_name, user_id, session_id, draft=draft))

    async def ask_drafts(
        self, *, app_name: str, user_id: str, session_id: str, origin: str
    ) -> None:
        """Ask the process running a session's turn to publish its drafts, for the server
        ``origin`` (see :mod:`agentlog._stores.pg_listen`); nothing when the ids do not fit
        a notification."""
        notice = ask_notice(self._own.sender, app_name, user_id, session_id, origin)
        if notice is not None:
            await self._fetch("SELECT pg_notify(" + CHANNEL_SQL + ", %s)", (notice,))
            self._own.deliver(Notice("ask", app_name, user_id, session_id, origin=origin))

    async def read_turn(self, *, app_name: str, user_id: str, session_id: str) -> TurnState:
        """See ``SessionLeases.read_turn``."""
        check_ids(app_name, user_id, session_id)
        rows = await self._fetch(
            "SELECT version, lease_token, CASE WHEN lease_owner IS NOT NULL"
            " AND lease_expires >= "
            + _NOW
            + " THEN lease_invocation END FROM sessions WHERE "
            + _WHERE_SESSION,
            (app_name, user_id, session_id),
        )
        if not rows:
            raise SessionNotFoundError(app_name, user_id, session_id)
        ((version, token, running),) = rows
        return TurnState(version=version, token=token, running=running)

    async def get_app_state(self, *, app_name: str) -> dict[str, Any]:
        """See ``SessionService.get_app_state``."""
        check_ids(app_name)
        return _state(await self._fetch(_APP_STATE, (app_name,)), "app_state", app_name)

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        """See ``SessionService.get_user_state``."""
        check_ids(app_name, user_id)
        return _state(await self._fetch(_USER_STATE, (app_name, user_id)), "user_state", user_id)


async def _append_alone(
    cursor: Cursor,
    group: Group,
    *,
    session_id: str,
    event_id: str,
    stale_is_refusal: bool = True,
) -> list[list[_Row]]:
    """One append's statement on its own (``append_event``'s, or ``acquire_lease_and_append``'s
    with ``stale_is_refusal=False``), its errors told apart: no rows when it was refused."""
    ((query, params),) = group.queries
    for attempt in range(1, _DEADLOCK_RETRIES + 1):
        try:
            await cursor.execute(query, params)
            return [await cursor.fetchall()]
        except pg_errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "events_event_id_unique":
                raise DuplicateEventError(session_id, event_id) from exc
            if stale_is_refusal and exc.diag.constraint_name == "events_seq_unique":
                return [[]]
            raise
        except pg_errors.DeadlockDetected:
            # Two appends writing the same app or user keys; the statement rolled back whole,
            # so running it again is safe.
            if attempt == _DEADLOCK_RETRIES:
                raise
    return [[]]  # not reached: the last attempt returns or raises


# --- SQL ------------------------------------------------------------------------------------------


def _statement(
    session_cte: LiteralString,
    delta: ScopedDelta,
    params: dict[str, Any],
    *,
    notify: bool = False,
    select: LiteralString = " SELECT pk FROM s",
) -> str:
    """One statement: ``session_cte`` (CTE ``s``, the session's pk), then ``delta`` written,
    then ``select``; with ``notify``, instead ``pg_notify`` of ``params["notice"]`` when ``s``
    wrote a row."""
    shape = _delta_params(delta, params)
    key = (session_cte, shape, notify, select)
    query = _STATEMENTS.get(key)
    if query is None:
        ctes = [session_cte, *_delta_ctes(shape)]
        if notify:
            # In the final SELECT, where it runs (a SELECT CTE nothing refers to would not),
            # once per row of ``s``: an append that wrote nothing notifies nobody; delivered
            # on commit.
            select = " SELECT pk, pg_notify(" + CHANNEL_SQL + ", %(notice)s) FROM s"
        query = _STATEMENTS.setdefault(key, "WITH " + ", ".join(ctes) + select)
    return query


_STATEMENTS: dict[tuple[str, tuple[bool, ...], bool, str], str] = {}
"""Statements by their session CTE and delta shape: a few dozen, built once each."""


def _delta_params(delta: ScopedDelta, params: dict[str, Any]) -> tuple[bool, ...]:
    """Add the delta's keys and values to ``params`` (as JSON arrays: PostgreSQL arrays cost
    the driver far more to send); return its shape, which scopes put and remove keys."""
    shape: tuple[bool, ...] = ()
    for scope, keys_param, values_param, gone_param in _SCOPE_PARAMS:
        changes: dict[str, Any] = getattr(delta, scope)
        if not changes:  # most appends change one scope, or none
            shape += _UNCHANGED
            continue
        # Sorted, so concurrent appends touching the same app or user keys lock them in one
        # order and do not deadlock.
        keys = sorted(changes)
        put = [key for key in keys if changes[key] is not REMOVED]
        gone = [key for key in keys if changes[key] is REMOVED] if len(put) < len(keys) else []
        if put:
            params[keys_param] = encode_values(put)
            # As ``encode_value`` writes each value: json_array_elements hands every element
            # on as the very text it was given (json_each would not: it unescapes, and
            # refuses a \u0000 inside a value).
            params[values_param] = encode_values([changes[key] for key in put])
        if gone:
            params[gone_param] = encode_values(gone)
        shape += (bool(put), bool(gone))
    return shape


_SCOPE_PARAMS: Final = tuple(
    (scope, f"{scope}_put_keys", f"{scope}_put_values", f"{scope}_gone") for scope, *_ in _SCOPES
)
"""Per scope: its ``ScopedDelta`` attribute and its three parameters' names."""
_UNCHANGED: Final = (False, False)


def _delta_ctes(shape: tuple[bool, ...]) -> list[LiteralString]:
    ctes: list[LiteralString] = []
    for i, (scope, table, owner_columns, owner, match) in enumerate(_SCOPES):
        if shape[2 * i]:
            ctes.append(
                f"{scope}_put AS (INSERT INTO {table} ({owner_columns}, key, value)"
                f" SELECT {owner}, u.key, u.value FROM s, ROWS FROM"
                f" (json_array_elements_text(%({scope}_put_keys)s::json),"
                f" json_array_elements(%({scope}_put_values)s::json)) AS u (key, value)"
                f" ON CONFLICT ({owner_columns}, key) DO UPDATE SET value = excluded.value)"
            )
        if shape[2 * i + 1]:
            ctes.append(
                f"{scope}_gone AS (DELETE FROM {table} WHERE {match} AND key IN"
                f" (SELECT json_array_elements_text(%({scope}_gone)s::json))"
                f" AND EXISTS (SELECT FROM s))"
            )
    return ctes


def _append_statement(
    session: Session, plan: AppendPlan, sender: str
) -> tuple[str, dict[str, Any]]:
    event = plan.event
    params: dict[str, Any] = {
        "app": session.app_name,
        "user": session.user_id,
        "sid": session.id,
        "expected": plan.expected_version,
        "version": plan.new_version,
        "timestamp": event.timestamp,
        "event_id": event.id,
        "invocation_id": event.invocation_id,
        "author": event.author,
        "format": EVENT_FORMAT_VERSION,
        "payload": plan.payload,
        "compaction_end": plan.compaction_end,
        "created": session.create_time,
        "lease": session.lease_token,
        "notice": event_notice(
            sender, session.app_name, session.user_id, session.id, event.id, plan.new_version
        ),
    }
    ctes = _APPEND_CTES[session.create_time is None][session.lease_token is None]
    return _statement(ctes, plan.delta, params, notify=True), params


def _merge_appends(rows: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """One statement for several appends to different sessions, each given as its
    ``_append_statement`` parameters (session keys only): each checked and written as its
    own statement would (a stale or refused one writes nothing and returns no row); a row
    ``(position, pk, _)`` for each one written, notified as its own statement notifies."""
    params, puts, gones = _merged_params(rows, _MERGED_SCALARS)
    return _MERGED_APPENDS[puts][gones], params


_MERGED_SCALARS: Final = (
    "app",
    "user",
    "sid",
    "expected",
    "created",
    "lease",
    "timestamp",
    "event_id",
    "invocation_id",
    "author",
    "compaction_end",
    "notice",
)


def _json_scalar(value: str | float | None) -> str:
    """A string, number or ``None`` as JSON (``_merge_appends``' columns)."""
    if value is None:
        return "null"
    if value.__class__ is str:
        return _escape_json(value)
    return repr(value)


_escape_json: Final[Callable[[str], str]] = json.encoder.encode_basestring
"""A string as JSON, as the event and state encoders write it (``ensure_ascii=False``)."""


def _delta_columns(
    puts: bool, gones: bool, rows: LiteralString
) -> tuple[LiteralString, LiteralString, LiteralString]:
    """A merged statement's delta columns, when some append has them: what its ``r`` reads
    from the parameters, their names there, and what the update returns of them from
    ``rows``."""
    extra: LiteralString = ""
    names: LiteralString = ""
    returned: LiteralString = ""
    if puts:
        extra += (
            ", json_array_elements(%(session_put_keys)s::json),"
            " json_array_elements(%(session_put_values)s::json)"
        )
        names += ", put_keys, put_values"
        returned += ", " + rows + ".put_keys, " + rows + ".put_values"
    if gones:
        extra += ", json_array_elements(%(session_gone)s::json)"
        names += ", gone"
        returned += ", " + rows + ".gone"
    return extra, names, returned


def _merged_appends(puts: bool, gones: bool) -> LiteralString:
    """``_merge_appends``' statement, with its ``session_state`` writes as needed."""
    extra, names, returned = _delta_columns(puts, gones, "r")
    ctes: list[LiteralString] = [
        "r AS (SELECT * FROM ROWS FROM (json_array_elements_text(%(app)s::json),"
        " json_array_elements_text(%(user)s::json), json_array_elements_text(%(sid)s::json),"
        " json_array_elements_text(%(expected)s::json),"
        " json_array_elements_text(%(created)s::json),"
        " json_array_elements_text(%(lease)s::json),"
        " json_array_elements_text(%(timestamp)s::json),"
        " json_array_elements_text(%(event_id)s::json),"
        " json_array_elements_text(%(invocation_id)s::json),"
        " json_array_elements_text(%(author)s::json), json_array_elements(%(payload)s::json),"
        " json_array_elements_text(%(compaction_end)s::json),"
        " json_array_elements_text(%(notice)s::json)"
        + extra
        + ") WITH ORDINALITY AS r (app, usr, sid, expected, created, lease, ts, event_id, inv,"
        " author, payload, cend, notice" + names + ", i))",
        # As _append_ctes checks one append; a session twice in the batch is written once.
        "s AS (UPDATE sessions x SET version = r.expected::bigint + 1,"
        " last_update_time = r.ts::float8 FROM r"
        " WHERE x.app_name = r.app AND x.user_id = r.usr AND x.session_id = r.sid"
        " AND x.version = r.expected::bigint"
        " AND (r.created IS NULL OR x.create_time = r.created::float8)"
        " AND CASE WHEN r.lease IS NULL THEN x.lease_owner IS NULL OR x.lease_expires < "
        + _NOW
        + " ELSE x.lease_token = r.lease::bigint END"
        " RETURNING r.i, x.pk, x.version, r.event_id, r.inv, r.author, r.ts, r.payload,"
        " r.cend, r.notice" + returned + ")",
        *_merged_writes(puts, gones),
    ]
    return (
        "WITH " + ", ".join(ctes) + " SELECT i, pk, pg_notify(" + CHANNEL_SQL + ", notice) FROM s"
    )


def _merged_writes(puts: bool, gones: bool) -> list[LiteralString]:
    """A merged statement's writes of the appends ``s`` returns: their event rows, and their
    ``session_state`` puts and removals when some append has them."""
    writes: list[LiteralString] = [
        "e AS (INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
        " format_version, payload, compaction_end) SELECT pk, version, event_id, inv, author,"
        " ts::float8, %(format)s::integer, payload, cend::float8 FROM s)"
    ]
    if puts:
        writes.append(
            "session_put AS (INSERT INTO session_state (session_pk, key, value)"
            " SELECT s.pk, u.key, u.value FROM s, ROWS FROM"
            " (json_array_elements_text(s.put_keys), json_array_elements(s.put_values))"
            " AS u (key, value)"
            " ON CONFLICT (session_pk, key) DO UPDATE SET value = excluded.value)"
        )
    if gones:
        writes.append(
            "session_gone AS (DELETE FROM session_state d USING s,"
            " json_array_elements_text(s.gone) AS g (key)"
            " WHERE d.session_pk = s.pk AND d.key = g.key)"
        )
    return writes


_MERGED_APPENDS: Final = (
    (_merged_appends(False, False), _merged_appends(False, True)),
    (_merged_appends(True, False), _merged_appends(True, True)),
)


def _append_ctes(created: bool, lease: bool) -> LiteralString:
    """The append's session row and event row; checking the creation time when ``created``,
    and the lease token when ``lease`` (else that no other holds a live lease)."""
    # A statement per case rather than one testing its parameters: the server evaluates
    # only the check that applies, and the unused parameters are not sent.
    return (
        "s AS (UPDATE sessions SET version = %(version)s, last_update_time = %(timestamp)s"
        " WHERE app_name = %(app)s AND user_id = %(user)s AND session_id = %(sid)s"
        " AND version = %(expected)s"
        + (" AND create_time = %(created)s::float8" if created else "")
        + (
            " AND lease_token = %(lease)s::bigint"
            if lease
            else " AND (lease_owner IS NULL OR lease_expires < " + _NOW + ")"
        )
        + " RETURNING pk),"
        " e AS (INSERT INTO events (session_pk, seq, event_id, invocation_id, author, timestamp,"
        " format_version, payload, compaction_end) SELECT pk, %(version)s::bigint,"
        " %(event_id)s::text, %(invocation_id)s::text, %(author)s::text, %(timestamp)s::float8,"
        " %(format)s::integer, %(payload)s::json, %(compaction_end)s::float8 FROM s)"
    )


_APPEND_CTES: Final = (
    (_append_ctes(True, True), _append_ctes(True, False)),
    (_append_ctes(False, True), _append_ctes(False, False)),
)
"""``_append_ctes`` by whether the session's creation time and lease token are unknown
(module constants: built and hashed once, where the statement cache looks them up on every
append)."""


def _lease_append_statement(
    plan: AppendPlan,
    app_name: str,
    user_id: str,
    sid: str,
    owner: str,
    invocation_id: str,
    ttl_s: float,
    expected_version: int | None,
    sender: str,
) -> tuple[str, dict[str, Any]]:
    """One statement taking the lease (as ``acquire_lease``'s) and, when the lease was free
    (not expired: a turn to close comes first) and the session's last update is before the
    event, appending it at the version found (as ``_append_statement``'s, notice included);
    nothing at all when the version is not ``expected_version``."""
    event = plan.event
    params: dict[str, Any] = {
        "app": app_name,
        "user": user_id,
        "sid": sid,
        "owner": owner,
        "invocation": invocation_id,
        "ttl": ttl_s,
        "expected": expected_version,
        "timestamp": event.timestamp,
        "event_id": event.id,
        "invocation_id": event.invocation_id,
        "author": event.author,
        "format": EVENT_FORMAT_VERSION,
        "payload": plan.payload,
        "compaction_end": plan.compaction_end,
        # The version is only known in the statement, which ends the payload with it.
        "notice": event_head(sender, app_name, user_id, sid, event.id),
    }
    shape = _delta_params(plan.delta, params)
    query = _LEASE_APPENDS.get(shape)
    if query is None:
        appends: LiteralString = (
            "old.lease_owner IS NULL AND old.last_update_time < %(timestamp)s::float8"
        )
        ctes: list[LiteralString] = [
            "old AS (SELECT pk, lease_owner, lease_invocation, lease_expires, version,"
            " create_time, last_update_time, "
            + _NOW
            + " AS now FROM sessions WHERE app_name = %(app)s AND user_id = %(user)s"
            " AND session_id = %(sid)s FOR UPDATE)",
            "won AS (UPDATE sessions x SET lease_token = x.lease_token + 1,"
            " lease_owner = %(owner)s, lease_invocation = %(invocation)s,"
            " lease_expires = old.now + %(ttl)s::float8,"
            " version = CASE WHEN " + appends + " THEN old.version + 1 ELSE old.version END,"
            " last_update_time = CASE WHEN "
            + appends
            + " THEN %(timestamp)s::float8 ELSE old.last_update_time END"
            " FROM old WHERE x.pk = old.pk"
            " AND (old.lease_owner IS NULL OR old.lease_expires < old.now)"
            " AND (%(expected)s::bigint IS NULL OR old.version = %(expected)s::bigint)"
            " RETURNING x.pk, x.lease_token, x.lease_expires, x.version, "
            + appends
            + " AS appended)",
            "s AS (SELECT pk, version FROM won WHERE appended)",
            "e AS (INSERT INTO events (session_pk, seq, event_id, invocation_id, author,"
            " timestamp, format_version, payload, compaction_end) SELECT pk, version,"
            " %(event_id)s::text, %(invocation_id)s::text, %(author)s::text,"
            " %(timestamp)s::float8, %(format)s::integer, %(payload)s::json,"
            " %(compaction_end)s::float8 FROM s)",
            # What event_notice sends, ended here: the version is only known in the statement.
            "n AS (SELECT pg_notify("
            + CHANNEL_SQL
            + ", %(notice)s::text || version::text || '}') FROM s)",
            *_delta_ctes(shape),
        ]
        query = _LEASE_APPENDS.setdefault(
            shape,
            "WITH "
            + ", ".join(ctes)
            + " SELECT old.lease_owner, old.lease_invocation, won.lease_token,"
            " won.lease_expires, old.version, old.create_time, won.pk,"
            " coalesce(won.appended, false) AND (SELECT count(*) FROM n) = 1"
            " FROM old LEFT JOIN won ON true",
        )
    return query, params


_LEASE_APPENDS: dict[tuple[bool, ...], str] = {}
"""``_lease_append_statement``'s statements by delta shape."""


def _merge_lease_appends(rows: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """One statement for several ``_lease_append_statement``s (session keys only), each
    taking its lease and appending as its own statement would, returning the same row after
    its position; of two for one session, one takes the lease and the other finds it held."""
    params, puts, gones = _merged_params(rows, _LEASE_MERGED_SCALARS)
    return _MERGED_LEASE_APPENDS[puts][gones], params


def _merged_params(
    rows: list[dict[str, Any]], scalars: tuple[str, ...]
) -> tuple[dict[str, Any], bool, bool]:
    """The parameters of one statement for several appends' ``rows``, whether any puts
    session keys, and whether any removes some."""
    puts = any("session_put_keys" in row for row in rows)
    gones = any("session_gone" in row for row in rows)
    # Every column as one JSON array: the driver sends a text, the server splits it.
    params: dict[str, Any] = {
        name: "[" + ",".join([_json_scalar(row[name]) for row in rows]) + "]" for name in scalars
    }
    params["payload"] = "[" + ",".join([row["payload"] for row in rows]) + "]"
    params["format"] = EVENT_FORMAT_VERSION
    if puts:
        for name in ("session_put_keys", "session_put_values"):
            params[name] = "[" + ",".join([row.get(name, "[]") for row in rows]) + "]"
    if gones:
        params["session_gone"] = (
            "[" + ",".join([row.get("session_gone", "[]") for row in rows]) + "]"
        )
    return params, puts, gones


_LEASE_MERGED_SCALARS: Final = (
    "app",
    "user",
    "sid",
    "owner",
    "invocation",
    "ttl",
    "expected",
    "timestamp",
    "event_id",
    "invocation_id",
    "author",
    "compaction_end",
    "notice",
)


def _merged_lease_appends(puts: bool, gones: bool) -> LiteralString:
    """``_merge_lease_appends``' statement, with its ``session_state`` writes as needed."""
    extra, names, returned = _delta_columns(puts, gones, "old")
    appends: LiteralString = "old.lease_owner IS NULL AND old.last_update_time < old.ts::float8"
    ctes: list[LiteralString] = [
        "r AS (SELECT * FROM ROWS FROM (json_array_elements_text(%(app)s::json),"
        " json_array_elements_text(%(user)s::json), json_array_elements_text(%(sid)s::json),"
        " json_array_elements_text(%(owner)s::json),"
        " json_array_elements_text(%(invocation)s::json),"
        " json_array_elements_text(%(ttl)s::json),"
        " json_array_elements_text(%(expected)s::json),"
        " json_array_elements_text(%(timestamp)s::json),"
        " json_array_elements_text(%(event_id)s::json),"
        " json_array_elements_text(%(invocation_id)s::json),"
        " json_array_elements_text(%(author)s::json), json_array_elements(%(payload)s::json),"
        " json_array_elements_text(%(compaction_end)s::json),"
        " json_array_elements_text(%(notice)s::json)"
        + extra
        + ") WITH ORDINALITY AS r (app, usr, sid, owner, invocation, ttl, expected, ts,"
        " event_id, inv, author, payload, cend, notice" + names + ", i))",
        # Locked apart from the join: a row locked twice by one statement (a session twice
        # in the batch) reads as gone the second time.
        "locked AS (SELECT pk, app_name, user_id, session_id, lease_owner, lease_invocation,"
        " lease_expires, version, create_time, last_update_time FROM sessions"
        " WHERE (app_name, user_id, session_id) IN (SELECT app, usr, sid FROM r) FOR UPDATE)",
        "old AS (SELECT r.*, x.pk, x.lease_owner, x.lease_invocation, x.lease_expires,"
        " x.version, x.create_time, x.last_update_time, "
        + _NOW
        + " AS now FROM r JOIN locked x ON x.app_name = r.app AND x.user_id = r.usr"
        " AND x.session_id = r.sid)",
        # A session twice in the batch is updated from one of its rows: ``i`` tells which.
        "won AS (UPDATE sessions x SET lease_token = x.lease_token + 1,"
        " lease_owner = old.owner, lease_invocation = old.invocation,"
        " lease_expires = old.now + old.ttl::float8,"
        " version = CASE WHEN " + appends + " THEN old.version + 1 ELSE old.version END,"
        " last_update_time = CASE WHEN "
        + appends
        + " THEN old.ts::float8 ELSE old.last_update_time END"
        " FROM old WHERE x.pk = old.pk"
        " AND (old.lease_owner IS NULL OR old.lease_expires < old.now)"
        " AND (old.expected IS NULL OR old.version = old.expected::bigint)"
        " RETURNING old.i, x.pk, x.lease_token, x.lease_expires, x.version, "
        + appends
        + " AS appended, old.app, old.usr, old.sid, old.event_id, old.inv, old.author, old.ts,"
        " old.payload, old.cend, old.notice" + returned + ")",
        "s AS (SELECT * FROM won WHERE appended)",
        *_merged_writes(puts, gones),
    ]
    return (
        "WITH "
        + ", ".join(ctes)
        + " SELECT old.i, old.lease_owner, old.lease_invocation, won.lease_token,"
        " won.lease_expires, old.version, old.create_time, won.pk,"
        " coalesce(won.appended, false),"
        # What the single statement's notice says (see _lease_append_statement), per row.
        " CASE WHEN won.appended THEN pg_notify("
        + CHANNEL_SQL
        + ", won.notice || won.version::text || '}') END"
        " FROM old LEFT JOIN won ON won.i = old.i"
    )


_MERGED_LEASE_APPENDS: Final = (
    (_merged_lease_appends(False, False), _merged_lease_appends(False, True)),
    (_merged_lease_appends(True, False), _merged_lease_appends(True, True)),
)


def _session(
    app_name: str,
    user_id: str,
    sid: str,
    session_rows: list[_Row],
    app_rows: list[_Row],
    user_rows: list[_Row],
    state_rows: list[_Row],
    event_rows: Sequence[_Row] = (),
    *,
    events: tuple[Event, ...] | None = None,
) -> Session:
    if not session_rows:
        raise SessionNotFoundError(app_name, user_id, sid)
    ((version, last_update_time, create_time, _),) = session_rows
    return stored_session(
        id=sid,
        app_name=app_name,
        user_id=user_id,
        state=merged_view(
            _state(app_rows, "app_state", app_name, sid),
            _state(user_rows, "user_state", user_id, sid),
            _state(state_rows, "session_state", None, sid),
        ),
        events=decode_events(event_rows, session_id=sid) if events is None else events,
        version=version,
        last_update_time=last_update_time,
        create_time=create_time,
    )


def _state(
    rows: Sequence[_Row],
    table: str,
    owner: str | None,
    session_id: str | None = None,
    *,
    skip_corrupt: bool = False,
) -> dict[str, Any]:
    """One scope's state; ``owner`` is the app name or user id (``None`` for session state)."""
    return decode_state(
        rows, table=table, session_id=session_id, owner=owner, skip_corrupt=skip_corrupt
    )


def _overlaid(rows: list[_Row], changes: dict[str, Any]) -> list[_Row]:
    """A scope's ``(key, value)`` rows as read before a statement wrote ``changes`` to it,
    as they are after (each value as the statement stored it)."""
    if not changes:
        return rows
    kept = [row for row in rows if row[0] not in changes]
    kept += [(key, encode_value(value)) for key, value in changes.items() if value is not REMOVED]
    return kept


async def _stale_or_missing(conn: _Conn, session: Session, plan: AppendPlan) -> StoreError:
    cursor = await conn.execute(
        "SELECT version, create_time, lease_token, lease_owner IS NOT NULL AND lease_expires >= "
        + _NOW
        + " FROM sessions WHERE "
        + _WHERE_SESSION,
        (session.app_name, session.user_id, session.id),
    )
    row = await cursor.fetchone()
    head = None if row is None else StoredHead(row[0], row[1], row[2], bool(row[3]))
    return refused_append(session, plan.expected_version, head)
