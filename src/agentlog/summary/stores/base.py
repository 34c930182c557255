"""Where background summaries go: the ``SummaryStore`` protocol, its row, and the in-memory
store (SQLite: :mod:`agentlog.summary.stores.sqlite`; PostgreSQL:
:mod:`agentlog.summary.stores.postgres`).

A separate small store rather than events in the session: a background reader never writes
into the log it reads, and a summary can be recomputed, replaced or deleted without touching
the session. Each row is one summary of one session at one length (``session_version``, the
number of events it covered): a delivered record, or a failure with its problems, or an error.
``put_once`` never replaces a delivered record, so two runs of one job store one summary.
"""

from __future__ import annotations

import builtins
import threading
import time
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from agentlog.errors import StoreUnavailableError
from agentlog.summary.record.result import SummaryResult
from agentlog.summary.record.schema import SummaryRecord
from agentlog.summary.record.validate import Problem

__all__ = ["InMemorySummaryStore", "StoredSummary", "SummaryStatus", "SummaryStore", "newest_row"]

SummaryStatus = Literal["ok", "failed", "error"]


class StoredSummary(BaseModel):
    """One summary of one session, as kept by a ``SummaryStore``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    app_name: str = Field(description="The session's app.")
    user_id: str = Field(description="The session's user.")
    session_id: str = Field(description="The session summarised.")
    session_version: int = Field(ge=0, description="Events the summary covered.")
    status: SummaryStatus = Field(
        description="'ok' (a checked record), 'failed' (no attempt passed), 'error' (it crashed)."
    )
    record: SummaryRecord | None = Field(default=None, description="The record when 'ok'.")
    problems: tuple[tuple[Problem, ...], ...] = Field(default=(), description="Per attempt.")
    error: str | None = Field(default=None, description="What went wrong, for 'error'.")
    summarizer: str = Field(default="", description="What wrote it.")
    attempts: int = Field(default=0, ge=0, description="Attempts made.")
    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens.")
    output_tokens: int = Field(default=0, ge=0, description="Output tokens.")
    cost: float = Field(default=0.0, ge=0, description="Cost at the configured prices.")
    created_at: float = Field(default_factory=time.time, description="When it was stored.")

    @classmethod
    def from_result(
        cls, result: SummaryResult, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> StoredSummary:
        """A row for a summariser's result."""
        return cls(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            session_version=version,
            status="ok" if result.record is not None else "failed",
            record=result.record,
            problems=result.problems,
            summarizer=result.summarizer,
            attempts=result.attempts,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            cost=result.cost,
        )


@runtime_checkable
class SummaryStore(Protocol):
    """Summaries by session. ``put`` keeps one row per session and version (a later put for
    the same version replaces it); ``get`` returns the newest."""

    async def put(self, summary: StoredSummary) -> None:
        """Store ``summary``."""
        ...

    async def put_once(self, summary: StoredSummary) -> bool:
        """Store ``summary`` unless a delivered (``'ok'``) summary of the session at the same
        version is there; True when stored. A failure or error at that version is replaced."""
        ...

    async def latest_versions(
        self, *, app_name: str, user_id: str | None = None
    ) -> dict[tuple[str, str], int]:
        """The newest summarised version of each session of the app (of one user, if given),
        by ``(user_id, session_id)``, whatever its status: one cheap read for a scan."""
        ...

    async def get(
        self, *, app_name: str, user_id: str, session_id: str, ok_only: bool = False
    ) -> StoredSummary | None:
        """The newest summary of the session (the newest delivered one with ``ok_only``)."""
        ...

    async def list(self, *, app_name: str, user_id: str | None = None) -> list[StoredSummary]:
        """The newest summary of each session of the app (of one user, if given), oldest
        first."""
        ...

    async def delete(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """Delete every summary of the session (nothing if there is none)."""
        ...

    async def close(self) -> None:
        """Release resources; later calls raise ``StoreUnavailableError``."""
        ...


def newest_row(rows: builtins.list[StoredSummary], ok_only: bool) -> StoredSummary | None:
    chosen = [r for r in rows if r.status == "ok"] if ok_only else rows
    return max(chosen, key=lambda r: (r.session_version, r.created_at), default=None)


class InMemorySummaryStore:
    """Summaries in a dict; for tests and single processes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str, str], dict[int, StoredSummary]] = {}
        self._closed = False

    def _check(self) -> None:
        if self._closed:
            raise StoreUnavailableError("InMemorySummaryStore is closed")

    async def put(self, summary: StoredSummary) -> None:
        """See ``SummaryStore.put``."""
        with self._lock:
            self._check()
            key = (summary.app_name, summary.user_id, summary.session_id)
            self._rows.setdefault(key, {})[summary.session_version] = summary

    async def put_once(self, summary: StoredSummary) -> bool:
        """See ``SummaryStore.put_once``."""
        with self._lock:
            self._check()
            rows = self._rows.setdefault(
                (summary.app_name, summary.user_id, summary.session_id), {}
            )
            there = rows.get(summary.session_version)
            if there is not None and there.status == "ok":
                return False
            rows[summary.session_version] = summary
            return True

    async def latest_versions(
        self, *, app_name: str, user_id: str | None = None
    ) -> dict[tuple[str, str], int]:
        """See ``SummaryStore.latest_versions``."""
        with self._lock:
            self._check()
            return {
                (user, session): max(rows)
                for (app, user, session), rows in self._rows.items()
                if app == app_name and (user_id is None or user == user_id) and rows
            }

    async def get(
        self, *, app_name: str, user_id: str, session_id: str, ok_only: bool = False
    ) -> StoredSummary | None:
        """See ``SummaryStore.get``."""
        with self._lock:
            self._check()
            rows = list(self._rows.get((app_name, user_id, session_id), {}).values())
        return newest_row(rows, ok_only)

    async def list(
        self, *, app_name: str, user_id: str | None = None
    ) -> builtins.list[StoredSummary]:
        """See ``SummaryStore.list``."""
        with self._lock:
            self._check()
            groups = [
                list(rows.values())
                for (app, user, _), rows in self._rows.items()
                if app == app_name and (user_id is None or user == user_id)
            ]
        newest = [row for rows in groups if (row := newest_row(rows, False)) is not None]
        return sorted(newest, key=lambda r: r.created_at)

    async def delete(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """See ``SummaryStore.delete``."""
        with self._lock:
            self._check()
            self._rows.pop((app_name, user_id, session_id), None)

    async def close(self) -> None:
        """See ``SummaryStore.close``."""
        with self._lock:
            self._closed = True
