"""The google-adk session-service contract, on ``AgentlogSessionService`` over every agentlog
store, and on google-adk's own ``InMemorySessionService`` as the reference it is checked
against (the durable part, stale writers and reopening, on agentlog's stores only).

Each class gets its service from ``make_service``; ``reopen`` gives a second service on the same
storage, as another process would have it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.openapi.models import APIKey, APIKeyIn
from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes
from google.adk.auth.auth_tool import AuthConfig
from google.adk.errors import StaleSessionError
from google.adk.errors.already_exists_error import AlreadyExistsError
from google.adk.errors.session_not_found_error import SessionNotFoundError
from google.adk.events import Event, EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.sessions import InMemorySessionService as AdkInMemorySessionService
from google.adk.sessions.base_session_service import BaseSessionService, GetSessionConfig
from google.adk.tools.tool_confirmation import ToolConfirmation
from google.genai import types

from agentlog import InMemorySessionService, SqliteSessionService
from agentlog.adk import AgentlogSessionService

APP = "contract"

# google-adk's AuthConfig warns about its own deprecated helper whenever one is made.
pytestmark = pytest.mark.filterwarnings("ignore:This method is deprecated:DeprecationWarning")


def text_event(text: str, *, author: str = "user", **fields: Any) -> Event:
    role = "user" if author == "user" else "model"
    return Event(
        author=author,
        invocation_id=fields.pop("invocation_id", "inv"),
        content=types.Content(role=role, parts=[types.Part(text=text)]),
        **fields,
    )


def rich_events() -> list[Event]:
    """Events using every part of ADK's model a session store keeps."""
    auth = AuthConfig(
        auth_scheme=APIKey(**{"in": APIKeyIn.header, "name": "X-Key"}),
        raw_auth_credential=AuthCredential(auth_type=AuthCredentialTypes.API_KEY, api_key="k"),
    )
    call = types.FunctionCall(id="adk-1", name="lookup", args={"order": "A-1", "n": [1, 2.5]})
    return [
        text_event("hello", custom_metadata={"trace": {"id": 7}}),
        Event(
            author="desk",
            invocation_id="inv",
            content=types.Content(
                role="model",
                parts=[
                    types.Part(text="let me think", thought=True, thought_signature=b"\x01\x02"),
                    types.Part(function_call=call),
                ],
            ),
            usage_metadata=types.GenerateContentResponseUsageMetadata(
                prompt_token_count=12,
                candidates_token_count=5,
                total_token_count=20,
                thoughts_token_count=3,
            ),
            model_version="gemini-x",
            long_running_tool_ids={"adk-1"},
            branch="desk.lookup",
        ),
        Event(
            author="desk",
            invocation_id="inv",
            content=types.Content(
                role="user",
                parts=[
                    types.Part(
                        function_response=types.FunctionResponse(
                            id="adk-1", name="lookup", response={"status": "late", "eta": None}
                        )
                    )
                ],
            ),
            actions=EventActions(
                state_delta={"app:seen": 1, "user:tier": "gold", "order": {"id": "A-1"}},
                artifact_delta={"receipt.pdf": 0},
                requested_tool_confirmations={
                    "adk-1": ToolConfirmation(hint="Refund?", payload={"amount": 12.5})
                },
                requested_auth_configs={"adk-1": auth},
                skip_summarization=True,
            ),
        ),
        Event(
            author="desk",
            invocation_id="inv",
            actions=EventActions(
                transfer_to_agent="refunds",
                transfer_reason="asked for a refund",
                escalate=True,
                end_of_agent=True,
                agent_state={"step": 2},
            ),
        ),
        Event(
            author="desk",
            invocation_id="inv",
            error_code="MAX_TOKENS",
            error_message="cut short",
            turn_complete=True,
            interrupted=False,
        ),
        Event(author="desk", invocation_id="inv", error_code="SOME_NEW_REASON"),
        Event(
            author="user",
            invocation_id="inv-2",
            content=types.Content(
                role="user",
                parts=[
                    types.Part(inline_data=types.Blob(mime_type="image/png", data=b"\x89PNG")),
                    types.Part(executable_code=types.ExecutableCode(code="1+1", language="PYTHON")),
                    types.Part(
                        code_execution_result=types.CodeExecutionResult(
                            outcome="OUTCOME_OK", output="2"
                        )
                    ),
                ],
            ),
        ),
        Event(
            author="user",
            invocation_id="inv-3",
            actions=EventActions(
                compaction=EventCompaction(
                    start_timestamp=0.0,
                    end_timestamp=1.0,
                    compacted_content=types.Content(
                        role="model", parts=[types.Part(text="they asked about A-1")]
                    ),
                )
            ),
        ),
    ]


