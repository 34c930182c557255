"""Admissions: a running turn's next step waits for the requests and turns that arrived
before it to be answered or start, in arrival order, never for later ones, and at most
``stale_s`` for one that does not get through."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from agentlog.server.admissions import Admissions, AdmitRequests
from agentlog.server.frames import end_frame
from agentlog.server.hub import LiveTurn, TurnHub


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


def _scope(method: str, path: str) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "headers": []}


async def _receive() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def test_a_step_waits_for_a_request_that_arrived_before_it_until_it_is_answered() -> None:
    admissions = Admissions(stale_s=60)
    release = asyncio.Event()
    sent: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await release.wait()  # reading, routing, the store: not answered yet
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await asyncio.sleep(0.05)  # the stream goes on; the request is through
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def send(message: Message) -> None:
        sent.append(message["type"])

    gate = AdmitRequests(app, admissions)
    request = asyncio.ensure_future(gate(_scope("POST", "/sessions/s-1/messages"), _receive, send))
    await asyncio.sleep(0.01)
    step = asyncio.ensure_future(admissions.wait())
    await asyncio.sleep(0.01)
    assert not step.done()
    release.set()
    await asyncio.wait_for(step, 1)
    assert sent == ["http.response.start"]  # through at its answer, not at its end
    await request


async def test_only_requests_that_start_a_conversations_next_step_count() -> None:
    admissions = Admissions(stale_s=60)
    counted: list[int] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        counted.append(len(admissions))

    async def send(message: Message) -> None:
        pass

    gate = AdmitRequests(app, admissions)
    for method, path in [
        ("POST", "/sessions"),
        ("POST", "/sessions/s-1/messages"),
        ("POST", "/sessions/s-1/approvals/r-1"),
        ("GET", "/sessions/s-1/stream"),
        ("POST", "/sessions/s-1/summary"),
    ]:
        await gate(_scope(method, path), _receive, send)
    assert counted == [1, 1, 1, 0, 0]
    assert len(admissions) == 0


async def test_a_turn_started_by_a_request_is_waited_for_as_that_request() -> None:
    hub = TurnHub()
    opened: list[LiveTurn] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        opened.append(hub.open(("ana", "s-1")))
        assert len(hub.admissions) == 1  # the request's arrival, not a second one
        opened[0].publish(end_frame("inv", "desk"))  # the turn started
        assert len(hub.admissions) == 0

    async def send(message: Message) -> None:
        pass

    await AdmitRequests(app, hub.admissions)(_scope("POST", "/sessions"), _receive, send)
    assert opened


async def test_a_settling_wakes_only_the_steps_it_held_up() -> None:
    admissions = Admissions(stale_s=60)
    first, second = object(), object()
    admissions.opened(first)
    early = asyncio.ensure_future(admissions.wait())  # waits for ``first`` only
    await asyncio.sleep(0.01)
    admissions.opened(second)
    late = asyncio.ensure_future(admissions.wait())  # for both
    await asyncio.sleep(0.01)
    admissions.settled(first)
    await asyncio.wait_for(early, 1)
    await asyncio.sleep(0.01)
    assert not late.done()
    admissions.settled(second)
    await asyncio.wait_for(late, 1)
