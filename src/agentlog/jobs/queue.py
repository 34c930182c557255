"""``JobQueue``: agentlog's procrastinate app over one PostgreSQL database, and how summaries
are enqueued on it.

A summary job is keyed on the session version that triggers it, twice over:

- ``queueing_lock`` ``summary:<session>:<version>``: while such a job waits, deferring it again
  is refused (``enqueue_summary`` returns False), however many servers see the session idle;
- ``lock`` ``summary:<session>``: jobs of one session never run at the same time, so a job
  deferred again while the first runs waits for it, then finds the summary stored and does
  nothing (see :mod:`agentlog.jobs.summaries`; the summary store's key is the last guard).

The keys hash the ids, so any id fits. The procrastinate tables are made when the queue first
opens (:mod:`agentlog.jobs.schema`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any, Final

from agentlog._stores.postgres import Conn, redact
from agentlog.errors import StoreUnavailableError
from agentlog.jobs._deps import (
    AlreadyEnqueued,
    App,
    BaseRetryStrategy,
    ConnectorException,
    Job,
    PsycopgConnector,
    RetryDecision,
    RetryStrategy,
    conninfo_to_dict,
    psycopg,
    sql,
)
from agentlog.jobs.compactions import COMPACT_TASK, COMPACTION_QUEUE, compaction_tasks
from agentlog.jobs.schema import apply_schema
from agentlog.jobs.summaries import SUMMARIZE_TASK, summary_tasks

__all__ = [
    "DEFAULT_RETRY",
    "JobQueue",
    "compaction_lock",
    "compaction_queueing_lock",
    "retry_strategy",
    "summary_lock",
    "summary_queueing_lock",
]


class _NoRetry(BaseRetryStrategy):
    def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
        return None


def retry_strategy(max_retries: int, backoff_s: int) -> BaseRetryStrategy:
    """Retry a failing job ``max_retries`` times, retry n after ``backoff_s ** n`` seconds
    (0: at once); with no retries a failing job fails at once."""
    if max_retries < 0 or backoff_s < 0:
        raise ValueError("max_retries and backoff_s must not be negative")
    if max_retries == 0:  # procrastinate reads max_attempts=0 as "no limit"
        return _NoRetry()
    return RetryStrategy(max_attempts=max_retries, exponential_wait=backoff_s)


DEFAULT_RETRY: Final = retry_strategy(5, 2)
"""Five retries after the first run, waiting 2, 4, 8, 16 and 32 seconds."""


def _digest(*parts: str) -> str:
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:32]


def summary_lock(app_name: str, user_id: str, session_id: str) -> str:
    """The procrastinate ``lock`` of a session's summary jobs: one runs at a time."""
    return f"agentlog:summary:{_digest(app_name, user_id, session_id)}"


def compaction_lock(app_name: str, user_id: str, session_id: str) -> str:
    """The procrastinate ``lock`` of a session's compaction jobs: one runs at a time."""
    return f"agentlog:compaction:{_digest(app_name, user_id, session_id)}"


def compaction_queueing_lock(app_name: str, user_id: str, session_id: str, version: int) -> str:
    """The ``queueing_lock`` of the compaction job a session version triggered."""
    return f"agentlog:compaction:{_digest(app_name, user_id, session_id, str(version))}"


def summary_queueing_lock(app_name: str, user_id: str, session_id: str, version: int) -> str:
    """The ``queueing_lock`` of the summary job of one session version: one waits at a time."""
    return f"agentlog:summary:{_digest(app_name, user_id, session_id, str(version))}"


