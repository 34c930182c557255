"""The session stores side by side: the same random operations against each, the same answers.

A hypothesis state machine drives the in-memory store, SQLite (decoded-event cache on and off)
and, with ``AGENTLOG_TEST_POSTGRES_DSN`` set, PostgreSQL (cache on and off) through creates,
appends (plain, partial, compactions, events with every field set), stale and duplicate
appends, filtered loads, listings, deletions and sessions made again under the same id, app and
user state reads, unknown ids, and now and then state and ids outside the input contract. After
every operation each store must give what the first one gave: the same value, or the same type
of error.

Compared is what a caller can rely on: ids, state (top-level key order aside: it follows the
stores' row order), events as JSON, versions and ``last_update_time`` once a session has
events. Left out are what each store assigns for itself: ``create_time`` (and so
``last_update_time`` of a session without events) and the ids of sessions made without one,
which are matched by the order of creation instead.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

from agentlog import (
    Content,
    Event,
    EventActions,
    EventCompaction,
    GetSessionConfig,
    InMemorySessionService,
    Session,
    SqliteSessionService,
)
from agentlog._frozen import thaw
from agentlog.ids import new_event_id
from agentlog.sessions.base import SessionService
from agentlog.testing.sessions import rich_event

USERS = ("ana", "bo")
KEYS = ("a", "b", "ü k", "app:c", "app:d", "user:e", "user:f", "temp:g")
"""Few keys, so that deltas keep overwriting and removing each other, in every scope."""

SETTINGS = settings(
    max_examples=20,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""About ten seconds with PostgreSQL's two stores among the five (on a machine running
other tests too)."""
WITHOUT_POSTGRES = settings(SETTINGS, max_examples=100)
"""About six seconds. At this size the in-memory store's ``num_recent_events`` slice bug (now
fixed; it needs a load of n recent events from fewer than n and more than n / 2) was found in
four runs of five."""

# --- what the operations are made of ----------------------------------------------------------

_text = st.text(
    st.characters(blacklist_categories=("Cs",)),  # valid Unicode; NUL is allowed in values
    max_size=6,
)
_scalar = (
    st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.integers(-(2**80), 2**80)  # past what a double holds exactly, still JSON
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text
)
_json = st.recursive(
    _scalar | st.none(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=4,
)
_delta = st.dictionaries(st.sampled_from(KEYS), _json, max_size=3)
"""A state delta: ``None`` at the top level reads as ``REMOVED``."""


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_VALUES = (float("nan"), float("inf"), 10**400, "\ud800", {"k": "\ud800"}, _nested(80))
"""Values outside the input contract (``agentlog.limits``): every store refuses them alike."""
HOSTILE_IDS = ("a\x00b", "\ud800", "x" * 600)
HOSTILE_KEYS = ("nul\x00key", "\udc00", "k" * 1100, "app:" + "k" * 1100)

_hostile_delta = st.one_of(
    st.builds(lambda k, v: {k: v}, st.sampled_from(KEYS), st.sampled_from(HOSTILE_VALUES)),
    st.builds(lambda k: {k: 1}, st.sampled_from(HOSTILE_KEYS)),
)
_create_state = st.tuples(st.integers(0, 9), _delta, _hostile_delta).map(
    lambda t: t[2] if t[0] == 0 else t[1]
)
"""A create's state: now and then one that breaks the input contract."""
_event_spec = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(
            ["plain", "plain", "plain", "compaction", "partial", "duplicate", "rich"]
        ),
        "delta": st.just({}) | _delta,
        "text": _text,
        "back": st.sampled_from([0, 0, 0, 1, 5]),
        "pick": st.integers(0, 99),
        "length": st.integers(1, 4),
    }
)
"""One event to append (``new_event`` makes it)."""
_event_specs = st.lists(_event_spec, min_size=1, max_size=5)
_filters = st.builds(
    dict,
    num_recent_events=st.none() | st.integers(0, 7),
    after=st.none() | st.integers(-1, 12),
    nudge=st.sampled_from([0.0, -1e-3, 1e-3]),
    from_latest_compaction=st.booleans(),
)


@dataclass
class Handle:
    """One session as every store holds it: its id in each, and each store's ``Session``s of
    it, oldest first (a stale append reuses an old one)."""

    user: str
    ids: list[str]
    given_id: bool
    held: list[list[Session]] = field(default_factory=list)
    timestamps: list[float] = field(default_factory=list)
    """The stored events' timestamps, in order (the same in every store)."""
    event_ids: list[str] = field(default_factory=list)
    alive: bool = True


Outcome = tuple[str, Any]
Operation = Callable[[int, SessionService], Coroutine[Any, Any, Any]]


