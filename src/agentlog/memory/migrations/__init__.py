"""The memory store's numbered migrations, recorded in ``agentlog_memory_migrations``.

Same rules as the session store's (:mod:`agentlog.sessions.migrations`): one ``NNNN_name.sql``
file per change and dialect, each run in one transaction with the row that records it. The
memory tables and their migrations table have names of their own, so a memory store can share
a SQLite file or a PostgreSQL schema with a session store.
"""

from __future__ import annotations

from typing import Final

from agentlog._stores import migrations as _migrations
from agentlog._stores.migrations import Dialect, Migration, split_statements

__all__ = ["MIGRATIONS_TABLE", "Migration", "load_migrations", "split_statements"]

MIGRATIONS_TABLE: Final = "agentlog_memory_migrations"
"""Where applied migrations are recorded."""


def load_migrations(dialect: Dialect) -> list[Migration]:
    """The dialect's migrations, in order."""
    return _migrations.load_migrations(__name__, dialect, what="memory migrations")