def as_stored(events: list[Event]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json", exclude_none=True) for e in events]


class SessionServiceContract:
    """What every ADK session service does, as google-adk's own store does it."""

    made: list[BaseSessionService]

    async def make_service(self) -> BaseSessionService:
        raise NotImplementedError

    @pytest.fixture
    async def service(self) -> AsyncIterator[BaseSessionService]:
        self.made = []
        service = await self.make_service()
        self.made.append(service)
        yield service
        for made in self.made:
            close = getattr(made, "close", None)
            if close is not None:
                await close()

    async def test_create_and_get(self, service: BaseSessionService) -> None:
        made = await service.create_session(app_name=APP, user_id="u", state={"k": "v"})
        assert made.id
        assert made.state == {"k": "v"}
        got = await service.get_session(app_name=APP, user_id="u", session_id=made.id)
        assert got is not None
        assert (got.id, got.app_name, got.user_id, got.state, got.events) == (
            made.id,
            APP,
            "u",
            {"k": "v"},
            [],
        )
        assert got.last_update_time == pytest.approx(made.last_update_time)

    async def test_a_given_id_is_kept_and_cannot_be_taken_twice(
        self, service: BaseSessionService
    ) -> None:
        made = await service.create_session(app_name=APP, user_id="u", session_id="s-1")
        assert made.id == "s-1"
        with pytest.raises(AlreadyExistsError):
            await service.create_session(app_name=APP, user_id="u", session_id="s-1")

    async def test_a_missing_session_is_none(self, service: BaseSessionService) -> None:
        assert await service.get_session(app_name=APP, user_id="u", session_id="nope") is None

    async def test_initial_state_is_routed_by_scope(self, service: BaseSessionService) -> None:
        state = {"app:theme": "dark", "user:lang": "fr", "draft": 1, "temp:scratch": 2}
        made = await service.create_session(app_name=APP, user_id="u", state=state)
        got = await service.get_session(app_name=APP, user_id="u", session_id=made.id)
        assert got is not None
        assert got.state == {"app:theme": "dark", "user:lang": "fr", "draft": 1}
        same_user = await service.create_session(app_name=APP, user_id="u")
        assert same_user.state == {"app:theme": "dark", "user:lang": "fr"}
        other = await service.create_session(app_name=APP, user_id="v")
        assert other.state == {"app:theme": "dark"}
        assert await service.get_user_state(app_name=APP, user_id="u") == {"lang": "fr"}

    async def test_appends_move_state_in_memory_and_in_storage(
        self, service: BaseSessionService
    ) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        delta = {"app:count": 1, "user:name": "Ana", "step": "ask", "temp:seen": True}
        event = Event(author="desk", invocation_id="i", actions=EventActions(state_delta=delta))
        returned = await service.append_event(session, event)
        assert "temp:seen" not in returned.actions.state_delta
        # temp: lives in the loaded session for the rest of the invocation only.
        assert session.state["temp:seen"] is True
        assert session.events[-1] is returned
        got = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert got is not None
        assert got.state == {"app:count": 1, "user:name": "Ana", "step": "ask"}
        assert "temp:seen" not in got.events[0].actions.state_delta
        other = await service.create_session(app_name=APP, user_id="u")
        assert other.state == {"app:count": 1, "user:name": "Ana"}

    async def test_every_event_field_reads_back_as_appended(
        self, service: BaseSessionService
    ) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        events = rich_events()
        for event in events:
            await service.append_event(session, event)
        got = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert got is not None
        # Compared as stored (google-adk's DatabaseSessionService keeps this JSON): a value
        # read back is validated from it, so an AuthConfig, say, comes back as an equal copy.
        assert as_stored(got.events) == as_stored(events)

    async def test_a_partial_event_is_not_stored(self, service: BaseSessionService) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        draft = text_event("typing", author="desk", partial=True)
        assert await service.append_event(session, draft) is draft
        got = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert got is not None
        assert got.events == []

    async def test_get_session_filters(self, service: BaseSessionService) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        # After the session's creation: agentlog's stores keep a log's timestamps increasing.
        base = round(time.time()) + 10.0
        for n in range(6):
            await service.append_event(session, text_event(f"m{n}", timestamp=base + n))

        async def texts(config: GetSessionConfig) -> list[str]:
            got = await service.get_session(
                app_name=APP, user_id="u", session_id=session.id, config=config
            )
            assert got is not None
            return [e.content.parts[0].text for e in got.events if e.content and e.content.parts]

        assert await texts(GetSessionConfig(num_recent_events=2)) == ["m4", "m5"]
        assert await texts(GetSessionConfig(num_recent_events=0)) == []
        assert await texts(GetSessionConfig(after_timestamp=base + 3)) == ["m3", "m4", "m5"]
        both = GetSessionConfig(after_timestamp=base + 2, num_recent_events=3)
        assert await texts(both) == ["m3", "m4", "m5"]
        with pytest.raises(ValueError, match="num_recent_events"):
            GetSessionConfig(num_recent_events=-1)

    async def test_list_sessions(self, service: BaseSessionService) -> None:
        first = await service.create_session(app_name=APP, user_id="u", state={"n": 1})
        second = await service.create_session(app_name=APP, user_id="v", state={"user:x": 2})
        await service.create_session(app_name="another-app", user_id="u")
        await service.append_event(first, text_event("later"))
        listed = (await service.list_sessions(app_name=APP)).sessions
        assert [s.id for s in listed] == [second.id, first.id]
        assert all(s.events == [] for s in listed)
        assert [s.state for s in listed] == [{"user:x": 2}, {"n": 1}]
        mine = (await service.list_sessions(app_name=APP, user_id="u")).sessions
        assert [s.id for s in mine] == [first.id]
        assert (await service.list_sessions(app_name=APP, user_id="nobody")).sessions == []

    async def test_delete_session(self, service: BaseSessionService) -> None:
        gone = await service.create_session(
            app_name=APP, user_id="u", state={"user:kept": 1, "app:kept": 2, "mine": 3}
        )
        await service.append_event(gone, text_event("bye"))
        kept = await service.create_session(app_name=APP, user_id="u")
        await service.delete_session(app_name=APP, user_id="u", session_id=gone.id)
        assert await service.get_session(app_name=APP, user_id="u", session_id=gone.id) is None
        assert [s.id for s in (await service.list_sessions(app_name=APP)).sessions] == [kept.id]
        again = await service.get_session(app_name=APP, user_id="u", session_id=kept.id)
        assert again is not None
        assert again.state == {"user:kept": 1, "app:kept": 2}
        await service.delete_session(app_name=APP, user_id="u", session_id=gone.id)

    async def test_appending_to_a_deleted_session_fails(self, service: BaseSessionService) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        await service.delete_session(app_name=APP, user_id="u", session_id=session.id)
        with pytest.raises(SessionNotFoundError):
            await service.append_event(session, text_event("late"))


class DurableContract(SessionServiceContract):
    """What a store shared by several processes adds: stale writers refused, nothing lost."""

    async def reopen(self) -> BaseSessionService:
        raise NotImplementedError

    async def test_a_writer_behind_the_store_is_refused(self, service: BaseSessionService) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        one = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        two = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert one is not None
        assert two is not None
        await service.append_event(one, text_event("first"))
        with pytest.raises(StaleSessionError):
            await service.append_event(two, text_event("second", invocation_id="other"))
        got = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert got is not None
        assert [e.content.parts[0].text for e in got.events if e.content] == ["first"]

    async def test_concurrent_writers_one_wins(self, service: BaseSessionService) -> None:
        session = await service.create_session(app_name=APP, user_id="u")
        copies = [
            await service.get_session(app_name=APP, user_id="u", session_id=session.id)
            for _ in range(4)
        ]
        results = await asyncio.gather(
            *(
                service.append_event(copy, text_event(f"w{n}", invocation_id=f"i{n}"))
                for n, copy in enumerate(copies)
                if copy is not None
            ),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert all(isinstance(r, StaleSessionError) for r in results if isinstance(r, Exception))
        got = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert got is not None
        assert len(got.events) == 1

    async def test_another_process_reads_what_was_stored(self, service: BaseSessionService) -> None:
        session = await service.create_session(app_name=APP, user_id="u", state={"user:x": 1})
        events = rich_events()
        for event in events:
            await service.append_event(session, event)
        other = await self.reopen()
        self.made.append(other)
        got = await other.get_session(app_name=APP, user_id="u", session_id=session.id)
        assert got is not None
        assert as_stored(got.events) == as_stored(events)
        assert got.state == session.state
        # ... and goes on from there, as the first process could.
        await other.append_event(got, text_event("from the other process"))
        with pytest.raises(StaleSessionError):
            await service.append_event(session, text_event("from the first, now behind"))


class TestAdkInMemoryReference(SessionServiceContract):
    """google-adk's own store passes the same contract: it is ADK's, not ours."""

    async def make_service(self) -> BaseSessionService:
        return AdkInMemorySessionService()


class TestOnAgentlogMemory(SessionServiceContract):
    async def make_service(self) -> BaseSessionService:
        return AgentlogSessionService(InMemorySessionService())


class TestOnAgentlogSqlite(DurableContract):
    @pytest.fixture(autouse=True)
    def _path(self, tmp_path: Path) -> None:
        self.path = tmp_path / "sessions.db"

    async def make_service(self) -> BaseSessionService:
        return AgentlogSessionService(SqliteSessionService(self.path))

    async def reopen(self) -> BaseSessionService:
        return AgentlogSessionService(SqliteSessionService(self.path))


@pytest.mark.postgres
class TestOnAgentlogPostgres(DurableContract):
    @pytest.fixture(autouse=True)
    def _server(self, postgres_dsn: str, new_postgres_schema: Callable[[], str]) -> None:
        self.dsn = postgres_dsn
        self.schema = new_postgres_schema()

    async def make_service(self) -> BaseSessionService:
        from agentlog.sessions.postgres import PostgresSessionService

        return AgentlogSessionService(PostgresSessionService(self.dsn, schema=self.schema))

    async def reopen(self) -> BaseSessionService:
        return await self.make_service()
