"""``InMemoryMemoryService``: the memory store for tests and throwaway processes."""

from __future__ import annotations

import builtins
import itertools
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agentlog.errors import InvalidMemoryEntryError, StoreUnavailableError
from agentlog.memory._terms import index_terms, overlap_scores, query_terms
from agentlog.memory.base import MemoryEntry, MemoryHit, check_limit, checked_entries

__all__ = ["InMemoryMemoryService"]


@dataclass(frozen=True, slots=True)
class _Stored:
    seq: int
    entry: MemoryEntry
    terms: frozenset[str]


class InMemoryMemoryService:
    """Entries in a dict per user, guarded by a lock so threads and tasks may share it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users: dict[tuple[str, str], list[_Stored]] = {}
        self._ids: set[str] = set()
        self._seq = itertools.count()
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError("InMemoryMemoryService is closed")

    async def add(
        self, entries: Iterable[MemoryEntry | Mapping[str, Any]]
    ) -> builtins.list[MemoryEntry]:
        """See ``MemoryService.add``."""
        checked = checked_entries(entries)
        with self._lock:
            self._check_open()
            taken = sorted({e.id for e in checked if e.id in self._ids}, key=str)
            if taken:
                raise InvalidMemoryEntryError(f"memory entry ids already stored: {taken}")
            for entry in checked:
                stored = _Stored(next(self._seq), entry, frozenset(index_terms(entry.text).split()))
                self._users.setdefault((entry.app_name, entry.user_id), []).append(stored)
                self._ids.add(entry.id or "")
        return checked

    async def search(
        self, *, app_name: str, user_id: str, query: str, limit: int = 10
    ) -> builtins.list[MemoryHit]:
        """See ``MemoryService.search``."""
        check_limit(limit)
        terms = query_terms(query)
        with self._lock:
            self._check_open()
            stored = list(self._users.get((app_name, user_id), ()))
        candidates = [s for s in stored if not s.terms.isdisjoint(terms)]
        scores = overlap_scores(terms, [s.terms for s in candidates], len(stored))
        ranked = sorted(
            zip(scores, candidates, strict=True),
            key=lambda pair: (-pair[0], -pair[1].entry.created_at, -pair[1].seq),
        )
        return [
            MemoryHit.model_construct(entry=s.entry, score=score) for score, s in ranked[:limit]
        ]

    async def list(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> builtins.list[MemoryEntry]:
        """See ``MemoryService.list``."""
        with self._lock:
            self._check_open()
            stored = list(self._users.get((app_name, user_id), ()))
        chosen = [s for s in stored if session_id is None or s.entry.session_id == session_id]
        chosen.sort(key=lambda s: (s.entry.created_at, s.seq))
        return [s.entry for s in chosen]

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> int:
        """See ``MemoryService.delete_session``."""
        with self._lock:
            self._check_open()
            stored = self._users.get((app_name, user_id), [])
            gone = [s for s in stored if s.entry.session_id == session_id]
            if gone:
                stored[:] = [s for s in stored if s.entry.session_id != session_id]
                self._forget(gone)
            return len(gone)

    async def delete_user(self, *, app_name: str, user_id: str) -> int:
        """See ``MemoryService.delete_user``."""
        with self._lock:
            self._check_open()
            gone = self._users.pop((app_name, user_id), [])
            self._forget(gone)
            return len(gone)

    async def close(self) -> None:
        """See ``MemoryService.close``."""
        with self._lock:
            self._closed = True

    def _forget(self, gone: builtins.list[_Stored]) -> None:
        self._ids.difference_update(s.entry.id or "" for s in gone)
