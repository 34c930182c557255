"""The decoded-event cache: its bounds, and cached stores that always agree with the database.

Each coherence test opens several stores on one SQLite file or PostgreSQL schema, as separate
server processes would: whatever one stores or deletes, another's next load shows, and a cached
load equals a cold one (a store with ``cache_events=0``).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from agentlog import (
    Content,
    Event,
    GetSessionConfig,
    Session,
    SessionNotFoundError,
    SqliteSessionService,
    StaleSessionError,
)
from agentlog._stores.event_cache import EventCache
from agentlog.sessions.base import SessionService
from agentlog.testing.sessions import rich_event

APP, USER, SID = "cache", "u1", "s1"


def said(text: str, author: str = "agent") -> Event:
    role = "user" if author == "user" else "model"
    return Event(invocation_id="inv", author=author, content=Content.from_text(text, role))


# --- EventCache ---------------------------------------------------------------------------------


def events(n: int) -> tuple[Event, ...]:
    return tuple(said(f"e{i}") for i in range(n))


def test_an_entry_serves_only_its_incarnation_and_never_more_than_is_stored() -> None:
    cache = EventCache(100)
    key = (APP, USER, SID)
    three = events(3)
    cache.put(key, (1, 0.5), three)
    assert cache.get(key, (1, 0.5), 3) is not None
    got = cache.get(key, (1, 0.5), 7)  # four stored since: the caller reads them
    assert got is not None
    assert got.events == three
    assert cache.get(key, (1, 0.5), 2) is None  # fewer stored than cached: not this log
    assert len(cache) == 0
    cache.put(key, (1, 0.5), three)
    assert cache.get(key, (2, 0.5), 3) is None  # made again under the same id
    assert (len(cache), cache.total_events) == (0, 0)


def test_the_budget_evicts_the_least_recently_used() -> None:
    cache = EventCache(10)
    a, b, c = (APP, USER, "a"), (APP, USER, "b"), (APP, USER, "c")
    cache.put(a, 1, events(4))
    cache.put(b, 1, events(4))
    assert cache.get(a, 1, 4) is not None  # a is now the most recent
    cache.put(c, 1, events(4))
    assert cache.get(b, 1, 4) is None
    assert cache.get(a, 1, 4) is not None
    assert cache.get(c, 1, 4) is not None
    assert cache.total_events == 8
    cache.put(b, 1, events(11))  # larger than the whole budget: not kept
    assert cache.get(b, 1, 11) is None
    assert cache.total_events == 8


def test_extend_adds_only_the_next_event() -> None:
    cache = EventCache(10)
    key = (APP, USER, SID)
    cache.put(key, 1, events(2))
    nxt = said("next")
    cache.extend(key, 1, 3, nxt)  # the cache holds 2, not 3: left alone
    cache.extend(key, 2, 2, nxt)  # another incarnation: left alone
    entry = cache.get(key, 1, 3)
    assert entry is not None
    assert entry.version == 2
    cache.extend(key, 1, 2, nxt)
    entry = cache.get(key, 1, 3)
    assert entry is not None
    assert entry.events[-1] is nxt
    cache.drop(key)
    assert (len(cache), cache.total_events) == (0, 0)
    with pytest.raises(ValueError, match="at least 1"):
        EventCache(0)


# --- cached durable stores ------------------------------------------------------------------------

Opener = Callable[..., SessionService]
"""Opens another store on the same database, as another process would (``cache_events=``)."""


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        path = tmp_path / "shared.db"
        return lambda **kw: SqliteSessionService(path, **kw)
    dsn = request.getfixturevalue("postgres_dsn")
    schema = request.getfixturevalue("postgres_schema")
    from agentlog.sessions.postgres import PostgresSessionService

    return lambda **kw: PostgresSessionService(dsn, schema=schema, min_size=0, **kw)


@pytest.fixture
async def stores(opener: Opener) -> AsyncIterator[list[SessionService]]:
    """Three stores on one database: two cached and one that never caches (the reference)."""
    made = [opener(), opener(), opener(cache_events=0)]
    yield made
    for store in made:
        await store.close()


async def load(store: SessionService, sid: str = SID) -> Session:
    return await store.get_session(app_name=APP, user_id=USER, session_id=sid)


async def append(store: SessionService, *texts: str, sid: str = SID) -> Session:
    session = await load(store, sid)
    for text in texts:
        session = await store.append_event(session, said(text))
    return session


def texts(session: Session) -> list[str | None]:
    return [e.content.parts[0].text for e in session.events if e.content]


async def test_another_stores_appends_are_seen_and_old_events_are_not_decoded_again(
    stores: list[SessionService],
) -> None:
    a, b, cold = stores
    await a.create_session(app_name=APP, user_id=USER, session_id=SID)
    await append(a, "one", "two")
    first = await load(a)
    await append(b, "three", "four")
    second = await load(a)
    assert texts(second) == ["one", "two", "three", "four"]
    # The two events a had decoded are the very same objects: only the new ones were read.
    assert all(x is y for x, y in zip(first.events, second.events[:2], strict=True))
    assert second == await load(cold)


async def test_a_session_deleted_and_made_again_under_its_id_is_read_afresh(
    stores: list[SessionService],
) -> None:
    a, b, cold = stores
    await a.create_session(app_name=APP, user_id=USER, session_id=SID)
    await append(a, "old one", "old two")
    assert len((await load(a)).events) == 2
    # The newest session: SQLite may give its primary key to the next one made.
    await b.delete_session(app_name=APP, user_id=USER, session_id=SID)
    await b.create_session(app_name=APP, user_id=USER, session_id=SID)
    await append(b, "new one", "new two", "new three")
    again = await load(a)
    assert texts(again) == ["new one", "new two", "new three"]
    assert again == await load(cold)
    # As many events as cached, in another incarnation: still read afresh.
    await b.delete_session(app_name=APP, user_id=USER, session_id=SID)
    await b.create_session(app_name=APP, user_id=USER, session_id=SID)
    await append(b, "x", "y", "z")
    assert texts(await load(a)) == ["x", "y", "z"]
    # Fewer events than cached.
    await b.delete_session(app_name=APP, user_id=USER, session_id=SID)
    await b.create_session(app_name=APP, user_id=USER, session_id=SID)
    await append(b, "only")
    assert texts(await load(a)) == ["only"]
    await b.delete_session(app_name=APP, user_id=USER, session_id=SID)
    with pytest.raises(SessionNotFoundError):
        await load(a)


async def test_own_appends_extend_the_cache_with_the_events_as_stored(
    stores: list[SessionService],
) -> None:
    store, _, cold = stores
    await store.create_session(app_name=APP, user_id=USER, session_id=SID)
    session = await append(store, "one")
    rich = rich_event()
    session = await store.append_event(session, rich)
    stored = session.events[-1]
    loaded = await load(store)
    # Served from the cache: the event object the append returned, equal to a cold read.
    assert loaded.events[-1] is stored
    assert loaded == await load(cold)
    assert loaded.events[-1] == rich.model_copy(update={"timestamp": stored.timestamp})


async def test_filtered_loads_and_an_uncached_store_read_the_database(
    opener: Opener, stores: list[SessionService]
) -> None:
    store, _, uncached = stores
    tiny = opener(cache_events=3)
    try:
        await store.create_session(app_name=APP, user_id=USER, session_id=SID)
        await append(store, "a", "b", "c", "d")
        full = await load(store)
        recent = await store.get_session(
            app_name=APP, user_id=USER, session_id=SID, config=GetSessionConfig(num_recent_events=2)
        )
        assert recent.events == full.events[2:]
        for other in (uncached, tiny):  # no cache; a session larger than the cache
            one, two = await load(other), await load(other)
            assert one == two == full
            assert all(x is not y for x, y in zip(one.events, two.events, strict=True))
        with pytest.raises(ValueError, match="0 or more"):
            opener(cache_events=-1)
    finally:
        await tiny.close()


async def test_a_deleted_session_leaves_nothing_cached(stores: list[SessionService]) -> None:
    store = stores[0]
    await store.create_session(app_name=APP, user_id=USER, session_id=SID)
    await append(store, "a", "b")
    await load(store)
    cache = store._cache  # type: ignore[attr-defined]
    assert cache.total_events == 2
    await store.delete_session(app_name=APP, user_id=USER, session_id=SID)
    assert cache.total_events == 0


async def test_random_interleavings_always_load_what_a_cold_store_loads(
    stores: list[SessionService],
) -> None:
    """Two cached stores append, load, delete and make the session again in a random order;
    after every step, each store's load equals the uncached store's, or both find nothing."""
    rng = random.Random(7)
    a, b, cold = stores
    held: dict[int, Session | None] = {0: None, 1: None}  # the session each store last saw
    exists = False
    for step in range(400):
        who = rng.randrange(2)
        store = (a, b)[who]
        action = rng.choices(["append", "load", "recreate"], weights=[6, 3, 1])[0]
        if action == "recreate" or not exists:
            if exists:
                await store.delete_session(app_name=APP, user_id=USER, session_id=SID)
            await store.create_session(app_name=APP, user_id=USER, session_id=SID)
            exists = True
            held = {0: None, 1: None}
        elif action == "append":
            session = held[who] or await load(store)
            try:
                held[who] = await store.append_event(session, said(f"step {step}"))
            except StaleSessionError:
                held[who] = None  # the other store appended since: reload next time
        # Loads are occasional, so a store's cache may lag the database by several appends,
        # or by a session deleted and made again that has since caught up.
        for index, other in enumerate((a, b)):
            if (action == "load" and index == who) or rng.random() < 0.15:
                loaded = await load(other)
                assert loaded == await load(cold), (step, action, index)
                held[index] = loaded if rng.random() < 0.5 else held[index]
