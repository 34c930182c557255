"""The conformance suite every ``SessionService`` passes.

Subclass :class:`SessionServiceConformance` in a test module and implement ``make_service``;
pytest collects every test below for that backend. Backends that several processes can share
also implement ``service_spec``; backends with a serialised form implement ``corrupt_event``.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import random
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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
    StaleSessionError,
    StoreUnavailableError,
)
from agentlog.events import (
    REMOVED,
    ArtifactRef,
    CodeExecutionResult,
    Content,
    CredentialRequest,
    ErrorCode,
    Event,
    EventActions,
    EventCompaction,
    FunctionCall,
    Part,
    ToolConfirmation,
    Usage,
)
from agentlog.sessions.base import GetSessionConfig, Session, SessionService
from agentlog.state import fold
from agentlog.testing._workers import ServiceSpec, append_forever, append_with_retries

__all__ = ["ServiceSpec", "SessionServiceConformance", "rich_event"]

APP = "conformance"


def _event(author: str = "agent", text: str = "hello", **actions: Any) -> Event:
    return Event(
        invocation_id="inv-1",
        author=author,
        content=Content.from_text(text, role="user" if author == "user" else "model"),
        actions=EventActions(**actions),
    )


def _compaction_event(covered: list[Event], summary: str) -> Event:
    return Event(
        invocation_id="compaction",
        author="agentlog_compactor",
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=covered[0].timestamp,
                end_timestamp=covered[-1].timestamp,
                event_ids=tuple(e.id for e in covered),
                summary=Content.from_text(summary, role="model"),
            )
        ),
    )


def rich_event(call_id: str = "call-1") -> Event:
    """An event with every field set, for round trips."""
    return Event(
        invocation_id="inv-rich",
        author="refund_agent",
        content=Content(
            role="model",
            parts=(
                Part(text="Checking order A-1001 (£12.50, naïve café ✓)."),
                Part(
                    function_call=FunctionCall(
                        id=call_id, name="lookup_order", args={"order": "A-1001", "n": [1, 2.5]}
                    ),
                    provider_metadata={"gemini_thought_signature": "c2lnbmF0dXJl+/8="},
                ),
                Part(code_execution_result=CodeExecutionResult(outcome="ok", output="42")),
                Part(artifact_ref=ArtifactRef(name="receipt.pdf", version=2, size=10)),
            ),
        ),
        partial=False,
        turn_complete=True,
        interrupted=False,
        error_code=ErrorCode.MAX_TOKENS,
        error_message="cut short",
        long_running_tool_ids=frozenset({call_id}),
        branch="root.refunds",
        usage=Usage(input_tokens=120, output_tokens=30),
        model="scripted",
        actions=EventActions(
            state_delta={"order": {"id": "A-1001", "items": [1, 2]}, "user:tier": "gold"},
            artifact_delta={"receipt.pdf": 2},
            transfer_to_agent="billing",
            escalate=True,
            skip_summarization=True,
            requested_auth_configs={call_id: CredentialRequest(auth_type="api_key", hint="key")},
            requested_tool_confirmations={
                call_id: ToolConfirmation(hint="Refund $12.50?", payload={"amount": 12.5})
            },
            compaction=EventCompaction(
                start_timestamp=1.0,
                end_timestamp=2.0,
                event_ids=("a", "b"),
                summary=Content.from_text("earlier: the user asked for a refund", role="model"),
            ),
        ),
    )


class SessionServiceConformance:
    """The contract of SPEC 3, as tests. Subclasses implement ``make_service``."""

    async def make_service(self) -> SessionService:
        """A new, empty store."""
        raise NotImplementedError

    async def dispose_service(self, service: SessionService) -> None:
        """Release a store made by ``make_service`` (default: close it)."""
        await service.close()

    def service_spec(self, service: SessionService) -> ServiceSpec | None:
        """How another process opens the same store; ``None`` if it cannot."""
        return None

    async def corrupt_event(self, service: SessionService, session: Session, event_id: str) -> None:
        """Overwrite the stored payload of one event with bytes that do not parse."""
        pytest.skip("this store keeps no serialised form to corrupt")

    # --- fixtures -----------------------------------------------------------------------------

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[SessionService]:
        service = await self.make_service()
        try:
            yield service
        finally:
            await self.dispose_service(service)

    @pytest.fixture
    async def store(self) -> AsyncIterator[SessionService]:
        async with self._open() as service:
            yield service

    @staticmethod
    async def _reload(store: SessionService, session: Session) -> Session:
        return await store.get_session(
            app_name=session.app_name, user_id=session.user_id, session_id=session.id
        )

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

    # --- filters, listing, deletion -----------------------------------------------------------

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
