"""The stores a ``--db`` option names: a SQLite file, or a PostgreSQL database by its DSN.

One place for every command (``serve``, ``summarize``, ``worker``, ``check``) to turn the option
into the session store and the stores beside it. Each store's module is imported only when it
is built, so a command that never opens a store never imports a driver.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from agentlog.cli.errors import require_folder
from agentlog.errors import InvalidConfigError

if TYPE_CHECKING:
    from agentlog.artifacts import ArtifactService
    from agentlog.memory import MemoryService
    from agentlog.sessions.base import SessionService
    from agentlog.summary import SummaryStore
    from agentlog.summary.summarisers.background import SummaryQueue

__all__ = [
    "build_artifacts",
    "build_extras",
    "build_store",
    "build_summary_queue",
    "check_store",
    "is_postgres",
    "open_store",
]


def is_postgres(db: str) -> bool:
    """Whether ``db`` is a PostgreSQL DSN rather than a SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def build_store(db: str) -> SessionService:
    """PostgreSQL for a ``postgresql://`` DSN, else a SQLite file."""
    if is_postgres(db):
        try:
            from agentlog.sessions.postgres import PostgresSessionService
        except ImportError as exc:
            raise InvalidConfigError(f"{exc} (needed for --db postgresql://...)") from exc

        return PostgresSessionService(db)
    from agentlog.sessions.sqlite import SqliteSessionService

    return SqliteSessionService(db)


def open_store(db: str) -> SessionService:
    """The session store ``--db`` names for reading what is there: a SQLite file that must
    exist, or a ``postgresql://`` DSN."""
    if not is_postgres(db) and not Path(db).is_file():
        raise typer.BadParameter(f"no such SQLite file: {db}", param_hint="--db")
    try:
        return build_store(db)
    except InvalidConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="--db") from None


def build_extras(db: str) -> tuple[SummaryStore, MemoryService, str]:
    """The summary and memory stores beside the session store, and a note on where they are."""
    from agentlog.summary import SqliteSummaryStore

    if is_postgres(db):
        from agentlog.memory.postgres import PostgresMemoryService
        from agentlog.summary.stores.postgres import PostgresSummaryStore

        note = "summaries and memory in PostgreSQL"
        return PostgresSummaryStore(db), PostgresMemoryService(db), note
    from agentlog.memory import SqliteMemoryService

    return SqliteSummaryStore(db), SqliteMemoryService(db), f"summaries and memory in {db}"


def build_artifacts(db: str) -> ArtifactService:
    """Where the runner keeps artifacts: PostgreSQL beside the sessions, or a folder beside the
    SQLite file (``<file>-artifacts``; in memory for ``:memory:``)."""
    if is_postgres(db):
        from agentlog.artifacts.postgres import PostgresArtifactService

        return PostgresArtifactService(db)
    from agentlog.artifacts import FileArtifactService, InMemoryArtifactService

    if db == ":memory:":
        return InMemoryArtifactService()
    return FileArtifactService(Path(f"{db}-artifacts"))


def build_summary_queue(db: str) -> SummaryQueue | None:
    """On PostgreSQL, the job queue background summaries go to (for ``agentlog worker``);
    None on SQLite, where the server takes them in its own process."""
    if not is_postgres(db):
        return None
    try:
        from agentlog.jobs.queue import JobQueue
    except ImportError as exc:
        raise typer.BadParameter(
            f"{exc}; or serve with --no-summaries", param_hint="--summaries"
        ) from None
    return JobQueue(db)


def check_store(db: str, app_name: str) -> None:
    """Open the store ``db`` names, read from it and close it: a store that cannot be opened
    or read (a folder that does not exist, PostgreSQL down, a bad DSN) fails now, before
    serving, rather than as a 503 on every request.

    A throwaway store of its own, since a PostgreSQL pool belongs to the event loop it was
    opened on, and the server runs on another.
    """
    require_folder(db)

    async def read() -> None:
        store = build_store(db)
        try:
            await store.get_app_state(app_name=app_name)
        finally:
            await store.close()

    asyncio.run(read())
