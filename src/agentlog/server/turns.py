"""Running turns in the background, so a dropped connection never stops one.

:func:`start_turn` registers the turn, starts its driver and waits only until the runner has
accepted the message (stored it) or refused it, so a refusal becomes an HTTP error before any
event is streamed. The driver publishes every event the run yields to the turn's followers and
marks the end when the run's stream ends; with a store that notifies, it also hands the drafts
to the hub's relay, for the clients of other servers (:mod:`agentlog.server.fanout`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any

from agentlog.events import Content, ErrorCode, Event
from agentlog.logs import get_logger
from agentlog.run_config import RunConfig, StreamingMode
from agentlog.runner import Runner
from agentlog.server.frames import end_frame, error_frame, stored_frame
from agentlog.server.hub import LiveTurn, SessionKey, TurnHub

__all__ = ["start_turn"]

logger = get_logger("agentlog.server")

_RUN_CONFIG = RunConfig(streaming_mode=StreamingMode.SSE)


async def start_turn(
    runner: Runner,
    hub: TurnHub,
    key: SessionKey,
    message: Content,
    state_delta: Mapping[str, Any] | None = None,
) -> LiveTurn:
    """Start a run of ``message`` on the session ``key``; return once it is under way.

    Raises what the runner raises before storing anything: ``SessionNotFoundError``,
    ``InvalidMessageError``, ``UnknownRequestError``, ``RequestAlreadyAnsweredError``.
    """
    user_id, session_id = key
    turn = hub.open(key)
    events = runner.run_async(
        user_id=user_id,
        session_id=session_id,
        new_message=message,
        run_config=_RUN_CONFIG,
        state_delta=state_delta,
    )
    accepted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    hub.spawn(_drive(runner, hub, turn, events, accepted))
    # Awaited as is, not shielded (a shield costs the answer a turn of the event loop): a
    # client that leaves while the turn waits for the session cancels only ``accepted``,
    # and the driver, seeing it cancelled, runs the turn on.
    await accepted
    return turn


async def _drive(
    runner: Runner,
    hub: TurnHub,
    turn: LiveTurn,
    events: AsyncIterator[Event],
    accepted: asyncio.Future[None],
) -> None:
    author = runner.agent.name
    relay = hub.relay
    try:
        try:
            first = await anext(events)
        except Exception as exc:
            if not accepted.done():  # else the client left: nobody waits for the refusal
                accepted.set_exception(exc)
            return
        turn.publish(stored_frame(first))
        if not accepted.done():
            accepted.set_result(None)
        invocation_id = first.invocation_id
        last: Event = first
        admissions = hub.admissions
        try:
            while True:
                if admissions:
                    # The turns that arrived before this step first (:mod:`.admissions`).
                    await admissions.wait()
                try:
                    event = await anext(events)
                except StopAsyncIteration:
                    break
                if event.partial:
                    turn.publish_partial(event)
                    if relay is not None:
                        relay.draft(turn, event, after=last.id)
                else:
                    last = event
                    turn.publish(stored_frame(event))
                    if relay is not None:
                        relay.stored(turn)
        except Exception:
            logger.exception("turn %s on session %s failed", invocation_id, turn.key[1])
            # The runner stores an error event before re-raising some failures; one is enough.
            if last.error_code is None:
                turn.publish(error_frame(invocation_id, author, ErrorCode.INTERNAL))
        turn.publish(end_frame(invocation_id, author))
    except asyncio.CancelledError:
        if not accepted.done():
            accepted.cancel()
        raise
    finally:
        if relay is not None:
            relay.done(turn)
        turn.finish()
        hub.close(turn)
        await _close(events)


async def _close(events: AsyncIterator[Event]) -> None:
    aclose = getattr(events, "aclose", None)
    if aclose is not None:
        try:
            await aclose()
        except Exception:
            logger.exception("closing a run's stream failed")
