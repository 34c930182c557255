"""procrastinate's tables, applied by agentlog when a worker or a server first opens the queue.

Why not a migration of ours: procrastinate ships its schema and its own upgrade files with the
package, and copying them into our migrations would pin a copy that drifts from the installed
library. Instead, under a transaction-scoped advisory lock (so servers and workers starting
together queue here and the second finds the work done):

- no ``procrastinate_jobs`` table: procrastinate's ``schema.sql`` runs, and every upgrade file
  the installed procrastinate ships is recorded in ``agentlog_job_schema`` as already in it;
- the table and our record: each shipped upgrade file not yet recorded runs, in order, then is
  recorded (so ``pip install -U procrastinate`` upgrades the schema at the next start; stop the
  old workers first, as the files' "pre"/"post" halves then run together);
- the table without our record (someone ran ``procrastinate schema --apply``): it is taken as
  current and recorded, with a warning.

Every object procrastinate makes is named ``procrastinate_*`` and ours ``agentlog_*`` or by the
store, so they share a schema without clashing; the tables go in the connection's current
schema (the first of ``search_path``), which the caller sets.
"""

from __future__ import annotations

from importlib import resources
from typing import Final

from agentlog._stores.postgres import Conn
from agentlog.jobs._deps import SchemaManager, sql
from agentlog.logs import get_logger

__all__ = ["RECORD_TABLE", "apply_schema", "shipped_upgrades"]

logger = get_logger("agentlog.jobs")

RECORD_TABLE: Final = "agentlog_job_schema"
"""Where the procrastinate upgrade files applied (or included in the schema) are recorded."""

_LOCK: Final = (
    "SELECT pg_advisory_xact_lock(%s, hashtext(coalesce(%s::text, current_schema()::text, '')))"
)
_LOCK_CLASS: Final = 0x61676C67
"""The key of the stores' migration lock (:mod:`agentlog._stores.postgres`), so that making a
schema, migrating a store and applying procrastinate's tables on one schema never overlap."""


def shipped_upgrades() -> list[tuple[str, str]]:
    """The installed procrastinate's upgrade files, ``(name, sql)``, in the order they run."""
    folder = resources.files("procrastinate.sql").joinpath("migrations")
    files = sorted(
        (entry.name, entry)
        for entry in folder.iterdir()
        if entry.name.endswith(".sql") and entry.is_file()
    )
    return [(name, entry.read_text(encoding="utf-8")) for name, entry in files]


async def apply_schema(conn: Conn, schema: str | None = None) -> list[str]:
    """Bring procrastinate's tables up to the installed version, in ``schema`` (made if
    missing, and set as ``conn``'s ``search_path``) or else in ``conn``'s current schema.

    ``conn`` must be in autocommit. Returns what ran: ``"schema"`` for new tables, else the
    names of the upgrade files applied (usually none).
    """
    upgrades = shipped_upgrades()
    record = sql.Identifier(RECORD_TABLE)
    async with conn.transaction():
        await conn.execute(_LOCK, (_LOCK_CLASS, schema))
        if schema is not None:
            ident = sql.Identifier(schema)
            exists = await conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,))
            if await exists.fetchone() is None:
                await conn.execute(sql.SQL("CREATE SCHEMA {}").format(ident))
            await conn.execute(sql.SQL("SET search_path TO {}").format(ident))
        found = await (await conn.execute("SELECT to_regclass('procrastinate_jobs')")).fetchone()
        has_jobs = found is not None and found[0] is not None
        await conn.execute(
            sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (name TEXT PRIMARY KEY,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            ).format(record)
        )
        rows = await (await conn.execute(sql.SQL("SELECT name FROM {}").format(record))).fetchall()
        recorded = {str(name) for (name,) in rows}
        ran: list[str] = []
        if not has_jobs:
            # Shipped text run whole with no parameters: psycopg sends it as a simple query,
            # so its "%" signs and its several statements are taken as they are.
            await conn.execute(SchemaManager.get_schema())
            ran = ["schema"]
        elif not recorded:
            logger.warning(
                "procrastinate's tables were made without agentlog; taking them as current"
            )
        else:
            for name, text in upgrades:
                if name not in recorded:
                    await conn.execute(text.encode())  # bytes: a shipped file, run whole
                    ran.append(name)
        await conn.execute(
            sql.SQL(
                "INSERT INTO {} (name) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING"
            ).format(record),
            ([name for name, _ in upgrades],),
        )
    return ran
