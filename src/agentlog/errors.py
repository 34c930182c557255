"""agentlog's own errors. Driver and SDK exceptions are translated where they enter.

The tree::

    AgentlogError
    ├── InvalidEventError          an event or message that breaks the contract (ValueError)
    ├── ImmutableError             a write to a frozen event, session or state view (TypeError)
    └── StoreError                 anything a session or memory store reports
        ├── SessionNotFoundError   no session with that app, user and id
        ├── SessionExistsError     create_session with an id already taken
        ├── StaleSessionError      the stored session moved on since it was read
        ├── DuplicateEventError    an event id already stored in that session
        ├── StoreUnavailableError  closed, unreachable or locked past its timeout
        └── CorruptRecordError     a stored row that does not parse (names session and event)
"""

from __future__ import annotations

__all__ = [
    "AgentlogError",
    "CorruptRecordError",
    "DuplicateEventError",
    "ImmutableError",
    "InvalidEventError",
    "SessionExistsError",
    "SessionNotFoundError",
    "StaleSessionError",
    "StoreError",
    "StoreUnavailableError",
]


class AgentlogError(Exception):
    """Base of every error agentlog raises on purpose."""


class InvalidEventError(AgentlogError, ValueError):
    """An event or message that breaks the event contract."""


class ImmutableError(AgentlogError, TypeError):
    """A write to something that only changes through a new event's ``state_delta``."""


class StoreError(AgentlogError):
    """Base of the errors a store reports."""


class SessionNotFoundError(StoreError, LookupError):
    """No session with that app, user and id."""

    def __init__(self, app_name: str, user_id: str, session_id: str) -> None:
        super().__init__(f"session {session_id!r} not found for app {app_name!r}, user {user_id!r}")
        self.app_name = app_name
        self.user_id = user_id
        self.session_id = session_id


class SessionExistsError(StoreError):
    """``create_session`` was given an id that is already taken."""

    def __init__(self, app_name: str, user_id: str, session_id: str) -> None:
        super().__init__(f"session {session_id!r} already exists for app {app_name!r}")
        self.app_name = app_name
        self.user_id = user_id
        self.session_id = session_id


class StaleSessionError(StoreError):
    """The append was computed from a version the stored session has moved past."""

    def __init__(self, session_id: str, expected_version: int, actual_version: int | None) -> None:
        super().__init__(
            f"session {session_id!r} is stale: append computed from version {expected_version}, "
            f"stored version is {actual_version}"
        )
        self.session_id = session_id
        self.expected_version = expected_version
        self.actual_version = actual_version


class DuplicateEventError(StoreError):
    """An event with this id is already stored in the session."""

    def __init__(self, session_id: str, event_id: str) -> None:
        super().__init__(f"event {event_id!r} is already stored in session {session_id!r}")
        self.session_id = session_id
        self.event_id = event_id


class StoreUnavailableError(StoreError):
    """The store is closed, unreachable, or stayed locked past its timeout."""


class CorruptRecordError(StoreError):
    """A stored record that does not parse as an event; names the session and the event."""

    def __init__(self, session_id: str, event_id: str | None, reason: str) -> None:
        where = f"event {event_id!r} of session {session_id!r}" if event_id else session_id
        super().__init__(f"corrupt record: {where}: {reason}")
        self.session_id = session_id
        self.event_id = event_id
        self.reason = reason
