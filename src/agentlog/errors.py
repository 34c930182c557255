"""agentlog's own errors. Driver and SDK exceptions are translated where they enter.

The tree::

    AgentlogError
    ├── InvalidEventError          an event or message that breaks the contract (ValueError)
    │   ├── InvalidMessageError    a user message the runner cannot take
    │   ├── UnansweredResponseError  a tool result answering no call made before it (an import)
    │   ├── ReservedAuthorError    an event authored as agentlog's own records (an import)
    │   └── InvalidValueError      a value, key or id outside the input contract (agentlog.limits)
    │       ├── NonFiniteNumberError  NaN, an infinity, or a number that reads as one (1e999)
    │       ├── InvalidUnicodeError   a lone surrogate in a string or key
    │       ├── NulCharacterError     NUL in an identifier or a state key
    │       ├── ValueTooLargeError    an id, key, value or event over its size limit
    │       └── ValueTooDeepError     a value nested deeper than the limit
    ├── PendingRequestError        an answer to a confirmation or credential request
    │   ├── UnknownRequestError    names no request of the session (LookupError)
    │   ├── RequestAlreadyAnsweredError  the request was answered before
    │   └── RequestAbandonedError  the user wrote a new message instead of answering
    ├── ModelError                 a model call failed; ``error_code`` says why
    ├── ToolArgumentsError         (agentlog.tools) arguments that do not fit a tool
    ├── ToolError                  a tool's own failure; its message is the call's result
    │   ├── McpToolError           (agentlog.tools.mcp) an MCP server answered a call with an error
    │   └── McpConnectionError     (agentlog.tools.mcp) an MCP server unreachable or gone away
    ├── InstructionError           (agentlog.agents) a placeholder names an unset state key
    ├── ScriptError                (agentlog.models.scripted) a script and its calls disagree
    ├── ImmutableError             a write to a frozen event, session or state view (TypeError)
    ├── InvalidMemoryEntryError    a memory entry that cannot be stored (ValueError)
    ├── InvalidConfigError         settings that cannot work, caught when made (ValueError)
    ├── StoreError                 anything a session or memory store reports
    │   ├── SessionNotFoundError   no session with that app, user and id
    │   ├── SessionExistsError     create_session with an id already taken
    │   ├── StaleSessionError      the stored session moved on since it was read
    │   ├── DuplicateEventError    an event id already stored in that session
    │   ├── SessionBusyError       another turn holds the session's lease past the wait
    │   ├── LeaseLostError         a turn's lease expired and another turn took the session
    │   ├── StoreUnavailableError  closed, unreachable or locked past its timeout
    │   ├── CorruptRecordError     a stored row that cannot be decoded (names table, key, session)
    │   └── QuarantineRefusedError  (agentlog.check) no such record, or nothing wrong with it
    └── ArtifactError              anything an artifact service reports
        ├── ArtifactNotFoundError  no such artifact, or no such version of it (LookupError)
        ├── InvalidArtifactNameError  a filename or scope id that cannot be stored (ValueError)
        └── ArtifactTooLargeError  data over the service's max_bytes (ValueError)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from agentlog.events import ErrorCode

__all__ = [
    "AgentlogError",
    "InvalidMessageError",
    "ReservedAuthorError",
    "UnansweredResponseError",
    "InvalidUnicodeError",
    "InvalidValueError",
    "NonFiniteNumberError",
    "NulCharacterError",
    "ValueTooDeepError",
    "ValueTooLargeError",
    "McpConnectionError",
    "McpToolError",
    "ModelError",
    "PendingRequestError",
    "RequestAbandonedError",
    "RequestAlreadyAnsweredError",
    "LeaseLostError",
    "QuarantineRefusedError",
    "SessionBusyError",
    "UnknownRequestError",
    "ArtifactError",
    "ArtifactNotFoundError",
    "ArtifactTooLargeError",
    "CorruptRecordError",
    "DuplicateEventError",
    "ImmutableError",
    "InvalidArtifactNameError",
    "InvalidConfigError",
    "InvalidEventError",
    "InvalidMemoryEntryError",
    "SessionExistsError",
    "SessionNotFoundError",
    "StaleSessionError",
    "StoreError",
    "StoreUnavailableError",
    "ToolError",
]


class AgentlogError(Exception):
    """Base of every error agentlog raises on purpose."""


class InvalidEventError(AgentlogError, ValueError):
    """An event or message that breaks the event contract."""


class InvalidMessageError(InvalidEventError):
    """A user message the runner cannot take (wrong role, empty, or mixed kinds of parts)."""


class UnansweredResponseError(InvalidEventError):
    """A function response (a tool result) that answers no call made before it: no call with
    its id, or one answered already. Who may vouch for a result is whoever made the call."""

    def __init__(self, event_id: str, call_id: str, name: str) -> None:
        super().__init__(
            f"event {event_id!r}: the result of {name!r} (call {call_id!r}) answers no call made "
            "before it, or one answered already"
        )
        self.event_id = event_id
        self.call_id = call_id
        self.name = name


class ReservedAuthorError(InvalidEventError):
    """An event authored under a name agentlog keeps for the records it writes itself (a
    handoff, a compaction), from somewhere that is not agentlog writing them (an import)."""

    def __init__(self, event_id: str, author: str) -> None:
        super().__init__(
            f"event {event_id!r}: the author {author!r} is kept for agentlog's own records"
        )
        self.event_id = event_id
        self.author = author


class InvalidValueError(InvalidEventError):
    """A value, state key or identifier outside the input contract (:mod:`agentlog.limits`),
    refused before anything was written, alike by every store. ``where`` names it (for
    example ``state_delta['x']``, always ASCII); ``reason`` says which rule it breaks."""

    reason: ClassVar[str] = "invalid"

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where} {problem}")
        self.where = where


class NonFiniteNumberError(InvalidValueError):
    """NaN, an infinity, or a number that reads as one (``1e999``, an integer over 1.8e308)."""

    reason: ClassVar[str] = "non_finite_number"


class InvalidUnicodeError(InvalidValueError):
    """A string or key holding a lone surrogate, which cannot be written as UTF-8."""

    reason: ClassVar[str] = "invalid_unicode"


class NulCharacterError(InvalidValueError):
    """A NUL character in an identifier or a state key."""

    reason: ClassVar[str] = "nul_character"


class ValueTooLargeError(InvalidValueError):
    """An identifier, state key, value or event over its size limit, in UTF-8 bytes."""

    reason: ClassVar[str] = "too_large"

    def __init__(self, where: str, size: int, limit: int) -> None:
        super().__init__(where, f"is {size} bytes, over the limit of {limit}")
        self.size = size
        self.limit = limit


class ValueTooDeepError(InvalidValueError):
    """A value whose objects and arrays nest deeper than the limit."""

    reason: ClassVar[str] = "too_deep"

    def __init__(self, where: str, limit: int) -> None:
        super().__init__(where, f"nests more than {limit} objects and arrays deep")
        self.limit = limit


class PendingRequestError(AgentlogError):
    """Base of the errors about answers to confirmation and credential requests."""


class UnknownRequestError(PendingRequestError, LookupError):
    """The answer names no confirmation or credential request of the session."""

    def __init__(self, request_id: str) -> None:
        super().__init__(f"no pending confirmation or credential request with id {request_id!r}")
        self.request_id = request_id


class RequestAlreadyAnsweredError(PendingRequestError):
    """The request was answered before; a tool runs at most once per approval."""

    def __init__(self, request_id: str) -> None:
        super().__init__(f"request {request_id!r} was already answered")
        self.request_id = request_id


class RequestAbandonedError(PendingRequestError):
    """The user sent a new message after the request, so its turn was left behind; the tool
    it would have allowed never runs."""

    def __init__(self, request_id: str) -> None:
        super().__init__(
            f"request {request_id!r} was abandoned: a newer message moved the conversation on"
        )
        self.request_id = request_id


class ModelError(AgentlogError):
    """A model call that failed before producing an answer; ``error_code`` says why."""

    def __init__(self, error_code: ErrorCode, message: str, *, retryable: bool = False) -> None:
        super().__init__(f"{error_code.value}: {message}")
        self.error_code = error_code
        self.retryable = retryable


class ToolError(AgentlogError):
    """A tool failed in a way it can put in words: the model gets the message as the call's
    result (``{"error": message}``) and may try another way; the turn goes on."""


class McpToolError(ToolError):
    """An MCP server answered a tool call with an error (a result marked ``isError``, or a
    protocol error such as an unknown tool or a timeout)."""


class McpConnectionError(ToolError):
    """An MCP server could not be started or reached, or its connection went away."""


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


class SessionBusyError(StoreError):
    """Another turn holds the session's lease, and it was not released within the wait."""

    def __init__(self, session_id: str, waited_s: float) -> None:
        super().__init__(
            f"session {session_id!r} is busy: another turn holds it (waited {waited_s:.1f}s)"
        )
        self.session_id = session_id
        self.waited_s = waited_s


