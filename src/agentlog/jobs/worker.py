"""``run_worker``: procrastinate's worker on agentlog's queue, plus the sweep that re-runs the
jobs of a worker that died.

A worker beats every ``heartbeat_s`` seconds. A worker killed mid-job (``kill -9``, an OOM, a
lost machine) leaves its job ``doing``; every live worker looks, each ``heartbeat_s``, for jobs
whose worker has not beaten for ``stalled_after_s`` and sets them back to ``todo`` with
``retry_job`` (which counts an attempt), so the job runs again on some worker. Several sweepers
may find the same job: procrastinate retries a job only while it is ``doing``, so one wins and
the others' calls fail harmlessly. A job thought dead that was only slow may then run twice;
the summary store's ``put_once`` keeps its result once.
"""

from __future__ import annotations

import asyncio

from agentlog._tasks import cancel_and_wait
from agentlog.jobs._deps import ConnectorException
from agentlog.jobs.compactions import (
    COMPACTION_CONTEXT_KEY,
    COMPACTION_QUEUE,
    CompactionJobServices,
)
from agentlog.jobs.queue import JobQueue
from agentlog.jobs.summaries import CONTEXT_KEY, SummaryJobServices
from agentlog.logs import get_logger

__all__ = ["retry_stalled_jobs", "run_worker"]

logger = get_logger("agentlog.jobs")


async def retry_stalled_jobs(queue: JobQueue, *, stalled_after_s: float) -> list[int]:
    """Set the jobs of workers silent for ``stalled_after_s`` back to ``todo``; their ids."""
    manager = queue.app.job_manager
    retried: list[int] = []
    for job in await manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after_s):
        try:
            await manager.retry_job(job)
        except ConnectorException:
            logger.debug("stalled job %s was taken by another worker", job.id)
            continue
        logger.warning("job %s (%s) was stalled: queued to run again", job.id, job.task_name)
        if job.id is not None:
            retried.append(job.id)
    return retried


async def _sweep(queue: JobQueue, every_s: float, stalled_after_s: float) -> None:
    while True:
        await asyncio.sleep(every_s)
        try:
            await retry_stalled_jobs(queue, stalled_after_s=stalled_after_s)
        except ConnectorException:
            logger.exception("looking for stalled jobs failed; trying again later")


async def run_worker(
    queue: JobQueue,
    services: SummaryJobServices,
    *,
    concurrency: int = 1,
    name: str = "agentlog-worker",
    heartbeat_s: float = 10.0,
    stalled_after_s: float = 30.0,
    install_signal_handlers: bool = True,
    compactions: CompactionJobServices | None = None,
) -> None:
    """Run jobs until cancelled or stopped by SIGINT/SIGTERM (running jobs may finish).

    Args:
        queue: the queue (opened here if it is not).
        services: what the summary jobs run with.
        concurrency: jobs run at once.
        name: the worker's name in procrastinate's logs.
        heartbeat_s: seconds between heartbeats, and between sweeps for stalled jobs.
        stalled_after_s: a worker silent this long is dead: its jobs run again elsewhere.
        install_signal_handlers: stop gracefully on SIGINT/SIGTERM (off when embedded).
        compactions: what compaction jobs run with; only a worker given it takes them.
    """
    if concurrency < 1 or not 0 < heartbeat_s < stalled_after_s:
        raise ValueError("need concurrency >= 1 and 0 < heartbeat_s < stalled_after_s")
    await queue.open()
    sweeper = asyncio.create_task(_sweep(queue, heartbeat_s, stalled_after_s))
    try:
        await queue.app.run_worker_async(
            concurrency=concurrency,
            name=name,
            additional_context={CONTEXT_KEY: services, COMPACTION_CONTEXT_KEY: compactions},
            queues=["default", COMPACTION_QUEUE] if compactions is not None else ["default"],
            update_heartbeat_interval=heartbeat_s,
            stalled_worker_timeout=stalled_after_s,
            install_signal_handlers=install_signal_handlers,
        )
    finally:
        await cancel_and_wait(sweeper)
