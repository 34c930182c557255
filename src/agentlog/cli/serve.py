"""``agentlog serve``: the HTTP API on uvicorn.

By default it serves the refund desk on an offline model from a SQLite file, with no network
needed. Without API keys it serves one local user on 127.0.0.1 only and refuses any other
address. The server's modules (FastAPI, uvicorn) are imported when the command runs, so the
rest of the command line starts without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from agentlog.errors import InvalidConfigError

if TYPE_CHECKING:
    from agentlog.agents.base import BaseAgent

__all__ = ["register", "serve"]


def _agent(spec: str | None, model: str | None, base_url: str | None) -> BaseAgent:
    if spec is not None:
        from agentlog.cli.loading import load_agent

        return load_agent(spec)
    from agentlog.models.registry import model_from_spec
    from agentlog.server.desk import refund_desk

    return refund_desk(model_from_spec(model, base_url=base_url) if model else None)


def _keys(
    api_key: list[str], admin_key: list[str], keys_file: Path | None
) -> tuple[dict[str, str], dict[str, str]]:
    from agentlog.server.auth import parse_key_spec, read_keys_file

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
        str,
        typer.Option(
            metavar="PATH_OR_DSN", help="SQLite file, or a postgresql:// DSN.", envvar="AGENTLOG_DB"
        ),
    ] = "agentlog.db",
    agent: Annotated[
        str | None,
        typer.Option(
            metavar="MODULE:OBJECT", help="The agent to serve (default: the refund desk)."
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            envvar="AGENTLOG_MODEL",
            metavar="PROVIDER:MODEL",
            help="A model for the refund desk, e.g. openai:gpt-4o-mini (default: offline).",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            envvar="AGENTLOG_BASE_URL", metavar="URL", help="An OpenAI-compatible server's URL."
        ),
    ] = None,
    app_name: Annotated[str, typer.Option(help="The app the sessions belong to.")] = "agentlog",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    api_key: Annotated[
        list[str] | None,
        typer.Option("--api-key", metavar="KEY=USER", help="A user's key; repeat for more."),
    ] = None,
    api_keys_file: Annotated[
        Path | None,
        typer.Option(
            help="One KEY=USER a line ('admin KEY=USER' for admins; a KEY may be sha256:<hex>).",
            metavar="FILE",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    admin_key: Annotated[
        list[str] | None,
        typer.Option(
            "--admin-key", metavar="KEY[=USER]", help="A key that may also write app: state."
        ),
    ] = None,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option("--cors-origin", metavar="ORIGIN", help="Allow this origin (CORS)."),
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
    try:
        import uvicorn

        from agentlog.server.app import create_app
        from agentlog.server.auth import is_loopback
    except ImportError as exc:
        raise typer.BadParameter(
            f"{exc}: serving needs the server extra, pip install 'agentlog[server]'"
        ) from None
    from rich.console import Console

    from agentlog.cli.stores import (
        build_artifacts,
        build_extras,
        build_store,
        build_summary_queue,
        check_store,
        is_postgres,
    )
    from agentlog.runner import Runner

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
    where = "PostgreSQL" if is_postgres(db) else db
    users_count = len(set(users.values()) | set(admins.values()))
    console.print(
        f"agentlog serving agent [bold]{root.name}[/] from {where} ({note}) on "
        f"http://{host}:{port} for {users_count or 'one local'} user(s)"
    )
    uvicorn.run(app, host=host, port=port, log_level="info")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``agentlog`` command line."""
    app.command("serve", short_help="Serve the HTTP API and the web page.")(serve)