class LeaseLostError(StoreError):
    """A write under a session lease whose token is no longer the session's: the lease
    expired and another turn took the session. Nothing was written."""

    def __init__(self, session_id: str, token: int) -> None:
        super().__init__(
            f"the lease (token {token}) on session {session_id!r} was lost: it expired and "
            "another turn took the session"
        )
        self.session_id = session_id
        self.token = token


class StoreUnavailableError(StoreError):
    """The store is closed, unreachable, or stayed locked past its timeout."""


class CorruptRecordError(StoreError):
    """A stored record that cannot be decoded, named: its ``table`` (``events``,
    ``session_state``, ``app_state`` or ``user_state``), its ``key`` (the event id, or the
    state key), the ``session_id`` whose read met it (``None`` when app or user state was read
    on its own) and, for app and user state, the ``owner`` (the app name or the user id).
    ``agentlog check`` lists every such record and can quarantine one."""

    def __init__(
        self,
        session_id: str | None,
        event_id: str | None,
        reason: str,
        *,
        table: str = "events",
        key: str | None = None,
        owner: str | None = None,
    ) -> None:
        if table == "events":
            where = f"event {event_id!r} of session {session_id!r}" if event_id else f"{session_id}"
        elif owner is None:
            where = f"{table} key {key!r}" + (f" of session {session_id!r}" if session_id else "")
        else:
            where = f"{table} key {key!r} of {table.removesuffix('_state')} {owner!r}"
            if session_id is not None:
                where += f", read for session {session_id!r}"
        super().__init__(f"corrupt record: {where}: {reason}")
        self.session_id = session_id
        self.event_id = event_id
        self.reason = reason
        self.table = table
        self.key = key if key is not None else event_id
        self.owner = owner


