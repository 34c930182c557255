"""Numbered schema migrations, one SQL file each, recorded in ``agentlog_migrations`` as they run.

Files are named ``NNNN_name.sql`` under a folder per dialect. Each runs in its own transaction
together with the row that records it, so a crash mid-migration leaves it unapplied, and a
store never creates tables any other way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Literal

__all__ = ["Migration", "load_migrations", "split_statements"]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema change."""

    version: int
    name: str
    sql: str


def load_migrations(dialect: Literal["sqlite", "postgres"]) -> list[Migration]:
    """The dialect's migrations, in order."""
    folder = resources.files(__package__).joinpath(dialect)
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} migrations are not numbered 1..n: {found}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a migration into statements (our files end each statement with ``;`` and a newline)."""
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";\n") if s.strip().rstrip(";").strip()]
