"""The ``jobs`` extra's imports, in one place, so a missing extra names itself once."""

from __future__ import annotations

try:
    import psycopg
    from procrastinate import (
        App,
        BaseRetryStrategy,
        Blueprint,
        JobContext,
        PsycopgConnector,
        RetryDecision,
        RetryStrategy,
    )
    from procrastinate.exceptions import AlreadyEnqueued, ConnectorException
    from procrastinate.jobs import Job
    from procrastinate.schema import SchemaManager
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"agentlog.jobs needs the jobs extra: pip install 'agentlog[jobs]' ({exc})"
    ) from exc

__all__ = [
    "AlreadyEnqueued",
    "App",
    "BaseRetryStrategy",
    "Blueprint",
    "ConnectorException",
    "Job",
    "JobContext",
    "PsycopgConnector",
    "RetryDecision",
    "RetryStrategy",
    "SchemaManager",
    "conninfo_to_dict",
    "psycopg",
    "sql",
]
