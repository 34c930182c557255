"""Writers racing each other: optimistic concurrency in one process, appends from several
processes, and a process killed mid-append."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import random
import signal
import time

import pytest

from agentlog.errors import DuplicateEventError, StaleSessionError
from agentlog.sessions.base import Session, SessionService
from agentlog.state import fold
from agentlog.testing._workers import append_forever, append_many_forever, append_with_retries
from agentlog.testing.sessions._base import APP, ConformanceBase, _event

__all__ = ["ConcurrencyTests"]


class ConcurrencyTests(ConformanceBase):
    """Concurrent appends, in one process and across several, and crashes."""

    # --- optimistic concurrency ---------------------------------------------------------------

    async def test_stale_append_rejected_and_storage_unchanged(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        winner = await store.append_event(s, _event(state_delta={"who": "first"}))
        with pytest.raises(StaleSessionError):
            await store.append_event(s, _event(state_delta={"who": "second", "app:x": 1}))
        loaded = await self._reload(store, s)
        assert loaded.events == winner.events
        assert loaded.state == {"who": "first"}
        assert await store.get_app_state(app_name=APP) == {}

    async def test_concurrent_appends_exactly_one_wins(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        for round_ in range(25):
            a = _event(text=f"a{round_}", state_delta={"round": round_, "who": "a"})
            b = _event(text=f"b{round_}", state_delta={"round": round_, "who": "b"})
            results = await asyncio.gather(
                store.append_event(s, a), store.append_event(s, b), return_exceptions=True
            )
            won = [r for r in results if isinstance(r, Session)]
            lost = [r for r in results if isinstance(r, BaseException)]
            assert len(won) == 1, results
            assert len(lost) == 1
            assert isinstance(lost[0], StaleSessionError)
            s = won[0]
            loaded = await self._reload(store, s)
            assert loaded.version == round_ + 1
            assert loaded.events[-1] == s.events[-1]
            assert loaded.state["who"] == s.state["who"]

    async def test_a_refused_append_among_concurrent_ones_fails_alone(
        self, store: SessionService
    ) -> None:
        # Appends to many sessions at once (which a store may commit as one batch): the stale
        # one and the duplicate one write nothing, every other one is stored whole.
        sessions = [await store.create_session(app_name=APP, user_id="u1") for _ in range(8)]
        stale_from = sessions[2]
        sessions[2] = await store.append_event(sessions[2], _event(state_delta={"who": "first"}))
        taken = _event(text="taken")
        sessions[5] = await store.append_event(sessions[5], taken)
        duplicate = taken.model_copy(update={"timestamp": taken.timestamp + 1})
        refusing = {
            2: lambda: store.append_event(stale_from, _event(state_delta={"who": "x", "app:x": 1})),
            5: lambda: store.append_event(sessions[5], duplicate),
        }
        # Each coroutine made only to be awaited (one replaced later would warn, never run).
        appends = [
            refusing[i]()
            if i in refusing
            else store.append_event(s, _event(text=f"ok {i}", state_delta={"i": i, "app:last": i}))
            for i, s in enumerate(sessions)
        ]
        results = await asyncio.gather(*appends, return_exceptions=True)
        assert isinstance(results[2], StaleSessionError)
        assert isinstance(results[5], DuplicateEventError)
        for i, (before, result) in enumerate(zip(sessions, results, strict=True)):
            loaded = await self._reload(store, before)
            if i in (2, 5):
                assert loaded.events == before.events
                assert loaded.version == before.version
                continue
            assert isinstance(result, Session), result
            assert loaded.events == result.events
            assert loaded.state == {"i": i, "app:last": loaded.state["app:last"]}
        refused = (await self._reload(store, sessions[2])).state
        assert refused["who"] == "first"
        assert "app:x" not in refused
        assert "x" not in await store.get_app_state(app_name=APP)

    # --- several processes --------------------------------------------------------------------

    async def test_appends_from_several_processes(self, store: SessionService) -> None:
        spec = self.service_spec(store)
        if spec is None:
            pytest.skip("this store cannot be shared between processes")
        s = await store.create_session(app_name=APP, user_id="u1")
        workers, per_worker = 4, 30
        ctx = multiprocessing.get_context("spawn")
        loop = asyncio.get_running_loop()
        with ctx.Pool(workers) as pool:
            jobs = [
                pool.apply_async(append_with_retries, (spec, APP, "u1", s.id, w, per_worker))
                for w in range(workers)
            ]
            produced = [await loop.run_in_executor(None, job.get, 120) for job in jobs]
        loaded = await self._reload(store, s)
        stored_ids = [e.id for e in loaded.events]
        assert loaded.version == workers * per_worker
        assert len(stored_ids) == len(set(stored_ids)) == workers * per_worker
        assert set(stored_ids) == {i for ids in produced for i in ids}
        for ids in produced:  # each writer's events in the order it wrote them
            positions = [stored_ids.index(i) for i in ids]
            assert positions == sorted(positions)
        stamps = [e.timestamp for e in loaded.events]
        assert all(a < b for a, b in itertools.pairwise(stamps))
        assert loaded.state == {f"w{w}": per_worker - 1 for w in range(workers)}

    async def test_sigkill_mid_append_leaves_whole_appends(self, store: SessionService) -> None:
        spec = self.service_spec(store)
        if spec is None:
            pytest.skip("this store cannot be shared between processes")
        s = await store.create_session(app_name=APP, user_id="u1")
        ctx = multiprocessing.get_context("spawn")
        rng = random.Random(1234)
        for _ in range(4):
            before = (await self._reload(store, s)).version
            child = ctx.Process(target=append_forever, args=(spec, APP, "u1", s.id))
            child.start()
            deadline = time.monotonic() + 60
            while (await self._reload(store, s)).version < before + 5:
                assert time.monotonic() < deadline, "the child never appended"
                assert child.is_alive(), f"the child died: exit code {child.exitcode}"
                await asyncio.sleep(0.02)
            await asyncio.sleep(rng.uniform(0.0, 0.05))
            assert child.pid is not None
            os.kill(child.pid, signal.SIGKILL)
            child.join(10)
            loaded = await self._reload(store, s)
            assert loaded.version == len(loaded.events) > before
            last = loaded.events[-1]
            assert last.text().startswith(f"event {loaded.version} ")
            assert loaded.state == fold(e.actions.state_delta for e in loaded.events)
            assert loaded.state["n"] == loaded.version

    async def test_sigkill_amid_concurrent_appends_leaves_whole_appends(
        self, store: SessionService
    ) -> None:
        # A child appends to many sessions at once (a store may commit those together) and
        # is killed: every session holds whole appends, its state the fold of its events.
        spec = self.service_spec(store)
        if spec is None:
            pytest.skip("this store cannot be shared between processes")
        sessions = [await store.create_session(app_name=APP, user_id="u1") for _ in range(12)]
        sids = [s.id for s in sessions]
        ctx = multiprocessing.get_context("spawn")
        rng = random.Random(4321)
        for _ in range(3):
            before = sum([(await self._reload(store, s)).version for s in sessions])
            child = ctx.Process(target=append_many_forever, args=(spec, APP, "u1", sids))
            child.start()
            deadline = time.monotonic() + 60
            while sum([(await self._reload(store, s)).version for s in sessions]) < before + 40:
                assert time.monotonic() < deadline, "the child never appended"
                assert child.is_alive(), f"the child died: exit code {child.exitcode}"
                await asyncio.sleep(0.02)
            await asyncio.sleep(rng.uniform(0.0, 0.05))
            assert child.pid is not None
            os.kill(child.pid, signal.SIGKILL)
            child.join(10)
            for s in sessions:
                loaded = await self._reload(store, s)
                assert loaded.version == len(loaded.events)
                if loaded.events:
                    assert loaded.events[-1].text().startswith(f"event {loaded.version} ")
                    assert loaded.state["n"] == loaded.version
                assert loaded.state == fold(e.actions.state_delta for e in loaded.events)
