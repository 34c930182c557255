"""PostgreSQL LISTEN/NOTIFY: how a process hears, within milliseconds, what another stored.

**Channel.** ``agentlog_`` and the first 16 hex digits of the md5 of the store's schema, the
``current_schema()`` of its connections, so a schema given as ``schema=`` and one set by the
DSN's ``search_path`` name the same channel: :data:`CHANNEL_SQL` on the sending side,
:func:`channel_for` on the listening one. (A channel name must stay under 64 bytes, which a
schema name and a prefix need not.) A notification reaches every listener of the database on
that channel, whichever server sent it, the sender's own included.

**Payloads.** Compact JSON objects (UTF-8, at most :data:`NOTICE_BYTES`, well under
PostgreSQL's 8,000-byte limit). Each begins with ``by``, naming the store (the session
service object) that sent it (:class:`OwnNotices`); ``k`` names the kind, ``app``, ``user``
and ``session`` the session:

- ``{"by", "k": "event", "app", "user", "session", "event": <event id>, "version": <n>}``: an
  append, sent by the append's own statement (``pg_notify`` in its final ``SELECT``), so it is
  delivered when the append commits and never for an append that wrote nothing. A receiver
  reads the event from the table.
- ``{"by", "k": "end", "app", "user", "session", "invocation", "token"}``: a lease released, which
  is the stored end of a turn (:mod:`agentlog.sessions.leases`), sent by the release's
  statement.
- ``{"by", "k": "draft", "app", "user", "session", "invocation", "author", "after", "origin",
  "text", "cut"}``: the draft of a running turn, published by the process running it (at most
  one a turn every 50 ms) and never stored. ``after`` is the id of the turn's newest stored
  event when the draft was made (a receiver shows a draft only right after that event, so a
  draft overtaken by a stored event is dropped); ``origin`` names the publishing server (it
  ignores its own); ``text`` is cut to fit, ``cut`` then true (the stored answer replaces it).
- ``{"by", "k": "ask", "app", "user", "session", "origin"}``: the server ``origin``, following the
  session's running turn from elsewhere, asks for its drafts; the server running it
  publishes drafts only of turns asked for (a draft nobody elsewhere reads is a statement
  and a notification a round for nothing).
- ``{"by", "k": "wake"}`` (and perhaps a ``version``): an event or end whose ids would not
  fit: every receiver looks again at every session it follows.

**A store's own notices.** PostgreSQL delivers a notification to the sender's listener too,
and a server's own appends are most of what its listener would hear. So the listener of a
store drops every payload that store sent (by its ``by``, before reading any JSON), and the
store hands each of its notices, once its statement has committed, to its listeners in this
process directly (:meth:`OwnNotices.deliver`): a follower in this process of a write made
outside a turn (a state route, a compaction) still wakes at once.

**Listener.** :class:`PgListener` keeps one connection of its own (``application_name``
``agentlog-listen <channel>``; ``LISTEN``), reads what arrives on its socket from an event
loop reader (libpq's buffer, then each notification: no coroutine or timer a notification),
checks it with a ``SELECT 1`` after ``heartbeat_s`` without a notification, and reconnects
with a growing pause (50 ms doubling to 5 s) when it drops. After every connect it calls
``on_gap``: whatever was stored while nobody listened is found by reading the store again.
Notifications are a shortcut, never the only path: a receiver still polls, so a missed one
costs latency, not events.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import json.encoder
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from agentlog._stores.postgres import redact
from agentlog._tasks import cancel_and_wait
from agentlog.logs import get_logger

__all__ = [
    "APPLICATION_NAME",
    "CHANNEL_SQL",
    "DRAFT_CUT_MARK",
    "NOTICE_BYTES",
    "Draft",
    "Notice",
    "OwnNotices",
    "PgListener",
    "ask_notice",
    "channel_for",
    "draft_notice",
    "end_notice",
    "event_head",
    "event_notice",
    "parse_notice",
]

logger = get_logger("agentlog.server")

NOTICE_BYTES: Final = 4_000
"""The largest payload sent; PostgreSQL refuses 8,000 bytes or more."""

DRAFT_CUT_MARK: Final = " […]"
"""Ends the text of a draft cut to fit a payload."""

APPLICATION_NAME: Final = "agentlog-listen"
"""The listener's ``application_name`` (followed by its channel)."""

