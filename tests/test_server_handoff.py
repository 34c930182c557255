"""The replay-to-live handoff, step by step: a reader arriving at any point of a running turn
gets every stored event after its id exactly once, in order, then the end."""

from __future__ import annotations

import asyncio

import pytest

from agentlog import Content, Event, InMemorySessionService
from agentlog.server.frames import Frame, draft_frame, end_frame, stored_frame
from agentlog.server.hub import LiveTurn, TurnHub
from agentlog.server.replay import read_after
from agentlog.server.streaming import session_stream

APP, USER = "agentlog", "ana"
INV = "inv-1"


async def collect(frames: object) -> list[Frame]:
    return [f async for f in frames]  # type: ignore[attr-defined]


class FakeTurn:
    """Drives a turn by hand: store an event, then publish it, like the server's driver."""

    def __init__(self, store: InMemorySessionService, hub: TurnHub, sid: str) -> None:
        self.store, self.hub, self.sid = store, hub, sid
        self.turn: LiveTurn | None = None

    def register(self) -> LiveTurn:
        self.turn = self.hub.open((USER, self.sid))
        return self.turn

    async def store_event(self, text: str) -> Event:
        session = await self.store.get_session(app_name=APP, user_id=USER, session_id=self.sid)
        event = Event(invocation_id=INV, author="desk", content=Content.from_text(text, "model"))
        session = await self.store.append_event(session, event)
        return session.events[-1]

    def publish(self, event: Event) -> None:
        assert self.turn is not None
        self.turn.publish(stored_frame(event))

    def end(self) -> None:
        assert self.turn is not None
        self.turn.publish(end_frame(INV))
        self.turn.finish()
        self.hub.close(self.turn)


async def reader(store: InMemorySessionService, hub: TurnHub, sid: str, after: str | None):  # type: ignore[no-untyped-def]
    key = (USER, sid)
    turns = hub.turns(key)
    replay = await read_after(store, APP, key, after, turns)
    return session_stream(store, APP, hub, key, after, turns, replay, "desk")


@pytest.mark.parametrize("stored_before", range(5))
@pytest.mark.parametrize("unpublished", [0, 1])
async def test_each_reader_gets_exactly_the_events_after_its_id(
    stored_before: int, unpublished: int
) -> None:
    """Readers attach at every point of a running turn, some while the newest stored event
    has not reached the fan-out yet; each gets the events after its id, once, in order."""
    store, hub = InMemorySessionService(), TurnHub()
    sid = (await store.create_session(app_name=APP, user_id=USER)).id
    fake = FakeTurn(store, hub, sid)
    fake.register()
    events = [await fake.store_event(f"s{i}") for i in range(stored_before)]
    lag = min(unpublished, len(events))
    for event in events[: len(events) - lag]:
        fake.publish(event)
    tasks = []
    for resume_at in range(len(events) + 1):
        after = events[resume_at - 1].id if resume_at else None
        task = asyncio.create_task(collect(await reader(store, hub, sid, after)))
        tasks.append((resume_at, task))
    await asyncio.sleep(0)
    for event in events[len(events) - lag :]:
        fake.publish(event)
    for i in range(3):
        event = await fake.store_event(f"live {i}")
        events.append(event)
        fake.publish(event)
        await asyncio.sleep(0)
    fake.end()
    for resume_at, task in tasks:
        frames = await task
        got = [f.event_id for f in frames if f.kind == "event"]
        assert got == [e.id for e in events[resume_at:]], resume_at
        assert [f.kind for f in frames].count("end") == 1
        assert frames[-1].kind == "end"


async def test_a_turn_registered_during_the_read_is_followed() -> None:
    store, hub = InMemorySessionService(), TurnHub()
    sid = (await store.create_session(app_name=APP, user_id=USER)).id
    key = (USER, sid)
    turns = hub.turns(key)  # nothing running yet ...
    fake = FakeTurn(store, hub, sid)
    fake.register()  # ... a turn starts and stores its first event before the read
    first = await fake.store_event("first")
    replay = await read_after(store, APP, key, None, turns)
    assert [e.id for e in replay.events] == [first.id]
    task = asyncio.create_task(
        collect(session_stream(store, APP, hub, key, None, turns, replay, "desk"))
    )
    await asyncio.sleep(0)
    fake.publish(first)
    second = await fake.store_event("second")
    fake.publish(second)
    fake.end()
    frames = await task
    assert [f.event_id for f in frames if f.kind == "event"] == [first.id, second.id]
    assert [f.kind for f in frames][-1] == "end"


async def test_a_slow_reader_skips_superseded_drafts() -> None:
    turn = LiveTurn((USER, "s"))
    for text in ("D", "Do", "Don"):
        turn.publish_draft(
            draft_frame(
                Event(
                    invocation_id=INV,
                    author="desk",
                    partial=True,
                    content=Content.from_text(text, "model"),
                )
            )
        )
    done = Event(invocation_id=INV, author="desk", content=Content.from_text("Done.", "model"))
    turn.publish(stored_frame(done))
    turn.publish_draft(
        draft_frame(
            Event(
                invocation_id=INV,
                author="desk",
                partial=True,
                content=Content.from_text("Ne", "model"),
            )
        )
    )
    turn.publish(end_frame(INV))
    turn.finish()
    frames = await collect(turn.follow(set()))
    assert [f.kind for f in frames] == ["event", "end"]


async def test_an_event_stored_before_a_queued_turn_starts_comes_first() -> None:
    """A compaction lands between a turn's registration and its start (the turn waits for the
    session's lock), after the reader's first read: the reader still gets it, before the
    turn's events."""
    store, hub = InMemorySessionService(), TurnHub()
    sid = (await store.create_session(app_name=APP, user_id=USER)).id
    fake = FakeTurn(store, hub, sid)
    earlier = await fake.store_event("earlier turn")
    fake.register()
    task = asyncio.create_task(collect(await reader(store, hub, sid, earlier.id)))
    await asyncio.sleep(0)
    compaction = await fake.store_event("a compaction, stored outside any turn")
    await asyncio.sleep(0)
    first = await fake.store_event("the turn's first event")
    fake.publish(first)
    second = await fake.store_event("its second")
    fake.publish(second)
    fake.end()
    frames = await task
    assert [f.event_id for f in frames if f.kind == "event"] == [
        compaction.id,
        first.id,
        second.id,
    ]
