"""PostgreSQL: appends to many sessions at once are written by one statement for the batch,
each checked and written as its own statement would be."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("psycopg")

from _postgres import execute
from agentlog import Content, Event, EventActions, Session
from agentlog.errors import (
    DuplicateEventError,
    LeaseLostError,
    SessionBusyError,
    StaleSessionError,
)
from agentlog.events import REMOVED
from agentlog.sessions.postgres import PostgresSessionService

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("postgres_dsn")]


def _event(text: str, delta: dict[str, object] | None = None) -> Event:
    return Event(
        author="agent",
        invocation_id="i",
        content=Content.from_text(text),
        actions=EventActions(state_delta=delta or {}),
    )


async def test_appends_to_many_sessions_at_once_are_one_statement(
    postgres_dsn: str, postgres_schema: str
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        sessions = [
            await service.create_session(app_name="a", user_id=f"u{i}", state={"gone": 1})
            for i in range(40)
        ]
        stored = await asyncio.gather(
            *(
                service.append_event(s, _event(f"m{i}", {"n": i, "gone": REMOVED}))
                for i, s in enumerate(sessions)
            )
        )
        assert [s.version for s in stored] == [1] * 40
        for i, s in enumerate(sessions):
            loaded = await service.get_session(app_name="a", user_id=s.user_id, session_id=s.id)
            assert loaded.state == {"n": i}
            assert loaded.events == stored[i].events
    # A statement's rows share its command id (cmin) within the transaction (xmin): one
    # statement per batch, not one per append (a batch or two, the first write maybe alone).
    rows = await execute(
        postgres_dsn,
        postgres_schema,
        "SELECT count(DISTINCT (xmin::text, cmin::text)), count(*) FROM events",
    )
    assert rows[0][1] == 40
    assert rows[0][0] <= 3


async def test_each_append_of_a_merged_batch_is_checked_alone(
    postgres_dsn: str, postgres_schema: str
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        sessions = [await service.create_session(app_name="a", user_id="u") for _ in range(10)]
        stale = sessions[1]
        sessions[1] = await service.append_event(stale, _event("first", {"who": "first"}))
        lease = await service.acquire_lease(
            app_name="a",
            user_id="u",
            session_id=sessions[2].id,
            owner="other",
            invocation_id="t",
            ttl_s=60,
        )
        assert lease is not None
        under_old = await service.acquire_lease(
            app_name="a",
            user_id="u",
            session_id=sessions[3].id,
            owner="me",
            invocation_id="t",
            ttl_s=60,
        )
        assert under_old is not None
        await service.release_lease(under_old)
        again = await service.acquire_lease(
            app_name="a",
            user_id="u",
            session_id=sessions[3].id,
            owner="me",
            invocation_id="t2",
            ttl_s=60,
        )
        assert again is not None
        mine = await service.acquire_lease(
            app_name="a",
            user_id="u",
            session_id=sessions[4].id,
            owner="me",
            invocation_id="t",
            ttl_s=60,
        )
        assert mine is not None
        writes = [(s, _event(f"ok {i}", {"i": i})) for i, s in enumerate(sessions)]
        writes[1] = (stale, _event("late", {"who": "late"}))
        writes[3] = (sessions[3].under_lease(under_old.token), _event("fenced", {"who": "x"}))
        writes[4] = (sessions[4].under_lease(mine.token), _event("leased", {"who": "leased"}))
        results = await asyncio.gather(
            *(service.append_event(s, e) for s, e in writes), return_exceptions=True
        )
        assert isinstance(results[1], StaleSessionError)
        assert isinstance(results[2], SessionBusyError)
        assert isinstance(results[3], LeaseLostError)
        for i in (0, 4, 5, 6, 7, 8, 9):
            result = results[i]
            assert isinstance(result, Session), result
            loaded = await service.get_session(app_name="a", user_id="u", session_id=result.id)
            assert loaded.events == result.events
            assert loaded.state == result.state
        for i in (1, 2, 3):
            before = sessions[i]
            loaded = await service.get_session(app_name="a", user_id="u", session_id=before.id)
            assert loaded.events == before.events
            assert loaded.state == before.state


async def test_a_duplicate_in_a_merged_batch_fails_alone(
    postgres_dsn: str, postgres_schema: str
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        sessions = [await service.create_session(app_name="a", user_id="u") for _ in range(6)]
        sessions[2] = await service.append_event(sessions[2], _event("taken"))
        duplicate = sessions[2].events[0].model_copy(update={"timestamp": 1e12})
        writes = [(s, _event(f"ok {i}", {"i": i})) for i, s in enumerate(sessions)]
        writes[2] = (sessions[2], duplicate)
        results = await asyncio.gather(
            *(service.append_event(s, e) for s, e in writes), return_exceptions=True
        )
        assert isinstance(results[2], DuplicateEventError)
        for i, result in enumerate(results):
            loaded = await service.get_session(app_name="a", user_id="u", session_id=sessions[i].id)
            if i == 2:
                assert loaded.events == sessions[2].events
                continue
            assert isinstance(result, Session), result
            assert loaded.events == result.events
            assert loaded.state == {"i": i}


async def test_leases_taken_with_first_events_at_once_are_one_statement(
    postgres_dsn: str, postgres_schema: str
) -> None:
    async with PostgresSessionService(postgres_dsn, schema=postgres_schema) as service:
        sessions = [
            await service.create_session(app_name="a", user_id="u", state={"gone": 1})
            for _ in range(12)
        ]
        held = await service.acquire_lease(
            app_name="a",
            user_id="u",
            session_id=sessions[1].id,
            owner="other",
            invocation_id="busy",
            ttl_s=60,
        )
        assert held is not None
        # A turn whose process died: its lease expired without a release.
        dead = await service.acquire_lease(
            app_name="a",
            user_id="u",
            session_id=sessions[2].id,
            owner="dead",
            invocation_id="died",
            ttl_s=0.001,
        )
        assert dead is not None
        await asyncio.sleep(0.01)

        def take(i: int, s: Session, expected: int | None = None) -> object:
            return service.acquire_lease_and_append(
                _event(f"first {i}", {"n": i, "gone": REMOVED}),
                app_name="a",
                user_id="u",
                session_id=s.id,
                owner=f"me{i}",
                invocation_id=f"t{i}",
                ttl_s=60,
                expected_version=expected,
            )

        asks: list[tuple[int, Session, int | None]] = [(i, s, None) for i, s in enumerate(sessions)]
        asks[3] = (3, sessions[3], 5)
        asks.append((99, sessions[4], None))  # the same session twice: one takes it
        results = await asyncio.gather(*(take(*ask) for ask in asks), return_exceptions=True)
        assert results[1] is None
        assert isinstance(results[3], StaleSessionError)
        assert results[2].event is None
        assert results[2].lease.interrupted == "died"
        assert (results[4] is None) != (results[12] is None)
        for i in (0, 4, 5, 6, 7, 8, 9, 10, 11):
            taken = results[i] if results[i] is not None else results[12]
            assert taken.lease.version == 0
            loaded = await service.get_session(app_name="a", user_id="u", session_id=sessions[i].id)
            assert loaded.version == 1
            assert [e.id for e in loaded.events] == [taken.event.id]
            assert loaded.state == {"n": taken.event.actions.state_delta["n"]}
            turn = await service.read_turn(app_name="a", user_id="u", session_id=sessions[i].id)
            assert turn.running == taken.lease.invocation_id
        for i in (1, 2, 3):
            loaded = await service.get_session(app_name="a", user_id="u", session_id=sessions[i].id)
            assert loaded.version == 0
            assert loaded.state == {"gone": 1}
    rows = await execute(
        postgres_dsn,
        postgres_schema,
        "SELECT count(DISTINCT (xmin::text, cmin::text)), count(*) FROM events",
    )
    assert rows[0][1] == 9
    assert rows[0][0] <= 3
