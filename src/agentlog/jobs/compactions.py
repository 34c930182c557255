"""The compaction job: ``compact_session(app_name, user_id, session_id, version)``.

For a ``Runner`` given a ``compaction_queue``: instead of compacting in a task of the server
that ran the turn, the runner defers this job once the turn's stream has ended and a trigger
fires, and an ``agentlog worker`` started with ``--compaction module:config`` runs it. One run:

1. loads the session from its newest compaction on, as a turn does;
2. compacts it if a trigger still fires (:class:`~agentlog.compaction.hook.CompactionHook`:
   summarise, validate, store; a failure is a logged warning and stores nothing, so the job
   never raises and is never retried), appending under the session's lease, so it never lands
   inside a turn on any server.

A second run for the same version, or one after a later compaction, finds no trigger firing
and stores nothing: the trigger counts the invocations after the newest compaction.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Final, Literal

from agentlog.compaction.config import EventsCompactionConfig
from agentlog.compaction.hook import CompactionHook
from agentlog.errors import SessionNotFoundError
from agentlog.jobs._deps import Blueprint, JobContext
from agentlog.sessions.base import GetSessionConfig, SessionService
from agentlog.turn_lease import COMPACTION_LEASE, hold_session

__all__ = [
    "COMPACT_TASK",
    "COMPACTION_CONTEXT_KEY",
    "COMPACTION_QUEUE",
    "CompactionJobServices",
    "CompactionOutcome",
    "compaction_tasks",
    "run_compaction_job",
]

COMPACT_TASK: Final = "agentlog:compact_session"
"""The task's name in the queue."""

COMPACTION_QUEUE: Final = "agentlog-compactions"
"""The procrastinate queue compaction jobs wait in: only workers started with a compaction
config listen to it, so a worker without one never takes (and fails) such a job."""

COMPACTION_CONTEXT_KEY: Final = "agentlog.compactions"
"""Where a worker's ``additional_context`` holds its :class:`CompactionJobServices`."""

CompactionOutcome = Literal["stored", "nothing_due", "session_gone"]
"""What a run did."""

_FROM_LATEST: Final = GetSessionConfig(from_latest_compaction=True)


@dataclass(frozen=True, slots=True)
class CompactionJobServices:
    """What a compaction job runs with."""

    sessions: SessionService
    """Where the sessions are read and the compaction events stored."""
    config: EventsCompactionConfig
    """When and how to compact: the same config the runners were given."""
    app_name: str = "agentlog"
    """Only this app's jobs are taken; another app's are refused."""
    lease_ttl_s: float = 30.0
    """The lease held while the compaction event is appended."""
    lease_wait_s: float = 60.0
    """How long to wait for a session busy with a turn."""


async def run_compaction_job(
    services: CompactionJobServices, *, app_name: str, user_id: str, session_id: str
) -> CompactionOutcome:
    """Compact the session if a trigger fires (see the module doc)."""
    if app_name != services.app_name:
        raise RuntimeError(f"this worker compacts app {services.app_name!r}, not {app_name!r}")
    try:
        session = await services.sessions.get_session(
            app_name=app_name, user_id=user_id, session_id=session_id, config=_FROM_LATEST
        )
    except SessionNotFoundError:
        return "session_gone"

    def hold(key: tuple[str, str]) -> AbstractAsyncContextManager[int | None]:
        return hold_session(
            services.sessions,
            app_name=app_name,
            user_id=key[0],
            session_id=key[1],
            invocation_id=COMPACTION_LEASE,
            ttl_s=services.lease_ttl_s,
            wait_s=services.lease_wait_s,
        )

    hook = CompactionHook(services.config, services.sessions, session_lock=hold)
    return "stored" if await hook.compact(session) is not None else "nothing_due"


def compaction_tasks() -> Blueprint:
    """A blueprint with the compaction task; added to a ``JobQueue``'s app under the
    ``agentlog`` namespace. Never retried: a failed compaction stores nothing, and the next
    turn's trigger defers another."""
    blueprint = Blueprint()

    @blueprint.task(name="compact_session", pass_context=True)
    async def compact_session(
        context: JobContext, app_name: str, user_id: str, session_id: str, version: int
    ) -> str:
        services = context.additional_context.get(COMPACTION_CONTEXT_KEY)
        if not isinstance(services, CompactionJobServices):
            raise RuntimeError("a compaction job runs only in a worker started with --compaction")
        return await run_compaction_job(
            services, app_name=app_name, user_id=user_id, session_id=session_id
        )

    return blueprint
