"""A turn's readers: every frame ready at once goes out in one write, a draft superseded before
a reader got to it is never sent, and each frame is encoded once for every reader."""

from __future__ import annotations

import asyncio

import pytest
from sse_starlette import ServerSentEvent

from agentlog import Content, Event
from agentlog.server.frames import Frame, draft_frame, end_frame, stored_frame
from agentlog.server.hub import LiveTurn
from agentlog.server.streaming import sse_response


def _stored(text: str) -> Event:
    return Event(invocation_id="inv", author="desk", content=Content.from_text(text, role="model"))


def _draft(text: str) -> Event:
    return Event(
        invocation_id="inv",
        author="desk",
        partial=True,
        content=Content.from_text(text, role="model"),
    )


def test_a_frame_is_encoded_once_as_sse_starlette_would() -> None:
    frame = stored_frame(_stored("hello"))
    expected = ServerSentEvent(data=frame.data, event="event", id=frame.event_id).encode()
    assert frame.wire == expected


async def test_frames_ready_at_once_come_in_one_batch() -> None:
    turn = LiveTurn(("u", "s"))
    first, second = stored_frame(_stored("a")), stored_frame(_stored("b"))
    turn.publish(first)
    turn.publish(second)
    follower = turn.follow(set())
    assert await follower.batch() == [first, second]
    turn.publish_draft(draft_frame(_draft("dr")))
    end = end_frame("inv", "desk")
    turn.publish(end)
    turn.finish()
    assert await follower.batch() == [end]  # the draft was superseded before it was read
    assert await follower.batch() == []


async def test_a_reader_woken_by_a_draft_gets_the_run_s_next_step_with_it() -> None:
    turn = LiveTurn(("u", "s"))
    follower = turn.follow(set())
    drafts = [draft_frame(_draft(f"draft {i}")) for i in range(3)]
    answer = stored_frame(_stored("draft 2"))

    async def run() -> None:  # a run publishing one frame per step of the event loop
        for draft in drafts:
            turn.publish_draft(draft)
            await asyncio.sleep(0)
        turn.publish(answer)
        turn.finish()

    reading = asyncio.create_task(follower.batch())
    await asyncio.sleep(0)  # the reader waits
    task = asyncio.create_task(run())
    batches = [await reading]
    while batch := await follower.batch():
        batches.append(batch)
    await task
    sent = [frame for batch in batches for frame in batch]
    assert sent[-1] == answer
    assert len(sent) < len(drafts) + 1  # at least one superseded draft was skipped
    assert sent == sorted(sent, key=[*drafts, answer].index)


async def test_a_stream_writes_each_batch_as_one_chunk() -> None:
    turn = LiveTurn(("u", "s"))
    frames = [stored_frame(_stored("a")), stored_frame(_stored("b")), end_frame("inv")]
    for frame in frames:
        turn.publish(frame)
    turn.finish()
    response = sse_response(turn.follow(set()))
    chunks = [chunk async for chunk in response.body_iterator]
    assert chunks == [b"".join(frame.wire for frame in frames)]


async def test_iterating_a_follower_still_gives_one_frame_at_a_time() -> None:
    turn = LiveTurn(("u", "s"))
    frames = [stored_frame(_stored("a")), stored_frame(_stored("b"))]
    for frame in frames:
        turn.publish(frame)
    turn.finish()
    seen: set[str] = {frames[0].event_id or ""}
    assert [frame async for frame in turn.follow(seen)] == frames[1:]


async def test_a_draft_superseded_before_anyone_reads_it_is_never_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import agentlog.server.hub as hub

    built: list[str] = []

    def counting(event: Event) -> Frame:
        built.append(event.text())
        return draft_frame(event)

    monkeypatch.setattr(hub, "draft_frame", counting)
    turn = LiveTurn(("u", "s"))
    for i in range(5):
        turn.publish_partial(_draft(f"draft {i}"))
    follower = turn.follow(set())
    (frame,) = await follower.batch()
    assert built == ["draft 4"]
    assert frame.kind == "draft"
    assert '"draft 4"' in frame.data
    assert turn.draft is frame  # built once, the same frame for every reader
