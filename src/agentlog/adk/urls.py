"""Stores from URLs, and the URL schemes ``adk web`` and ``adk api_server`` know us by.

``store_from_url`` takes the URLs an ADK app already gives ``DatabaseSessionService``
(``sqlite+aiosqlite:///app.db``, ``postgresql+asyncpg://...``) and agentlog's own
(``memory://``, ``sqlite:///app.db``, ``postgresql://...``). :func:`register_adk_services`
teaches ADK's command line the ``agentlog+memory``, ``agentlog+sqlite`` and
``agentlog+postgresql`` schemes, so ``adk web --session_service_uri
agentlog+sqlite:///sessions.db`` runs on agentlog's store.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from agentlog.errors import InvalidConfigError
from agentlog.sessions.base import SessionService

__all__ = ["ADK_SCHEMES", "register_adk_services", "store_from_url"]

ADK_SCHEMES: Final = ("agentlog+memory", "agentlog+sqlite", "agentlog+postgresql")
"""The session-service URL schemes :func:`register_adk_services` registers with ADK."""

_ADK_TABLES: Final = ("adk_internal_metadata", "app_states", "user_states")


def store_from_url(url: str, **options: Any) -> SessionService:
    """The agentlog store a URL names; ``options`` go to its constructor.

    ``memory://`` is ``InMemorySessionService``; ``sqlite:///path`` (relative) or
    ``sqlite:////path`` (absolute) ``SqliteSessionService``; ``postgresql://...``
    ``PostgresSessionService``, with ``?schema=NAME`` taken as its ``schema`` argument and the
    rest given to libpq. A driver suffix (``+aiosqlite``, ``+asyncpg``, ...) and an
    ``agentlog+`` prefix are ignored. A SQLite file that holds google-adk's own tables is
    refused: agentlog keeps its sessions in tables of its own, in a file of its own.
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise InvalidConfigError(f"not a store URL (no scheme): {url!r}")
    backend = scheme.removeprefix("agentlog+").split("+", 1)[0].lower()
    if backend == "memory":
        from agentlog.sessions.memory import InMemorySessionService

        return InMemorySessionService(**options)
    if backend == "sqlite":
        from agentlog.sessions.sqlite import SqliteSessionService

        path = rest.split("?", 1)[0].removeprefix("/")
        if not path or path == ":memory:":
            raise InvalidConfigError(
                f"{url!r} names no file; use memory:// for a store that is not kept"
            )
        _refuse_adk_file(Path(path))
        return SqliteSessionService(path, **options)
    if backend in ("postgresql", "postgres"):
        from agentlog.sessions.postgres import PostgresSessionService

        parts = urlsplit(f"postgresql://{rest}")
        query = parse_qsl(parts.query, keep_blank_values=True)
        schema = next((v for k, v in query if k == "schema"), None)
        kept = urlencode([(k, v) for k, v in query if k != "schema"])
        dsn = urlunsplit(parts._replace(query=kept))
        if schema is not None:
            options.setdefault("schema", schema)
        return PostgresSessionService(dsn, **options)
    raise InvalidConfigError(
        f"no agentlog store for {scheme!r} URLs: use memory://, sqlite:///path or postgresql://..."
    )


def _refuse_adk_file(path: Path) -> None:
    if not path.is_file():
        return
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
            names = {
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
    except sqlite3.DatabaseError:
        return  # not ours to judge: the store reports what it finds
    if names.intersection(_ADK_TABLES):
        raise InvalidConfigError(
            f"{path} holds google-adk's DatabaseSessionService tables; agentlog keeps its "
            "sessions in tables of its own: give it another file"
        )


def register_adk_services() -> None:
    """Register :data:`ADK_SCHEMES` with google-adk's service registry (``adk web``,
    ``adk api_server``): call it from the agents folder's ``services.py``."""
    from google.adk.cli.service_registry import get_service_registry

    registry = get_service_registry()
    for scheme in ADK_SCHEMES:
        registry.register_session_service(scheme, _factory)


def _factory(uri: str, **kwargs: Any) -> Any:
    from agentlog.adk.service import AgentlogSessionService

    # ADK passes its agents folder to every factory; a store has no use for it.
    kwargs.pop("agents_dir", None)
    return AgentlogSessionService.from_url(uri, **kwargs)
