"""Numbered schema migrations shipped as SQL files: ``NNNN_name.sql`` under a folder per dialect.

Each store keeps its files in a package of its own (``agentlog.sessions.migrations``,
``agentlog.memory.migrations``) and records what it applied in a table of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Final, Literal

__all__ = ["Dialect", "Migration", "load_migrations", "split_statements"]

Dialect = Literal["sqlite", "postgres"]

_NAME: Final = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema change."""

    version: int
    name: str
    sql: str


def load_migrations(package: str, dialect: Dialect, *, what: str = "migrations") -> list[Migration]:
    """The migrations in ``package``'s ``dialect`` folder, in order.

    Raises ``RuntimeError`` (naming ``what``) unless they are numbered 1 to n.
    """
    found = [
        Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8"))
        for entry in resources.files(package).joinpath(dialect).iterdir()
        if (match := _NAME.match(entry.name))
    ]
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} {what} are not numbered 1..n: {found}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a migration into statements (our files end each statement with ``;`` and a newline)."""
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";\n") if s.strip().rstrip(";").strip()]
