"""How the ``agentlog`` command line reports a user error: one line that names the fix (two for a
usage error, the second pointing at ``--help``), exit code 2, no traceback unless ``--debug``.

A user error is anything the person at the terminal can fix: a usage error (click's ``UsageError``,
``typer.BadParameter``) or one of agentlog's own errors (an unreachable store, a model string
that cannot work, a corrupt record, ...). Every other exception is a bug and keeps its traceback.
Commands raise these errors as they are; :class:`CommandGroup` turns them into the line, so every
command of :mod:`agentlog.cli` reports the same way.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any, Final

import typer
from typer.core import TyperGroup

from agentlog.errors import AgentlogError, StoreUnavailableError

try:  # typer 0.20 and later carry their own click, whose errors are not the click package's
    from typer._click import Context
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - an older typer runs on click itself
    from click import Context  # type: ignore[assignment]
    from click import exceptions as click_errors  # type: ignore[no-redef]

__all__ = ["USER_ERROR", "CommandGroup", "require_folder", "user_error_lines"]

USER_ERROR: Final = 2
"""The exit code of every user error (click's own for usage errors)."""


def user_error_lines(exc: Exception) -> list[str] | None:
    """The lines that report ``exc`` to a person, or ``None`` when it is not a user error."""
    if isinstance(exc, click_errors.UsageError):
        lines = [f"Error: {_one_line(exc.format_message())}"]
        if exc.ctx is not None:
            lines.append(f"Try '{exc.ctx.command_path} --help' for help.")
        return lines
    if isinstance(exc, StoreUnavailableError):
        return [
            f"Error: {_one_line(str(exc))}",
            "Check that the database is up and that --db names it.",
        ]
    if isinstance(exc, AgentlogError):
        return [f"Error: {_one_line(str(exc))}"]
    return None


def require_folder(db: str, param_hint: str = "--db") -> None:
    """Refuse a SQLite file whose folder does not exist: the stores would make the folder,
    but on the command line a missing folder is a typo, not a request for one."""
    if db == ":memory:" or db.startswith(("postgresql://", "postgres://")):
        return
    folder = Path(db).expanduser().parent
    if not folder.is_dir():
        raise typer.BadParameter(
            f"the folder {str(folder)!r} does not exist: fix the path, or make the folder first",
            param_hint=param_hint,
        )


class CommandGroup(TyperGroup):
    """The ``agentlog`` group: reports a user error of any command as
    :func:`user_error_lines` and exits with :data:`USER_ERROR`; with the group's ``--debug``
    the traceback comes first."""

    def invoke(self, ctx: Context) -> Any:
        """Run the command, reporting a user error it raises."""
        try:
            return super().invoke(ctx)
        except Exception as exc:
            lines = user_error_lines(exc)
            if lines is None:
                raise
            if ctx.params.get("debug"):
                traceback.print_exception(exc)
            for line in lines:
                typer.echo(line, err=True)
            raise typer.Exit(USER_ERROR) from None


def _one_line(message: str) -> str:
    # Driver messages span lines (libpq adds an indented hint); a report is one line.
    return " ".join(message.split())