CHANNEL_SQL: Final = "'agentlog_' || left(md5(coalesce(current_schema(), '')), 16)"
"""The channel, as SQL evaluated on the sending connection."""

NoticeKind = Literal["event", "end", "draft", "ask", "wake"]


def channel_for(schema: str) -> str:
    """The channel of a store whose connections' ``current_schema()`` is ``schema``."""
    return "agentlog_" + hashlib.md5(schema.encode(), usedforsecurity=False).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Draft:
    """A running turn's draft, as another process published it."""

    invocation_id: str
    author: str
    after: str
    """The id of the turn's newest stored event when the draft was made."""
    origin: str
    """The server that published it."""
    text: str


@dataclass(frozen=True, slots=True)
class Notice:
    """One notification, parsed."""

    kind: NoticeKind
    app_name: str = ""
    user_id: str = ""
    session_id: str = ""
    draft: Draft | None = None
    """The draft, for ``kind == "draft"``."""
    origin: str = ""
    """The server asking, for ``kind == "ask"``."""


def _dump(sender: str, payload: dict[str, Any]) -> str:
    return _dumps({"by": sender, **payload})


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def _fits(text: str) -> bool:
    return len(text) * 4 <= NOTICE_BYTES or len(text.encode()) <= NOTICE_BYTES


def _wake(sender: str) -> str:
    return '{"by":' + _escape(sender) + ',"k":"wake"}'


_VERSION_ROOM: Final = 21
"""Room left in an event's payload for its version and the closing brace."""


def event_head(sender: str, app_name: str, user_id: str, session_id: str, event_id: str) -> str:
    """An append's payload up to its version, for a statement that knows the version only
    as it runs (it adds the version and ``}``): a ``wake`` one when the ids do not fit."""
    # What ``_dump`` writes for these values, without building a JSON encoder: this runs on
    # every append.
    text = (
        '{"by":'
        + _escape(sender)
        + ',"k":"event","app":'
        + _escape(app_name)
        + ',"user":'
        + _escape(user_id)
        + ',"session":'
        + _escape(session_id)
        + ',"event":'
        + _escape(event_id)
        + ',"version":'
    )
    if len(text) * 4 + _VERSION_ROOM <= NOTICE_BYTES or _fits(text + "9" * _VERSION_ROOM):
        return text
    return _wake(sender)[:-1] + ',"version":'


def event_notice(
    sender: str, app_name: str, user_id: str, session_id: str, event_id: str, version: int
) -> str:
    """The payload of an append."""
    head = event_head(sender, app_name, user_id, session_id, event_id)
    return head + int.__repr__(version) + "}"


_escape: Final[Callable[[str], str]] = json.encoder.encode_basestring
"""A string as ``_dump`` writes it (``ensure_ascii=False``)."""


def end_notice(
    sender: str, app_name: str, user_id: str, session_id: str, invocation_id: str, token: int
) -> str:
    """The payload of a lease release: the end of a turn."""
    key = {"app": app_name, "user": user_id, "session": session_id}
    text = _dump(sender, {"k": "end", **key, "invocation": invocation_id, "token": token})
    return text if _fits(text) else _wake(sender)


def ask_notice(
    sender: str, app_name: str, user_id: str, session_id: str, origin: str
) -> str | None:
    """The payload of the server ``origin`` asking for the drafts of a session's running
    turn; ``None`` if its ids do not fit (the turn's drafts are then not relayed: its stored
    events still are)."""
    key = {"app": app_name, "user": user_id, "session": session_id}
    text = _dump(sender, {"k": "ask", **key, "origin": origin})
    return text if _fits(text) else None


