"""``agentlog check``: list every record of a session store that cannot be loaded, after
quarantining one if asked (the reading and moving are :mod:`agentlog.check`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated

import typer

__all__ = ["check", "register", "run"]


async def run(db: str, *, record: str | None = None, echo: Callable[[str], None] = print) -> int:
    """Quarantine ``record`` if given, then check the store and ``echo`` the report. The exit
    code: 1 if a record cannot be loaded, else 0."""
    from agentlog.check import check_store, quarantine

    if record is not None:
        moved = await quarantine(db, record)
        echo(f"quarantined {moved}")
    report = await check_store(db)
    for line in report.lines():
        echo(line)
    return 0 if report.clean else 1


def check(
    db: Annotated[
        str,
        typer.Option(
            metavar="PATH_OR_DSN", help="SQLite file, or a postgresql:// DSN.", envvar="AGENTLOG_DB"
        ),
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
    raise typer.Exit(asyncio.run(run(db, record=quarantine, echo=typer.echo)))


def register(app: typer.Typer) -> None:
    """Add the ``check`` command to the ``agentlog`` command line."""
    app.command("check", short_help="List the records of a store that cannot be loaded.")(check)
