"""``agentlog serve``: the HTTP API on uvicorn.

By default it serves the refund desk on an offline model from a SQLite file, with no network
needed. Without API keys it serves one local user on 127.0.0.1 only and refuses any other
address.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from agentlog.agents.base import BaseAgent
from agentlog.cli_errors import require_folder
from agentlog.errors import InvalidConfigError
from agentlog.server.auth import is_loopback, parse_key_spec, read_keys_file
from agentlog.sessions.base import SessionService

if TYPE_CHECKING:
    from agentlog.artifacts import ArtifactService
    from agentlog.memory import MemoryService
    from agentlog.summary import SummaryStore
    from agentlog.summary.background import SummaryQueue

__all__ = [
    "build_artifacts",
    "build_extras",
    "build_store",
    "build_summary_queue",
    "check_store",
    "load_agent",
    "register",
    "serve",
]


def _is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def build_store(db: str) -> SessionService:
    """PostgreSQL for a ``postgresql://`` DSN, else a SQLite file."""
    if db.startswith(("postgresql://", "postgres://")):
        try:
            from agentlog.sessions.postgres import PostgresSessionService
        except ImportError as exc:
            raise InvalidConfigError(f"{exc} (needed for --db postgresql://...)") from exc

        return PostgresSessionService(db)
    from agentlog.sessions.sqlite import SqliteSessionService

    return SqliteSessionService(db)


def build_extras(db: str) -> tuple[SummaryStore, MemoryService, str]:
    """The summary and memory stores beside the session store, and a note on where they are."""
    from agentlog.summary import SqliteSummaryStore

    if _is_postgres(db):
        from agentlog.memory.postgres import PostgresMemoryService
        from agentlog.summary.postgres import PostgresSummaryStore

        note = "summaries and memory in PostgreSQL"
        return PostgresSummaryStore(db), PostgresMemoryService(db), note
    from agentlog.memory import SqliteMemoryService

    return SqliteSummaryStore(db), SqliteMemoryService(db), f"summaries and memory in {db}"


def build_artifacts(db: str) -> ArtifactService:
    """Where the runner keeps artifacts: PostgreSQL beside the sessions, or a folder beside the
    SQLite file (``<file>-artifacts``; in memory for ``:memory:``)."""
    if _is_postgres(db):
        from agentlog.artifacts.postgres import PostgresArtifactService

        return PostgresArtifactService(db)
    from agentlog.artifacts import FileArtifactService, InMemoryArtifactService

    if db == ":memory:":
        return InMemoryArtifactService()
    return FileArtifactService(Path(f"{db}-artifacts"))


def build_summary_queue(db: str) -> SummaryQueue | None:
    """On PostgreSQL, the job queue background summaries go to (for ``agentlog worker``);
    None on SQLite, where the server takes them in its own process."""
    if not _is_postgres(db):
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