class StoresAgree(RuleBasedStateMachine):
    """The state machine; ``stores`` and ``loop`` are set by the test that runs it."""

    stores: tuple[tuple[str, SessionService], ...] = ()
    loop: asyncio.AbstractEventLoop | None = None

    def __init__(self) -> None:
        super().__init__()
        self.app = f"app-{uuid.uuid4().hex[:12]}"  # every example in an app of its own
        self.handles: list[Handle] = []
        # Event timestamps come from this clock, far ahead of every store's creation times, so
        # no store moves one forward by a clock of its own.
        self.clock = time.time() + 100_000.0

    # --- running one operation on every store ---------------------------------------------------

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        assert self.loop is not None
        return self.loop.run_until_complete(coroutine)

    def each(self, op: Operation, *, new: bool = False) -> list[Any]:
        """``op`` on every store in turn; every store must answer what the first did
        (normalised), or raise the same type of error. Returns the raw answers. ``new``: the
        answer is a session just made, which no handle names yet."""
        outcomes: list[Outcome] = []
        raw: list[Any] = []
        for index, (_, store) in enumerate(self.stores):
            try:
                value = self.run(op(index, store))
            except Exception as exc:
                outcomes.append(("error", type(exc).__name__))
                raw.append(exc)
            else:
                raw.append(value)
                normal = self.normal(value, index)
                if new and isinstance(value, Session):
                    normal = (*normal[:2], "new", *normal[3:])
                outcomes.append(("ok", normal))
        first_name = self.stores[0][0]
        for (name, _), outcome in zip(self.stores, outcomes, strict=True):
            assert outcome == outcomes[0], (
                f"{name} answered differently from {first_name}:\n"
                f"  {name}: {outcome!r}\n  {first_name}: {outcomes[0]!r}\n  raised: {raw!r}"
            )
        return raw

    def normal(self, value: Any, index: int) -> Any:
        if isinstance(value, Session):
            return self.session_view(value, index)
        if isinstance(value, list):
            return [self.normal(v, index) for v in value]
        if isinstance(value, dict):
            return _json_text(value)
        return value

    def session_view(self, session: Session, index: int) -> tuple[Any, ...]:
        # The live handle of that id, else the newest deleted one.
        named = [(h.alive, n) for n, h in enumerate(self.handles) if h.ids[index] == session.id]
        logical = max(named)[1] if named else None
        return (
            session.app_name,
            session.user_id,
            session.id if logical is None else f"handle {logical}",
            _json_text(session.state),
            tuple(e.model_dump_json() for e in session.events),
            session.version,
            session.last_update_time if session.version else "no events",
        )

    def live(self, pick: int) -> Handle | None:
        alive = [h for h in self.handles if h.alive]
        return alive[pick % len(alive)] if alive else None

    def new_event(self, spec: dict[str, Any], handle: Handle) -> Event:
        """The event ``spec`` describes (see ``_event_specs``), stamped by the clock."""
        self.clock += 1.0
        kind = spec["kind"]
        if kind == "duplicate" and handle.event_ids:
            # An id the session already holds: refused whatever else the event says.
            return Event(
                id=handle.event_ids[spec["pick"] % len(handle.event_ids)],
                invocation_id="again",
                author="agent",
                timestamp=self.clock,
            )
        if kind == "compaction" and handle.timestamps:
            first = spec["pick"] % len(handle.timestamps)
            last = min(first + spec["length"], len(handle.timestamps)) - 1
            return Event(
                invocation_id="compaction",
                author="agentlog_compactor",
                timestamp=self.clock,
                actions=EventActions(
                    compaction=EventCompaction(
                        start_timestamp=handle.timestamps[first],
                        end_timestamp=handle.timestamps[last],
                        event_ids=tuple(handle.event_ids[first : last + 1]),
                        summary=Content.from_text(f"summary {first}-{last}", role="model"),
                    )
                ),
            )
        if kind == "rich":
            # Every field set, a compaction among them (covering a span before the session).
            return rich_event(f"call-{spec['pick']}").model_copy(
                update={"id": new_event_id(), "timestamp": self.clock}
            )
        return Event(
            invocation_id="inv",
            author="agent",
            content=Content.from_text(spec["text"] or "-", role="model"),
            # Stamped before the clock, the store moves it just after the previous event.
            timestamp=self.clock - spec["back"],
            partial=(kind == "partial") or None,
            actions=EventActions(state_delta=spec["delta"]),
        )

    def append_to(self, handle: Handle, spec: dict[str, Any], age: int = 0) -> None:
        """Append one event to ``handle`` in every store, each from its ``age``-th newest
        ``Session`` of it; keep what every store returned."""
        event = self.new_event(spec, handle)
        back = min(age, len(handle.held[0]) - 1)
        answers = self.each(lambda i, store: store.append_event(handle.held[i][-1 - back], event))
        if event.partial or not all(isinstance(a, Session) for a in answers):
            return
        for held, answer in zip(handle.held, answers, strict=True):
            held.append(answer)
        stored = answers[0].events[-1]
        handle.timestamps.append(stored.timestamp)
        handle.event_ids.append(stored.id)

    # --- rules -----------------------------------------------------------------------------------

    @initialize(state=_delta)
    def two_sessions(self, state: dict[str, Any]) -> None:
        self.create("given id", USERS[0], 0, state)
        self.create("new id", USERS[1], 0, {})

    @rule(
        how=st.sampled_from(["new id", "given id", "taken id", "again"]),
        user=st.sampled_from(USERS),
        pick=st.integers(0, 99),
        state=_create_state,
    )
    def create(self, how: str, user: str, pick: int, state: dict[str, Any]) -> None:
        """A session with an id of the store's, one given, one taken, or a deleted one's."""
        ids: list[str | None] = [None] * len(self.stores)
        if how == "given id":
            ids = [f"s{len(self.handles)}"] * len(self.stores)
        elif how in ("taken id", "again"):
            candidates = [h for h in self.handles if h.alive == (how == "taken id")]
            if not candidates:
                return
            old = candidates[pick % len(candidates)]
            user, ids = old.user, list(old.ids)
        answers = self.each(
            lambda i, store: store.create_session(
                app_name=self.app, user_id=user, state=state, session_id=ids[i]
            ),
            new=True,
        )
        if all(isinstance(a, Session) for a in answers):
            sids = [a.id for a in answers]
            assert None not in ids or len(set(sids)) == len(sids), "stores made the same id"
            self.handles.append(Handle(user, sids, how != "new id", held=[[a] for a in answers]))

    @precondition(lambda self: any(h.alive for h in self.handles))
    @rule(pick=st.integers(0, 99), specs=_event_specs)
    def append(self, pick: int, specs: list[dict[str, Any]]) -> None:
        """A few events in a row: plain ones with deltas, compactions, partials, duplicates."""
        handle = self.live(pick)
        assert handle is not None
        for spec in specs:
            self.append_to(handle, spec)

    @precondition(lambda self: any(len(h.held[0]) > 1 for h in self.handles))
    @rule(pick=st.integers(0, 99), age=st.integers(1, 5), spec=_event_spec)
    def stale_append(self, pick: int, age: int, spec: dict[str, Any]) -> None:
        """From an older ``Session``, maybe of a session deleted since (and made again)."""
        candidates = [h for h in self.handles if len(h.held[0]) > 1]
        self.append_to(candidates[pick % len(candidates)], spec, age=age)

    @precondition(lambda self: bool(self.handles))
    @rule(pick=st.integers(0, 99), filters=st.lists(_filters, min_size=1, max_size=3))
    def load(self, pick: int, filters: list[dict[str, Any]]) -> None:
        """A few loads of one session (deleted ones too: not found), whole or filtered."""
        handle = self.handles[pick % len(self.handles)]
        for one in filters:
            config = self.config(handle, one)
            answers = self.each(
                lambda i, store, c=config: store.get_session(  # type: ignore[misc]
                    app_name=self.app, user_id=handle.user, session_id=handle.ids[i], config=c
                )
            )
            if config is None and all(isinstance(a, Session) for a in answers):
                for held, answer in zip(handle.held, answers, strict=True):
                    held.append(answer)

    @staticmethod
    def config(handle: Handle, filters: dict[str, Any]) -> GetSessionConfig | None:
        after, stamps = filters["after"], handle.timestamps
        if after is None:
            after_timestamp = None
        elif after < 0 or not stamps:
            after_timestamp = 0.0
        elif after >= len(stamps):
            after_timestamp = stamps[-1] + 1.0
        else:
            after_timestamp = stamps[after] + filters["nudge"]
        config = GetSessionConfig(
            num_recent_events=filters["num_recent_events"],
            after_timestamp=after_timestamp,
            from_latest_compaction=filters["from_latest_compaction"],
        )
        return None if config == GetSessionConfig() else config

    @precondition(lambda self: any(h.alive for h in self.handles))
    @rule(pick=st.integers(0, 99))
    def delete(self, pick: int) -> None:
        handle = self.live(pick)
        assert handle is not None
        self.each(
            lambda i, store: store.delete_session(
                app_name=self.app, user_id=handle.user, session_id=handle.ids[i]
            )
        )
        handle.alive = False

    @rule(
        what=st.sampled_from(["list", "app state", "user state", "unknown ids", "hostile ids"]),
        user=st.sampled_from((None, *USERS, "nobody")),
        other_app=st.booleans(),
        hostile=st.sampled_from(HOSTILE_IDS),
    )
    def read_around(self, what: str, user: str | None, other_app: bool, hostile: str) -> None:
        """Listings, shared state, sessions that are not there (in this app or another), and
        ids outside the input contract."""
        app = f"{self.app}-other" if other_app else self.app
        who = user or USERS[0]
        if what == "hostile ids":
            self.each(lambda _, store: store.list_sessions(app_name=hostile))
            self.each(lambda _, store: store.get_app_state(app_name=hostile))
            self.each(lambda _, store: store.get_user_state(app_name=app, user_id=hostile))
            self.each(
                lambda _, store: store.create_session(app_name=app, user_id=who, session_id=hostile)
            )
            self.each(
                lambda _, store: store.get_session(app_name=app, user_id=hostile, session_id="s0")
            )
            self.each(
                lambda _, store: store.delete_session(app_name=hostile, user_id=who, session_id="s")
            )
            return
        if what == "list":
            self.each(lambda _, store: store.list_sessions(app_name=app, user_id=user))
        elif what == "app state":
            self.each(lambda _, store: store.get_app_state(app_name=app))
        elif what == "user state":
            self.each(lambda _, store: store.get_user_state(app_name=app, user_id=who))
        else:
            self.each(
                lambda _, store: store.get_session(app_name=app, user_id=who, session_id="nope")
            )
            self.each(
                lambda _, store: store.delete_session(app_name=app, user_id=who, session_id="nope")
            )
            if self.handles:
                # A real session's id under another user: not found either.
                handle = self.handles[-1]
                stranger = "bo" if handle.user == "ana" else "ana"
                self.each(
                    lambda i, store: store.get_session(
                        app_name=self.app, user_id=stranger, session_id=handle.ids[i]
                    )
                )

    def teardown(self) -> None:
        if not self.stores:
            return
        # Everything every store holds, loaded whole one last time.
        for handle in self.handles:
            self.each(
                lambda i, store, h=handle: store.get_session(  # type: ignore[misc]
                    app_name=self.app, user_id=h.user, session_id=h.ids[i]
                )
            )
        self.each(lambda _, store: store.list_sessions(app_name=self.app))
        for user in USERS:
            self.each(lambda _, store, u=user: store.get_user_state(app_name=self.app, user_id=u))  # type: ignore[misc]
        self.each(lambda _, store: store.get_app_state(app_name=self.app))


