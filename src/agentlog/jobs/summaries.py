"""The summary job: ``summarize_session(app_name, user_id, session_id, version)``.

What one run does, in order, so that a second run of the same (session, version), whether
deferred twice, retried after a crash or run by a worker thought dead, stores nothing new:

1. the summary store already holds a summary of the session at ``version`` or later (one that
   is not an error): done, nothing to do;
2. the session is gone, or moved past ``version`` (a later version gets its own job when it goes
   idle): done;
3. the summariser runs; its result goes in with ``put_once``, which never replaces a delivered
   record. A summariser that raises is retried by procrastinate (``RetryStrategy``, with
   backoff); on the last attempt the error is stored as the summary's outcome (``status
   'error'``) and the job ends ``failed``.

The worker hands the services in through procrastinate's ``additional_context``
(:data:`CONTEXT_KEY`); a server only defers jobs and needs none of them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Final, Literal

from agentlog.errors import SessionNotFoundError
from agentlog.jobs._deps import BaseRetryStrategy, Blueprint, JobContext
from agentlog.logs import get_logger
from agentlog.sessions.base import SessionService
from agentlog.summary.record.result import Summarizer
from agentlog.summary.stores.base import StoredSummary, SummaryStore

__all__ = [
    "CONTEXT_KEY",
    "SUMMARIZE_TASK",
    "SummaryJobServices",
    "SummaryOutcome",
    "run_summary_job",
    "summary_tasks",
]

logger = get_logger("agentlog.jobs")

SUMMARIZE_TASK: Final = "agentlog:summarize_session"
"""The task's name in the queue."""

CONTEXT_KEY: Final = "agentlog.summaries"
"""Where a worker's ``additional_context`` holds its :class:`SummaryJobServices`."""

SummaryOutcome = Literal["stored", "already_summarised", "superseded", "session_gone"]
"""What a run did: stored a summary, or found nothing to do, and why."""


@dataclass(frozen=True, slots=True)
class SummaryJobServices:
    """What a summary job runs with."""

    sessions: SessionService
    """Where the sessions are read."""
    store: SummaryStore
    """Where the outcome goes (shared by every server and worker)."""
    summarizer: Summarizer
    """What writes the record."""


async def run_summary_job(
    services: SummaryJobServices,
    *,
    app_name: str,
    user_id: str,
    session_id: str,
    version: int,
    last_attempt: bool,
) -> SummaryOutcome:
    """Summarise the session at ``version`` unless that is done already (see the module doc).

    A summariser error is re-raised for a retry; on the ``last_attempt`` it is stored first.
    """
    previous = await services.store.get(app_name=app_name, user_id=user_id, session_id=session_id)
    if previous is not None and previous.session_version >= version and previous.status != "error":
        return "already_summarised"
    try:
        session = await services.sessions.get_session(
            app_name=app_name, user_id=user_id, session_id=session_id
        )
    except SessionNotFoundError:
        return "session_gone"
    if session.version != version:
        return "superseded"
    try:
        result = await services.summarizer.summarize(session)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        if last_attempt:
            logger.exception("summary of session %s failed on its last attempt", session_id)
            error = StoredSummary(
                app_name=app_name,
                user_id=user_id,
                session_id=session_id,
                session_version=version,
                status="error",
                error=f"{type(exc).__name__}: {exc}"[:2000],
            )
            await services.store.put_once(error)
        raise
    outcome = StoredSummary.from_result(
        result, app_name=app_name, user_id=user_id, session_id=session_id, version=version
    )
    return "stored" if await services.store.put_once(outcome) else "already_summarised"


def summary_tasks(retry: BaseRetryStrategy) -> Blueprint:
    """A blueprint with the summary task, retried by ``retry``; added to a ``JobQueue``'s app
    under the ``agentlog`` namespace."""
    blueprint = Blueprint()

    @blueprint.task(name="summarize_session", pass_context=True, retry=retry)
    async def summarize_session(
        context: JobContext, app_name: str, user_id: str, session_id: str, version: int
    ) -> str:
        services = context.additional_context.get(CONTEXT_KEY)
        if not isinstance(services, SummaryJobServices):
            raise RuntimeError("a summary job runs only in a worker given SummaryJobServices")
        # What the worker will decide if this run raises: no retry left means the last attempt.
        last = retry.get_retry_decision(exception=Exception(), job=context.job) is None
        return await run_summary_job(
            services,
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            version=version,
            last_attempt=last,
        )

    return blueprint
