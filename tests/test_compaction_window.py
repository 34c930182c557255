"""The window selection (SPEC 5) as a pure function of stored events and the config."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from agentlog import Event, Usage
from agentlog.compaction import (
    CompactionWindow,
    EventsCompactionConfig,
    compaction_event,
    estimate_prompt_tokens,
    select_window,
)
from compaction_helpers import (
    FakeSummarizer,
    answer_confirmation,
    call,
    confirmation_turn,
    ev,
    invocations,
    response,
    stamp,
    text,
    turn,
)


def config(interval: int = 3, overlap: int = 1, **kw: int) -> EventsCompactionConfig:
    return EventsCompactionConfig(interval, overlap, FakeSummarizer(), **kw)


def compact(window: CompactionWindow, summary: str = "s") -> Event:
    """The compaction event the runner would store for ``window``, stamped now."""
    return compaction_event(window.summarizer_input(), summary, timestamp=stamp())


def run(
    turns: Sequence[list[Event]], cfg: EventsCompactionConfig
) -> tuple[list[Event], list[list[int]]]:
    """Store ``turns`` one by one, compacting after each as the runner does."""
    log: list[Event] = []
    windows: list[list[int]] = []
    for events in turns:
        log += events
        window = select_window(log, cfg)
        if window is not None:
            windows.append(invocations(window.events))
            log.append(compact(window))
    return log, windows


def test_interval_three_overlap_one_over_nine_invocations() -> None:
    _, windows = run([turn(n) for n in range(1, 10)], config(3, 1))
    assert windows == [[1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9]]


@pytest.mark.parametrize(
    ("interval", "overlap", "count"), [(5, 1, 40), (2, 0, 11), (4, 2, 30), (1, 0, 6), (1, 1, 5)]
)
def test_interval_and_overlap_over_many_invocations(
    interval: int, overlap: int, count: int
) -> None:
    _, windows = run(
        [turn(n, tool=n % 2 == 0) for n in range(1, count + 1)], config(interval, overlap)
    )
    expected = []
    end = 0
    while end + interval <= count:
        start = max(1, end + 1 - overlap)
        end += interval
        expected.append(list(range(start, end + 1)))
    assert windows == expected


def test_an_invocation_is_never_split_and_compactions_are_not_counted() -> None:
    log, windows = run([turn(1), turn(2), turn(3), turn(4)], config(2, 0))
    assert windows == [[1, 2], [3, 4]]
    compactions = [e for e in log if e.actions.compaction is not None]
    assert len(compactions) == 2
    first, second = (c.actions.compaction for c in compactions)
    assert first is not None
    assert second is not None
    # Every event of invocations 1-2 (question, call, result, answer), none of the compaction.
    assert first.event_ids == tuple(e.id for e in log[:8])
    assert second.event_ids == tuple(e.id for e in log[9:17])
    assert (first.start_timestamp, first.end_timestamp) == (log[0].timestamp, log[7].timestamp)


def test_the_summariser_gets_the_previous_compaction_first() -> None:
    log = [*turn(1), *turn(2)]
    first = select_window(log, config(2, 0))
    assert first is not None
    assert first.previous is None
    assert first.summarizer_input() == log
    log.append(summary_a := compact(first, "summary A"))
    log += [*turn(3), *turn(4)]
    second = select_window(log, config(2, 0))
    assert second is not None
    assert second.previous == summary_a
    assert second.summarizer_input() == [summary_a, *log[9:]]


def test_a_window_from_the_newest_compaction_on_asks_for_the_overlap() -> None:
    cfg = config(3, 1)
    log, _ = run([turn(n) for n in range(1, 7)], cfg)
    log += turn(7) + turn(8) + turn(9)
    newest = [e for e in log if e.actions.compaction is not None][-1]
    end = newest.actions.compaction.end_timestamp if newest.actions.compaction else 0
    loaded = [e for e in log if e.timestamp > end]  # what the runner loads
    narrow = select_window(loaded, cfg)
    assert narrow is not None
    assert narrow.missing_overlap
    assert invocations(narrow.events) == [7, 8, 9]
    start = newest.actions.compaction.start_timestamp if newest.actions.compaction else 0
    wider = select_window([e for e in log if e.timestamp >= start], cfg)
    assert wider is not None
    assert not wider.missing_overlap
    assert invocations(wider.events) == [6, 7, 8, 9]
    assert wider.previous == newest


def test_no_trigger_below_the_interval() -> None:
    assert select_window([*turn(1), *turn(2)], config(3, 1)) is None
    assert select_window([], config(1, 0)) is None


# --- the safety cut ------------------------------------------------------------------------


def test_a_pending_confirmation_is_never_compacted_then_is_once_answered() -> None:
    cfg = config(2, 0)
    log = [*turn(1), *confirmation_turn(2)]
    window = select_window(log, cfg)
    # Invocation 2 waits on a human: the window ends before it (and before its tool call).
    assert window is not None
    assert invocations(window.events) == [1]
    log.append(compact(window))
    assert select_window(log, cfg) is None  # nothing new before the pending request
    log += answer_confirmation(2)
    log += turn(3)
    window = select_window(log, cfg)
    assert window is not None
    assert invocations(window.events) == [2, 3]
    ids = {e.id for e in window.events}
    assert all(e.id in ids for e in log if e.invocation_id == "inv-02")


def test_a_pending_request_holds_back_later_invocations_too() -> None:
    cfg = config(1, 0)
    log = [*turn(1), *confirmation_turn(2)]
    window = select_window(log, cfg)
    assert window is not None
    assert invocations(window.events) == [1]
    log.append(compact(window))
    # An answer still outstanding: later turns without new text messages cannot move the cut.
    log += answer_confirmation(2)[:1]
    assert select_window(log, cfg) is None


def test_a_request_abandoned_by_a_new_message_no_longer_holds_the_window() -> None:
    cfg = config(2, 0)
    log = [*confirmation_turn(1), *turn(2)]
    window = select_window(log, cfg)
    assert window is not None
    assert invocations(window.events) == [1, 2]


def test_an_unanswered_call_of_the_newest_invocation_holds_the_window() -> None:
    cfg = config(2, 0)
    inv = "inv-02"
    log = [*turn(1), ev(inv, "user", text("look it up")), ev(inv, "desk", call("lookup", "x"))]
    window = select_window(log, cfg)
    assert window is not None
    assert invocations(window.events) == [1]


def test_a_call_abandoned_by_a_finished_turn_does_not_block_compaction_for_ever() -> None:
    cfg = config(2, 0)
    inv = "inv-01"
    dead = [
        ev(inv, "user", text("look it up")),
        ev(inv, "desk", call("lookup", "x")),
        ev(inv, "desk", error_message="crashed", error_code="internal"),
    ]
    window = select_window([*dead, *turn(2)], cfg)
    assert window is not None
    assert invocations(window.events) == [1, 2]


def test_a_long_running_call_holds_the_window_until_answered() -> None:
    cfg = config(2, 0)
    inv = "inv-01"
    job = ev(inv, "desk", call("render", "job-1"), long_running_tool_ids=frozenset({"job-1"}))
    log = [ev(inv, "user", text("render it")), job, *turn(2), *turn(3)]
    assert select_window(log, cfg) is None
    log.append(ev("inv-04", "desk", response("render", "job-1", done=True)))
    log += turn(5)
    window = select_window(log, cfg)
    assert window is not None
    assert invocations(window.events) == [1, 2, 3, 4, 5]


# --- the token trigger ---------------------------------------------------------------------


def test_the_token_trigger_keeps_the_last_events_and_their_calls() -> None:
    cfg = config(100, 0, token_threshold=1_000, event_retention_size=3)
    log = [*turn(1), *turn(2, usage=999)]
    assert select_window(log, cfg) is None  # under the threshold
    log += turn(3, usage=1_000)
    window = select_window(log, cfg)
    assert window is not None
    assert window.trigger == "tokens"
    # The last 3 events (invocation 3's call, result and answer) stay as they are.
    assert window.events == tuple(log[:9])
    assert [e.text() for e in log[9:]] == ["", "", "answer 3"]
    assert invocations(window.events) == [1, 2, 3]


def test_the_token_trigger_moves_the_cut_before_a_call_whose_result_is_kept() -> None:
    cfg = config(100, 0, token_threshold=10, event_retention_size=2)
    log = [*turn(1), *turn(2, usage=50)]
    window = select_window(log, cfg)
    assert window is not None
    # Retaining 2 would keep invocation 2's result and answer but not its call: cut before it.
    assert window.events == tuple(log[:5])
    assert log[5].function_calls()


def test_the_token_trigger_uses_the_latest_model_call_after_the_latest_compaction() -> None:
    cfg = config(100, 0, token_threshold=500, event_retention_size=0)
    log = [*turn(1, usage=900)]
    window = select_window(log, cfg)
    assert window is not None
    log.append(compact(window))
    # The 900-token prompt was replaced by the summary: no trigger until a new call says so.
    log += [ev("inv-02", "user", text("hi"))]
    assert estimate_prompt_tokens(log) < 500
    assert select_window(log, cfg) is None
    log.append(ev("inv-02", "desk", text("hello"), model="m", usage=Usage(input_tokens=600)))
    window = select_window(log, cfg)
    assert window is not None
    assert window.events == tuple(log[-2:])


def test_without_a_provider_count_the_estimate_is_characters_over_four() -> None:
    long = "x" * 4_000
    log = [ev("inv-01", "user", text(long)), ev("inv-01", "desk", text("ok"), model="m")]
    assert estimate_prompt_tokens(log) == (4_000 + 2) // 4
    cfg = config(100, 0, token_threshold=1_000, event_retention_size=1)
    window = select_window(log, cfg)
    assert window is not None
    assert window.events == (log[0],)


def test_the_token_trigger_respects_the_safety_cut() -> None:
    cfg = config(100, 0, token_threshold=1, event_retention_size=0)
    log = [*turn(1, usage=10), *confirmation_turn(2)]
    window = select_window(log, cfg)
    assert window is not None
    assert invocations(window.events) == [1, 2]
    assert window.events[-1].text() == "refund 2"  # the tool call and its request stay