def draft_notice(
    sender: str, app_name: str, user_id: str, session_id: str, draft: Draft
) -> str | None:
    """The payload of a draft, its text cut to fit; ``None`` if even no text would fit."""
    payload: dict[str, Any] = {
        "by": sender,
        "k": "draft",
        "app": app_name,
        "user": user_id,
        "session": session_id,
        "invocation": draft.invocation_id,
        "author": draft.author,
        "after": draft.after,
        "origin": draft.origin,
        "text": draft.text,
        "cut": False,
    }
    text = _dumps(payload)
    if _fits(text):
        return text
    payload["text"], payload["cut"] = "", True
    room = NOTICE_BYTES - len(_dumps(payload).encode()) - len(DRAFT_CUT_MARK.encode())
    if room <= 0:
        return None
    head = draft.text.encode()[:room].decode(errors="ignore")
    while True:
        payload["text"] = head + DRAFT_CUT_MARK
        text = _dumps(payload)
        over = len(text.encode()) - NOTICE_BYTES
        if over <= 0:
            return text
        # JSON escapes (quotes, control characters) took more room than the raw text.
        head = head.encode()[: max(0, len(head.encode()) - over)].decode(errors="ignore")


def parse_notice(payload: str) -> Notice:
    """A payload as sent by this module; anything else reads as a ``wake``."""
    try:
        data = json.loads(payload)
        kind = data["k"]
        if kind == "wake":
            return Notice("wake")
        key = (str(data["app"]), str(data["user"]), str(data["session"]))
        if kind in ("event", "end"):
            return Notice(kind, *key)
        if kind == "ask":
            return Notice("ask", *key, origin=str(data["origin"]))
        if kind == "draft":
            draft = Draft(
                invocation_id=str(data["invocation"]),
                author=str(data["author"]),
                after=str(data["after"]),
                origin=str(data["origin"]),
                text=str(data["text"]),
            )
            return Notice("draft", *key, draft=draft)
    except (ValueError, KeyError, TypeError):
        pass
    logger.debug("a notification this version does not read: %.200s", payload)
    return Notice("wake")


class OwnNotices:
    """One store's name in what it sends, and its listeners in this process, which it hands
    its notices itself (their listeners drop the copies PostgreSQL delivers)."""

    def __init__(self) -> None:
        self.sender = uuid.uuid4().hex[:16]
        """Names the store in its payloads (``by``)."""
        self.listeners: list[Callable[[Notice], None]] = []
        """The ``on_notice`` of each listener of the store started in this process."""
        self._prefix = ('{"by":' + _escape(self.sender)).encode()

    def sent(self, payload: bytes) -> bool:
        """Whether this store sent ``payload`` (as PostgreSQL delivers it)."""
        return payload.startswith(self._prefix)

    def deliver(self, notice: Notice) -> None:
        """Hand ``notice`` to this store's listeners here (after its statement committed)."""
        for on_notice in list(self.listeners):
            try:
                on_notice(notice)
            except Exception:
                logger.exception("handling a notification failed")


