"""The HTTP API's request and response bodies."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from agentlog._frozen import thaw
from agentlog.events import Event
from agentlog.router import RoutedMessage
from agentlog.sessions.base import Session
from agentlog.state import APP_PREFIX, TEMP_PREFIX, USER_PREFIX

__all__ = [
    "AppStatePatch",
    "AppStateReplace",
    "ConfirmationAnswer",
    "CreateSession",
    "CredentialAnswer",
    "EventsPage",
    "NewMessage",
    "PendingRequest",
    "SessionDetail",
    "SessionList",
    "SessionOut",
    "StalledApprovals",
    "StateOut",
    "StreamFrame",
]

SESSION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"


class _Body(BaseModel):
    """Every body is frozen and rejects unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def _no_app_keys(delta: dict[str, Any]) -> dict[str, Any]:
    for key in delta:
        if not key or key in (APP_PREFIX, USER_PREFIX, TEMP_PREFIX):
            raise ValueError(f"state key {key!r} is empty")
        if key.startswith(APP_PREFIX):
            raise ValueError(
                f"{key!r}: app state is written through PATCH /state/app with an admin key"
            )
    return delta


class CreateSession(_Body):
    """A new session."""

    session_id: Annotated[str, Field(pattern=SESSION_ID_PATTERN)] | None = Field(
        default=None, description="Choose the id (letters, digits, '_', '.', '-'); else random."
    )
    state: dict[str, JsonValue] = Field(
        default_factory=dict, description="Initial session and 'user:' state (no 'app:' keys)."
    )

    _check_state = field_validator("state")(_no_app_keys)


class NewMessage(_Body):
    """A user's message; the reply streams back as server-sent events."""

    text: str = Field(min_length=1, max_length=100_000, description="What the user says.")
    state_delta: dict[str, JsonValue] = Field(
        default_factory=dict,
        description="State changes stored with the message ('user:', 'temp:' or session keys; "
        "null deletes).",
    )

    _check_delta = field_validator("state_delta")(_no_app_keys)


class ConfirmationAnswer(_Body):
    """A person's yes or no to a confirmation request."""

    kind: Literal["confirmation"] = Field(description="Answers a confirmation request.")
    confirmed: bool = Field(description="Approve (true) or decline (false).")
    payload: JsonValue = Field(default=None, description="Data for the tool, if it asks for any.")


class CredentialAnswer(_Body):
    """A credential for a tool that asked for one; it is never stored in the log."""

    kind: Literal["credential"] = Field(description="Answers a credential request.")
    credential: dict[str, JsonValue] = Field(description="The credential (token, key, ...).")


Answer = Annotated[ConfirmationAnswer | CredentialAnswer, Field(discriminator="kind")]
"""The body of ``POST /sessions/{id}/approvals/{request_id}``."""


class AppStatePatch(_Body):
    """Changes to ``app:`` state: key (without prefix) to value; null deletes."""

    delta: dict[str, JsonValue] = Field(description="Key to new value; null deletes the key.")

    @field_validator("delta")
    @classmethod
    def _plain_keys(cls, delta: dict[str, Any]) -> dict[str, Any]:
        return _app_keys(delta)


class AppStateReplace(_Body):
    """The whole ``app:`` state: keys left out are deleted."""

    state: dict[str, JsonValue] = Field(description="Key (without prefix) to value.")

    @field_validator("state")
    @classmethod
    def _plain_keys(cls, state: dict[str, Any]) -> dict[str, Any]:
        return _app_keys(state)


def _app_keys(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        plain = key.removeprefix(APP_PREFIX)
        if not plain or plain.startswith((USER_PREFIX, TEMP_PREFIX, APP_PREFIX)):
            raise ValueError(f"{key!r} is not an app state key")
        out[plain] = value
    return out


class SessionOut(_Body):
    """A session without its events."""

    id: str = Field(description="The session's id.")
    user_id: str = Field(description="Its owner.")
    state: dict[str, JsonValue] = Field(description="app:, user: and session state.")
    version: int = Field(description="Number of stored events.")
    last_update_time: float = Field(description="When the last event was stored.")

    @classmethod
    def of(cls, session: Session) -> SessionOut:
        """The summary of a loaded session."""
        return cls(
            id=session.id,
            user_id=session.user_id,
            state=thaw(session.state),
            version=session.version,
            last_update_time=session.last_update_time,
        )


class PendingRequest(_Body):
    """A confirmation or credential request that has no answer yet."""

    session_id: str = Field(description="The session.")
    user_id: str = Field(description="The session's owner.")
    invocation_id: str = Field(description="The paused turn.")
    event_id: str = Field(description="The stored event holding the request.")
    request_id: str = Field(description="Answer it at POST /sessions/{id}/approvals/{this}.")
    function_call_id: str = Field(description="The tool call waiting on it.")
    kind: Literal["confirmation", "credential"] = Field(description="What is asked.")
    hint: str = Field(description="What the person is asked.")
    payload: JsonValue = Field(default=None, description="Data shown with a confirmation.")
    requested_at: float = Field(description="When it was stored (seconds since the epoch).")
    waiting_s: float = Field(description="Seconds since then.")


class SessionDetail(SessionOut):
    """A session with its stored events and the requests still waiting for an answer."""

    events: list[Event] = Field(description="The stored events, in order.")
    pending: list[PendingRequest] = Field(description="Unanswered requests, oldest first.")


class SessionList(_Body):
    """The caller's sessions, oldest first."""

    sessions: list[SessionOut] = Field(description="Sessions without events.")


class StreamFrame(_Body):
    """The data of one server-sent event, and one item of the timeline.

    ``event`` is the stored event (its id is the SSE ``id``); it is null for a draft, an end
    of turn, or an error that could not be stored.
    """

    event: Event | None = Field(default=None, description="The stored event, if any.")
    messages: list[RoutedMessage] = Field(description="What a client shows for it, in order.")


class EventsPage(_Body):
    """Stored events after a given one."""

    items: list[StreamFrame] = Field(description="Each stored event with its routed messages.")
    has_more: bool = Field(description="True when ``limit`` cut the list short.")


class StateOut(_Body):
    """A state view."""

    state: dict[str, JsonValue] = Field(description="Key to value.")


class StalledApprovals(_Body):
    """Requests waiting for an answer longer than the deadline."""

    deadline_s: float = Field(description="The deadline applied.")
    approvals: list[PendingRequest] = Field(description="Oldest first.")