def _json_text(value: Any) -> str:
    # sort_keys only orders the top level's keys usefully; nested objects keep their order in
    # every store (JSON text and PostgreSQL's json type keep it as written).
    return json.dumps(thaw(value), sort_keys=True, ensure_ascii=False)


# --- running it -------------------------------------------------------------------------------


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for every example: the stores (and PostgreSQL's pools) live on it."""
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def _run_machine(
    loop: asyncio.AbstractEventLoop,
    stores: list[tuple[str, SessionService]],
    run_settings: settings = SETTINGS,
) -> None:
    class Machine(StoresAgree):
        pass

    Machine.stores = tuple(stores)
    Machine.loop = loop
    try:
        run_state_machine_as_test(Machine, settings=run_settings)
    finally:
        for _, store in stores:
            loop.run_until_complete(store.close())


def _sqlite_stores(tmp_path: Path) -> list[tuple[str, SessionService]]:
    fast = {"risk_losing_recent_commits_on_power_loss": True}
    return [
        ("sqlite", SqliteSessionService(tmp_path / "cached.db", **fast)),
        ("sqlite uncached", SqliteSessionService(tmp_path / "cold.db", cache_events=0, **fast)),
    ]


def test_memory_and_sqlite_answer_alike(loop: asyncio.AbstractEventLoop, tmp_path: Path) -> None:
    stores = [("memory", InMemorySessionService()), *_sqlite_stores(tmp_path)]
    _run_machine(loop, stores, WITHOUT_POSTGRES)


@pytest.mark.postgres
def test_memory_sqlite_and_postgres_answer_alike(
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    postgres_dsn: str,
    new_postgres_schema: Callable[[], str],
) -> None:
    from agentlog.sessions.postgres import PostgresSessionService

    postgres: list[tuple[str, SessionService]] = [
        (
            "postgres",
            PostgresSessionService(postgres_dsn, schema=new_postgres_schema(), max_size=2),
        ),
        (
            "postgres uncached",
            PostgresSessionService(
                postgres_dsn, schema=new_postgres_schema(), max_size=2, cache_events=0
            ),
        ),
    ]
    _run_machine(loop, [("memory", InMemorySessionService()), *_sqlite_stores(tmp_path), *postgres])
