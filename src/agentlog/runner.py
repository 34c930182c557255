"""``Runner``: turns one user message into a stored, streamed sequence of events.

It stores the user's message first, runs the agent, and stores each non-partial event before
the agent takes its next step, so state always reflects what the log holds. A failure ends the
turn with a typed error event; an answer to a pending confirmation resumes the paused turn.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from agentlog import tracing
from agentlog._frozen import FrozenDict
from agentlog._streams import closing
from agentlog._sync import run_sync
from agentlog.agents.base import BaseAgent
from agentlog.agents.history import latest_compaction
from agentlog.agents.llm import LlmAgent
from agentlog.approvals import (
    confirmation_answer,
    credential_answer,
    resolve_answers,
    withhold_credentials,
)
from agentlog.artifacts import ArtifactService, InMemoryArtifactService
from agentlog.compaction.config import EventsCompactionConfig
from agentlog.compaction.hook import CompactionHook, CompactionQueue
from agentlog.context import InvocationContext
from agentlog.errors import (
    InvalidConfigError,
    InvalidMessageError,
    LeaseLostError,
    StaleSessionError,
)
from agentlog.events import (
    REMOVED,
    Content,
    ErrorCode,
    Event,
    EventActions,
    FunctionResponse,
    Part,
)
from agentlog.ids import new_invocation_id
from agentlog.logs import get_logger, log_context, set_event
from agentlog.models.scripted import ScriptError
from agentlog.run_config import RunConfig
from agentlog.sessions.base import GetSessionConfig, Session, SessionService
from agentlog.sessions.leases import Lease, LeasedAppend
from agentlog.state import TEMP_PREFIX
from agentlog.turn_lease import COMPACTION_LEASE, TurnLease, hold_session, lease_for

__all__ = ["Runner", "confirmation_answer", "credential_answer"]

# ``confirmation_answer`` and ``credential_answer`` live in agentlog.approvals; they are
# re-exported here, where callers of ``run_async`` have always found them.
_ANSWERS = (confirmation_answer, credential_answer)

logger = get_logger("agentlog.runner")


class Runner:
    """Runs an agent tree over a session store.

    Args:
        agent: the root agent.
        session_service: where sessions and events live.
        app_name: the app the sessions belong to.
        artifact_service: where artifacts and oversized tool results go (in memory by default).
        redactor: rewrites each event before it is stored or streamed (e.g. ``PatternRedactor``).
        max_tool_result_chars: a function response whose JSON is longer is stored as an
            artifact, and the event keeps a reference and the head of it.
        compaction_config: compact each session's history as it grows (SPEC 5). A turn then
            loads only the newest compaction and the events after its end, and once its stream
            has ended the compaction runs in a background task (``wait_for_compactions``).
        lease_ttl_s: how long a turn's session lease lives without renewal
            (:mod:`agentlog.turn_lease`): a turn whose process dies blocks its session this
            long at most, and the next turn then closes it with an ``interrupted`` error.
        lease_wait_s: how long a turn waits for a session busy with another turn (in any
            process sharing the store) before ``SessionBusyError``.
        compaction_queue: with ``compaction_config``, defer each due compaction as a job
            (``agentlog.jobs.queue.JobQueue``, run by ``agentlog worker --compaction``)
            instead of running it in a task of this process.
    """

    def __init__(
        self,
        *,
        agent: BaseAgent,
        session_service: SessionService,
        app_name: str = "agentlog",
        artifact_service: ArtifactService | None = None,
        redactor: Callable[[Event], Event] | None = None,
        max_tool_result_chars: int = 16_000,
        compaction_config: EventsCompactionConfig | None = None,
        lease_ttl_s: float = 30.0,
        lease_wait_s: float = 60.0,
        compaction_queue: CompactionQueue | None = None,
    ) -> None:
        if lease_ttl_s <= 0 or lease_wait_s < 0:
            raise InvalidConfigError("lease_ttl_s must be > 0 and lease_wait_s >= 0")
        self.agent = agent
        self.session_service = session_service
        self.app_name = app_name
        self.artifact_service: ArtifactService = artifact_service or InMemoryArtifactService()
        self.redactor = redactor
        self.max_tool_result_chars = max_tool_result_chars
        self.compaction_config = compaction_config
        self.lease_ttl_s = lease_ttl_s
        self.lease_wait_s = lease_wait_s
        self._compaction: CompactionHook | None = None
        self._load_config: GetSessionConfig | None = None
        if compaction_config is not None:
            self._compaction = CompactionHook(
                compaction_config,
                session_service,
                session_lock=self._compaction_lock,
                queue=compaction_queue,
            )
            self._load_config = GetSessionConfig(from_latest_compaction=True)

    # --- public ---------------------------------------------------------------------------

    def run_async(
        self,
        *,
        user_id: str,
        session_id: str,
        new_message: Content,
        run_config: RunConfig | None = None,
        state_delta: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[Event]:
        """Run one turn and yield its events, partial ones included.

        Raises before anything is stored when the message is invalid
        (``InvalidMessageError``), the session is unknown (``SessionNotFoundError``), or an
        answer names no pending request (``UnknownRequestError``,
        ``RequestAlreadyAnsweredError``, ``RequestAbandonedError``). With OpenTelemetry the
        turn is an ``invocation`` span (:mod:`agentlog.tracing`).
        """
        # Decided once for the whole turn: with no provider, no hook checks again.
        tracer = tracing.turn_tracer()
        turn = self._run_turn(
            user_id=user_id,
            session_id=session_id,
            new_message=new_message,
            run_config=run_config,
            state_delta=state_delta,
            tracer=tracer,
        )
        return tracing.trace_turn(
            turn, app_name=self.app_name, session_id=session_id, tracer=tracer
        )

    def run_sync(
        self,
        *,
        user_id: str,
        session_id: str,
        new_message: Content,
        run_config: RunConfig | None = None,
        state_delta: Mapping[str, Any] | None = None,
    ) -> list[Event]:
        """``run_async`` for a script or a notebook: the turn's events, partial ones included,
        once the turn (and a compaction it made due) is over. Raises as ``run_async`` does.

        Every synchronous call runs on one event loop of its own thread (:mod:`agentlog._sync`),
        so it works inside a running loop too; in async code, use ``run_async``.
        """

        async def turn() -> list[Event]:
            events = self.run_async(
                user_id=user_id,
                session_id=session_id,
                new_message=new_message,
                run_config=run_config,
                state_delta=state_delta,
            )
            collected = [event async for event in events]
            # The loop's thread dies with the script, and a compaction still running with it.
            await self.wait_for_compactions()
            return collected

        return run_sync(turn())

    async def _run_turn(
        self,
        *,
        user_id: str,
        session_id: str,
        new_message: Content,
        run_config: RunConfig | None,
        state_delta: Mapping[str, Any] | None,
        tracer: Any,
    ) -> AsyncIterator[Event]:
        _check_message(new_message)
        key = (id(self.session_service), self.app_name, user_id, session_id)
        async with _SessionLock(key):
            invocation_id = new_invocation_id()
            answers = any(p.function_response is not None for p in new_message.parts)
            if answers:
                # An answer resumes its paused turn, so the lease must name that turn. A
                # first look, refusing a wrong answer before waiting for the session; the
                # check that counts is made again under the lease.
                session = await self._load(user_id, session_id)
                resume = resolve_answers(session, new_message)
                if resume is not None:
                    invocation_id = resume[0]
            hold = self._hold(user_id, session_id, invocation_id)
            loading: asyncio.Future[Session] | None = None
            opened: LeasedAppend | None = None
            made: list[Event] = []  # the last user event made, its temp: keys not stripped

            def user_event() -> Event:
                event = Event(
                    invocation_id=invocation_id,
                    author="user",
                    content=withhold_credentials(new_message),
                    actions=EventActions(state_delta=dict(state_delta or {})),
                )
                made[:] = [event if self.redactor is None else self.redactor(event)]
                return made[0]

            if hold is not None:
                # The load goes out beside the acquire instead of after it: one round trip
                # less before the turn's first event (see ``_under_lease``).
                loading = asyncio.ensure_future(self._load(user_id, session_id))
                try:
                    if not answers:
                        # A message depends on no history: it is stored by the write that
                        # takes the lease, one round trip less again. An answer is checked
                        # against the session under the lease first.
                        opened = await hold.acquire_appending(user_event)
                    else:
                        await hold.acquire()
                except BaseException:
                    _drop(loading)
                    raise
            ctx: InvocationContext | None = None
            try:
                stored_first = opened.event if opened is not None else None
                if hold is not None and loading is not None and stored_first is not None:
                    # Stored by the lease's write: the reader has it before the load is in.
                    try:
                        with log_context(invocation_id, author="user"):
                            set_event(stored_first.id, stored_first.author)
                            hold.reader_waits()
                            yield stored_first
                            hold.reader_returned()
                    except BaseException:
                        _drop(loading)
                        raise
                if hold is not None and loading is not None:
                    session = await self._under_lease(
                        user_id, session_id, hold.lease, loading, opened
                    )
                else:
                    session = await self._load(user_id, session_id)
                if hold is not None and hold.lease.interrupted is not None:
                    # (Never with a first event stored: the lease's write then leaves it.)
                    session = await self._close_interrupted(session, hold.lease.interrupted)
                # Decided on the session as loaded under the lease, and the answer below is
                # appended under it: pending, then answered, in one step (agentlog.approvals).
                resume = resolve_answers(session, new_message)
                ctx = InvocationContext(
                    invocation_id=invocation_id,
                    session=session,
                    session_service=self.session_service,
                    artifact_service=self.artifact_service,
                    run_config=run_config or RunConfig(),
                    root_agent=self.agent,
                    user_content=new_message,
                    resume=resume[1] if resume else None,
                    # A resumed turn is the same invocation: the calls it made before pausing
                    # count against max_llm_calls, read from the log so a restart keeps them.
                    llm_calls=_model_calls(session, invocation_id) if resume else 0,
                    tracer=tracer,
                )
                # Chosen before the message is stored: an answer for an agent this runner does
                # not have is refused with nothing written.
                agent = self._agent_for(ctx)
                with log_context(invocation_id, author="user"):
                    if stored_first is None:
                        stored = await self._emit(ctx, user_event(), redacted=True)
                        if hold is not None:
                            hold.reader_waits()
                        yield stored
                        if hold is not None:
                            hold.reader_returned()
                    else:
                        _keep_temp(ctx, made[0])
                        set_event(stored_first.id, stored_first.author)
                    # Closed here, not left to the garbage collector, when the reader stops
                    # early: the agent's cleanup (its span's end among it) then runs in this
                    # task, before the lease is released below.
                    async with closing(self._run_agent(ctx, agent)) as events:
                        async for event in events:
                            if hold is not None:
                                hold.reader_waits()
                            yield event
                            if hold is not None:
                                hold.reader_returned()
            finally:
                if hold is not None:
                    # Shielded: a cancelled turn still ends here, or its session would stay
                    # busy until the lease expired.
                    await asyncio.shield(hold.release())
                if self._compaction is not None and ctx is not None and ctx.session.version:
                    # Also when the caller stopped reading early (``break`` after the final
                    # response): the events stored so far are what there is to compact. The
                    # summariser runs in a task; the stream ends now.
                    self._compaction.after_turn(ctx.session, invocation_id)

    async def wait_for_compactions(self) -> None:
        """Wait until every compaction this runner started has been stored or given up.

        Not needed for correctness (a turn that starts first simply sees the history as it
        was); for tests, scripts and shutdown. Do not call it inside a run's ``async for`` on
        the same session: the compaction waits for that run to end.
        """
        if self._compaction is not None:
            await self._compaction.wait()

    # --- internals ------------------------------------------------------------------------

    async def _load(self, user_id: str, session_id: str) -> Session:
        return await self.session_service.get_session(
            app_name=self.app_name,
            user_id=user_id,
            session_id=session_id,
            config=self._load_config,
        )

    async def _under_lease(
        self,
        user_id: str,
        session_id: str,
        lease: Lease,
        loading: asyncio.Future[Session],
        opened: LeasedAppend | None = None,
    ) -> Session:
        """The session as ``lease`` found it, under the lease, with the first event
        ``opened`` stored if it stored one: the load made beside the acquire when it shows
        the version and creation time the acquire saw (nothing can be stored under a held
        lease but by its holder, and every change to a session's events or state moves its
        version), else a load made now."""
        try:
            early: Session | None = await loading
        except Exception:
            early = None  # made before the lease: whatever it met, a load now decides
        except BaseException:
            _drop(loading)
            raise
        if early is not None and opened is not None and opened.appended is not None:
            after = opened.session_after(early)
            if after is not None:
                return after
        elif (
            early is not None
            and lease.version is not None
            and early.version == lease.version
            and early.create_time == lease.create_time
        ):
            return early.under_lease(lease.token)
        # Under the lease nothing moves but by this turn: a load now is the session as the
        # lease found it, with the turn's first event if the lease's write stored it.
        return (await self._load(user_id, session_id)).under_lease(lease.token)

    def _hold(self, user_id: str, session_id: str, invocation_id: str) -> TurnLease | None:
        """The turn's hold on the session lease (``None`` for a store without leases)."""
        return lease_for(
            self.session_service,
            app_name=self.app_name,
            user_id=user_id,
            session_id=session_id,
            invocation_id=invocation_id,
            ttl_s=self.lease_ttl_s,
            wait_s=self.lease_wait_s,
        )

    async def _close_interrupted(self, session: Session, invocation_id: str) -> Session:
        """Store the end of a turn whose process died holding the session (its lease expired
        without a release), so the log says it stopped rather than leaving it hanging."""
        logger.warning(
            "session %s: turn %s ended without finishing (its process stopped); closing it",
            session.id,
            invocation_id,
        )
        event = Event(
            invocation_id=invocation_id,
            author=self.agent.name,
            error_code=ErrorCode.INTERRUPTED,
            error_message="the turn stopped before it ended: the process running it exited; "
            "it was closed when the next turn on the session began",
        )
        return await self.session_service.append_event(session, event)

    @asynccontextmanager
    async def _compaction_lock(self, key: tuple[str, str]) -> AsyncIterator[int | None]:
        """What a compaction holds while it appends: this process's lock on the session and,
        on a store with leases, the session lease (its token is yielded)."""
        user_id, session_id = key
        async with (
            _SessionLock((id(self.session_service), self.app_name, user_id, session_id)),
            hold_session(
                self.session_service,
                app_name=self.app_name,
                user_id=user_id,
                session_id=session_id,
                invocation_id=COMPACTION_LEASE,
                ttl_s=self.lease_ttl_s,
                wait_s=self.lease_wait_s,
            ) as token,
        ):
            yield token

    def _agent_for(self, ctx: InvocationContext) -> BaseAgent:
        if ctx.resume is not None:
            # Resume in the agent that asked, from its nearest ancestor that is not an
            # LlmAgent, so a pipeline around it carries on after it.
            agent = self.agent.find_agent(ctx.resume.agent_name)
            if agent is None:
                raise InvalidMessageError(
                    f"the paused turn belongs to agent {ctx.resume.agent_name!r}, "
                    "which is not in this runner's agent tree"
                )
            while agent.parent_agent is not None and not isinstance(agent.parent_agent, LlmAgent):
                agent = agent.parent_agent
            return agent
        for name in _recent_authors(ctx.session.events):
            if name == self.agent.name:
                return self.agent
            agent = self.agent.find_agent(name)
            if agent is None:
                continue
            return agent if _transferable(agent) else self.agent
        return self.agent

    async def _run_agent(self, ctx: InvocationContext, agent: BaseAgent) -> AsyncIterator[Event]:
        try:
            async with closing(agent.run_async(ctx)) as stream:
                async for event in stream:
                    if event.partial and self.redactor is None:
                        # A draft with nothing to redact: what ``_emit`` hands back (it keeps
                        # and stores nothing of one), without a coroutine for each.
                        yield event
                    else:
                        yield await self._emit(ctx, event)
                    # A turn whose model and store never wait (a local model, inline SQLite
                    # appends) would otherwise hold the event loop for the whole turn, and
                    # tasks streaming its drafts to clients would only run once it ended.
                    await asyncio.sleep(0)
        except ScriptError:
            yield await self._emit(ctx, self._error_event(ctx, ErrorCode.INTERNAL, "script error"))
            raise
        except (LeaseLostError, StaleSessionError):
            # The turn may not write any more: no error event can be stored either.
            raise
        except Exception as exc:
            logger.exception("the turn failed: %s", exc)
            message = f"{type(exc).__name__}: {exc}"[:2000]
            yield await self._emit(ctx, self._error_event(ctx, ErrorCode.INTERNAL, message))

    def _error_event(self, ctx: InvocationContext, code: ErrorCode, message: str) -> Event:
        return Event(
            invocation_id=ctx.invocation_id,
            author=self.agent.name,
            error_code=code,
            error_message=message,
        )

    async def _emit(self, ctx: InvocationContext, event: Event, *, redacted: bool = False) -> Event:
        """Redact (unless ``redacted``), keep ``temp:`` values for the invocation, offload big
        results, store."""
        if self.redactor is not None and not redacted:
            event = self.redactor(event)
        _keep_temp(ctx, event)
        if event.partial:
            return event
        event = await self._offload(ctx, event)
        try:
            with tracing.store_append(self.session_service, ctx.session, event, tracer=ctx.tracer):
                ctx.session = await self.session_service.append_event(ctx.session, event)
        except StaleSessionError:
            if ctx.session.lease_token is not None:
                # Nobody may write a leased session but its holder: a writer broke the rule.
                logger.error(
                    "session %s moved on under a held lease (token %s): another writer "
                    "appended without it; the turn stops",
                    ctx.session.id,
                    ctx.session.lease_token,
                )
            raise
        stored = ctx.session.events[-1]
        set_event(stored.id, stored.author)
        return stored

    async def _offload(self, ctx: InvocationContext, event: Event) -> Event:
        if event.content is None or not event.function_responses():
            return event
        parts: list[Part] = []
        saved: dict[str, int] = {}
        for part in event.content.parts:
            response = part.function_response
            if response is not None:
                # json writes the frozen twins as the dicts and lists they subclass: no copy.
                body = json.dumps(response.response, ensure_ascii=False)
                if len(body) > self.max_tool_result_chars:
                    name = f"tool-result-{response.name}-{response.id}.json"
                    version = await self.artifact_service.save_artifact(
                        app_name=ctx.app_name,
                        user_id=ctx.user_id,
                        session_id=ctx.session.id,
                        filename=name,
                        data=body.encode(),
                        mime_type="application/json",
                    )
                    saved[name] = version
                    head = body[: min(2_000, self.max_tool_result_chars // 2)]
                    reference = {
                        "artifact": {"name": name, "version": version, "chars": len(body)},
                        "truncated": True,
                        "head": head,
                    }
                    part = Part(
                        function_response=FunctionResponse(
                            id=response.id, name=response.name, response=reference
                        )
                    )
            parts.append(part)
        if not saved:
            return event
        artifacts = FrozenDict({**event.actions.artifact_delta, **saved})
        return event.model_copy(
            update={
                "content": Content(role=event.content.role, parts=tuple(parts)),
                "actions": event.actions.model_copy(update={"artifact_delta": artifacts}),
            }
        )


def _drop(future: asyncio.Future[Any]) -> None:
    """Cancel ``future``; an error it ends with is not wanted (nor logged as unretrieved)."""
    future.cancel()
    future.add_done_callback(lambda done: done.cancelled() or done.exception())


class _SessionLock:
    """Serialises runs on one session within this process, across every runner on a store.

    Other processes are kept consistent by the store's optimistic concurrency instead.
    """

    _locks: ClassVar[dict[tuple[int, str, str, str], asyncio.Lock]] = {}
    _users: ClassVar[dict[tuple[int, str, str, str], int]] = {}

    def __init__(self, key: tuple[int, str, str, str]) -> None:
        self._key = key

    async def __aenter__(self) -> None:
        lock = self._locks.setdefault(self._key, asyncio.Lock())
        self._users[self._key] = self._users.get(self._key, 0) + 1
        try:
            await lock.acquire()
        except BaseException:
            self._release_user()
            raise

    async def __aexit__(self, *_: object) -> None:
        self._locks[self._key].release()
        self._release_user()

    def _release_user(self) -> None:
        self._users[self._key] -= 1
        if self._users[self._key] == 0:
            del self._users[self._key]
            del self._locks[self._key]


def _keep_temp(ctx: InvocationContext, event: Event) -> None:
    """Keep ``event``'s ``temp:`` values for the invocation (the store strips them)."""
    for key, value in () if event.partial else event.actions.state_delta.items():
        if key.startswith(TEMP_PREFIX):
            if value is REMOVED:
                ctx.temp_state.pop(key, None)
            else:
                ctx.temp_state[key] = value


def _recent_authors(events: Sequence[Event]) -> Iterator[str]:
    """Agents that spoke, newest first. A compaction stands in for the turns it covers, which
    are older than every other event loaded with it, so its ``branch`` (the agent that spoke
    last in them) comes after the rest."""
    for event in reversed(events):
        if event.actions.compaction is None and event.author != "user":
            yield event.author
    compaction = latest_compaction(events)
    if compaction is not None and compaction.branch:
        yield compaction.branch.rsplit(".", 1)[-1]


def _transferable(agent: BaseAgent) -> bool:
    node: BaseAgent | None = agent
    while node is not None and node.parent_agent is not None:
        if not isinstance(node, LlmAgent) or node.disallow_transfer_to_parent:
            return False
        node = node.parent_agent
    return True


def _check_message(message: Content) -> None:
    if not isinstance(message, Content):
        raise InvalidMessageError(f"new_message must be a Content, not {type(message).__name__}")
    if message.role != "user":
        raise InvalidMessageError("new_message must have role 'user'")
    kinds = {_part_kind(p) for p in message.parts}
    if kinds == {"function_response"}:
        return
    if not kinds <= {"text", "artifact_ref"}:
        raise InvalidMessageError(
            "a message holds either text parts (with artifact references, for files) or "
            f"function responses (answers to requests), not {sorted(kinds)}"
        )
    # Text, not a file alone: a user's text is what moves a conversation on (it abandons
    # pending requests, agentlog.approvals), so a message without any would not.
    if not any(p.text and p.text.strip() for p in message.parts):
        raise InvalidMessageError(
            "the message is empty" if kinds == {"text"} else "a message with files needs text"
        )


def _part_kind(part: Part) -> str:
    if part.text is not None:
        return "text"
    if part.function_response is not None:
        return "function_response"
    return "artifact_ref" if part.artifact_ref is not None else "other"


def _model_calls(session: Session, invocation_id: str) -> int:
    """The model responses the session holds for ``invocation_id`` (since its latest
    compaction, when loaded from it)."""
    return sum(
        1
        for event in session.events
        if event.invocation_id == invocation_id and event.author != "user" and event.model
    )