class JobQueue:
    """agentlog's jobs on procrastinate, over the PostgreSQL database at ``dsn``.

    Opens on first use (or ``await queue.open()``): makes ``schema`` if asked, applies
    procrastinate's tables under an advisory lock, then opens a small pool. A server only
    enqueues; ``agentlog worker`` (:func:`agentlog.jobs.worker.run_worker`) runs the jobs.

    Args:
        dsn: a libpq connection string or URI.
        schema: keep procrastinate's tables in this schema (created if missing) instead of the
            connection's default ``search_path``.
        retry: how a failing job is retried (procrastinate's ``RetryStrategy``); after the
            last retry the job is ``failed`` and the summary store holds the error.
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None = None,
        retry: BaseRetryStrategy = DEFAULT_RETRY,
        min_size: int = 1,
        max_size: int = 4,
    ) -> None:
        try:
            params = conninfo_to_dict(dsn)
        except psycopg.Error as exc:
            raise StoreUnavailableError(
                f"invalid PostgreSQL DSN: {redact(str(exc).strip(), None)}"
            ) from None
        self._dsn = dsn
        self._password = str(params["password"]) if params.get("password") else None
        self._schema = schema
        self.retry = retry
        pool_args: dict[str, Any] = {
            "conninfo": dsn,
            "min_size": min_size,
            "max_size": max_size,
            "name": "agentlog-jobs",
        }
        if schema is not None:
            pool_args["configure"] = self._configure
        self.app = App(connector=PsycopgConnector(**pool_args))
        self.app.add_tasks_from(summary_tasks(retry), namespace="agentlog")
        self.app.add_tasks_from(compaction_tasks(), namespace="agentlog")
        self._open_lock = asyncio.Lock()
        self._opened = False

    @property
    def schema(self) -> str | None:
        """The schema holding procrastinate's tables, or ``None`` for the default."""
        return self._schema

    async def open(self) -> None:
        """Apply procrastinate's schema if needed and open the pool (a no-op once open)."""
        async with self._open_lock:
            if self._opened:
                return
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._dsn, autocommit=True
                ) as conn:
                    await apply_schema(conn, self._schema)
                await self.app.open_async()
            except (psycopg.Error, ConnectorException) as exc:
                raise self._unavailable(exc) from exc
            self._opened = True

    async def close(self) -> None:
        """Close the pool (a no-op if it never opened)."""
        async with self._open_lock:
            if self._opened:
                self._opened = False
                await self.app.close_async()

    async def enqueue_summary(
        self, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> bool:
        """Defer the summary job of the session at ``version``; False if one already waits.

        Raises ``StoreUnavailableError`` when the database cannot be reached.
        """
        return await self._defer(
            SUMMARIZE_TASK,
            None,
            summary_lock(app_name, user_id, session_id),
            summary_queueing_lock(app_name, user_id, session_id, version),
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            version=version,
        )

    async def enqueue_compaction(
        self, *, app_name: str, user_id: str, session_id: str, version: int
    ) -> bool:
        """Defer the compaction job the session at ``version`` triggered; False if one was
        deferred for that version already (see :mod:`agentlog.jobs.compactions`).

        Raises ``StoreUnavailableError`` when the database cannot be reached.
        """
        return await self._defer(
            COMPACT_TASK,
            COMPACTION_QUEUE,
            compaction_lock(app_name, user_id, session_id),
            compaction_queueing_lock(app_name, user_id, session_id, version),
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            version=version,
        )

    async def _defer(
        self, task: str, queue: str | None, lock: str, queueing_lock: str, **args: Any
    ) -> bool:
        """Defer ``task`` with ``args`` unless a job under ``queueing_lock`` waits, runs or
        is done."""
        await self.open()
        if await self._deferred_before(queueing_lock):
            return False
        options: dict[str, Any] = {"lock": lock, "queueing_lock": queueing_lock}
        if queue is not None:
            options["queue"] = queue
        deferrer = self.app.configure_task(task, **options)
        try:
            await deferrer.defer_async(**args)
        except AlreadyEnqueued:
            return False
        except ConnectorException as exc:
            raise self._unavailable(exc) from exc
        return True

    async def _deferred_before(self, queueing_lock: str) -> bool:
        """Whether a job of this session version is waiting, running or done.

        procrastinate's ``queueing_lock`` refuses a second job only while the first waits; a
        server whose scan saw the session unsummarised just before the job ended would defer
        another, which would find the summary and do nothing. The finished job's row keeps its
        ``queueing_lock``, so one look saves that run. A failed job does not count: the session
        version may be tried again.
        """
        try:
            row = await self.app.connector.execute_query_one_async(
                "SELECT count(*) AS n FROM procrastinate_jobs WHERE queueing_lock = %(lock)s"
                " AND status IN ('todo', 'doing', 'succeeded')",
                lock=queueing_lock,
            )
        except ConnectorException as exc:
            raise self._unavailable(exc) from exc
        return bool(row["n"])

    async def _configure(self, conn: Conn) -> None:
        if self._schema is not None:
            await conn.execute(
                sql.SQL("SET search_path TO {}").format(sql.Identifier(self._schema))
            )
            if not conn.autocommit:
                await conn.commit()

    def _unavailable(self, exc: Exception) -> StoreUnavailableError:
        cause = exc.__cause__ if isinstance(exc, ConnectorException) and exc.__cause__ else exc
        reason = redact(str(cause).strip(), self._password)
        return StoreUnavailableError(f"job queue: {reason}")