class QuarantineRefusedError(StoreError):
    """``agentlog check --quarantine`` moved nothing: the name is not a record's, no such
    record is stored, it loads as it is, or it is a session row (its events would go too)."""


class ArtifactError(AgentlogError):
    """Base of the errors an artifact service reports."""


class ArtifactNotFoundError(ArtifactError, LookupError):
    """No artifact with that name in the scope, or no such version of it."""

    def __init__(self, filename: str, version: int | None = None) -> None:
        what = f"version {version} of artifact" if version is not None else "artifact"
        super().__init__(f"{what} {filename!r} not found")
        self.filename = filename
        self.version = version


class InvalidArtifactNameError(ArtifactError, ValueError):
    """A filename (or app, user or session id) that cannot be stored safely."""


class ArtifactTooLargeError(ArtifactError, ValueError):
    """The data is larger than the service accepts."""

    def __init__(self, size: int, max_bytes: int) -> None:
        super().__init__(f"artifact of {size} bytes is over the limit of {max_bytes} bytes")
        self.size = size
        self.max_bytes = max_bytes


class InvalidMemoryEntryError(AgentlogError, ValueError):
    """A memory entry that breaks its contract (no cited events, blank text, an unknown kind or
    provenance) or whose id is already stored; nothing of its batch was stored."""


class InvalidConfigError(AgentlogError, ValueError):
    """Settings that cannot work (for example a compaction interval below 1), rejected when the
    settings object is made rather than when it is first used."""
