"""The caller's long-term memory: search it, list it, forget a session or everything.

Registered when the app is given a memory store. Nothing here crosses users.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Query
from pydantic import BaseModel, ConfigDict, Field

from agentlog.memory import MemoryEntry, MemoryHit
from agentlog.server.deps import CallerDep, ServerDep, SessionId
from agentlog.server.routes.resource import resource_router

__all__ = ["router"]

router = resource_router("/memory", ["memory"])


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MemoryHits(_Out):
    """Search results, best first."""

    hits: list[MemoryHit] = Field(description="Entries with their scores.")


class MemoryEntries(_Out):
    """Remembered entries, oldest first."""

    entries: list[MemoryEntry] = Field(description="The entries.")


class Forgotten(_Out):
    """What a deletion removed."""

    deleted: int = Field(description="Entries deleted.")


@router.get("/search")
async def search_memory(
    server: ServerDep,
    caller: CallerDep,
    q: Annotated[str, Query(min_length=1, max_length=1_000, description="Words to look for.")],
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many.")] = 10,
) -> MemoryHits:
    """The caller's remembered facts and commitments sharing words with ``q``."""
    hits = await server.memory_store().search(
        app_name=server.app_name, user_id=caller.user_id, query=q, limit=limit
    )
    return MemoryHits(hits=hits)


@router.get("")
async def list_memory(
    server: ServerDep,
    caller: CallerDep,
    session_id: Annotated[str | None, Query(description="Only those drawn from it.")] = None,
) -> MemoryEntries:
    """The caller's remembered entries (from one session, if given)."""
    entries = await server.memory_store().list(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    return MemoryEntries(entries=entries)


@router.delete("/sessions/{session_id}")
async def forget_session(session_id: SessionId, server: ServerDep, caller: CallerDep) -> Forgotten:
    """Forget what was drawn from one of the caller's sessions."""
    deleted = await server.memory_store().delete_session(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    return Forgotten(deleted=deleted)


@router.delete("")
async def forget_everything(server: ServerDep, caller: CallerDep) -> Forgotten:
    """Forget everything remembered about the caller."""
    deleted = await server.memory_store().delete_user(
        app_name=server.app_name, user_id=caller.user_id
    )
    return Forgotten(deleted=deleted)
