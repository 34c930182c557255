"""The memory-store contract: ``MemoryEntry``, ``MemoryHit`` and ``MemoryService``.

Long-term memory keeps the facts and commitments of checked summaries, each with its user, the
session it was drawn from and the ids of the events it cites, so a search can find it and a
deletion request (for a session or for a user) can remove it. The summary module turns a record
into entries; this package knows only the plain fields. Every backend passes one conformance
suite, :mod:`agentlog.testing.memory`.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, Protocol, Self, runtime_checkable

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from agentlog.errors import InvalidMemoryEntryError
from agentlog.ids import new_event_id

__all__ = [
    "MemoryEntry",
    "MemoryHit",
    "MemoryKind",
    "MemoryService",
    "Provenance",
    "checked_entries",
    "check_limit",
    "new_memory_id",
]

MemoryKind = Literal["fact", "commitment"]
"""What an entry records: an established fact, or a promise made to the user."""

Provenance = Literal["verified", "agent_statement", "user_claim"]
"""Whose word an entry rests on, as the checked record labelled it: ``verified`` (tool traffic
or a deterministic decision holds it), ``agent_statement`` (an agent said it, nothing backs
it), ``user_claim`` (the user said it)."""


def _storable(value: str) -> str:
    # Checked here so that every backend refuses the same strings: PostgreSQL text cannot hold
    # NUL, and no driver can encode a lone surrogate.
    if "\x00" in value:
        raise ValueError("contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("is not valid Unicode (it holds a lone surrogate)") from None
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("is blank")
    return value


_Name = Annotated[str, Field(min_length=1), AfterValidator(_storable)]


class MemoryEntry(BaseModel):
    """One remembered fact or commitment, with where it came from.

    Read-only. ``id`` is ``None`` until the entry is stored: ``MemoryService.add`` returns the
    entries with their ids.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", revalidate_instances="always")

    id: _Name | None = Field(default=None, description="Unique in the store; set by ``add``.")
    app_name: _Name = Field(description="The application the entry belongs to.")
    user_id: _Name = Field(description="The user it is about; searches never cross users.")
    session_id: _Name = Field(description="The session it was drawn from.")
    event_ids: tuple[_Name, ...] = Field(
        min_length=1, description="The events of that session it cites; at least one."
    )
    kind: MemoryKind = Field(description="``fact`` or ``commitment``.")
    text: Annotated[_Name, AfterValidator(_not_blank)] = Field(description="What is remembered.")
    provenance: Provenance = Field(
        description="``verified``, ``agent_statement`` (said by an agent, unbacked), or "
        "``user_claim`` (said by the user)."
    )
    created_at: float = Field(
        default_factory=time.time,
        allow_inf_nan=False,
        description="When it was remembered, seconds since the epoch.",
    )

    @classmethod
    def fact(
        cls,
        text: str,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        event_ids: Iterable[str],
        provenance: Provenance,
    ) -> Self:
        """A fact drawn from ``event_ids`` of a session. Raises ``InvalidMemoryEntryError``."""
        return cls._build(
            kind="fact",
            text=text,
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            event_ids=tuple(event_ids),
            provenance=provenance,
        )

    @classmethod
    def commitment(
        cls,
        text: str,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        event_ids: Iterable[str],
        provenance: Provenance,
    ) -> Self:
        """A promise made to the user, drawn from ``event_ids`` of a session. Raises
        ``InvalidMemoryEntryError``."""
        return cls._build(
            kind="commitment",
            text=text,
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            event_ids=tuple(event_ids),
            provenance=provenance,
        )

    @classmethod
    def _build(cls, **fields: Any) -> Self:
        try:
            return cls.model_validate(fields)
        except ValidationError as exc:
            raise InvalidMemoryEntryError(f"invalid memory entry: {_reasons(exc)}") from None


class MemoryHit(BaseModel):
    """One search result: the entry and how well it matched."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entry: MemoryEntry = Field(description="The stored entry.")
    score: float = Field(
        description="Relevance, higher is better; comparable only within one result list."
    )


@runtime_checkable
class MemoryService(Protocol):
    """Where remembered facts and commitments live. Every method may raise
    ``StoreUnavailableError``; nothing is ever returned across users or apps."""

    async def add(
        self, entries: Iterable[MemoryEntry | Mapping[str, Any]]
    ) -> builtins.list[MemoryEntry]:
        """Validate and store ``entries`` in one transaction; return them with their ids.

        Raises ``InvalidMemoryEntryError`` (and stores none of them) if any entry breaks the
        contract or has an id that is already stored.
        """
        ...

    async def search(
        self, *, app_name: str, user_id: str, query: str, limit: int = 10
    ) -> builtins.list[MemoryHit]:
        """The user's entries sharing words with ``query``, best first, at most ``limit``.

        Matching ignores case and accents; an entry needs one query word to match, and ranks
        higher the more (and the rarer) words it shares. A query with no words finds nothing.
        """
        ...

    async def list(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> builtins.list[MemoryEntry]:
        """The user's entries (from one session, if given), oldest first."""
        ...

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> int:
        """Forget what was drawn from one session; other sessions' entries stay. Returns how
        many entries were deleted."""
        ...

    async def delete_user(self, *, app_name: str, user_id: str) -> int:
        """Forget everything about a user in one app. Returns how many entries were deleted."""
        ...

    async def close(self) -> None:
        """Release connections; later calls raise ``StoreUnavailableError``."""
        ...


# --- shared by the backends -----------------------------------------------------------------------


def new_memory_id() -> str:
    """A new entry id: ``mem-`` and a ULID, so ids sort in creation order."""
    return "mem-" + new_event_id()


def checked_entries(entries: Iterable[MemoryEntry | Mapping[str, Any]]) -> list[MemoryEntry]:
    """Validate ``entries`` (models are validated again) and give each without an id a new one.

    Raises ``InvalidMemoryEntryError`` naming the first bad entry, or an id given twice.
    """
    checked: list[MemoryEntry] = []
    seen: set[str] = set()
    for index, raw in enumerate(entries):
        try:
            entry = MemoryEntry.model_validate(raw)
        except ValidationError as exc:
            raise InvalidMemoryEntryError(
                f"invalid memory entry at index {index}: {_reasons(exc)}"
            ) from None
        if entry.id is None:
            entry = entry.model_copy(update={"id": new_memory_id()})
        elif entry.id in seen:
            raise InvalidMemoryEntryError(f"memory entry id {entry.id!r} is given twice")
        seen.add(entry.id or "")
        checked.append(entry)
    return checked


def check_limit(limit: int) -> None:
    """Raise ``ValueError`` unless ``limit`` is a positive ``int``."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit!r}")


def _reasons(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in error['loc']) or 'entry'}: {error['msg']}"
        for error in exc.errors()
    )
