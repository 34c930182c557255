"""Child-process bodies for the conformance suite's multi-process and crash tests.

They live in an importable module because child processes are started with ``spawn``: a
forked child would inherit the parent's event loop, threads and open connections.
"""

from __future__ import annotations

import asyncio
import importlib
import random
from dataclasses import dataclass, field
from typing import Any

from agentlog.errors import StaleSessionError
from agentlog.events import Content, Event, EventActions
from agentlog.sessions.base import GetSessionConfig, Session, SessionService
from agentlog.sessions.leases import SessionLeases

__all__ = [
    "ServiceSpec",
    "append_forever",
    "append_many_forever",
    "append_with_retries",
    "take_turns",
]

_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.05
"""Bounds of the jittered pause before a writer that met a stale version tries again."""


@dataclass(frozen=True)
class ServiceSpec:
    """A picklable recipe for building the same store in another process."""

    factory: str
    """``module:callable`` returning a ``SessionService``."""
    kwargs: dict[str, Any] = field(default_factory=dict)

    def build(self) -> SessionService:
        """Build the store."""
        module, _, name = self.factory.partition(":")
        service: SessionService = getattr(importlib.import_module(module), name)(**self.kwargs)
        return service


async def _reload(service: SessionService, app: str, user: str, sid: str) -> Session:
    # No events: only the version and state are needed to append again.
    config = GetSessionConfig(num_recent_events=0)
    return await service.get_session(app_name=app, user_id=user, session_id=sid, config=config)


def append_with_retries(
    spec: ServiceSpec, app: str, user: str, sid: str, worker: int, count: int
) -> list[str]:
    """Append ``count`` events, retrying each on ``StaleSessionError``; return their ids."""

    async def run() -> list[str]:
        service = spec.build()
        ids: list[str] = []
        try:
            session = await _reload(service, app, user, sid)
            for i in range(count):
                event = Event(
                    invocation_id=f"w{worker}",
                    author=f"worker{worker}",
                    content=Content.from_text(f"worker {worker} event {i}", role="model"),
                    actions=EventActions(state_delta={f"w{worker}": i}),
                )
                pause = _FIRST_PAUSE
                while True:
                    try:
                        session = await service.append_event(session, event)
                        break
                    except StaleSessionError:
                        # Wait, don't spin: reloading at once only loses the next race too.
                        await asyncio.sleep(random.uniform(0, pause))
                        pause = min(pause * 2, _LONGEST_PAUSE)
                        session = await _reload(service, app, user, sid)
                ids.append(event.id)
        finally:
            await service.close()
        return ids

    return asyncio.run(run())


def append_forever(spec: ServiceSpec, app: str, user: str, sid: str) -> None:
    """Append events, each with a delta, until killed."""
    append_many_forever(spec, app, user, [sid])


def append_many_forever(spec: ServiceSpec, app: str, user: str, sids: list[str]) -> None:
    """Append to every session in ``sids`` at once, over and over, until killed: on a store
    that commits concurrent appends together, the kill lands inside batches of them."""

    async def one(service: SessionService, sid: str) -> None:
        session = await _reload(service, app, user, sid)
        i = session.version
        while True:
            i += 1
            event = Event(
                invocation_id=f"inv-{i}",
                author="crasher",
                content=Content.from_text(f"event {i} " + "x" * (i % 7 * 100), role="model"),
                actions=EventActions(state_delta={"n": i, f"k{i % 5}": i, "gone": None}),
            )
            session = await service.append_event(session, event)

    async def run() -> None:
        service = spec.build()
        await asyncio.gather(*(one(service, sid) for sid in sids))

    asyncio.run(run())


def take_turns(
    spec: ServiceSpec, app: str, user: str, sid: str, worker: int, turns: int, per_turn: int
) -> None:
    """Take ``turns`` turns on the session, each appending ``per_turn`` events under the
    session's lease, waiting for it as a second turn does."""

    async def run() -> None:
        service = spec.build()
        assert isinstance(service, SessionLeases)
        try:
            for turn in range(turns):
                invocation = f"w{worker}-t{turn}"
                while True:
                    lease = await service.acquire_lease(
                        app_name=app,
                        user_id=user,
                        session_id=sid,
                        owner=f"worker{worker}",
                        invocation_id=invocation,
                        ttl_s=30.0,
                    )
                    if lease is not None:
                        break
                    await asyncio.sleep(0.005)
                session = (await _reload(service, app, user, sid)).under_lease(lease.token)
                for i in range(per_turn):
                    event = Event(
                        invocation_id=invocation,
                        author=f"worker{worker}",
                        content=Content.from_text(f"{invocation} event {i}", role="model"),
                    )
                    session = await service.append_event(session, event)
                    await asyncio.sleep(0)
                await service.release_lease(lease)
        finally:
            await service.close()

    asyncio.run(run())
