"""Checked summaries of the sessions already in a store, kept beside them where
``agentlog serve`` shows them (the web page's handoff record, ``GET /sessions/{id}/summary``).

    python examples/summarize_store.py --db agentlog.db --app agentlog
    python examples/summarize_store.py --db postgresql://app@db/app --app shop --user ana

Each session is summarised by the extractive summariser (offline, deterministic, no model) and
checked by the validator; a session that already has a summary at its current length is
skipped, so a second run only summarises what changed. A model writes the records instead with
``SummaryService(model)`` in place of ``ExtractiveSummarizer()``: the same checks, one retry,
and no record at all rather than an unchecked one.
"""

from __future__ import annotations

import argparse
import asyncio

from agentlog import SessionService, SqliteSessionService
from agentlog.summary import (
    ExtractiveSummarizer,
    SqliteSummaryStore,
    StoredSummary,
    SummaryMetrics,
    SummaryStore,
)


def open_stores(db: str) -> tuple[SessionService, SummaryStore]:
    """The session store ``db`` names and the summary store beside it."""
    if db.startswith(("postgresql://", "postgres://")):
        from agentlog.sessions.postgres import PostgresSessionService
        from agentlog.summary.stores.postgres import PostgresSummaryStore

        return PostgresSessionService(db), PostgresSummaryStore(db)
    return SqliteSessionService(db), SqliteSummaryStore(db)


async def main(args: argparse.Namespace) -> None:
    sessions, summaries = open_stores(args.db)
    summarizer = ExtractiveSummarizer()
    metrics = SummaryMetrics()
    try:
        done = await summaries.latest_versions(app_name=args.app, user_id=args.user)
        for listed in await sessions.list_sessions(app_name=args.app, user_id=args.user):
            key = (listed.user_id, listed.id)
            if listed.version == 0 or done.get(key) == listed.version:
                continue  # nothing to say yet, or summarised at this length already
            session = await sessions.get_session(
                app_name=args.app, user_id=listed.user_id, session_id=listed.id
            )
            result = await summarizer.summarize(session)
            metrics.record(result)
            await summaries.put(
                StoredSummary.from_result(
                    result,
                    app_name=args.app,
                    user_id=session.user_id,
                    session_id=session.id,
                    version=session.version,
                )
            )
            if result.record is None:
                print(f"{session.id}: no checked record: {result.last_problems[:2]}")
            else:
                record = result.record
                items = sum(len(getattr(record, s)) for s in ("facts", "decisions", "commitments"))
                print(f"{session.id}: {record.goal} ({items} items, every one cited)")
        print(
            f"{metrics.attempted} summarised, {metrics.delivered} delivered; "
            f"first-attempt pass rate {metrics.first_attempt_pass_rate or 0:.0%}"
        )
    finally:
        await sessions.close()
        await summaries.close()


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="SQLite file, or a postgresql:// DSN")
    parser.add_argument("--app", required=True, help="the sessions' app")
    parser.add_argument("--user", default=None, help="only this user's sessions")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(_parse()))
