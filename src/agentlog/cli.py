"""The ``agentlog`` command line. It shares one core with the library and reads settings from
options or, where noted, environment variables (the library itself takes arguments only).

A user error of any command is one line naming the fix and exit code 2; ``agentlog --debug ...``
adds the traceback (:mod:`agentlog.cli_errors`)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from agentlog.cli_errors import CommandGroup, require_folder
from agentlog.errors import InvalidConfigError
from agentlog.jobs.cli import register as register_worker
from agentlog.logs import configure_logging
from agentlog.summary.cli import register as register_summary

__all__ = ["app", "main"]

app = typer.Typer(
    name="agentlog",
    help="The event log for LLM agents.",
    no_args_is_help=True,
    add_completion=False,
    cls=CommandGroup,
)


@app.callback()
def _root(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log at INFO level.")] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of an error, not only its line.")
    ] = False,
) -> None:
    configure_logging("INFO" if verbose else "WARNING")


@app.command()
def demo(
    db: Annotated[Path, typer.Option(help="SQLite file for the demo's sessions.")] = Path(
        "agentlog-demo.db"
    ),
    model: Annotated[
        str | None,
        typer.Option(
            envvar="AGENTLOG_MODEL",
            help="A real model, e.g. openai:gpt-4o-mini (default: the offline script).",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(envvar="AGENTLOG_BASE_URL", help="An OpenAI-compatible server's URL."),
    ] = None,
    ask: Annotated[
        bool, typer.Option(help="Ask before approving each refund (default: approve).")
    ] = False,
) -> None:
    """Run the refund desk end to end: streaming, tools, an approval, the stored log."""
    from agentlog.demo.show import run_demo
    from agentlog.models.registry import model_from_spec
    from agentlog.router import RoutedMessage

    require_folder(str(db))
    console = Console()
    try:
        llm = model_from_spec(model, base_url=base_url) if model else None
    except InvalidConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="--model") from exc

    def approve(request: RoutedMessage) -> bool:
        if not ask:
            return True
        return typer.confirm(f"Approve: {request.text}", default=True)

    asyncio.run(run_demo(db, model=llm, console=console, approve=approve))


@app.command()
def check(
    db: Annotated[
        str, typer.Option(help="SQLite file, or a postgresql:// DSN.", envvar="AGENTLOG_DB")
    ],
    quarantine: Annotated[
        str | None,
        typer.Option(
            metavar="RECORD",
            help="First move this record, named as the check prints it, into the quarantine "
            "table (kept, never deleted), so the rest of its session loads.",
        ),
    ] = None,
) -> None:
    """List every record of a session store that cannot be loaded; exit code 1 if any."""
    from agentlog.check import run

    raise typer.Exit(asyncio.run(run(db, record=quarantine, echo=typer.echo)))


def _register_optional() -> None:
    try:
        from agentlog.server.cli import register
    except ImportError as exc:
        missing = str(exc)

        @app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
        def serve() -> None:
            """Serve the HTTP API and web page (needs the 'server' extra)."""
            raise typer.BadParameter(missing)

    else:
        register(app)


_register_optional()
register_summary(app)
register_worker(app)


def main() -> None:
    """Entry point of the ``agentlog`` script."""
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    app()
