"""Background work on a PostgreSQL job queue (procrastinate): summaries of idle sessions.

Needs the ``jobs`` extra (``pip install 'agentlog[jobs]'``). Servers on PostgreSQL enqueue a
summary job when a session goes idle or ends (:class:`JobQueue`, keyed on the session version,
so however many servers see it the job waits once); ``agentlog worker`` processes
(:func:`run_worker`) take the jobs. One summary per session version, whatever the number of
servers and workers: see :mod:`agentlog.jobs.summaries` for why a second run stores nothing,
and :mod:`agentlog.jobs.worker` for how a dead worker's job runs again. procrastinate's tables
are applied when a queue opens (:mod:`agentlog.jobs.schema` says why that way). On SQLite
there is no queue: the server summarises in its own process.
"""

try:
    from agentlog.jobs.queue import DEFAULT_RETRY, JobQueue, retry_strategy
    from agentlog.jobs.summaries import SUMMARIZE_TASK, SummaryJobServices, run_summary_job
    from agentlog.jobs.worker import retry_stalled_jobs, run_worker
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"agentlog.jobs needs the jobs extra: pip install 'agentlog[jobs]' ({exc})"
    ) from exc

__all__ = [
    "DEFAULT_RETRY",
    "SUMMARIZE_TASK",
    "JobQueue",
    "SummaryJobServices",
    "retry_stalled_jobs",
    "retry_strategy",
    "run_summary_job",
    "run_worker",
]