def load_agent(spec: str) -> BaseAgent:
    """The agent ``module:object`` names: an agent, or a function of no arguments returning
    one. The module is looked for in the current folder first, as ``python -m`` does.

    Raises ``InvalidConfigError`` saying what is wrong with ``spec``.
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise InvalidConfigError(f"{spec!r} is not 'module:object', e.g. 'myapp:root'")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module_name + ".").startswith(exc.name + "."):
            raise InvalidConfigError(f"importing {module_name!r} failed: {exc}") from exc
        raise InvalidConfigError(
            f"no module named {exc.name!r}: check the name, and run from the folder that holds "
            "it or add that folder to PYTHONPATH"
        ) from exc
    except Exception as exc:
        raise InvalidConfigError(
            f"importing {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidConfigError(f"module {module_name!r} has no {attr!r}") from None
    if not isinstance(obj, BaseAgent) and callable(obj):
        obj = _call_factory(spec, obj)
    if not isinstance(obj, BaseAgent):
        raise InvalidConfigError(
            f"{spec} is a {type(obj).__name__}, not an agent: name a BaseAgent, or a function "
            "of no arguments that returns one"
        )
    return obj


def _call_factory(spec: str, factory: Any) -> Any:
    try:
        inspect.signature(factory).bind()
    except TypeError:
        raise InvalidConfigError(
            f"{spec} is not an agent but a {type(factory).__name__} that needs arguments: name "
            "a BaseAgent, or a function of no arguments that returns one"
        ) from None
    except ValueError:  # no signature to read (some builtins): calling it will tell
        pass
    try:
        return factory()
    except Exception as exc:
        raise InvalidConfigError(f"calling {spec}() failed: {type(exc).__name__}: {exc}") from exc


def _agent(spec: str | None, model: str | None, base_url: str | None) -> BaseAgent:
    if spec is not None:
        return load_agent(spec)
    from agentlog.models.registry import model_from_spec
    from agentlog.server.desk import refund_desk

    return refund_desk(model_from_spec(model, base_url=base_url) if model else None)


def _keys(
    api_key: list[str], admin_key: list[str], keys_file: Path | None
) -> tuple[dict[str, str], dict[str, str]]:
    users, admins = read_keys_file(keys_file) if keys_file else ({}, {})
    for spec in api_key:
        key, user = parse_key_spec(spec)
        users[key] = user
    for spec in admin_key:
        key, user = parse_key_spec(spec, default_user="admin")
        admins[key] = user
    return users, admins


def serve(
    db: Annotated[
        str, typer.Option(help="SQLite file, or a postgresql:// DSN.", envvar="AGENTLOG_DB")
    ] = "agentlog.db",
    agent: Annotated[
        str | None,
        typer.Option(help="The agent as module:object (default: the refund desk)."),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            envvar="AGENTLOG_MODEL",
            help="A model for the refund desk, e.g. openai:gpt-4o-mini (default: offline).",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(envvar="AGENTLOG_BASE_URL", help="An OpenAI-compatible server's URL."),
    ] = None,
    app_name: Annotated[str, typer.Option(help="The app the sessions belong to.")] = "agentlog",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    api_key: Annotated[
        list[str] | None, typer.Option("--api-key", help="KEY=USER; repeat for more.")
    ] = None,
    api_keys_file: Annotated[
        Path | None,
        typer.Option(
            help="One KEY=USER a line ('admin KEY=USER' for admins; a KEY may be sha256:<hex>).",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    admin_key: Annotated[
        list[str] | None,
        typer.Option("--admin-key", help="KEY or KEY=USER that may also write app: state."),
    ] = None,
    cors_origin: Annotated[
        list[str] | None, typer.Option("--cors-origin", help="Allow this origin (CORS).")
    ] = None,
    max_body_bytes: Annotated[int, typer.Option(help="Larger request bodies get 413.")] = 1_000_000,
    approval_deadline: Annotated[
        float, typer.Option(help="Seconds before a paused approval counts as stalled.")
    ] = 900.0,
    follow_poll: Annotated[
        float,
        typer.Option(
            min=0.05,
            help="Seconds between a follow stream's reads of the store, for the turns other "
            "processes run on the same database.",
        ),
    ] = 1.0,
    lease_ttl: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds a turn's session lease lives unrenewed: how long a session stays "
            "busy after the process running its turn dies.",
        ),
    ] = 30.0,
    busy_wait: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Seconds a message waits for a session busy with another turn (on any "
            "server) before 409 session busy.",
        ),
    ] = 60.0,
    summaries: Annotated[
        bool,
        typer.Option(help="Checked summaries (extractive, no model) and long-term memory."),
    ] = True,
    summarize_idle_after: Annotated[
        float, typer.Option(help="Summarise a session idle this many seconds.")
    ] = 300.0,
) -> None:
    """Serve the HTTP API: sessions, resumable event streams and approvals."""
    import uvicorn

    from agentlog.runner import Runner
    from agentlog.server.app import create_app

    console = Console(stderr=True)
    try:
        users, admins = _keys(api_key or [], admin_key or [], api_keys_file)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if not users and not admins and not is_loopback(host):
        raise typer.BadParameter(
            f"no API keys: refusing to listen on {host}; give --api-key KEY=USER "
            "(or --api-keys-file), or listen on 127.0.0.1",
            param_hint="--host",
        )
    try:
        root = _agent(agent, model, base_url)
    except InvalidConfigError as exc:
        hint = "--agent" if agent is not None else "--model"
        raise typer.BadParameter(str(exc), param_hint=hint) from exc
    check_store(db, app_name)
    if not users and not admins:
        console.print(
            "[yellow]No API keys: serving one local user on the loopback address only.[/]"
        )
    store = build_store(db)
    extras: dict[str, Any] = {}
    note = "no summaries"
    if summaries:
        from agentlog.summary import ExtractiveSummarizer

        summary_queue = build_summary_queue(db)
        summary_store, memory, note = build_extras(db)
        extras = {
            "summaries": summary_store,
            "summarizer": ExtractiveSummarizer(),
            "summarize_idle_after_s": summarize_idle_after,
            "summary_queue": summary_queue,
            "memory": memory,
        }
        if summary_queue is not None:
            note += "; background summaries by 'agentlog worker'"
    app = create_app(
        Runner(
            agent=root,
            session_service=store,
            app_name=app_name,
            artifact_service=build_artifacts(db),
            lease_ttl_s=lease_ttl,
            lease_wait_s=busy_wait,
        ),
        api_keys=users,
        admin_keys=admins,
        max_body_bytes=max_body_bytes,
        cors_origins=cors_origin or None,
        approval_deadline_s=approval_deadline,
        follow_poll_s=follow_poll,
        close_store_on_shutdown=True,
        **extras,
    )
    where = "PostgreSQL" if db.startswith(("postgresql://", "postgres://")) else db
    users_count = len(set(users.values()) | set(admins.values()))
    console.print(
        f"agentlog serving agent [bold]{root.name}[/] from {where} ({note}) on "
        f"http://{host}:{port} for {users_count or 'one local'} user(s)"
    )
    uvicorn.run(app, host=host, port=port, log_level="info")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``agentlog`` command line."""
    app.command("serve")(serve)
