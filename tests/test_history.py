"""What a model call sees of the log: ``build_contents`` and ``current_turn`` on hand-built
events."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from agentlog import Content, ErrorCode, Event, EventActions, EventCompaction, Part
from agentlog.agents.history import (
    REQUEST_CONFIRMATION,
    REQUEST_CREDENTIAL,
    HistoryCache,
    build_contents,
    current_turn,
)

_clock = [1000.0]


def ev(author: str, *parts: Part, **fields: Any) -> Event:
    _clock[0] += 1
    fields.setdefault("timestamp", _clock[0])
    role = "user" if author == "user" else "model"
    return Event(
        invocation_id=fields.pop("invocation_id", "inv-1"),
        author=author,
        content=Content(role=role, parts=parts) if parts else None,
        **fields,
    )


def text(value: str) -> Part:
    return Part(text=value)


def call(name: str, call_id: str, **args: Any) -> Part:
    return Part.from_function_call(name, args, call_id)


def response(name: str, call_id: str, **body: Any) -> Part:
    return Part.from_function_response(name, body, call_id)


def flat(contents: list[Content]) -> list[tuple[str, str]]:
    """(role, description of part) for every part, in order."""
    out = []
    for content in contents:
        for part in content.parts:
            if part.text is not None:
                out.append((content.role, part.text))
            elif part.function_call is not None:
                out.append((content.role, f"call {part.function_call.id}"))
            elif part.function_response is not None:
                out.append((content.role, f"response {part.function_response.id}"))
    return out


def test_own_turns_keep_their_roles() -> None:
    events = [
        ev("user", text("refund 1182")),
        ev("desk", text("Looking it up."), call("lookup_order", "c1", order_id="1182")),
        ev("desk", response("lookup_order", "c1", status="damaged")),
        ev("desk", text("Refunded.")),
    ]
    assert flat(build_contents(events, "desk")) == [
        ("user", "refund 1182"),
        ("model", "Looking it up."),
        ("model", "call c1"),
        ("user", "response c1"),
        ("model", "Refunded."),
    ]


def test_other_agents_are_retold_as_context() -> None:
    events = [
        ev("user", text("refund 1182")),
        ev("desk", call("lookup_order", "c1", order_id="1182")),
        ev("desk", response("lookup_order", "c1", status="damaged")),
        ev("policy", text("Refund is within policy.")),
        ev("refunds", text("On it.")),
    ]
    contents = build_contents(events, "refunds")
    assert [c.role for c in contents] == ["user", "user", "user", "user", "model"]
    assert contents[1].parts[0].text == (
        'For context:\n[desk] called tool `lookup_order` with {"order_id": "1182"}'
    )
    assert contents[2].parts[0].text == (
        'For context:\n[desk] `lookup_order` returned {"status": "damaged"}'
    )
    assert contents[3].parts[0].text == "For context:\n[policy] said: Refund is within policy."
    assert contents[4].parts[0].text == "On it."
    # No function call or response of another agent reaches the model as a structured part.
    assert all(
        p.function_call is None and p.function_response is None
        for c in contents[1:4]
        for p in c.parts
    )


def test_unanswered_calls_and_orphan_responses_are_dropped() -> None:
    events = [
        ev("user", text("refund 1182 and 1183")),
        ev("desk", text("Refunding both."), call("refund", "c1"), call("refund", "c2")),
        ev("desk", response("refund", "c1", ok=True), response("refund", "c9", ok=True)),
        ev("desk", call("refund", "c3")),  # a call whose turn failed
        ev("user", text("and now?")),
    ]
    assert flat(build_contents(events, "desk")) == [
        ("user", "refund 1182 and 1183"),
        ("model", "Refunding both."),
        ("model", "call c1"),
        ("user", "response c1"),
        ("user", "and now?"),
    ]


def test_confirmation_and_credential_requests_and_answers_are_left_out() -> None:
    confirm = call(REQUEST_CONFIRMATION, "confirm-1", function_call_id="c1", hint="ok?")
    cred = call(REQUEST_CREDENTIAL, "cred-1", function_call_id="c2", auth_type="api_key")
    events = [
        ev("user", text("refund 1182")),
        ev("desk", call("refund", "c1"), call("fetch", "c2")),
        ev("desk", confirm, cred, long_running_tool_ids={"confirm-1", "cred-1"}),
        ev("user", response(REQUEST_CONFIRMATION, "confirm-1", confirmed=True)),
        ev("user", response(REQUEST_CREDENTIAL, "cred-1", credential="[withheld]")),
        ev("desk", response("refund", "c1", ok=True), response("fetch", "c2", ok=True)),
    ]
    assert flat(build_contents(events, "desk")) == [
        ("user", "refund 1182"),
        ("model", "call c1"),
        ("model", "call c2"),
        ("user", "response c1"),
        ("user", "response c2"),
    ]


def test_error_and_partial_events_are_left_out() -> None:
    events = [
        ev("user", text("hi")),
        ev("desk", text("Hel"), partial=True),
        ev("desk", text("Hello, I"), partial=True),
        ev("desk", text("Hello, I can"), error_code=ErrorCode.MAX_TOKENS),
        ev("desk", error_code=ErrorCode.RATE_LIMITED, error_message="slow down"),
        ev("user", text("again")),
        ev("desk", text("Hello!")),
    ]
    assert flat(build_contents(events, "desk")) == [
        ("user", "hi"),
        ("user", "again"),
        ("model", "Hello!"),
    ]


def test_events_without_content_or_with_empty_text_are_skipped() -> None:
    events = [
        ev("user", text("hi")),
        ev("desk", actions=EventActions(state_delta={"x": 1})),
        ev("desk", text("")),
        ev("desk", text("Hello!")),
    ]
    assert flat(build_contents(events, "desk")) == [("user", "hi"), ("model", "Hello!")]


def _compaction(covered: list[Event], summary: str, at: float) -> Event:
    return Event(
        invocation_id="compact",
        author="user",
        timestamp=at,
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=covered[0].timestamp,
                end_timestamp=covered[-1].timestamp,
                event_ids=tuple(e.id for e in covered),
                summary=Content.from_text(summary, role="model"),
            )
        ),
    )


def test_a_compaction_summary_comes_first_and_stands_in_for_what_it_covers() -> None:
    old = [ev("user", text("old question")), ev("desk", text("old answer"))]
    kept = [ev("user", text("newer question")), ev("desk", text("newer answer"))]
    compaction = _compaction(old, "Ana asked about order 1182.", at=kept[-1].timestamp + 1)
    later = ev("user", text("latest"))
    later = later.model_copy(update={"timestamp": compaction.timestamp + 1})
    contents = build_contents([*old, *kept, compaction, later], "desk")
    assert flat(contents) == [
        ("user", "[Summary of earlier conversation]\nAna asked about order 1182."),
        ("user", "newer question"),
        ("model", "newer answer"),
        ("user", "latest"),
    ]


def test_the_newest_compaction_wins() -> None:
    first = [ev("user", text("one")), ev("desk", text("two"))]
    early = _compaction(first, "summary A", at=first[-1].timestamp + 0.5)
    second = [ev("user", text("three")), ev("desk", text("four"))]
    late = _compaction([*first, *second], "summary B", at=second[-1].timestamp + 0.5)
    tail = ev("user", text("five"))
    tail = tail.model_copy(update={"timestamp": late.timestamp + 1})
    contents = build_contents([*first, early, *second, late, tail], "desk")
    assert flat(contents) == [
        ("user", "[Summary of earlier conversation]\nsummary B"),
        ("user", "five"),
    ]


def test_events_at_or_before_the_compaction_end_are_dropped_even_if_not_listed() -> None:
    covered = [ev("user", text("a")), ev("desk", text("b"))]
    straggler = ev("desk", text("c"), timestamp=covered[-1].timestamp)
    compaction = _compaction(covered, "S", at=covered[-1].timestamp + 1)
    assert flat(build_contents([*covered, straggler, compaction], "desk")) == [
        ("user", "[Summary of earlier conversation]\nS")
    ]


def test_current_turn_starts_at_the_latest_user_text() -> None:
    first = ev("user", text("first"))
    reply = ev("desk", call("refund", "c1"))
    ask = ev("desk", call(REQUEST_CONFIRMATION, "confirm-1", function_call_id="c1"))
    second = ev("user", text("second"))
    work = ev("desk", call("refund", "c2"))
    answer = ev("user", response(REQUEST_CONFIRMATION, "confirm-2", confirmed=True))
    events = [first, reply, ask, second, work, answer]
    assert list(current_turn(events)) == [second, work, answer]
    assert list(current_turn([reply, ask])) == [reply, ask]
    assert list(current_turn([])) == []


# --- HistoryCache: incremental building must equal building from scratch --------------------


def _random_log(rng: random.Random, n: int) -> list[Event]:
    events: list[Event] = []
    t, open_calls, cid = 1000.0, [], 0
    for i in range(n):
        t += 1
        kind = rng.random()
        author = rng.choice(["user", "desk", "desk", "other"])
        inv = f"inv{i // 4}"
        if kind < 0.25:
            ev = Event(
                invocation_id=inv, author="user", timestamp=t, content=Content.from_text(f"u{i}")
            )
        elif kind < 0.45:
            cid += 1
            name = REQUEST_CONFIRMATION if rng.random() < 0.1 else "tool"
            parts = []
            for j in range(rng.choice([1, 1, 2])):
                call_id = f"c{cid}-{j}" if rng.random() > 0.05 else f"c{rng.randint(0, cid)}-0"
                parts.append(Part.from_function_call(name, {"a": i}, call_id))
                open_calls.append(call_id)
            if rng.random() < 0.3:
                parts.insert(0, Part(text=f"thinking {i}"))
            ev = Event(
                invocation_id=inv,
                author=author if author != "user" else "desk",
                timestamp=t,
                content=Content(role="model", parts=tuple(parts)),
            )
        elif kind < 0.65 and (open_calls or rng.random() < 0.3):
            if open_calls and rng.random() < 0.9:
                call_id = open_calls.pop(rng.randrange(len(open_calls)))
            else:
                call_id = f"c{rng.randint(0, cid + 3)}-0"
            name = REQUEST_CONFIRMATION if rng.random() < 0.05 else "tool"
            ev = Event(
                invocation_id=inv,
                author=rng.choice(["desk", "other", "user"]),
                timestamp=t,
                content=Content(
                    role=rng.choice(["user", "user", "model"]),
                    parts=(Part.from_function_response(name, {"r": i}, call_id),),
                ),
            )
        elif kind < 0.8:
            ev = Event(
                invocation_id=inv,
                author=author,
                timestamp=t,
                content=Content(
                    role=rng.choice(["model", "user"]),
                    parts=(Part(text=rng.choice(["", f"a{i}"])),),
                ),
            )
        elif kind < 0.85:
            ev = Event(
                invocation_id=inv,
                author="desk",
                timestamp=t,
                error_code=ErrorCode.INTERNAL,
                error_message="x",
                content=Content.from_text("err") if rng.random() < 0.5 else None,
            )
        elif kind < 0.88:
            ev = Event(
                invocation_id=inv,
                author="desk",
                timestamp=t,
                partial=True,
                content=Content.from_text("draft"),
            )
        elif kind < 0.93 and len(events) > 3:
            lo = rng.randrange(len(events) - 2)
            hi = rng.randrange(lo, len(events) - 1)
            covered = events[lo : hi + 1]
            comp = EventCompaction(
                start_timestamp=covered[0].timestamp,
                end_timestamp=covered[-1].timestamp,
                event_ids=tuple(e.id for e in covered),
                summary=Content.from_text(f"sum{i}", role="model"),
            )
            ev = Event(
                invocation_id=inv, author="desk", timestamp=t, actions=EventActions(compaction=comp)
            )
        else:
            ev = Event(
                invocation_id=inv,
                author=author,
                timestamp=t,
                actions=EventActions(state_delta={"k": i}),
            )
        events.append(ev)
    return events


@pytest.mark.parametrize("seed", range(4))
def test_history_cache_equals_building_from_scratch(seed: int) -> None:
    """Random growing logs (unpaired calls, other agents, errors, drafts, compactions), read
    the way stores and turns read them: the same objects growing, equal copies, gaps."""
    rng = random.Random(seed)
    for trial in range(150):
        events = _random_log(rng, rng.randint(1, 60))
        cache = HistoryCache(max_sessions=rng.choice([1, 2, 64]))
        k = 0
        while k < len(events):
            k = min(k + rng.randint(0, 4), len(events))
            seq: Any = tuple(events[:k])
            r = rng.random()
            if r < 0.05 and seq:
                seq = tuple(e.model_copy() for e in seq)  # equal, not identical
            elif r < 0.1 and len(seq) > 2:
                seq = tuple(e for e in seq if rng.random() < 0.8)  # not a prefix
            elif r < 0.13:
                seq = list(seq)
            elif r < 0.14 and trial % 10 == 0:
                # Rarely: a full collection costs tens of milliseconds in a large test process.
                gc.collect()
            agent = rng.choice(["desk", "other"]) if rng.random() < 0.2 else "desk"
            key = rng.choice(["s1", "s1", "s1", "s2"])
            assert cache.build(key, seq, agent) == build_contents(seq, agent), (trial, k)
