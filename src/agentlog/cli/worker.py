"""``agentlog worker``: run background jobs (summaries) from a PostgreSQL database.

Start one or more beside ``agentlog serve --db postgresql://...``: the servers enqueue a
summary when a session goes idle, and a worker takes it. On SQLite there is no worker; the
server summarises in its own process.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import typer

__all__ = ["register", "worker"]


def worker(
    db: Annotated[
        str,
        typer.Option(
            metavar="DSN", help="The postgresql:// DSN the servers use.", envvar="AGENTLOG_DB"
        ),
    ],
    concurrency: Annotated[int, typer.Option(min=1, help="Jobs run at once.")] = 1,
    summarizer: Annotated[
        str | None,
        typer.Option(
            metavar="MODULE:OBJECT", help="The summariser (default: extractive, no model)."
        ),
    ] = None,
    max_retries: Annotated[
        int, typer.Option(min=0, help="Retries of a failing job before it ends 'failed'.")
    ] = 5,
    retry_backoff: Annotated[
        int,
        typer.Option(min=0, help="Retry n waits this many seconds to the power n (0: at once)."),
    ] = 2,
    heartbeat: Annotated[
        float, typer.Option(min=0.05, help="Seconds between heartbeats and stalled-job sweeps.")
    ] = 10.0,
    stalled_after: Annotated[
        float,
        typer.Option(help="A worker silent this many seconds is dead: its jobs run again."),
    ] = 30.0,
    name: Annotated[str, typer.Option(help="The worker's name in the logs.")] = "agentlog-worker",
    compaction: Annotated[
        str | None,
        typer.Option(
            metavar="MODULE:OBJECT",
            help="Also run deferred compactions with this EventsCompactionConfig.",
        ),
    ] = None,
    app_name: Annotated[str, typer.Option(help="The app whose sessions it compacts.")] = "agentlog",
) -> None:
    """Run background jobs (summaries of idle sessions) from a PostgreSQL database."""
    from agentlog.cli.stores import is_postgres

    if not is_postgres(db):
        raise typer.BadParameter(
            "the worker needs a postgresql:// DSN; on SQLite, 'agentlog serve' summarises in "
            "its own process",
            param_hint="--db",
        )
    if not heartbeat < stalled_after:
        raise typer.BadParameter("must be more than --heartbeat", param_hint="--stalled-after")
    try:
        from agentlog.jobs.queue import JobQueue, retry_strategy
        from agentlog.jobs.summaries import SummaryJobServices
        from agentlog.jobs.worker import run_worker
        from agentlog.sessions.postgres import PostgresSessionService
        from agentlog.summary.stores.postgres import PostgresSummaryStore
    except ImportError as exc:
        raise typer.BadParameter(
            f"{exc}; the worker needs the jobs extra: pip install 'agentlog[jobs]'"
        ) from None
    from rich.console import Console

    from agentlog.cli.loading import load_compaction, load_summarizer

    try:
        chosen = load_summarizer(summarizer)
    except (ValueError, ImportError, AttributeError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--summarizer") from None
    compactions: Any = None
    if compaction is not None:
        from agentlog.jobs.compactions import CompactionJobServices

        try:
            config = load_compaction(compaction)
        except (ValueError, ImportError, AttributeError) as exc:
            raise typer.BadParameter(str(exc), param_hint="--compaction") from None
    retry = retry_strategy(max_retries, retry_backoff)
    queue = JobQueue(db, retry=retry, max_size=max(2, concurrency + 1))
    sessions = PostgresSessionService(db)
    store = PostgresSummaryStore(db)
    services = SummaryJobServices(sessions=sessions, store=store, summarizer=chosen)
    if compaction is not None:
        compactions = CompactionJobServices(sessions=sessions, config=config, app_name=app_name)
    console = Console(stderr=True)

    async def main() -> None:
        try:
            await queue.open()
            console.print(f"agentlog worker [bold]{name}[/] running {concurrency} job(s) at a time")
            await run_worker(
                queue,
                services,
                concurrency=concurrency,
                name=name,
                heartbeat_s=heartbeat,
                stalled_after_s=stalled_after,
                compactions=compactions,
            )
        finally:
            await queue.close()
            await sessions.close()
            await store.close()

    from agentlog.errors import AgentlogError

    try:
        asyncio.run(main())
    except AgentlogError as exc:
        console.print(f"[red]{exc}[/]")
        raise typer.Exit(1) from None


def register(app: typer.Typer) -> None:
    """Add the ``worker`` command to the ``agentlog`` command line."""
    app.command("worker", short_help="Run background jobs from a PostgreSQL database.")(worker)
