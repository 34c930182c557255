"""What ``get_session`` loads: the recent-events and timestamp filters, and the history from the
latest compaction on."""

from __future__ import annotations

from typing import Any

from agentlog.events import Event
from agentlog.sessions.base import GetSessionConfig, SessionService
from agentlog.testing.sessions._base import APP, ConformanceBase, _compaction_event, _event

__all__ = ["LoadingTests"]


class LoadingTests(ConformanceBase):
    """Partial loads of one session's log."""

    # --- filters ------------------------------------------------------------------------------

    async def test_get_session_filters(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        base = s.last_update_time + 10
        events = [
            _event(text=f"e{i}").model_copy(update={"timestamp": base + i}) for i in range(10)
        ]
        for e in events:
            s = await store.append_event(s, e)

        async def ids(**config: Any) -> list[str]:
            loaded = await store.get_session(
                app_name=APP, user_id="u1", session_id=s.id, config=GetSessionConfig(**config)
            )
            assert loaded.version == 10
            return [e.id for e in loaded.events]

        all_ids = [e.id for e in events]
        assert await ids() == all_ids
        assert await ids(num_recent_events=3) == all_ids[-3:]
        assert await ids(num_recent_events=0) == []
        assert await ids(num_recent_events=50) == all_ids
        assert await ids(after_timestamp=base + 5) == all_ids[5:]
        assert await ids(after_timestamp=base + 4.5) == all_ids[5:]
        assert await ids(after_timestamp=base + 100) == []
        assert await ids(num_recent_events=2, after_timestamp=base + 5) == all_ids[-2:]
        assert await ids(num_recent_events=9, after_timestamp=base + 7) == all_ids[7:]
        # More wanted than the timestamp leaves, but fewer than twice as many.
        assert await ids(num_recent_events=4, after_timestamp=base + 7) == all_ids[7:]

    # --- from the latest compaction -----------------------------------------------------------

    async def test_from_latest_compaction_loads_what_history_needs(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        stored: list[Event] = []

        async def add(event: Event) -> Event:
            nonlocal s
            s = await store.append_event(s, event)
            stored.append(s.events[-1])
            return s.events[-1]

        async def load(**config: Any) -> list[str]:
            loaded = await store.get_session(
                app_name=APP,
                user_id="u1",
                session_id=s.id,
                config=GetSessionConfig(from_latest_compaction=True, **config),
            )
            assert loaded.version == s.version
            return [e.id for e in loaded.events]

        plain = [await add(_event(text=f"e{i}")) for i in range(5)]
        assert await load() == [e.id for e in plain]  # nothing compacted yet: everything

        # A covers e0-e3 and is stored after e4, which it does not cover.
        first = await add(_compaction_event(plain[:4], "summary A"))
        assert await load() == [plain[4].id, first.id]

        more = [await add(_event(text=f"e{i}")) for i in range(5, 8)]
        # B covers e2-e6 (the overlap re-covers e2-e3) and is stored after e7.
        second = await add(_compaction_event([*plain[2:], *more[:2]], "summary B"))
        last = await add(_event(text="e8"))
        assert await load() == [more[2].id, second.id, last.id]

        # A late compaction reaching less far does not move the start back.
        stale = await add(_compaction_event(plain[:3], "stale"))
        expected = [more[2].id, second.id, last.id, stale.id]
        assert await load() == expected
        assert await load(num_recent_events=2) == expected[-2:]
        assert await load(after_timestamp=last.timestamp) == expected[-2:]

        loaded = await store.get_session(
            app_name=APP,
            user_id="u1",
            session_id=s.id,
            config=GetSessionConfig(from_latest_compaction=True),
        )
        reloaded = loaded.events[1]
        assert reloaded == second
        assert reloaded.actions.compaction is not None
        assert reloaded.actions.compaction.summary.parts[0].text == "summary B"
        full = await self._reload(store, s)
        assert [e.id for e in full.events] == [e.id for e in stored]
        assert full.version == 12

    async def test_from_latest_compaction_with_nothing_after_it(
        self, store: SessionService
    ) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        covered = [_event(text=f"e{i}") for i in range(3)]
        for e in covered:
            s = await store.append_event(s, e)
        compaction = _compaction_event(covered, "all of it")
        s = await store.append_event(s, compaction)
        loaded = await store.get_session(
            app_name=APP,
            user_id="u1",
            session_id=s.id,
            config=GetSessionConfig(from_latest_compaction=True),
        )
        assert loaded.events == (compaction,)
        assert loaded.version == 4
        other = await store.create_session(app_name=APP, user_id="u1")
        other = await store.append_event(other, _event(text="elsewhere"))
        loaded_other = await store.get_session(
            app_name=APP,
            user_id="u1",
            session_id=other.id,
            config=GetSessionConfig(from_latest_compaction=True),
        )
        assert [e.text() for e in loaded_other.events] == ["elsewhere"]