class PgListener:
    """One connection listening on a store's channel, reconnecting when it drops.

    Args:
        dsn: the store's libpq connection string.
        schema: the store's schema; ``None`` for the connection's ``search_path``.
        on_notice: called with each notification, on the event loop, in the order sent.
        on_gap: called after every connect: notifications sent before it were not heard.
        own: the store's own notices: dropped when heard, ``on_notice`` given them directly
            while the listener runs.
        heartbeat_s: after this long without a notification, check the connection.
        first_pause_s, longest_pause_s: the pause before a reconnect, doubling from the first
            to the longest.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None,
        on_notice: Callable[[Notice], None],
        on_gap: Callable[[], None],
        own: OwnNotices | None = None,
        heartbeat_s: float = 30.0,
        first_pause_s: float = 0.05,
        longest_pause_s: float = 5.0,
    ) -> None:
        params = conninfo_to_dict(dsn)
        self._dsn = dsn
        self._password = str(params["password"]) if params.get("password") else None
        self._kwargs: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in params:
            self._kwargs["connect_timeout"] = 5
        self._schema = schema
        self._on_notice = on_notice
        self._on_gap = on_gap
        self._own = own
        self._heartbeat_s = heartbeat_s
        self._first_pause_s = first_pause_s
        self._longest_pause_s = longest_pause_s
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._heard = False
        """Whether a notification arrived since the last heartbeat."""
        self.channel: str | None = None
        """The channel, once connected."""
        self.connects = 0
        """How many times it has connected and listened (more than one: it reconnected)."""
        self.backend_pid: int | None = None
        """The server process of the current connection (for operators and tests)."""

    @property
    def listening(self) -> bool:
        """Whether the connection is up and listening now."""
        return self._listening.is_set()

    async def start(self, wait_s: float = 5.0) -> None:
        """Start listening; wait up to ``wait_s`` for the first connect (after that it goes on
        trying in the background, and readers poll meanwhile)."""
        if self._task is None:
            if self._own is not None:
                self._own.listeners.append(self._on_notice)
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="agentlog-pg-listen"
            )
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_s):
                await self._listening.wait()

    async def wait_listening(self) -> None:
        """Wait until the connection is up and listening."""
        await self._listening.wait()

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        task, self._task = self._task, None
        if task is not None:
            if self._own is not None:
                self._own.listeners.remove(self._on_notice)
            await cancel_and_wait(task)

    async def _run(self) -> None:
        pause = self._first_pause_s
        while True:
            try:
                await self._listen()
            except (psycopg.Error, OSError) as exc:
                was_up = self.listening
                self._listening.clear()
                reason = redact(str(exc).strip(), self._password)
                if was_up:
                    pause = self._first_pause_s
                    logger.warning("the PostgreSQL listener lost its connection: %s", reason)
                else:
                    logger.warning(
                        "the PostgreSQL listener cannot connect (next try in %.2fs): %s",
                        pause,
                        reason,
                    )
            await asyncio.sleep(pause)
            pause = min(pause * 2, self._longest_pause_s)

    async def _listen(self) -> None:
        """Listen until the connection fails; return early (to be tried again) while the
        schema of a store given none does not exist yet."""
        conn = await psycopg.AsyncConnection.connect(self._dsn, **self._kwargs)
        async with conn:
            schema = self._schema
            if schema is None:
                cursor = await conn.execute("SELECT current_schema()")
                row = await cursor.fetchone()
                if row is None or row[0] is None:
                    logger.info("the PostgreSQL listener waits for the store's schema")
                    return
                schema = str(row[0])
            channel = self.channel = channel_for(schema)
            # Named for operators (pg_stat_activity): which connection listens, on what.
            name = f"{APPLICATION_NAME} {channel}"
            await conn.execute(sql.SQL("SET application_name TO {}").format(sql.Literal(name)))
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            self.backend_pid = conn.info.backend_pid
            self.connects += 1
            self._listening.set()
            self._on_gap()
            await self._receive(conn)

    async def _receive(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Hand on every notification until the connection fails (raised)."""
        loop = asyncio.get_running_loop()
        pgconn = conn.pgconn
        fd = pgconn.socket
        encoding = conn.info.encoding
        lost: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            # What the socket holds into libpq's buffer, then every notification in it. Runs
            # only while no statement does (the heartbeat removes it first).
            try:
                pgconn.consume_input()
            except psycopg.Error as exc:
                loop.remove_reader(fd)
                if not lost.done():
                    lost.set_exception(exc)
                return
            while (notify := pgconn.notifies()) is not None:
                self._heard = True
                self._deliver(notify.extra, encoding)

        # Notifications libpq reads while a statement (the heartbeat) runs come this way.
        conn.add_notify_handler(lambda notify: self._deliver(notify.payload.encode(), "utf-8"))
        try:
            while True:
                loop.add_reader(fd, readable)
                readable()  # what a statement left in libpq's buffer
                self._heard = False
                try:
                    async with asyncio.timeout(self._heartbeat_s):
                        await asyncio.shield(lost)
                except TimeoutError:
                    pass
                if lost.done():
                    lost.result()  # raises what the reader caught
                if self._heard:
                    continue
                # Quiet for a while: a dead peer shows here, not in the wait above.
                loop.remove_reader(fd)
                await conn.execute("SELECT 1")
        finally:
            loop.remove_reader(fd)

    def _deliver(self, payload: bytes, encoding: str) -> None:
        if self._own is not None and self._own.sent(payload):
            return  # handed to ``on_notice`` by the store itself
        try:
            self._on_notice(parse_notice(payload.decode(encoding)))
        except Exception:
            logger.exception("handling a notification failed")
