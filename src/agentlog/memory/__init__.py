"""Long-term memory: facts and commitments from checked summaries, searchable and deletable.

``MemoryService`` is the contract; ``InMemoryMemoryService`` and ``SqliteMemoryService`` are its
backends here, and ``PostgresMemoryService`` lives in :mod:`agentlog.memory.postgres` (extra
``postgres``). Entries are built from plain fields (``MemoryEntry.fact``,
``MemoryEntry.commitment``); the summary module turns a checked record into entries, keeping
each item's provenance and cited event ids.
"""

from agentlog.memory.base import MemoryEntry, MemoryHit, MemoryKind, MemoryService, Provenance
from agentlog.memory.memory import InMemoryMemoryService
from agentlog.memory.sqlite import SqliteMemoryService

__all__ = [
    "InMemoryMemoryService",
    "MemoryEntry",
    "MemoryHit",
    "MemoryKind",
    "MemoryService",
    "Provenance",
    "SqliteMemoryService",
]
