"""The core of the session contract: creating, reading, appending, listing and deleting, and
how a store fails."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentlog.errors import (
    CorruptRecordError,
    DuplicateEventError,
    ImmutableError,
    InvalidEventError,
    SessionExistsError,
    SessionNotFoundError,
    StoreUnavailableError,
)
from agentlog.events import REMOVED, Content, Event, EventActions, Part
from agentlog.sessions.base import GetSessionConfig, Session, SessionService
from agentlog.state import fold
from agentlog.testing.sessions._base import APP, ConformanceBase, _event, rich_event

__all__ = ["ContractTests"]


class ContractTests(ConformanceBase):
    """Sessions and their events, one writer at a time."""

    # --- creating and reading -----------------------------------------------------------------

    async def test_create_and_get(self, store: SessionService) -> None:
        created = await store.create_session(app_name=APP, user_id="u1", session_id="s1")
        assert (created.id, created.app_name, created.user_id) == ("s1", APP, "u1")
        assert created.version == 0
        assert created.events == ()
        loaded = await self._reload(store, created)
        assert loaded.version == 0
        assert loaded.last_update_time == pytest.approx(created.last_update_time)

    async def test_generated_ids_are_unique(self, store: SessionService) -> None:
        a = await store.create_session(app_name=APP, user_id="u1")
        b = await store.create_session(app_name=APP, user_id="u1")
        assert a.id
        assert b.id
        assert a.id != b.id

    async def test_duplicate_session_id_rejected(self, store: SessionService) -> None:
        await store.create_session(app_name=APP, user_id="u1", session_id="dup", state={"k": 1})
        with pytest.raises(SessionExistsError):
            await store.create_session(app_name=APP, user_id="u1", session_id="dup")
        loaded = await store.get_session(app_name=APP, user_id="u1", session_id="dup")
        assert loaded.state == {"k": 1}

    async def test_initial_state_is_routed_by_scope(self, store: SessionService) -> None:
        state = {"app:theme": "dark", "user:name": "Ana", "cart": [1], "temp:scratch": 1}
        s = await store.create_session(app_name=APP, user_id="u1", state=state)
        expected = {"app:theme": "dark", "user:name": "Ana", "cart": [1]}
        assert s.state == expected
        assert (await self._reload(store, s)).state == expected
        assert await store.get_app_state(app_name=APP) == {"theme": "dark"}
        assert await store.get_user_state(app_name=APP, user_id="u1") == {"name": "Ana"}

    async def test_unknown_session(self, store: SessionService) -> None:
        with pytest.raises(SessionNotFoundError):
            await store.get_session(app_name=APP, user_id="u1", session_id="nope")
        with pytest.raises(SessionNotFoundError):
            await store.delete_session(app_name=APP, user_id="u1", session_id="nope")
        ghost = Session(id="nope", app_name=APP, user_id="u1", last_update_time=0.0)
        with pytest.raises(SessionNotFoundError):
            await store.append_event(ghost, _event())

    async def test_session_is_scoped_to_its_user_and_app(self, store: SessionService) -> None:
        await store.create_session(app_name=APP, user_id="u1", session_id="mine")
        with pytest.raises(SessionNotFoundError):
            await store.get_session(app_name=APP, user_id="u2", session_id="mine")
        with pytest.raises(SessionNotFoundError):
            await store.get_session(app_name="other", user_id="u1", session_id="mine")

    async def test_loaded_session_is_read_only(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1", state={"k": {"a": 1}})
        s = await store.append_event(s, _event())
        with pytest.raises(ImmutableError):
            s.state["k"] = 2
        nested: Any = s.state["k"]
        with pytest.raises(ImmutableError):
            nested["a"] = 2
        with pytest.raises(ValueError, match="frozen"):
            s.version = 5  # type: ignore[misc]

    # --- appending ------------------------------------------------------------------------------

    async def test_append_stores_event_and_delta(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        event = _event(state_delta={"order": "A-1001"})
        after = await store.append_event(s, event)
        assert after.version == 1
        assert after.events[-1] == event
        assert after.state == {"order": "A-1001"}
        loaded = await self._reload(store, s)
        assert loaded.events == (event,)
        assert loaded.state == {"order": "A-1001"}
        assert loaded.version == 1
        assert loaded.last_update_time == event.timestamp

    async def test_round_trip_keeps_every_field(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        event = rich_event()
        await store.append_event(s, event)
        (loaded,) = (await self._reload(store, s)).events
        assert loaded == event
        assert loaded.actions.compaction is not None
        assert loaded.actions.compaction.summary.parts[0].text == (
            "earlier: the user asked for a refund"
        )

    async def test_finality_survives_storage(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        call = Event(
            invocation_id="i",
            author="agent",
            content=Content(role="model", parts=(Part.from_function_call("f", {}, "c1"),)),
        )
        answer = _event(text="done")
        long_running = call.model_copy(
            update={"id": "lr", "long_running_tool_ids": frozenset({"c1"})}
        )
        for e in (call, answer, long_running):
            s = await store.append_event(s, e)
        loaded = await self._reload(store, s)
        assert [e.is_final_response() for e in loaded.events] == [False, True, True]

    async def test_partial_events_change_nothing(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        partial = Event(
            invocation_id="i",
            author="agent",
            partial=True,
            content=Content.from_text("Draf", role="model"),
            actions=EventActions(state_delta={"k": 1, "app:a": 1, "user:u": 1}),
        )
        returned = await store.append_event(s, partial)
        assert returned is s
        loaded = await self._reload(store, s)
        assert loaded.version == 0
        assert loaded.events == ()
        assert loaded.state == {}
        assert await store.get_app_state(app_name=APP) == {}

    async def test_temp_keys_are_never_stored(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        event = _event(state_delta={"temp:policy_version": 7, "refund_eligible": True})
        after = await store.append_event(s, event)
        assert after.state == {"refund_eligible": True}
        assert dict(after.events[-1].actions.state_delta) == {"refund_eligible": True}
        (stored,) = (await self._reload(store, s)).events
        assert dict(stored.actions.state_delta) == {"refund_eligible": True}
        assert (await self._reload(store, s)).state == {"refund_eligible": True}

    async def test_removed_and_json_null_delete(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        s = await store.append_event(s, _event(state_delta={"a": 1, "b": 2, "app:c": 3}))
        s = await store.append_event(s, _event(state_delta={"a": REMOVED}))
        from_json = EventActions.model_validate_json('{"state_delta": {"b": null, "app:c": null}}')
        s = await store.append_event(s, _event().model_copy(update={"actions": from_json}))
        assert s.state == {}
        loaded = await self._reload(store, s)
        assert loaded.state == {}
        assert loaded.events[-1].actions.state_delta["b"] is REMOVED
        assert await store.get_app_state(app_name=APP) == {}

    async def test_scopes_across_users_apps_and_sessions(self, store: SessionService) -> None:
        s1 = await store.create_session(app_name=APP, user_id="u1")
        delta = {"app:greeting": "hi", "user:tier": "gold", "cart": ["A-1"]}
        await store.append_event(s1, _event(state_delta=delta))
        s2 = await store.create_session(app_name=APP, user_id="u1")
        other_user = await store.create_session(app_name=APP, user_id="u2")
        other_app = await store.create_session(app_name="other", user_id="u1")
        assert (await self._reload(store, s1)).state == delta
        assert (await self._reload(store, s2)).state == {"app:greeting": "hi", "user:tier": "gold"}
        assert (await self._reload(store, other_user)).state == {"app:greeting": "hi"}
        assert (await self._reload(store, other_app)).state == {}
        assert await store.get_user_state(app_name=APP, user_id="u2") == {}
        assert await store.get_user_state(app_name="other", user_id="u1") == {}

    async def test_timestamps_strictly_increase_as_stored(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        stamp = s.last_update_time
        for i in range(5):
            event = _event(text=str(i)).model_copy(update={"timestamp": stamp})
            s = await store.append_event(s, event)
        stamps = [e.timestamp for e in (await self._reload(store, s)).events]
        assert all(a < b for a, b in itertools.pairwise(stamps))
        assert stamps[0] > stamp

    async def test_order_is_kept(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        events = [_event(text=f"e{i}") for i in range(120)]
        for e in events:
            s = await store.append_event(s, e)
        loaded = await self._reload(store, s)
        assert [e.id for e in loaded.events] == [e.id for e in events]
        assert sorted(e.id for e in events) == [e.id for e in events]

    async def test_duplicate_event_rejected_and_log_unchanged(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        event = _event(state_delta={"k": 1})
        s = await store.append_event(s, event)
        again = event.model_copy(update={"actions": EventActions(state_delta={"k": 2, "app:x": 1})})
        with pytest.raises(DuplicateEventError):
            await store.append_event(s, again)
        loaded = await self._reload(store, s)
        assert loaded.events == (event,)
        assert loaded.state == {"k": 1}
        assert loaded.version == 1
        assert await store.get_app_state(app_name=APP) == {}

    async def test_not_an_event_rejected(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1")
        with pytest.raises(InvalidEventError):
            await store.append_event(s, {"author": "user"})  # type: ignore[arg-type]
        with pytest.raises(InvalidEventError):
            await store.append_event("s1", _event())  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="exactly one"):
            Event(
                invocation_id="i",
                author="user",
                content=Content(role="user", parts=(Part(),)),
            )
        loaded = await self._reload(store, s)
        assert loaded.version == 0

    # --- listing and deletion -----------------------------------------------------------------

    async def test_list_sessions_without_events(self, store: SessionService) -> None:
        a = await store.create_session(app_name=APP, user_id="u1", state={"k": 1})
        await store.append_event(a, _event())
        b = await store.create_session(app_name=APP, user_id="u2")
        await store.create_session(app_name="other", user_id="u1")
        listed = await store.list_sessions(app_name=APP)
        assert [x.id for x in listed] == [a.id, b.id]
        assert all(x.events == () for x in listed)
        assert listed[0].version == 1
        assert listed[0].state == {"k": 1}
        assert [x.id for x in await store.list_sessions(app_name=APP, user_id="u2")] == [b.id]
        assert await store.list_sessions(app_name="none") == []

    async def test_delete_session_keeps_app_and_user_state(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1", session_id="gone")
        delta = {"app:a": 1, "user:u": 2, "k": 3}
        await store.append_event(s, _event(state_delta=delta))
        keep = await store.create_session(app_name=APP, user_id="u1", session_id="kept")
        await store.append_event(keep, _event(state_delta={"mine": 1}))
        await store.delete_session(app_name=APP, user_id="u1", session_id="gone")
        with pytest.raises(SessionNotFoundError):
            await store.get_session(app_name=APP, user_id="u1", session_id="gone")
        assert await store.get_app_state(app_name=APP) == {"a": 1}
        assert await store.get_user_state(app_name=APP, user_id="u1") == {"u": 2}
        kept = await self._reload(store, keep)
        assert kept.version == 1
        assert kept.state == {"app:a": 1, "user:u": 2, "mine": 1}
        reborn = await store.create_session(app_name=APP, user_id="u1", session_id="gone")
        assert reborn.version == 0
        assert (await self._reload(store, reborn)).events == ()
        assert (await self._reload(store, reborn)).state == {"app:a": 1, "user:u": 2}

    async def test_a_session_from_before_a_deletion_cannot_append_to_its_successor(
        self, store: SessionService
    ) -> None:
        old = await store.create_session(app_name=APP, user_id="u1", session_id="again")
        for text in ("a", "b"):
            old = await store.append_event(old, _event(text=text))
        await store.delete_session(app_name=APP, user_id="u1", session_id="again")
        new = await store.create_session(app_name=APP, user_id="u1", session_id="again")
        assert new.create_time is not None
        assert new.create_time != old.create_time
        for text in ("c", "d"):
            new = await store.append_event(new, _event(text=text))
        # Same id, same version: only the creation time tells the two apart.
        assert old.version == new.version
        with pytest.raises(SessionNotFoundError):
            await store.append_event(old, _event(text="lost"))
        stored = await self._reload(store, new)
        assert [e.content.parts[0].text for e in stored.events if e.content] == ["c", "d"]
        assert stored.create_time == new.create_time

    # --- failures -----------------------------------------------------------------------------

    async def test_closed_store_raises_store_unavailable(self) -> None:
        service = await self.make_service()
        s = await service.create_session(app_name=APP, user_id="u1")
        await service.close()
        with pytest.raises(StoreUnavailableError):
            await service.get_session(app_name=APP, user_id="u1", session_id=s.id)
        with pytest.raises(StoreUnavailableError):
            await service.append_event(s, _event())
        with pytest.raises(StoreUnavailableError):
            await service.create_session(app_name=APP, user_id="u1")
        await self.dispose_service(service)

    async def test_corrupt_record_is_named_and_log_unchanged(self, store: SessionService) -> None:
        s = await store.create_session(app_name=APP, user_id="u1", session_id="corrupt")
        good = _event(text="good")
        bad = _event(text="bad")
        s = await store.append_event(s, good)
        s = await store.append_event(s, bad)
        await self.corrupt_event(store, s, bad.id)
        with pytest.raises(CorruptRecordError) as caught:
            await self._reload(store, s)
        assert caught.value.session_id == "corrupt"
        assert caught.value.event_id == bad.id
        assert (caught.value.table, caught.value.key) == ("events", bad.id)
        assert bad.id in str(caught.value)
        recent = await store.get_session(
            app_name=APP,
            user_id="u1",
            session_id="corrupt",
            config=GetSessionConfig(num_recent_events=0),
        )
        assert recent.version == 2

    # --- property tests -----------------------------------------------------------------------

    @settings(
        max_examples=20,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.differing_executors,  # one base method, run once per backend subclass
        ],
    )
    @given(
        deltas=st.lists(
            st.dictionaries(
                st.sampled_from(["a", "b", "app:c", "user:d", "temp:e", "f"]),
                st.none()
                | st.integers(-5, 5)
                | st.text(max_size=5)
                | st.lists(st.integers(0, 3), max_size=3)
                | st.dictionaries(st.sampled_from(["x", "y"]), st.booleans(), max_size=2),
                max_size=4,
            ),
            max_size=12,
        )
    )
    def test_stored_state_is_the_fold_of_deltas(self, deltas: list[dict[str, Any]]) -> None:
        async def run() -> None:
            async with self._open() as store:
                s = await store.create_session(app_name=APP, user_id="u1")
                expected_deltas = []
                for delta in deltas:
                    event = _event(state_delta=delta)
                    s = await store.append_event(s, event)
                    expected_deltas.append(event.actions.state_delta)
                expected = fold(expected_deltas)
                assert s.state == expected
                loaded = await self._reload(store, s)
                assert loaded.state == expected
                assert fold(e.actions.state_delta for e in loaded.events) == expected

        asyncio.run(run())
