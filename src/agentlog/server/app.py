"""``create_app``: the HTTP API over a runner and its session store.

Stateless by design: everything a turn needs is in the session store, so processes sharing a
store could serve the same sessions; a process keeps only the live fan-out of the turns it is
running and the readers waiting for a session's next turn (:mod:`agentlog.server.hub`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from agentlog import __version__
from agentlog._tasks import cancel_and_wait
from agentlog.logs import get_logger
from agentlog.runner import Runner
from agentlog.server import health
from agentlog.server.admissions import AdmitRequests
from agentlog.server.auth import LOCAL_USER, KeyRing
from agentlog.server.deps import Server
from agentlog.server.errors import install_error_handlers
from agentlog.server.fanout import connect_fanout
from agentlog.server.hub import TurnHub
from agentlog.server.lanes import install_turn_lane
from agentlog.server.limits import BodyLimit
from agentlog.server.methods import install_method_answers
from agentlog.server.no_nulls import install_no_nulls
from agentlog.server.routes import approvals, artifacts, sessions, state, turns
from agentlog.server.stalls import StallWatcher
from agentlog.server.versions import VersionReads
from agentlog.server.web import install_web_page
from agentlog.sessions.base import SessionService

if TYPE_CHECKING:
    from agentlog.memory import MemoryService
    from agentlog.summary import BackgroundSummarizer, Summarizer, SummaryStore
    from agentlog.summary.summarisers.background import SummaryQueue

__all__ = ["RunnerFactory", "create_app"]

logger = get_logger("agentlog.server")

RunnerFactory = Callable[[SessionService], Runner]
"""Builds the runner over the store the app is given."""


def create_app(
    runner: Runner | RunnerFactory,
    session_service: SessionService | None = None,
    *,
    api_keys: Mapping[str, str] | None = None,
    admin_keys: Mapping[str, str] | None = None,
    max_body_bytes: int = 1_000_000,
    cors_origins: Sequence[str] | None = None,
    approval_deadline_s: float = 900.0,
    stall_check_interval_s: float | None = 60.0,
    close_store_on_shutdown: bool = False,
    shutdown_grace_s: float = 5.0,
    follow_poll_s: float = 1.0,
    summaries: SummaryStore | None = None,
    summarizer: Summarizer | None = None,
    summarize_idle_after_s: float | None = None,
    summary_queue: SummaryQueue | None = None,
    memory: MemoryService | None = None,
) -> FastAPI:
    """The agentlog HTTP API (OpenAPI at ``/openapi.json``).

    Args:
        runner: the runner, or a factory given ``session_service``. One runner serves every
            request, so its per-session lock serialises the turns of a session.
        session_service: the store; defaults to the runner's (must be the runner's if given).
        api_keys: API key to user id (``sha256:<hex>`` keys are taken as hashed). With neither
            these nor ``admin_keys``, one local user is served, to loopback clients only.
        admin_keys: keys that may also write ``app:`` state, to user id.
        max_body_bytes: larger request bodies get 413.
        cors_origins: origins allowed cross-site; CORS is off when ``None``.
        approval_deadline_s: a turn paused on a request longer than this is stalled.
        stall_check_interval_s: how often to log stalled approvals; ``None`` never.
        close_store_on_shutdown: close the stores (sessions, the runner's artifacts, and
            summaries, memory and the summary queue if given) when the app shuts down.
        shutdown_grace_s: at shutdown, how long running turns may take to finish before
            they are cancelled.
        follow_poll_s: how often a stream waiting on what other processes sharing the store
            do (a follow stream, or a stream of a turn another server runs) reads its
            session's version and running turn when nothing wakes it sooner; turns run by
            this process, and on PostgreSQL what any process stores, are noticed at once.
        summaries: where checked summaries are kept; adds the summary and digest routes.
        summarizer: takes summaries on request (``POST /sessions/{id}/summary``), and in the
            background with ``summarize_idle_after_s``.
        summarize_idle_after_s: summarise sessions idle this long, in the background.
        summary_queue: with ``summarize_idle_after_s``, enqueue those summaries here (a
            :class:`agentlog.jobs.queue.JobQueue`, for ``agentlog worker``) instead of taking
            them in this process; closed at shutdown with the stores.
        memory: long-term memory; adds the memory routes, and a summary taken on request
            refreshes its session's entries.
    """
    if not isinstance(runner, Runner):
        if session_service is None:
            raise ValueError("a runner factory needs the session_service to build on")
        runner = runner(session_service)
    elif session_service is not None and session_service is not runner.session_service:
        raise ValueError("session_service is not the runner's session_service")
    if max_body_bytes < 1 or approval_deadline_s < 0:
        raise ValueError("max_body_bytes must be positive and approval_deadline_s not negative")
    if follow_poll_s <= 0:
        raise ValueError("follow_poll_s must be positive")
    keys = KeyRing(api_keys, admin_keys)
    if keys.local:
        logger.info(
            "no API keys configured: serving one local user (%r) to loopback clients only",
            LOCAL_USER,
        )
    versions = VersionReads(runner.session_service, runner.app_name, max_age=follow_poll_s / 2)
    server = Server(
        runner=runner,
        hub=TurnHub(reads=versions, poll_s=follow_poll_s),
        keys=keys,
        approval_deadline_s=approval_deadline_s,
        follow_poll_s=follow_poll_s,
        versions=versions,
        summaries=summaries,
        summarizer=summarizer,
        memory=memory,
    )
    background = _background_summaries(server, summarize_idle_after_s, summary_queue)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        watcher: asyncio.Task[None] | None = None
        if stall_check_interval_s is not None:
            check = StallWatcher(
                server.store, server.app_name, approval_deadline_s, stall_check_interval_s
            )
            watcher = asyncio.create_task(check.run())
        if background is not None:
            await background.start()
        # Other servers' appends, turn ends and drafts, on a store that notifies.
        listener = connect_fanout(server.store, server.app_name, server.hub)
        if listener is not None:
            await listener.start()
        try:
            yield
        finally:
            if listener is not None:
                await listener.stop()
            if background is not None:
                await background.stop()
            if watcher is not None:
                await cancel_and_wait(watcher)
            await server.hub.shutdown(shutdown_grace_s)
            try:
                await asyncio.wait_for(server.runner.wait_for_compactions(), shutdown_grace_s)
            except TimeoutError:
                logger.warning("shutting down with a compaction unfinished (nothing is lost)")
            if close_store_on_shutdown:
                await server.store.close()
                if summaries is not None:
                    await summaries.close()
                if memory is not None:
                    await memory.close()
                for closable in (server.artifacts, summary_queue):
                    if isinstance(closable, _Closable):
                        await closable.close()

    app = FastAPI(
        title="agentlog",
        version=__version__,
        summary="Sessions, resumable event streams and approvals for agentlog agents.",
        lifespan=lifespan,
    )
    app.state.agentlog = server
    for module in (sessions, turns, state, approvals, artifacts):
        app.include_router(module.router)
    if summaries is not None:
        from agentlog.server.routes import summaries as summary_routes

        app.include_router(summary_routes.router)
    if memory is not None:
        from agentlog.server.routes import memory as memory_routes

        app.include_router(memory_routes.router)
    install_error_handlers(app)
    install_method_answers(app)
    install_no_nulls(app)
    install_web_page(app)

    app.include_router(health.router)
    # A turn's two requests, matched before FastAPI walks its routers (:mod:`.lanes`).
    install_turn_lane(app, [("POST", sessions.create_session), ("POST", turns.send_message)])

    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    # Outside the body limit: a request counts from its arrival, before its body is read.
    app.add_middleware(AdmitRequests, admissions=server.hub.admissions)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type", "Last-Event-ID"],
        )
    return app


@runtime_checkable
class _Closable(Protocol):
    async def close(self) -> None: ...


def _background_summaries(
    server: Server, idle_after_s: float | None, queue: SummaryQueue | None
) -> BackgroundSummarizer | None:
    if idle_after_s is None:
        return None
    if (server.summarizer is None and queue is None) or server.summaries is None:
        raise ValueError(
            "summarize_idle_after_s needs a summary store, and a summarizer or a summary_queue"
        )
    from agentlog.summary import BackgroundSummarizer

    return BackgroundSummarizer(
        None if queue is not None else server.summarizer,
        session_service=server.store,
        store=server.summaries,
        app_name=server.app_name,
        idle_after=idle_after_s,
        poll_interval=max(1.0, min(60.0, idle_after_s / 2)),
        queue=queue,
    )
