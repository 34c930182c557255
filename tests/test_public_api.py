"""The curated public surface: a drift here is a deliberate, reviewed change."""

from __future__ import annotations

import agentlog

EXPECTED = [
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


def test_all_is_sorted_and_unchanged() -> None:
    assert agentlog.__all__ == EXPECTED
    assert agentlog.__all__ == sorted(agentlog.__all__, key=lambda n: (not n.isupper(), n))


def test_every_public_name_resolves_and_is_documented() -> None:
    for name in agentlog.__all__:
        obj = getattr(agentlog, name)
        if callable(obj) and name != "REMOVED":
            assert obj.__doc__, f"{name} has no docstring"


def test_errors_share_one_root() -> None:
    for name in agentlog.__all__:
        obj = getattr(agentlog, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, agentlog.AgentlogError), name
