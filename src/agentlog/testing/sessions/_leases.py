"""Session leases (``agentlog.sessions.leases``): exclusion, fencing, expiry and turn ends, in
one process and across several."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing

import pytest

from agentlog.errors import LeaseLostError, SessionBusyError, SessionNotFoundError
from agentlog.sessions.base import SessionService
from agentlog.sessions.leases import Lease, SessionLeases
from agentlog.testing._workers import take_turns
from agentlog.testing.sessions._base import APP, ConformanceBase, _event

__all__ = ["LeaseTests"]

_TTL = 30.0


def _leases(store: SessionService) -> SessionLeases:
    assert isinstance(store, SessionLeases), f"{type(store).__name__} implements no leases"
    return store


async def _acquire(
    store: SessionService, session_id: str, invocation: str, ttl_s: float = _TTL
) -> Lease | None:
    return await _leases(store).acquire_lease(
        app_name=APP,
        user_id="u1",
        session_id=session_id,
        owner=f"test:{invocation}",
        invocation_id=invocation,
        ttl_s=ttl_s,
    )


class LeaseTests(ConformanceBase):
    """One lease holder at a time; its token fences its appends."""

    async def test_one_holder_at_a_time_and_tokens_grow(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        first = await _acquire(store, s.id, "inv-a")
        assert first is not None
        assert first.interrupted is None
        assert await _acquire(store, s.id, "inv-b") is None
        await _leases(store).release_lease(first)
        second = await _acquire(store, s.id, "inv-b")
        assert second is not None
        assert second.token > first.token
        assert second.interrupted is None  # the first turn ended: released

    async def test_a_lease_tells_the_version_and_creation_it_found(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        s = await store.append_event(s, _event(text="one"))
        lease = await _acquire(store, s.id, "inv-a")
        assert lease is not None
        assert (lease.version, lease.create_time) == (1, s.create_time)

    async def test_concurrent_acquires_one_wins(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        results = await asyncio.gather(*(_acquire(store, s.id, f"inv-{i}") for i in range(8)))
        assert sum(r is not None for r in results) == 1

    async def test_an_expired_lease_is_taken_and_its_turn_reported(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        dead = await _acquire(store, s.id, "inv-dead", ttl_s=0.05)
        assert dead is not None
        await asyncio.sleep(0.1)
        taker = await _acquire(store, s.id, "inv-next")
        assert taker is not None
        assert taker.interrupted == "inv-dead"
        with pytest.raises(LeaseLostError):
            await _leases(store).renew_lease(dead, _TTL)

    async def test_appends_are_fenced_by_the_token(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        old = await _acquire(store, s.id, "inv-old", ttl_s=0.05)
        assert old is not None
        held = await store.append_event(s.under_lease(old.token), _event(text="one"))
        await asyncio.sleep(0.1)
        new = await _acquire(store, s.id, "inv-new")
        assert new is not None
        with pytest.raises(LeaseLostError):
            await store.append_event(held, _event(text="late", state_delta={"late": True}))
        loaded = await self._reload(store, s)
        assert [e.text() for e in loaded.events] == ["one"]
        assert "late" not in loaded.state
        after = await store.append_event(loaded.under_lease(new.token), _event(text="two"))
        assert after.lease_token == new.token
        assert [e.text() for e in (await self._reload(store, s)).events] == ["one", "two"]

    async def test_unleased_appends_wait_for_a_live_lease(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        lease = await _acquire(store, s.id, "inv-a")
        assert lease is not None
        with pytest.raises(SessionBusyError):
            await store.append_event(s, _event(text="intruder", state_delta={"app:x": 1}))
        assert (await self._reload(store, s)).version == 0
        assert await store.get_app_state(app_name=APP) == {}
        await _leases(store).release_lease(lease)
        assert (await store.append_event(s, _event(text="after"))).version == 1

    async def test_release_after_a_takeover_leaves_the_new_lease(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        old = await _acquire(store, s.id, "inv-old", ttl_s=0.05)
        assert old is not None
        await asyncio.sleep(0.1)
        new = await _acquire(store, s.id, "inv-new")
        assert new is not None
        await _leases(store).release_lease(old)
        turn = await _leases(store).read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert turn.running == "inv-new"
        assert await _acquire(store, s.id, "inv-third") is None

    async def test_read_turn_tells_a_running_turn_from_an_ended_one(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        leases = _leases(store)
        idle = await leases.read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert (idle.running, idle.version) == (None, 0)
        lease = await _acquire(store, s.id, "inv-a")
        assert lease is not None
        await store.append_event(s.under_lease(lease.token), _event())
        busy = await leases.read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert (busy.running, busy.version, busy.token) == ("inv-a", 1, lease.token)
        renewed = await leases.renew_lease(lease, _TTL)
        assert renewed.expires_at >= lease.expires_at
        await leases.release_lease(renewed)
        done = await leases.read_turn(app_name=APP, user_id="u1", session_id=s.id)
        assert done.running is None

    async def test_leases_on_unknown_sessions(self, store: SessionService) -> None:
        with pytest.raises(SessionNotFoundError):
            await _acquire(store, "nope", "inv-a")
        with pytest.raises(SessionNotFoundError):
            await _leases(store).read_turn(app_name=APP, user_id="u1", session_id="nope")

    async def test_turns_from_several_processes_never_interleave(
        self, store: SessionService
    ) -> None:
        spec = self.service_spec(store)
        if spec is None:
            pytest.skip("this store cannot be shared between processes")
        s = await store.create_session(app_name=APP, user_id="u1")
        workers, turns, per_turn = 3, 6, 3
        ctx = multiprocessing.get_context("spawn")
        loop = asyncio.get_running_loop()
        with ctx.Pool(workers) as pool:
            jobs = [
                pool.apply_async(take_turns, (spec, APP, "u1", s.id, w, turns, per_turn))
                for w in range(workers)
            ]
            for job in jobs:
                await loop.run_in_executor(None, job.get, 120)
        loaded = await self._reload(store, s)
        assert loaded.version == workers * turns * per_turn
        runs = [
            (invocation, len(list(group)))
            for invocation, group in itertools.groupby(e.invocation_id for e in loaded.events)
        ]
        # Each turn's events are contiguous: no other turn wrote in between.
        assert len(runs) == workers * turns, runs
        assert all(n == per_turn for _, n in runs)
