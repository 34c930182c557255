"""agentlog: the event log for LLM agents.

Every agent turn becomes a stream of immutable events; the log is the source of truth for
session state.

The names below are imported on first use (PEP 562), so ``import agentlog.cli`` (the command
line) or any one submodule does not pay for pydantic models it never touches.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from agentlog.approvals import confirmation_answer, pending_requests
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
    from agentlog.in_memory_runner import InMemoryRunner
    from agentlog.run_config import RunConfig, StreamingMode
    from agentlog.runner import Runner
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
    "InMemoryRunner",
    "InMemorySessionService",
    "InvalidEventError",
    "Part",
    "RunConfig",
    "Runner",
    "Session",
    "SessionExistsError",
    "SessionNotFoundError",
    "SessionService",
    "SqliteSessionService",
    "StaleSessionError",
    "StoreError",
    "StoreUnavailableError",
    "StreamingMode",
    "ToolConfirmation",
    "Usage",
    "__version__",
    "confirmation_answer",
    "pending_requests",
]

_HOMES: Final = {
    "agentlog.approvals": ("confirmation_answer", "pending_requests"),
    "agentlog.errors": (
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
    ),
    "agentlog.events": (
        "REMOVED",
        "ArtifactRef",
        "CodeExecutionResult",
        "Content",
        "CredentialRequest",
        "ErrorCode",
        "Event",
        "EventActions",
        "EventCompaction",
        "FunctionCall",
        "FunctionResponse",
        "Part",
        "ToolConfirmation",
        "Usage",
    ),
    "agentlog.in_memory_runner": ("InMemoryRunner",),
    "agentlog.run_config": ("RunConfig", "StreamingMode"),
    "agentlog.runner": ("Runner",),
    "agentlog.sessions": (
        "GetSessionConfig",
        "InMemorySessionService",
        "Session",
        "SessionService",
        "SqliteSessionService",
    ),
}
_HOME_OF: Final = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'agentlog' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
