"""agentlog: the event log for LLM agents.

Every agent turn becomes a stream of immutable events; the log is the source of truth for
session state.
"""

from agentlog.errors import (
    AgentlogError,
    CorruptRecordError,
    DuplicateEventError,
    ImmutableError,
    InvalidEventError,
    SessionExistsError,
    SessionNotFoundError,
    StaleSessionError,
    StoreError,
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
    FunctionResponse,
    Part,
    ToolConfirmation,
    Usage,
)
from agentlog.sessions import (
    GetSessionConfig,
    InMemorySessionService,
    Session,
    SessionService,
    SqliteSessionService,
)

__version__ = "0.1.0"

__all__ = [
    "REMOVED",
    "AgentlogError",
    "ArtifactRef",
    "CodeExecutionResult",
    "Content",
    "CorruptRecordError",
    "CredentialRequest",
    "DuplicateEventError",
    "ErrorCode",
    "Event",
    "EventActions",
    "EventCompaction",
    "FunctionCall",
    "FunctionResponse",
    "GetSessionConfig",
    "ImmutableError",
    "InMemorySessionService",
    "InvalidEventError",
    "Part",
    "Session",
    "SessionExistsError",
    "SessionNotFoundError",
    "SessionService",
    "SqliteSessionService",
    "StaleSessionError",
    "StoreError",
    "StoreUnavailableError",
    "ToolConfirmation",
    "Usage",
    "__version__",
]
