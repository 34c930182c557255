"""The memory store's numbered migrations, recorded in ``agentlog_memory_migrations``.

Same rules as the session store's (:mod:`agentlog.sessions.migrations`): one ``NNNN_name.sql``
file per change and dialect, each run in one transaction with the row that records it. The
memory tables and their migrations table have names of their own, so a memory store can share
a SQLite file or a PostgreSQL schema with a session store.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Final, Literal

from agentlog.sessions.migrations import Migration, split_statements

__all__ = ["MIGRATIONS_TABLE", "Migration", "load_migrations", "split_statements"]

MIGRATIONS_TABLE: Final = "agentlog_memory_migrations"
"""Where applied migrations are recorded."""

_NAME: Final = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def load_migrations(dialect: Literal["sqlite", "postgres"]) -> list[Migration]:
    """The dialect's migrations, in order."""
    found = [
        Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8"))
        for entry in resources.files(__package__).joinpath(dialect).iterdir()
        if (match := _NAME.match(entry.name))
    ]
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} memory migrations are not numbered 1..n: {found}")
    return found
