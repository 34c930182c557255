"""Which events the next compaction covers: a pure function of the stored events and the config.

The rules (SPEC 5):

- Interval trigger: at least ``compaction_interval`` invocations have an event newer than the
  end of the latest compaction. The window is those invocations plus the ``overlap_size``
  invocations just before them: the stored events from the first event of the first of them to
  the last event, compaction events left out. Invocations are counted by ``invocation_id`` in
  order of first appearance; compaction events are never counted.
- Token trigger (optional, tried first): the prompt of the last model call since the latest
  compaction reached ``token_threshold`` tokens (its ``usage.input_tokens``, else an estimate of
  characters / 4). The window is every event after the latest compaction's end but the last
  ``event_retention_size``, the cut moved earlier until no kept function response is separated
  from its call.
- Safety cut: a window never includes a call that may still be answered. The window ends before
  the first event holding one (the interval trigger ends it before that event's whole
  invocation, so an invocation stays together).

A call may still be answered when it has no response and it is a confirmation or credential
request that no later user message abandoned, a tool call such a request waits on, another
long-running call, or a call of the newest invocation (it may be in flight). Any other
unanswered call belongs to a turn that ended without answering it; nothing answers it later,
so it does not hold compaction back for ever.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agentlog._frozen import thaw
from agentlog.agents.history import latest_compaction
from agentlog.approvals import is_human_request, pending_requests
from agentlog.compaction.config import EventsCompactionConfig
from agentlog.events import Event

__all__ = ["CompactionWindow", "estimate_prompt_tokens", "first_pending_index", "select_window"]


@dataclass(frozen=True, slots=True)
class CompactionWindow:
    """The events one compaction will cover, and what the summariser is given with them."""

    events: tuple[Event, ...]
    """The covered events, in stored order; never a compaction event."""
    previous: Event | None
    """The latest compaction, whose summary the summariser reads first; ``None`` if none."""
    trigger: Literal["interval", "tokens"]
    """Which rule chose the window."""
    missing_overlap: bool = False
    """The overlap invocations lie before the events given (only the events after the latest
    compaction were loaded): load from ``previous``'s start and select again."""

    def summarizer_input(self) -> list[Event]:
        """What ``summarize_events`` gets: the previous compaction event, then the window."""
        return [self.previous, *self.events] if self.previous is not None else list(self.events)


def select_window(
    events: Sequence[Event], config: EventsCompactionConfig
) -> CompactionWindow | None:
    """The window to compact now, or ``None`` when no trigger fires.

    ``events`` are a session's stored events in stored order: all of them, or (as the runner
    loads them) the latest compaction and the events after its end, or the events from the
    previous window's start on.
    """
    previous = latest_compaction(events)
    end = _end(previous)
    log = [e for e in events if e.actions.compaction is None and not e.partial]
    pending = first_pending_index(log)
    if config.token_threshold is not None and config.event_retention_size is not None:
        tokens = estimate_prompt_tokens(events)
        if tokens >= config.token_threshold:
            window = _token_window(log, previous, end, pending, config.event_retention_size)
            if window is not None:
                return window
    return _interval_window(
        log, previous, end, pending, config.compaction_interval, config.overlap_size
    )


def _interval_window(
    log: list[Event],
    previous: Event | None,
    end: float,
    pending: int,
    interval: int,
    overlap: int,
) -> CompactionWindow | None:
    order: list[str] = []
    first: dict[str, int] = {}
    last_stamp: dict[str, float] = {}
    for i, event in enumerate(log):
        invocation = event.invocation_id
        if invocation not in first:
            first[invocation] = i
            order.append(invocation)
        last_stamp[invocation] = max(last_stamp.get(invocation, -math.inf), event.timestamp)
    new = [invocation for invocation in order if last_stamp[invocation] > end]
    if len(new) < interval:
        return None
    position = order.index(new[0])
    start = first[order[max(0, position - overlap)]]
    stop = len(log)
    if pending < stop:
        # Before the whole invocation holding the open call, so it stays together.
        stop = min(pending, first[log[pending].invocation_id])
    covered = log[start:stop]
    if not any(e.timestamp > end for e in covered):
        return None
    missing = previous is not None and overlap > 0 and position == 0
    return CompactionWindow(tuple(covered), previous, "interval", missing_overlap=missing)


def _token_window(
    log: list[Event], previous: Event | None, end: float, pending: int, retention: int
) -> CompactionWindow | None:
    start = bisect.bisect_right([e.timestamp for e in log], end)
    candidates = log[start:]
    split = min(len(candidates) - retention, pending - start)
    if split <= 0:
        return None
    call_at = {c.id: i for i, e in enumerate(candidates) for c in e.function_calls()}
    while True:
        # Kept responses whose calls fall in the window pull the cut back to those calls.
        needed = min(
            (
                call_at[r.id]
                for e in candidates[split:]
                for r in e.function_responses()
                if call_at.get(r.id, split) < split
            ),
            default=split,
        )
        if needed >= split:
            break
        split = needed
    if split <= 0:
        return None
    return CompactionWindow(tuple(candidates[:split]), previous, "tokens")


def first_pending_index(log: Sequence[Event]) -> int:
    """Index of the first event holding a call that may still be answered; ``len(log)`` if
    none. ``log`` is stored events without compaction events, in order.

    Those are the events of a pending request (:mod:`agentlog.approvals`), the tool calls
    waiting on one, long-running calls without a response, and unanswered calls of the newest
    invocation (its response may still be on its way).
    """
    answered = {r.id for e in log for r in e.function_responses()}
    pending = pending_requests(log)
    asking = {r.event_id for r in pending}
    waited = {r.function_call_id for r in pending}
    newest = log[-1].invocation_id if log else None
    for i, event in enumerate(log):
        if event.id in asking:
            return i
        for call in event.function_calls():
            if call.id in answered or is_human_request(call.name):
                continue
            if (
                call.id in waited
                or call.id in event.long_running_tool_ids
                or event.invocation_id == newest
            ):
                return i
    return len(log)


def estimate_prompt_tokens(events: Sequence[Event]) -> int:
    """The prompt size of the last model call since the latest compaction was stored.

    The provider's count (``usage.input_tokens``) of the newest event from a model call, else
    the characters a history of these events would send, divided by four. Counts stored before
    the latest compaction event describe a prompt it has since replaced, so they are not used.
    """
    for event in reversed(events):
        if event.actions.compaction is not None:
            break
        if event.usage is not None or event.model is not None:
            if event.usage is not None and event.usage.input_tokens > 0:
                return event.usage.input_tokens
            break
    previous = latest_compaction(events)
    end = _end(previous)
    chars = 0
    if previous is not None and previous.actions.compaction is not None:
        chars += sum(len(p.text or "") for p in previous.actions.compaction.summary.parts)
    for event in events:
        if event.actions.compaction is None and event.timestamp > end:
            chars += _chars(event)
    return chars // 4


def _end(compaction: Event | None) -> float:
    if compaction is None or compaction.actions.compaction is None:
        return -math.inf
    return compaction.actions.compaction.end_timestamp


def _chars(event: Event) -> int:
    total = 0
    for part in event.content.parts if event.content is not None else ():
        if part.text is not None:
            total += len(part.text)
        elif part.function_call is not None:
            call = part.function_call
            total += len(call.name) + len(json.dumps(thaw(call.args), ensure_ascii=False))
        elif part.function_response is not None:
            response = part.function_response
            body = json.dumps(thaw(response.response), ensure_ascii=False)
            total += len(response.name) + len(body)
    return total
