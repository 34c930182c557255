"""Session stores: the ``SessionService`` contract and its in-memory and SQLite backends.

The PostgreSQL backend lives in :mod:`agentlog.sessions.postgres` (extra ``postgres``).
"""

from agentlog.sessions.base import GetSessionConfig, Session, SessionService
from agentlog.sessions.memory import InMemorySessionService
from agentlog.sessions.sqlite import SqliteSessionService

__all__ = [
    "GetSessionConfig",
    "InMemorySessionService",
    "Session",
    "SessionService",
    "SqliteSessionService",
]
