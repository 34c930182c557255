"""Numbered schema migrations, one SQL file each, recorded in ``agentlog_migrations`` as they run.

Files are named ``NNNN_name.sql`` under a folder per dialect. Each runs in its own transaction
together with the row that records it, so a crash mid-migration leaves it unapplied, and a
store never creates tables any other way.
"""

from __future__ import annotations

from typing import Final

from agentlog._stores import migrations as _migrations
from agentlog._stores.migrations import Dialect, Migration, split_statements

__all__ = ["MIGRATIONS_TABLE", "Migration", "load_migrations", "split_statements"]

MIGRATIONS_TABLE: Final = "agentlog_migrations"
"""Where applied migrations are recorded."""


def load_migrations(dialect: Dialect) -> list[Migration]:
    """The dialect's migrations, in order."""
    return _migrations.load_migrations(__name__, dialect)
