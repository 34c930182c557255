"""Compaction through the ``Runner``: the timelines of issue 4, end to end."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import pytest

from agentlog import Content, Event, GetSessionConfig, Part
from agentlog.agents import LlmAgent
from agentlog.compaction import CompactionHook, LlmEventSummarizer
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner, confirmation_answer
from agentlog.tools import FunctionTool
from compaction_helpers import (
    SUMMARY,
    FakeSummarizer,
    compaction_config,
    desk,
    texts,
    tool_turn,
)
from conftest import Harness


async def turns(h: Harness, runner: Runner, sid: str, numbers: Sequence[int]) -> dict[str, int]:
    """Run question n for each n, letting compaction finish after each; invocation id to n."""
    seen: dict[str, int] = {}
    for n in numbers:
        events = await h.run(runner, sid, f"question {n}")
        seen[events[0].invocation_id] = n
        await runner.wait_for_compactions()
    return seen


async def compactions(h: Harness, sid: str) -> list[Event]:
    return [e for e in await h.events(sid) if e.actions.compaction is not None]


def windows(compacted: Sequence[Event], numbers: dict[str, int], log: Sequence[Event]) -> list[Any]:
    by_id = {e.id: numbers[e.invocation_id] for e in log if e.invocation_id in numbers}
    out = []
    for event in compacted:
        assert event.actions.compaction is not None
        covered = [by_id[i] for i in event.actions.compaction.event_ids]
        out.append(sorted(set(covered)))
    return out


def summaries(compacted: Sequence[Event]) -> list[str]:
    return [
        e.actions.compaction.summary.parts[0].text or "" for e in compacted if e.actions.compaction
    ]


# --- windows -------------------------------------------------------------------------------------


async def test_interval_three_overlap_one_over_nine_invocations(h: Harness) -> None:
    summarizer = FakeSummarizer()
    llm = ScriptedLlm([step for n in range(1, 10) for step in tool_turn(n)])
    with llm:
        runner = h.runner(desk(llm), compaction_config=compaction_config(summarizer))
        sid = await h.session()
        numbers = await turns(h, runner, sid, range(1, 10))
    log = await h.events(sid)
    compacted = await compactions(h, sid)
    assert windows(compacted, numbers, log) == [[1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9]]
    # The events of one invocation stay together: all four of each, nothing else.
    for event in compacted:
        assert event.actions.compaction is not None
        assert len(event.actions.compaction.event_ids) % 4 == 0
    assert [e.text() for e in compacted] == ["", "", ""]
    assert summaries(compacted) == ["summary 1", "summary 2", "summary 3"]


async def test_interval_five_overlap_one_over_many_invocations(mh: Harness) -> None:
    summarizer = FakeSummarizer()
    count = 32
    llm = ScriptedLlm([step for n in range(1, count + 1) for step in tool_turn(n)])
    with llm:
        runner = mh.runner(desk(llm), compaction_config=compaction_config(summarizer, 5, 1))
        sid = await mh.session()
        numbers = await turns(mh, runner, sid, range(1, count + 1))
    got = windows(await compactions(mh, sid), numbers, await mh.events(sid))
    assert got == [list(range(max(1, k - 5), k + 1)) for k in range(5, count + 1, 5)]


async def test_the_previous_summary_is_given_to_the_next_summariser(h: Harness) -> None:
    cheap = ScriptedLlm([ScriptedLlm.text("Summary A: 1-3"), ScriptedLlm.text("Summary B: 3-6")])
    llm = ScriptedLlm([ScriptedLlm.text(f"answer {n}") for n in range(1, 7)])
    with llm, cheap:
        runner = h.runner(desk(llm), compaction_config=compaction_config(LlmEventSummarizer(cheap)))
        sid = await h.session()
        await turns(h, runner, sid, range(1, 7))
    first, second = (r.contents[0].parts[0].text or "" for r in cheap.requests)
    assert "Summary of the conversation before" not in first
    assert "question 1" in first
    assert second.index("Summary A: 1-3") < second.index("question 3") < second.index("answer 6")
    assert "question 2" not in second  # before the overlap: only in the summary
    assert summaries(await compactions(h, sid)) == ["Summary A: 1-3", "Summary B: 3-6"]


# --- history and loading -------------------------------------------------------------------------


async def test_the_prompt_after_compaction_is_exactly_summary_and_later_events(h: Harness) -> None:
    summarizer = FakeSummarizer()
    llm = ScriptedLlm([step for n in range(1, 9) for step in tool_turn(n)])
    with llm:
        runner = h.runner(desk(llm), compaction_config=compaction_config(summarizer))
        sid = await h.session()
        await turns(h, runner, sid, [1, 2, 3])
        assert len(await compactions(h, sid)) == 1
        await turns(h, runner, sid, [4])
        first_call, second_call = llm.requests[-2:]
        assert texts(first_call) == [("user", SUMMARY + "summary 1"), ("user", "question 4")]
        assert first_call.contents[0] == Content(
            role="user", parts=(Part(text=SUMMARY + "summary 1"),)
        )
        assert texts(second_call) == [
            ("user", SUMMARY + "summary 1"),
            ("user", "question 4"),
            ("model", "call c4"),
            ("user", "result c4"),
        ]
        await turns(h, runner, sid, [5])
        assert texts(llm.requests[-2]) == [
            ("user", SUMMARY + "summary 1"),
            ("user", "question 4"),
            ("model", "call c4"),
            ("user", "result c4"),
            ("model", "answer 4"),
            ("user", "question 5"),
        ]
        # After several compactions only the newest summary is sent.
        await turns(h, runner, sid, [6, 7])
        assert texts(llm.requests[-2]) == [("user", SUMMARY + "summary 2"), ("user", "question 7")]
        await turns(h, runner, sid, [8])
        assert texts(llm.requests[-2]) == [
            ("user", SUMMARY + "summary 2"),
            ("user", "question 7"),
            ("model", "call c7"),
            ("user", "result c7"),
            ("model", "answer 7"),
            ("user", "question 8"),
        ]


async def test_a_turn_loads_only_the_newest_compaction_and_what_follows(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[tuple[GetSessionConfig | None, int]] = []
    real = h.store.get_session

    async def spy(**kwargs: Any) -> Any:
        session = await real(**kwargs)
        # Counted without the turn's own message: the load made beside the write that takes
        # the lease and stores it may run after that write.
        # (Every earlier turn ends with the agent's answer, so a user's message last is it.)
        own = bool(session.events) and session.events[-1].author == "user"
        loads.append((kwargs.get("config"), len(session.events) - own))
        return session

    monkeypatch.setattr(h.store, "get_session", spy)
    llm = ScriptedLlm([step for n in range(1, 11) for step in tool_turn(n)])
    with llm:
        runner = h.runner(desk(llm), compaction_config=compaction_config(FakeSummarizer(), 3, 1))
        sid = await h.session()
        per_turn = []
        for n in range(1, 11):
            before = len(loads)
            await turns(h, runner, sid, [n])
            per_turn.append(loads[before:])
    everything = GetSessionConfig(from_latest_compaction=True)
    # One load per turn, from the newest compaction on: never more than the 3 newest turns'
    # 4 events each and the compaction.
    assert [turn[0] for turn in per_turn] == [(everything, 4 * (n - 1)) for n in (1, 2, 3)] + [
        (everything, 1),
        (everything, 5),
        (everything, 9),
        (everything, 1),
        (everything, 5),
        (everything, 9),
        (everything, 1),
    ]
    # Turns that trigger a compaction read the overlap once more, in the background.
    extra = [turn[1:] for turn in per_turn]
    assert [len(x) for x in extra] == [0, 0, 0, 0, 0, 1, 0, 0, 1, 0]
    assert all(config is not None and config.after_timestamp for x in extra for config, _ in x)


async def test_an_agent_reached_by_transfer_keeps_the_conversation_after_compaction(
    mh: Harness,
) -> None:
    front = ScriptedLlm([ScriptedLlm.call("transfer_to_agent", {"agent_name": "refunds"})])
    back = ScriptedLlm([ScriptedLlm.text("Refunds here."), ScriptedLlm.text("Still refunds.")])
    tree = LlmAgent(name="desk", model=front, sub_agents=[LlmAgent(name="refunds", model=back)])
    with front, back:
        runner = mh.runner(tree, compaction_config=compaction_config(FakeSummarizer(), 1, 0))
        sid = await mh.session()
        await turns(mh, runner, sid, [1])
        loaded = await mh.store.get_session(
            app_name=mh.app,
            user_id=mh.user,
            session_id=sid,
            config=GetSessionConfig(from_latest_compaction=True),
        )
        assert [e.actions.compaction is not None for e in loaded.events] == [True]
        assert loaded.events[0].branch == "desk.refunds"
        events = await mh.run(runner, sid, "and the second order?")
    assert [e.author for e in events] == ["user", "refunds"]
    assert texts(back.requests[-1]) == [
        ("user", SUMMARY + "summary 1"),
        ("user", "and the second order?"),
    ]


# --- pending requests ----------------------------------------------------------------------------


async def test_a_pending_confirmation_is_not_compacted_and_is_once_answered(h: Harness) -> None:
    refunds: list[str] = []

    def refund_order(order_id: str) -> dict[str, Any]:
        """Refund an order."""
        refunds.append(order_id)
        return {"refunded": order_id}

    llm = ScriptedLlm(
        [
            ScriptedLlm.text("answer 1"),
            ScriptedLlm.call("refund_order", {"order_id": "A-1182"}, call_id="r1"),
            ScriptedLlm.text("Refunded A-1182."),
            ScriptedLlm.text("answer 3"),
        ]
    )
    tool = FunctionTool(refund_order, require_confirmation=True)
    summarizer = FakeSummarizer()
    with llm:
        runner = h.runner(
            LlmAgent(name="desk", model=llm, tools=[tool]),
            compaction_config=compaction_config(summarizer, 2, 0),
        )
        sid = await h.session()
        await turns(h, runner, sid, [1])
        paused = await h.run(runner, sid, "refund A-1182")
        await runner.wait_for_compactions()
        (first,) = await compactions(h, sid)
        assert first.actions.compaction is not None
        covered = set(first.actions.compaction.event_ids)
        # Invocation 1 only: the paused invocation, its tool call and its request stay out.
        assert not covered & {e.id for e in paused}
        request = next(c.id for c in paused[-1].function_calls())
        resumed = await h.run(runner, sid, confirmation_answer(request, True))
        await runner.wait_for_compactions()
        assert [e.author for e in resumed] == ["user", "desk", "desk"]
        assert refunds == ["A-1182"]
        assert len(await compactions(h, sid)) == 1  # one new invocation only, the resumed one
        await turns(h, runner, sid, [3])
    first, second = await compactions(h, sid)
    assert second.actions.compaction is not None
    covered = set(second.actions.compaction.event_ids)
    assert {e.id for e in paused} | {e.id for e in resumed} <= covered
    # The model saw the refund call beside its result after the first compaction.
    assert ("model", "call r1") in texts(llm.requests[2])
    assert ("user", "result r1") in texts(llm.requests[2])


# --- failures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("failure", ["raise", "none", "hang", "junk"])
async def test_a_failing_summariser_stores_nothing_and_is_asked_again_an_interval_later(
    h: Harness, failure: str, caplog: pytest.LogCaptureFixture
) -> None:
    summarizer = FakeSummarizer()
    summarizer.fail_next = [failure]
    llm = ScriptedLlm([ScriptedLlm.text(f"answer {n}") for n in range(1, 7)])
    config = compaction_config(summarizer, summarizer_timeout=0.05)
    with llm, caplog.at_level(logging.INFO, logger="agentlog.compaction"):
        runner = h.runner(desk(llm), compaction_config=config)
        sid = await h.session()
        numbers = await turns(h, runner, sid, [1, 2])
        events = await h.run(runner, sid, "question 3")
        await runner.wait_for_compactions()
        assert events[-1].text() == "answer 3"  # the run succeeded
        assert await compactions(h, sid) == []
        assert len(summarizer.calls) == 1
        # None is a deliberate skip: info, not a warning; every other failure warns once.
        level = logging.INFO if failure == "none" else logging.WARNING
        logged = [r for r in caplog.records if r.name == "agentlog.compaction"]
        assert [r.levelno for r in logged] == [level]
        assert "nothing stored" in logged[0].getMessage()
        numbers[events[0].invocation_id] = 3
        # Not asked again at each of the next turns with a window one invocation longer...
        numbers.update(await turns(h, runner, sid, [4, 5]))
        assert len(summarizer.calls) == 1
        assert await compactions(h, sid) == []
        # ...but once compaction_interval more invocations have come.
        numbers.update(await turns(h, runner, sid, [6]))
    (stored,) = await compactions(h, sid)
    assert windows([stored], numbers, await h.events(sid)) == [[1, 2, 3, 4, 5, 6]]
    assert len(summarizer.calls) == 2


async def test_failures_in_a_row_double_the_wait_and_a_success_ends_it(h: Harness) -> None:
    summarizer = FakeSummarizer()
    summarizer.fail_next = ["raise", "raise"]
    llm = ScriptedLlm([ScriptedLlm.text(f"answer {n}") for n in range(1, 14)])
    config = compaction_config(summarizer, interval=2, overlap=0)
    with llm:
        runner = h.runner(desk(llm), compaction_config=config)
        sid = await h.session()
        asked_at: list[int] = []
        for n in range(1, 14):
            before = len(summarizer.calls)
            await turns(h, runner, sid, [n])
            if len(summarizer.calls) > before:
                asked_at.append(n)
    # fails at 2, waits 2 (asked at 4, fails), waits 4 (asked at 8, stored), then every 2.
    assert asked_at == [2, 4, 8, 10, 12]
    assert len(await compactions(h, sid)) == 3


async def test_a_rejected_compaction_is_logged_and_not_stored(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[tuple[Event, int]] = []

    def validator(event: Event, window: Sequence[Event]) -> list[str]:
        seen.append((event, len(window)))
        return ["the summary dropped order A-1182"] if len(seen) == 1 else []

    llm = ScriptedLlm([ScriptedLlm.text(f"answer {n}") for n in range(1, 5)])
    config = compaction_config(FakeSummarizer(), validator=validator)
    with llm, caplog.at_level(logging.WARNING, logger="agentlog.compaction"):
        runner = h.runner(desk(llm), compaction_config=config)
        sid = await h.session()
        await turns(h, runner, sid, [1, 2, 3])
        assert await compactions(h, sid) == []
        assert "dropped order A-1182" in caplog.text
        await turns(h, runner, sid, [4])
    assert len(await compactions(h, sid)) == 1
    assert [n for _, n in seen] == [6, 8]  # question and answer of each covered invocation
    assert seen[0][0].actions.compaction is not None


# --- timing --------------------------------------------------------------------------------------


async def test_compaction_starts_after_the_stream_has_ended(mh: Harness) -> None:
    finished: list[bool] = []
    stream_over = False

    class Watching(FakeSummarizer):
        async def summarize_events(self, events: Sequence[Event]) -> Event | None:
            finished.append(stream_over)
            return await super().summarize_events(events)

    llm = ScriptedLlm([ScriptedLlm.text("answer 1")])
    with llm:
        runner = mh.runner(desk(llm), compaction_config=compaction_config(Watching(), 1, 0))
        sid = await mh.session()
        async for _ in runner.run_async(
            user_id=mh.user, session_id=sid, new_message=Content.from_text("question 1")
        ):
            pass
        stream_over = True
        await runner.wait_for_compactions()
    assert finished == [True]


async def test_a_slow_summariser_delays_neither_the_stream_nor_the_next_turn(mh: Harness) -> None:
    summarizer = FakeSummarizer()
    summarizer.fail_next = ["gate"]
    llm = ScriptedLlm([ScriptedLlm.text(f"answer {n}") for n in range(1, 4)])
    with llm:
        runner = mh.runner(desk(llm), compaction_config=compaction_config(summarizer, 1, 0))
        sid = await mh.session()
        await asyncio.wait_for(mh.run(runner, sid, "question 1"), 1)
        await asyncio.sleep(0)
        assert len(summarizer.calls) == 1  # summarising, and holding nothing
        second = await asyncio.wait_for(mh.run(runner, sid, "question 2"), 1)
        assert second[-1].text() == "answer 2"
        assert await compactions(mh, sid) == []
        summarizer.released.set()
        await runner.wait_for_compactions()
        (stored,) = await compactions(mh, sid)
        log = await mh.events(sid)
        # Stored after the second turn, covering the first only.
        assert log[-1] == stored
        assert stored.actions.compaction is not None
        assert stored.actions.compaction.event_ids == tuple(e.id for e in log[:2])
        await mh.run(runner, sid, "question 3")
    assert texts(llm.requests[-1]) == [
        ("user", SUMMARY + "summary 1"),
        ("user", "question 2"),
        ("model", "answer 2"),
        ("user", "question 3"),
    ]


async def test_the_hook_compacts_a_loaded_session_on_demand(h: Harness) -> None:
    llm = ScriptedLlm([ScriptedLlm.text(f"answer {n}") for n in range(1, 4)])
    with llm:
        runner = h.runner(desk(llm))  # no compaction while the turns run
        sid = await h.session()
        await turns(h, runner, sid, [1, 2, 3])
    hook = CompactionHook(compaction_config(FakeSummarizer(), 2, 0), h.store)
    session = await h.load(sid)
    stored = await hook.compact(session)
    assert stored is not None
    assert stored.actions.compaction is not None
    assert len(stored.actions.compaction.event_ids) == 6
    assert (await h.events(sid))[-1] == stored
    assert await hook.compact(await h.load(sid)) is None  # nothing new since
