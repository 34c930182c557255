"""What an agent, a callback and a tool can see and change during one invocation.

Nothing here writes the session: state writes collect in a pending delta that lands on the
event the agent, callback or tool produces, and the runner stores that event.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentlog._frozen import freeze
from agentlog.events import (
    REMOVED,
    Content,
    CredentialRequest,
    EventActions,
    ToolConfirmation,
)
from agentlog.run_config import RunConfig
from agentlog.sessions.base import Session, SessionService
from agentlog.state import TEMP_PREFIX
from agentlog.tracing import UNDECIDED

if TYPE_CHECKING:
    from agentlog.agents.base import BaseAgent
    from agentlog.artifacts.base import ArtifactService

__all__ = [
    "CallbackContext",
    "InvocationContext",
    "ResumeInfo",
    "State",
    "ToolContext",
]


class State(MutableMapping[str, Any]):
    """The state an agent sees: stored state, then this invocation's ``temp:`` values, then its
    own pending writes. Writes go to the pending delta only; ``None`` or ``del`` removes."""

    def __init__(
        self, stored: Mapping[str, Any], temp: Mapping[str, Any], delta: dict[str, Any]
    ) -> None:
        self._stored = stored
        self._temp = temp
        self._delta = delta

    def __getitem__(self, key: str) -> Any:
        if key in self._delta:
            value = self._delta[key]
            if value is REMOVED:
                raise KeyError(key)
            return value
        if key.startswith(TEMP_PREFIX):
            return self._temp[key]
        return self._stored[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if not isinstance(key, str) or not key:
            raise KeyError(f"state keys are non-empty strings, not {key!r}")
        self._delta[key] = REMOVED if value is None else freeze(value)

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self._delta[key] = REMOVED

    def _keys(self) -> dict[str, None]:
        keys = dict.fromkeys(self._stored)
        keys.update(dict.fromkeys(self._temp))
        for key, value in self._delta.items():
            if value is REMOVED:
                keys.pop(key, None)
            else:
                keys[key] = None
        return keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self[key]
        except KeyError:
            return False
        return True

    def to_dict(self) -> dict[str, Any]:
        """A plain snapshot."""
        return {key: self[key] for key in self}

    @property
    def delta(self) -> dict[str, Any]:
        """The writes made through this view."""
        return self._delta


@dataclass
class ResumeInfo:
    """Answers that resume a paused invocation, keyed by the original function-call id."""

    agent_name: str
    """The agent that asked and now continues."""
    confirmations: dict[str, ToolConfirmation] = field(default_factory=dict)
    credentials: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class InvocationContext:
    """Everything one invocation (one turn) needs; built by the runner, shared by its agents."""

    invocation_id: str
    session: Session
    session_service: SessionService
    artifact_service: ArtifactService
    run_config: RunConfig
    root_agent: BaseAgent
    user_content: Content | None = None
    temp_state: dict[str, Any] = field(default_factory=dict)
    llm_calls: int = 0
    end_invocation: bool = False
    """Set when the turn must stop: an error, or a pause for a human answer."""
    paused: bool = False
    """Set when the turn waits for a confirmation or credential."""
    resume: ResumeInfo | None = None
    tracer: Any = UNDECIDED
    """The turn's OpenTelemetry tracer, ``None`` when it is not traced: decided once, as the
    runner starts the turn (:func:`agentlog.tracing.turn_tracer`)."""

    @property
    def app_name(self) -> str:
        """The session's app."""
        return self.session.app_name

    @property
    def user_id(self) -> str:
        """The session's user."""
        return self.session.user_id

    def state(self, delta: dict[str, Any] | None = None) -> State:
        """A state view whose writes go to ``delta``."""
        return State(self.session.state, self.temp_state, {} if delta is None else delta)


class CallbackContext:
    """What a callback sees: the invocation read-only, and state writes that land on an event."""

    def __init__(
        self, ctx: InvocationContext, agent: BaseAgent, delta: dict[str, Any] | None = None
    ) -> None:
        self._ctx = ctx
        self._agent = agent
        self._delta: dict[str, Any] = {} if delta is None else delta
        self.state = ctx.state(self._delta)
        """State view; writes land in this context's delta."""
        self.actions_artifact_delta: dict[str, int] = {}

    @property
    def invocation_id(self) -> str:
        """The current turn."""
        return self._ctx.invocation_id

    @property
    def agent_name(self) -> str:
        """The agent running."""
        return self._agent.name

    @property
    def user_id(self) -> str:
        """The session's user."""
        return self._ctx.user_id

    @property
    def session(self) -> Session:
        """The session as stored so far (read-only)."""
        return self._ctx.session

    @property
    def user_content(self) -> Content | None:
        """The message that started the turn."""
        return self._ctx.user_content

    @property
    def delta(self) -> dict[str, Any]:
        """State written through this context."""
        return self._delta

    async def save_artifact(
        self, filename: str, data: bytes, mime_type: str = "application/octet-stream"
    ) -> int:
        """Save an artifact version; the event this context produces records it."""
        ctx = self._ctx
        version = await ctx.artifact_service.save_artifact(
            app_name=ctx.app_name,
            user_id=ctx.user_id,
            session_id=ctx.session.id,
            filename=filename,
            data=data,
            mime_type=mime_type,
        )
        self.actions_artifact_delta[filename] = version
        return version

    async def load_artifact(self, filename: str, version: int | None = None) -> bytes:
        """Load an artifact's bytes (latest version unless given)."""
        ctx = self._ctx
        artifact = await ctx.artifact_service.load_artifact(
            app_name=ctx.app_name,
            user_id=ctx.user_id,
            session_id=ctx.session.id,
            filename=filename,
            version=version,
        )
        return artifact.data

    def actions(self) -> EventActions:
        """The actions for the event this context produces."""
        return EventActions(state_delta=self._delta, artifact_delta=self.actions_artifact_delta)


class ToolContext(CallbackContext):
    """What a tool sees: state, artifacts, flow control, and asking a human."""

    def __init__(
        self,
        ctx: InvocationContext,
        agent: BaseAgent,
        function_call_id: str,
        *,
        tool_confirmation: ToolConfirmation | None = None,
        credential: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(ctx, agent)
        self.function_call_id = function_call_id
        """The id of the call being answered."""
        self.tool_confirmation = tool_confirmation
        """The human's answer, when the tool runs after a confirmation."""
        self.credential = dict(credential) if credential is not None else None
        """The credential supplied, when the tool runs after a credential request."""
        self.transfer_to_agent: str | None = None
        self.escalate = False
        self.skip_summarization = False
        self.requested_confirmation: ToolConfirmation | None = None
        self.requested_credential: CredentialRequest | None = None

    def request_confirmation(self, hint: str = "", payload: Any = None) -> None:
        """Pause the turn until a human approves or declines; the tool runs again afterwards
        with ``tool_confirmation`` set (only if approved)."""
        self.requested_confirmation = ToolConfirmation(hint=hint, payload=payload)

    def request_credential(self, request: CredentialRequest) -> None:
        """Pause the turn until the client supplies a credential; the tool runs again
        afterwards with ``credential`` set."""
        self.requested_credential = request

    def actions(self) -> EventActions:
        """The actions for the function-response event."""
        return EventActions(
            state_delta=self._delta,
            artifact_delta=self.actions_artifact_delta,
            transfer_to_agent=self.transfer_to_agent,
            escalate=self.escalate,
            skip_summarization=self.skip_summarization,
        )
