"""Admissions: a running turn's next step waits for the turns that arrived before it to
start, in arrival order, never for later ones, and at most ``stale_s`` for one that does not
start."""

from __future__ import annotations

import asyncio

from agentlog.server.admissions import Admissions
from agentlog.server.hub import TurnHub


async def test_nothing_admitting_lets_a_step_through() -> None:
    await asyncio.wait_for(Admissions().wait(), 1)


async def test_a_step_waits_for_the_turns_opened_before_it() -> None:
    admissions = Admissions(stale_s=60)
    first, second = object(), object()
    admissions.opened(first)
    admissions.opened(second)
    step = asyncio.ensure_future(admissions.wait())
    await asyncio.sleep(0.01)
    admissions.settled(second)  # not the oldest: still waiting for the first
    await asyncio.sleep(0.01)
    assert not step.done()
    admissions.settled(first)
    await asyncio.wait_for(step, 1)
    assert len(admissions) == 0


async def test_a_turn_opened_later_does_not_hold_a_step_up() -> None:
    admissions = Admissions(stale_s=60)
    earlier, later = object(), object()
    admissions.opened(earlier)
    step = asyncio.ensure_future(admissions.wait())
    await asyncio.sleep(0.01)
    admissions.opened(later)
    admissions.settled(earlier)
    await asyncio.wait_for(step, 1)  # ``later`` is still pending
    assert len(admissions) == 1


async def test_a_turn_that_does_not_start_is_waited_for_at_most_stale_s() -> None:
    admissions = Admissions(stale_s=0.05)
    admissions.opened(object())
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.wait_for(admissions.wait(), 5)
    assert loop.time() - began >= 0.05
    assert len(admissions) == 0
    await asyncio.wait_for(admissions.wait(), 1)  # and nobody waits for it again


async def test_a_cancelled_step_leaves_the_others_waiting() -> None:
    admissions = Admissions(stale_s=60)
    turn = object()
    admissions.opened(turn)
    one, two = asyncio.ensure_future(admissions.wait()), asyncio.ensure_future(admissions.wait())
    await asyncio.sleep(0.01)
    one.cancel()
    await asyncio.sleep(0.01)
    assert not two.done()
    admissions.settled(turn)
    await asyncio.wait_for(two, 1)


async def test_the_hub_admits_a_turn_until_it_starts_but_not_one_queued_on_its_session() -> None:
    hub = TurnHub()
    running = hub.open(("ana", "s-1"))
    queued = hub.open(("ana", "s-1"))  # behind ``running``: cannot start before it ends
    other = hub.open(("ana", "s-2"))
    assert len(hub.admissions) == 2
    other.finish()  # refused before it stored anything
    assert len(hub.admissions) == 1
    running.finish()
    hub.close(running)
    assert len(hub.admissions) == 0
    queued.finish()
