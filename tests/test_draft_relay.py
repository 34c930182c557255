"""DraftRelay: the drafts of every turn waiting are published together, one call a round, and
only those of turns another server asked for."""

from __future__ import annotations

import asyncio
from typing import Any

from agentlog import Content
from agentlog.events import Event
from agentlog.server.fanout import DraftRelay
from agentlog.server.hub import LiveTurn


class Calls:
    """A notifying store that records each call's drafts."""

    def __init__(self) -> None:
        self.calls: list[list[tuple[str, str, str]]] = []

    def listener(self, on_notice: Any, on_gap: Any) -> Any:
        raise NotImplementedError

    async def publish_drafts(self, *, app_name: str, drafts: Any) -> None:
        self.calls.append([(user, session, draft.text) for user, session, draft in drafts])


def partial(text: str) -> Event:
    return Event(
        invocation_id="inv-1", author="desk", partial=True, content=Content.from_text(text, "model")
    )


async def test_drafts_of_several_turns_go_in_one_call_and_a_stored_event_drops_its_own() -> None:
    store = Calls()
    relay = DraftRelay(store, "app", origin="o", interval_s=0.05)
    one, two, three = (LiveTurn(("ana", f"s-{n}")) for n in (1, 2, 3))
    relay.asked([one, two, three])
    relay.draft(one, partial("a"), after="e-1")
    relay.draft(two, partial("b"), after="e-2")
    relay.draft(two, partial("bb"), after="e-2")  # newer: replaces "b"
    relay.draft(three, partial("c"), after="e-3")
    relay.stored(three)  # superseded before the round
    for _ in range(100):
        if store.calls:
            break
        await asyncio.sleep(0.01)
    assert store.calls == [[("ana", "s-1", "a"), ("ana", "s-2", "bb")]]
    # The next round waits for the interval, and takes what came meanwhile.
    relay.draft(one, partial("aa"), after="e-1")
    for _ in range(100):
        if len(store.calls) == 2:
            break
        await asyncio.sleep(0.01)
    assert store.calls[1] == [("ana", "s-1", "aa")]
    assert relay.published == 3
    await relay.close()


async def test_only_the_drafts_of_turns_asked_for_are_published_until_they_end() -> None:
    store = Calls()
    relay = DraftRelay(store, "app", origin="o", interval_s=0.01)
    asked, unasked = LiveTurn(("ana", "s-1")), LiveTurn(("ana", "s-2"))
    relay.draft(asked, partial("early"), after="e-1")  # before the ask: nobody reads it
    relay.asked([asked])
    relay.draft(asked, partial("a"), after="e-1")
    relay.draft(unasked, partial("b"), after="e-2")
    for _ in range(100):
        if store.calls:
            break
        await asyncio.sleep(0.01)
    assert store.calls == [[("ana", "s-1", "a")]]
    relay.done(asked)
    relay.draft(asked, partial("after its end"), after="e-1")
    await asyncio.sleep(0.05)
    assert store.calls == [[("ana", "s-1", "a")]]
    assert relay.published == 1
    await relay.close()
