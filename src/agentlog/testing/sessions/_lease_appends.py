"""``LeaseAppends.acquire_lease_and_append``: the lease and a turn's first event in one write,
both or neither, in one process and across several."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import time
from typing import Any

import pytest

from agentlog.errors import DuplicateEventError, SessionNotFoundError, StaleSessionError
from agentlog.events import Content, Event
from agentlog.sessions.base import SessionService
from agentlog.sessions.leases import LeaseAppends, LeasedAppend
from agentlog.testing._workers import ServiceSpec
from agentlog.testing.sessions._base import APP, ConformanceBase, _event

__all__ = ["LeaseAppendTests", "race_first_events"]

_TTL = 30.0


def _appends(store: SessionService) -> LeaseAppends:
    assert isinstance(store, LeaseAppends), f"{type(store).__name__} has no lease appends"
    return store


async def _take(
    store: SessionService,
    session_id: str,
    invocation: str,
    event: Event,
    *,
    ttl_s: float = _TTL,
    expected_version: int | None = None,
) -> LeasedAppend | None:
    return await _appends(store).acquire_lease_and_append(
        event,
        app_name=APP,
        user_id="u1",
        session_id=session_id,
        owner=f"test:{invocation}",
        invocation_id=invocation,
        ttl_s=ttl_s,
        expected_version=expected_version,
    )


def _message(invocation: str, text: str, **delta: object) -> Event:
    return Event(
        invocation_id=invocation,
        author="user",
        content=Content.from_text(text),
        actions={"state_delta": delta},
    )


class LeaseAppendTests(ConformanceBase):
    """The lease taken together with the turn's first event."""

    async def test_the_lease_and_the_event_in_one_write(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1", state={"kept": 1})
        s = await store.append_event(s, _event(text="before"))
        taken = await _take(store, s.id, "inv-a", _message("inv-a", "hi", k=1, **{"user:u": 2}))
        assert taken is not None
        assert taken.appended is not None
        assert (taken.lease.version, taken.lease.create_time) == (1, s.create_time)
        assert taken.appended.expected_version == 1
        assert taken.lease.interrupted is None
        loaded = await self._reload(store, s)
        assert [e.text() for e in loaded.events] == ["before", "hi"]
        assert loaded.events[-1] == taken.event
        assert loaded.version == 2
        assert loaded.state == {"kept": 1, "k": 1, "user:u": 2}
        assert await store.get_user_state(app_name=APP, user_id="u1") == {"u": 2}
        turn = await _appends(store).read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert (turn.running, turn.token) == ("inv-a", taken.lease.token)
        # The holder appends on under the lease; nobody else may.
        after = await store.append_event(loaded.under_lease(taken.lease.token), _event())
        assert after.version == 3
        await _appends(store).release_lease(taken.lease)

    async def test_a_busy_session_stores_nothing(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        first = await _take(store, s.id, "inv-a", _message("inv-a", "one"))
        assert first is not None
        second = await _take(store, s.id, "inv-b", _message("inv-b", "two", **{"app:x": 1}))
        assert second is None
        loaded = await self._reload(store, s)
        assert [e.text() for e in loaded.events] == ["one"]
        assert await store.get_app_state(app_name=APP) == {}
        await _appends(store).release_lease(first.lease)
        third = await _take(store, s.id, "inv-c", _message("inv-c", "three"))
        assert third is not None
        assert third.lease.token > first.lease.token
        assert third.appended is not None
        assert third.appended.expected_version == 1

    async def test_a_stale_version_takes_nothing(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        s = await store.append_event(s, _event(text="one"))
        before = await _appends(store).read_turn(app_name=APP, user_id="u1", session_id=s.id)
        with pytest.raises(StaleSessionError):
            await _take(store, s.id, "inv-a", _message("inv-a", "late"), expected_version=0)
        turn = await _appends(store).read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert turn == before  # no lease taken, no token spent, no version moved
        assert [e.text() for e in (await self._reload(store, s)).events] == ["one"]
        taken = await _take(store, s.id, "inv-b", _message("inv-b", "on time"), expected_version=1)
        assert taken is not None
        assert taken.appended is not None

    async def test_a_refused_event_takes_no_lease(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        stored = _message("inv-0", "one")
        s = await store.append_event(s, stored)
        with pytest.raises(DuplicateEventError):
            await _take(store, s.id, "inv-a", stored.model_copy(update={"timestamp": time.time()}))
        turn = await _appends(store).read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert (turn.running, turn.version) == (None, 1)
        assert await _take(store, s.id, "inv-b", _message("inv-b", "two")) is not None

    async def test_an_interrupted_turn_is_left_for_the_taker_to_close(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        dead = await _take(store, s.id, "inv-dead", _message("inv-dead", "one"), ttl_s=0.05)
        assert dead is not None
        await asyncio.sleep(0.1)
        taker = await _take(store, s.id, "inv-next", _message("inv-next", "two"))
        assert taker is not None
        assert taker.lease.interrupted == "inv-dead"
        assert taker.appended is None
        assert taker.event is None
        assert [e.text() for e in (await self._reload(store, s)).events] == ["one"]
        turn = await _appends(store).read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert turn.running == "inv-next"

    async def test_an_event_not_after_the_last_is_left_to_append(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        early = _message("inv-a", "early")
        s = await store.append_event(s, _event(text="one"))
        taken = await _take(store, s.id, "inv-a", early)
        assert taken is not None
        assert taken.appended is None
        assert (await self._reload(store, s)).version == 1
        # The usual append under the lease then moves the timestamp on.
        after = await store.append_event(
            (await self._reload(store, s)).under_lease(taken.lease.token), early
        )
        assert after.events[-1].timestamp > after.events[-2].timestamp

    async def test_on_an_unknown_session(self, store: SessionService) -> None:
        with pytest.raises(SessionNotFoundError):
            await _take(store, "nope", "inv-a", _message("inv-a", "hi"))

    async def test_processes_racing_store_each_message_once_by_its_holder(
        self, store: SessionService
    ) -> None:
        spec = self.service_spec(store)
        if spec is None:
            pytest.skip("this store cannot be shared between processes")
        s = await store.create_session(app_name=APP, user_id="u1")
        workers, turns = 2, 8
        ctx = multiprocessing.get_context("spawn")
        loop = asyncio.get_running_loop()
        with ctx.Manager() as manager, ctx.Pool(workers) as pool:
            start = manager.Barrier(workers)  # they begin together, whenever each spawned
            jobs = [
                pool.apply_async(race_first_events, (spec, APP, "u1", s.id, w, turns, start))
                for w in range(workers)
            ]
            attempts = [
                attempt
                for job in jobs
                for attempt in await loop.run_in_executor(None, job.get, 120)
            ]
        won = {invocation for invocation, took in attempts if took}
        lost = {invocation for invocation, took in attempts if not took}
        assert len(won) == workers * turns
        assert lost, "the processes never met: the race tested nothing"
        loaded = await self._reload(store, s)
        messages = [e.invocation_id for e in loaded.events if e.author == "user"]
        # Each holder's message once, no loser's ever.
        assert sorted(messages) == sorted(won)
        runs = [
            (invocation, [e.author for e in group])
            for invocation, group in itertools.groupby(loaded.events, lambda e: e.invocation_id)
        ]
        # Each turn is its message, then its holder's reply, with nothing in between.
        assert all(authors == ["user", "agent"] for _, authors in runs), runs


def race_first_events(
    spec: ServiceSpec, app: str, user: str, sid: str, worker: int, turns: int, start: Any
) -> list[tuple[str, bool]]:
    """Run in another process: ``turns`` turns on ``sid``, each opened by
    ``acquire_lease_and_append`` (tried again with a new invocation while the session is
    busy), then a reply under the lease and the release. Every attempt's invocation and
    whether it took the lease. ``start``: a barrier the racers pass together."""

    async def run() -> list[tuple[str, bool]]:
        service = spec.build()
        assert isinstance(service, LeaseAppends)
        attempts: list[tuple[str, bool]] = []
        await asyncio.to_thread(start.wait, 60)
        try:
            for turn in range(turns):
                for attempt in itertools.count():
                    invocation = f"w{worker}-t{turn}-a{attempt}"
                    taken = await service.acquire_lease_and_append(
                        _message(invocation, f"{invocation} asks"),
                        app_name=app,
                        user_id=user,
                        session_id=sid,
                        owner=f"worker{worker}",
                        invocation_id=invocation,
                        ttl_s=30.0,
                    )
                    attempts.append((invocation, taken is not None))
                    if taken is not None:
                        break
                    await asyncio.sleep(0.002)
                assert taken is not None
                assert taken.lease.interrupted is None
                session = await service.get_session(app_name=app, user_id=user, session_id=sid)
                assert session is not None
                session = session.under_lease(taken.lease.token)
                if taken.appended is None:
                    # The other's reply was stored after this message was made: the store
                    # left the message to the usual append, under the lease.
                    message = _message(invocation, f"{invocation} asks")
                    session = await service.append_event(session, message)
                reply = Event(
                    invocation_id=invocation,
                    author="agent",
                    content=Content.from_text(f"{invocation} answered", role="model"),
                )
                # Held long enough for the other process to find the session busy.
                await asyncio.sleep(0.01)
                await service.append_event(session, reply)
                await service.release_lease(taken.lease)
        finally:
            await service.close()
        return attempts

    return asyncio.run(run())
