"""The PostgreSQL summary store's numbered migrations, recorded in
``agentlog_summary_migrations``.

Same rules as the session store's (:mod:`agentlog.sessions.migrations`): one ``NNNN_name.sql``
file per change, each run in one transaction with the row that records it. The table has a
name of its own, so a summary store shares a schema with the session store. (The SQLite summary
store keeps its few migrations in :mod:`agentlog.summary.stores.sqlite`.)
"""

from __future__ import annotations

from typing import Final

from agentlog._stores import migrations as _migrations
from agentlog._stores.migrations import Migration

__all__ = ["MIGRATIONS_TABLE", "load_migrations"]

MIGRATIONS_TABLE: Final = "agentlog_summary_migrations"
"""Where applied migrations are recorded."""


def load_migrations() -> list[Migration]:
    """The PostgreSQL migrations, in order."""
    return _migrations.load_migrations(__name__, "postgres", what="summary migrations")
