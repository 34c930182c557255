"""The ``agentlog`` command line. It shares one core with the library and reads settings from
options or, where noted, environment variables (the library itself takes arguments only)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from agentlog.jobs.cli import register as register_worker
from agentlog.logs import configure_logging
from agentlog.summary.cli import register as register_summary

__all__ = ["app", "main"]

app = typer.Typer(
    name="agentlog",
    help="The event log for LLM agents.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log at INFO level.")] = False,
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

    console = Console()
    llm = model_from_spec(model, base_url=base_url) if model else None

    def approve(request: RoutedMessage) -> bool:
        if not ask:
            return True
        return typer.confirm(f"Approve: {request.text}", default=True)

    asyncio.run(run_demo(db, model=llm, console=console, approve=approve))


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
