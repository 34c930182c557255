"""Appends committed together on SQLite go in a few multi-row statements, and store what
appends one at a time store (issue 15: 200 sessions appending at once)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from agentlog import Content, Event, EventActions, SqliteSessionService
from agentlog.events import EventCompaction
from agentlog.sessions.base import Session

SESSIONS = 100


def _event(i: int, at: float, *, compaction: bool = False) -> Event:
    actions = EventActions(state_delta={"n": i, "seen": True})
    if compaction:
        actions = EventActions(
            state_delta={"n": i},
            compaction=EventCompaction(
                start_timestamp=at - 1,
                end_timestamp=at - 0.5,
                event_ids=("e",),
                summary=Content.from_text("so far", role="model"),
            ),
        )
    return Event(
        invocation_id=f"inv-{i}",
        author="agent",
        timestamp=at,
        content=Content.from_text(f"event {i}", role="model"),
        actions=actions,
    )


async def _traced(store: SqliteSessionService) -> list[str]:
    """Every statement either writing connection runs from now on."""
    statements: list[str] = []
    assert store._inline is not None
    store._inline.set_trace_callback(statements.append)
    await store._writer.run(lambda conn: conn.set_trace_callback(statements.append))
    return statements


async def _append_together(
    store: SqliteSessionService, sessions: list[Session], events: list[Event]
) -> list[Session]:
    return list(
        await asyncio.gather(
            *(store.append_event(s, e) for s, e in zip(sessions, events, strict=True))
        )
    )


async def test_appends_made_together_insert_their_rows_a_few_statements_at_a_time(
    tmp_path: Path,
) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    sessions = [await store.create_session(app_name="a", user_id="u") for _ in range(SESSIONS)]
    statements = await _traced(store)
    batches = store._writes.batches
    for _ in range(2):
        events = [_event(i, s.last_update_time + 1) for i, s in enumerate(sessions)]
        sessions = await _append_together(store, sessions, events)
    batches = store._writes.batches - batches
    inserts = [s for s in statements if s.startswith("INSERT INTO events")]
    upserts = [s for s in statements if s.startswith("INSERT INTO session_state")]
    # A row at a time, 200 of each; in chunks of at most 64 rows, a few per batch.
    assert len(inserts) <= 7 * batches < 2 * SESSIONS
    assert len(upserts) <= 7 * batches
    assert sum(s.count("), (") + 1 for s in inserts) == 2 * SESSIONS
    # No None among the parameters: the update without the lease's and the insert without
    # compaction_end.
    updates = [s for s in statements if s.startswith("UPDATE sessions")]
    assert updates
    assert all("CASE" not in s for s in updates)
    assert all("compaction_end" not in s for s in inserts)
    for i, s in enumerate(sessions):
        loaded = await store.get_session(app_name="a", user_id="u", session_id=s.id)
        assert loaded.events == s.events
        assert loaded.state == {"n": i, "seen": True}
        assert loaded.version == 2
    await store.close()


async def test_a_compaction_and_a_leased_append_among_appends_made_together(
    tmp_path: Path,
) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    sessions = [await store.create_session(app_name="a", user_id="u") for _ in range(SESSIONS)]
    lease = await store.acquire_lease(
        app_name="a", user_id="u", session_id=sessions[7].id, owner="o", invocation_id="i", ttl_s=60
    )
    assert lease is not None
    sessions[7] = sessions[7].under_lease(lease.token)
    events = [_event(i, s.last_update_time + 1, compaction=i == 3) for i, s in enumerate(sessions)]
    sessions = await _append_together(store, sessions, events)
    with sqlite3.connect(tmp_path / "s.db") as conn:
        ends = conn.execute(
            "SELECT session_pk, compaction_end FROM events WHERE compaction_end IS NOT NULL"
        ).fetchall()
        assert [end for _, end in ends] == [events[3].actions.compaction.end_timestamp]  # type: ignore[union-attr]
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (SESSIONS,)
    loaded = await store.get_session(app_name="a", user_id="u", session_id=sessions[3].id)
    assert loaded.events == sessions[3].events
    assert loaded.events[0].actions.compaction == events[3].actions.compaction
    assert loaded.state == {"n": 3}
    leased = await store.get_session(app_name="a", user_id="u", session_id=sessions[7].id)
    assert leased.version == 1
    assert leased.state == {"n": 7, "seen": True}
    await store.close()


async def test_a_stale_append_among_appends_made_together_fails_alone(tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    sessions = [await store.create_session(app_name="a", user_id="u") for _ in range(SESSIONS)]
    # The same session twice, both from version 0: one of them is stale.
    twice = [*sessions, sessions[5]]
    events = [_event(i, s.last_update_time + 1) for i, s in enumerate(twice)]
    outcomes = await asyncio.gather(
        *(store.append_event(s, e) for s, e in zip(twice, events, strict=True)),
        return_exceptions=True,
    )
    failed = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(failed) == 1
    with sqlite3.connect(tmp_path / "s.db") as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (SESSIONS,)
    await store.close()
