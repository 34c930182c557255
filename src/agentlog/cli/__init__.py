"""The ``agentlog`` command line. It shares one core with the library and reads settings from
options or, where noted, environment variables (the library itself takes arguments only).

Every command lives in this package, one module a command (``serve``, ``worker``, ``check``,
``summarize`` and ``eval``, ``demo``), and each imports what it runs only when it runs, so
``agentlog --help`` and a typo answer at once. No library package imports typer or rich.

A user error of any command is one line naming the fix and exit code 2; ``agentlog --debug ...``
adds the traceback (:mod:`agentlog.cli.errors`).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from agentlog.cli import check, serve, summarize, worker
from agentlog.cli.errors import CommandGroup, require_folder
from agentlog.errors import InvalidConfigError

if TYPE_CHECKING:
    from agentlog.router import RoutedMessage

__all__ = ["app", "main"]

app = typer.Typer(
    name="agentlog",
    help="The event log for LLM agents.",
    no_args_is_help=True,
    add_completion=False,
    cls=CommandGroup,
    # Click's own help layout: it wraps every line to the terminal and never cuts an option's
    # name, which rich's table does at 80 columns (and it needs no rich to draw).
    rich_markup_mode=None,
)


@app.callback()
def _root(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log at INFO level.")] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of an error, not only its line.")
    ] = False,
) -> None:
    from agentlog.logs import configure_logging

    configure_logging("INFO" if verbose else "WARNING")


@app.command(short_help="Run the refund desk end to end, offline by default.")
def demo(
    db: Annotated[Path, typer.Option(help="SQLite file for the demo's sessions.")] = Path(
        "agentlog-demo.db"
    ),
    model: Annotated[
        str | None,
        typer.Option(
            envvar="AGENTLOG_MODEL",
            metavar="PROVIDER:MODEL",
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
    from rich.console import Console

    from agentlog.cli.demo import run_demo
    from agentlog.models.registry import model_from_spec

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


check.register(app)
serve.register(app)
summarize.register(app)
worker.register(app)


def main() -> None:
    """Entry point of the ``agentlog`` script."""
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    app()
