"""The HTTP API's request and response bodies."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from agentlog._frozen import thaw
from agentlog.approvals import PendingRequest
from agentlog.events import Event
from agentlog.limits import MAX_DEPTH, MAX_KEY_BYTES, MAX_VALUE_BYTES
from agentlog.router import RoutedMessage
from agentlog.sessions.base import Session
from agentlog.state import APP_PREFIX, TEMP_PREFIX, USER_PREFIX

__all__ = [
    "APP_KEYS",
    "BLANK_PATTERN",
    "AppStatePatch",
    "AppStateReplace",
    "ConfirmationAnswer",
    "CreateSession",
    "CredentialAnswer",
    "ErrorOut",
    "EventsPage",
    "NewMessage",
    "PendingRequest",
    "SessionDetail",
    "SessionList",
    "SESSION_KEYS",
    "SessionOut",
    "StalledApprovals",
    "StateOut",
    "StreamFrame",
]

SESSION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"

# The runner refuses a message whose text is empty once stripped: whitespace as Python defines
# it (every such character is in the Basic Multilingual Plane), which is neither JSON Schema's
# ``\s`` nor a regex engine's, so the class is spelled out. Said as "not only whitespace"
# rather than as an unanchored pattern, which generators read as the whole string.
_WHITESPACE = "".join(c for c in map(chr, range(0x10000)) if c.isspace())
BLANK_PATTERN = "^[" + "".join(f"\\u{ord(c):04x}" for c in _WHITESPACE) + "]*$"
"""A text of whitespace only (or empty), as the runner refuses it."""

# JSON Schema counts characters, the stores bytes of UTF-8: each key schema bounds the length
# as the byte limit (exact for ASCII) and says the rest in words.
_KEY_RULES = f"at most {MAX_KEY_BYTES} bytes of UTF-8 (prefix included), no NUL"
_NO_NUL = "^[^\\u0000]*$"

SESSION_KEYS: dict[str, Any] = {
    "description": f"A session, 'user:' or 'temp:' key: {_KEY_RULES}.",
    "minLength": 1,
    "maxLength": MAX_KEY_BYTES,
    "pattern": _NO_NUL,
    "not": {"anyOf": [{"enum": [USER_PREFIX, TEMP_PREFIX]}, {"pattern": f"^{APP_PREFIX}"}]},
}
"""The keys of a session's state delta: not empty, not a bare prefix, not ``app:``."""

APP_KEYS: dict[str, Any] = {
    "description": f"An app key, with or without 'app:' (stored with it): {_KEY_RULES}.",
    "minLength": 1,
    "pattern": _NO_NUL,
    "if": {"pattern": f"^{APP_PREFIX}"},
    "then": {"maxLength": MAX_KEY_BYTES},
    "else": {"maxLength": MAX_KEY_BYTES - len(APP_PREFIX)},
    "not": {
        "anyOf": [
            {"enum": [APP_PREFIX]},
            {"pattern": f"^({APP_PREFIX})?({USER_PREFIX}|{TEMP_PREFIX})"},
            {"pattern": f"^{APP_PREFIX}{APP_PREFIX}"},
        ]
    },
}
"""The keys of an ``app:`` delta: a plain key, or one with the ``app:`` prefix once."""

_VALUES = (
    f"Values are JSON with finite numbers, nested at most {MAX_DEPTH} deep, each at most "
    f"{MAX_VALUE_BYTES} bytes as compact JSON."
)


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
        default_factory=dict,
        description="Initial session and 'user:' state (no 'app:' keys; 'temp:' keys are "
        f"dropped). {_VALUES}",
        json_schema_extra={"propertyNames": SESSION_KEYS},
    )

    _check_state = field_validator("state")(_no_app_keys)


class NewMessage(_Body):
    """A user's message; the reply streams back as server-sent events."""

    text: str = Field(
        min_length=1,
        max_length=100_000,
        description="What the user says (not only whitespace).",
        json_schema_extra={"not": {"pattern": BLANK_PATTERN}},
    )
    state_delta: dict[str, JsonValue] = Field(
        default_factory=dict,
        description="State changes stored with the message ('user:', 'temp:' or session keys; "
        f"null deletes). {_VALUES}",
        json_schema_extra={"propertyNames": SESSION_KEYS},
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

    delta: dict[str, JsonValue] = Field(
        description=f"Key to new value; null deletes the key. {_VALUES}",
        json_schema_extra={"propertyNames": APP_KEYS},
    )

    @field_validator("delta")
    @classmethod
    def _plain_keys(cls, delta: dict[str, Any]) -> dict[str, Any]:
        return _app_keys(delta)


class AppStateReplace(_Body):
    """The whole ``app:`` state: keys left out are deleted."""

    state: dict[str, JsonValue] = Field(
        description=f"Key (without prefix) to value. {_VALUES}",
        json_schema_extra={"propertyNames": APP_KEYS},
    )

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


class ErrorOut(_Body):
    """Why a request was refused."""

    detail: str = Field(description="A sentence saying what is wrong.")


class StateOut(_Body):
    """A state view."""

    state: dict[str, JsonValue] = Field(description="Key to value.")


class StalledApprovals(_Body):
    """Requests waiting for an answer longer than the deadline."""

    deadline_s: float = Field(description="The deadline applied.")
    approvals: list[PendingRequest] = Field(description="Oldest first.")
