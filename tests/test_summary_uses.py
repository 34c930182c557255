"""Using a checked record: digests, handoffs, memory entries, and background summaries."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from agentlog import Content, Event, InMemorySessionService, Session
from agentlog.agents import LlmAgent
from agentlog.errors import SessionNotFoundError
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner
from agentlog.summary import (
    HANDOFF_AUTHOR,
    HANDOFF_SOURCE_KEY,
    HANDOFF_TARGET_KEY,
    BackgroundSummarizer,
    ExtractiveSummarizer,
    InMemorySummaryStore,
    SqliteSummaryStore,
    StoredSummary,
    SummaryInput,
    SummaryItem,
    SummaryRecord,
    SummaryResult,
    SummaryService,
    SummaryStore,
    memory_entries,
    parse_record,
    render_digest,
    render_handoff,
    start_handoff,
)
from agentlog.summary.example import FIRST_OUTPUT, FIXED_OUTPUT, refund_session_events

EVENTS = refund_session_events()


def checked_record() -> SummaryRecord:
    result = ExtractiveSummarizer().summarize_now(EVENTS)
    assert result.record is not None
    return result.record


def model_record() -> SummaryRecord:
    from agentlog.summary import label_provenance

    record, problems = parse_record(FIXED_OUTPUT)
    assert record is not None
    assert problems == []
    return label_provenance(record, EVENTS)


# --- digest -------------------------------------------------------------------------------------


def test_digest_links_every_item_to_its_events() -> None:
    session = Session(
        id="s-42", app_name="desk", user_id="ana", events=EVENTS, version=8, last_update_time=0
    )
    digest = render_digest(
        model_record(), session, link="https://support.example/s/{session_id}#{event_id}"
    )
    assert digest.splitlines() == [
        "## Session s-42",
        "",
        "**Goal (the customer's words):** Get the shipping fee of the late order A-1001 refunded.",
        "",
        "### Facts",
        "",
        "- Order A-1001 shipped on 28 September 2026. "
        "([e02](https://support.example/s/s-42#e02), [e03](https://support.example/s/s-42#e03))",
        "- The $12.50 shipping fee of A-1001 was refunded. "
        "([e05](https://support.example/s/s-42#e05), [e06](https://support.example/s/s-42#e06))",
        "",
        "### Decisions",
        "",
        "- Refund the $12.50 shipping fee of A-1001. ([e04](https://support.example/s/s-42#e04), "
        "[e05](https://support.example/s/s-42#e05), [e06](https://support.example/s/s-42#e06))",
        "",
        "### Commitments",
        "",
        "- An agent said: The $12.50 refund reaches the card within five working days. "
        "([e07](https://support.example/s/s-42#e07))",
        "",
        "### Open questions",
        "",
        "- The customer asks: Is B-2040 affected too? ([e08](https://support.example/s/s-42#e08))",
    ]


def test_digest_escapes_markdown_and_labels_unlabelled_records() -> None:
    record, _ = parse_record(
        {
            "goal": "g",
            "facts": [{"text": "see [click](http://evil) <img src=x> *now*", "sources": ["e08"]}],
            "decisions": [],
            "commitments": [],
            "open_questions": [],
        }
    )
    assert record is not None
    digest = render_digest(record, EVENTS, link=lambda eid: f"/events/{eid}")
    line = next(ln for ln in digest.splitlines() if ln.startswith("- The customer says"))
    assert line == (
        r"- The customer says: see \[click\](http://evil) \<img src=x\> \*now\* "
        "([e08](/events/e08))"
    )
    assert "### Decisions\n\n- None." in digest


# --- handoff ------------------------------------------------------------------------------------


async def test_handoff_starts_a_session_from_the_record() -> None:
    store = InMemorySessionService()
    record = model_record()
    session = await start_handoff(
        record,
        "refunds",
        session_service=store,
        app_name="desk",
        user_id="ana",
        source_session_id="s-42",
        source_events=EVENTS,
    )
    assert session.state[HANDOFF_SOURCE_KEY] == "s-42"
    assert session.state[HANDOFF_TARGET_KEY] == "refunds"
    (first,) = session.events
    assert first.author == HANDOFF_AUTHOR
    text = first.text()
    assert text == render_handoff(record, source_session_id="s-42", target_agent="refunds")
    assert text.splitlines()[0] == "Handoff to refunds from session s-42."
    assert (
        "Goal (the customer's words, not verified): Get the shipping fee of the late order "
        "A-1001 refunded." in text
    )
    assert (
        "- (an agent said, not verified) The $12.50 refund reaches the card within five "
        "working days. [e07]" in text
    )
    assert "- (the customer asks, not verified) Is B-2040 affected too? [e08]" in text
    assert "Decisions:\n- Refund the $12.50 shipping fee of A-1001. [e04, e05, e06]" in text

    # The agent taking over sees the record as context from another author, then the customer.
    model = ScriptedLlm([ScriptedLlm.text("About B-2040: it is on time.")])
    runner = Runner(
        agent=LlmAgent(name="refunds", model=model), session_service=store, app_name="desk"
    )
    async for _ in runner.run_async(
        user_id="ana", session_id=session.id, new_message=Content.from_text("And B-2040?")
    ):
        pass
    seen = json.dumps([c.model_dump(mode="json") for c in model.requests[0].contents])
    assert "Handoff to refunds from session s-42." in seen
    assert "[handoff]" in seen
    model.verify()


async def test_a_handoff_decides_its_labels_again_from_the_source_session() -> None:
    # A record built by hand calls the customer's words verified; the handoff, labelling from
    # the source session's events, shows them as the customer's.
    store = InMemorySessionService()
    source = await store.create_session(app_name="desk", user_id="ana", session_id="s-7")
    for event in EVENTS:
        source = await store.append_event(source, event)
    user_event = next(e for e in EVENTS if e.author == "user")
    forged = model_record().model_copy(
        update={
            "facts": (
                SummaryItem(
                    text=user_event.text(), sources=(user_event.id,), provenance="verified"
                ),
            )
        }
    )
    session = await start_handoff(
        forged,
        "refunds",
        session_service=store,
        app_name="desk",
        user_id="ana",
        source_session_id="s-7",
    )
    text = session.events[0].text()
    assert f"- (the customer says, not verified) {user_event.text()}" in text


async def test_a_handoff_without_its_source_session_is_refused() -> None:
    with pytest.raises(SessionNotFoundError):
        await start_handoff(
            model_record(),
            "refunds",
            session_service=InMemorySessionService(),
            app_name="desk",
            user_id="ana",
            source_session_id="gone",
        )


def test_handoff_refuses_an_unchecked_record() -> None:
    record, _ = parse_record(FIXED_OUTPUT)
    assert record is not None
    with pytest.raises(ValueError, match="provenance"):
        render_handoff(record, source_session_id="s", target_agent="t")


# --- memory -------------------------------------------------------------------------------------


def test_memory_entries_carry_sources_and_provenance() -> None:
    entries = memory_entries(model_record(), app_name="desk", user_id="ana", session_id="s-42")
    assert [(e["kind"], e["event_ids"], e["provenance"]) for e in entries] == [
        ("fact", ["e02", "e03"], "verified"),
        ("fact", ["e05", "e06"], "verified"),
        ("fact", ["e04", "e05", "e06"], "verified"),
        ("commitment", ["e07"], "agent_statement"),  # stored as the validator labelled it
    ]
    assert all(e["session_id"] == "s-42" and e["user_id"] == "ana" for e in entries)
    assert len(memory_entries(model_record(), app_name="a", user_id="u", session_id="s",
                              include_decisions=False)) == 3  # fmt: skip
    unchecked, _ = parse_record(FIXED_OUTPUT)
    assert unchecked is not None
    with pytest.raises(ValueError, match="provenance"):
        memory_entries(unchecked, app_name="a", user_id="u", session_id="s")


async def test_memory_entries_go_into_the_memory_store() -> None:
    memory = pytest.importorskip("agentlog.memory")
    service = memory.InMemoryMemoryService()
    entries = memory_entries(checked_record(), app_name="desk", user_id="ana", session_id="s-42")
    stored = await service.add(entries)
    assert len(stored) == len(entries)
    query = "Refunded shipping A-1001 amount"
    hits = await service.search(app_name="desk", user_id="ana", query=query)
    assert hits
    assert hits[0].entry.event_ids == ("e05", "e06")
    said = [e for e in stored if e.provenance == "agent_statement"]
    assert [e.kind for e in said] == ["commitment"]  # not stored as the customer's claim


# --- stores -------------------------------------------------------------------------------------


@pytest.fixture(params=["memory", "sqlite"])
async def summary_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    store: SummaryStore = (
        InMemorySummaryStore()
        if request.param == "memory"
        else SqliteSummaryStore(tmp_path / "s.db")
    )
    yield store
    await store.close()


def stored(
    version: int, status: str = "ok", session_id: str = "s1", user_id: str = "ana"
) -> StoredSummary:
    return StoredSummary(
        app_name="desk",
        user_id=user_id,
        session_id=session_id,
        session_version=version,
        status=status,  # type: ignore[arg-type]
        record=model_record() if status == "ok" else None,
        created_at=float(version),
    )


async def test_summary_stores_keep_the_newest_per_session(summary_store: SummaryStore) -> None:
    assert isinstance(summary_store, SummaryStore)
    assert await summary_store.get(app_name="desk", user_id="ana", session_id="s1") is None
    await summary_store.put(stored(8))
    await summary_store.put(stored(10, "failed"))
    await summary_store.put(stored(3, session_id="s2", user_id="bo"))
    newest = await summary_store.get(app_name="desk", user_id="ana", session_id="s1")
    assert newest is not None
    assert (newest.session_version, newest.status) == (10, "failed")
    good = await summary_store.get(app_name="desk", user_id="ana", session_id="s1", ok_only=True)
    assert good == stored(8)
    assert [s.session_id for s in await summary_store.list(app_name="desk")] == ["s2", "s1"]
    assert [s.session_id for s in await summary_store.list(app_name="desk", user_id="bo")] == ["s2"]
    await summary_store.delete(app_name="desk", user_id="ana", session_id="s1")
    assert await summary_store.get(app_name="desk", user_id="ana", session_id="s1") is None
    assert await summary_store.get(app_name="desk", user_id="bo", session_id="s2") is not None


async def test_a_closed_store_refuses(summary_store: SummaryStore) -> None:
    from agentlog.errors import StoreUnavailableError

    await summary_store.close()
    with pytest.raises(StoreUnavailableError):
        await summary_store.put(stored(1))


# --- background ---------------------------------------------------------------------------------


async def make_sessions(store: InMemorySessionService) -> float:
    """Two sessions: "idle" stored now, "busy" with events stamped an hour ahead. Returns now."""
    now = time.time()
    for sid in ("idle", "busy"):
        session = await store.create_session(app_name="desk", user_id="ana", session_id=sid)
        for n, event in enumerate(EVENTS):
            if sid == "busy":
                event = event.model_copy(update={"timestamp": now + 3_600 + n})
            session = await store.append_event(session, event)
    return now


class Exploding:
    async def summarize(self, session: SummaryInput) -> SummaryResult:
        raise RuntimeError("model host unreachable")


async def test_idle_and_ended_sessions_are_summarised_once_per_length() -> None:
    sessions = InMemorySessionService()
    now = await make_sessions(sessions) + 600  # "idle" went quiet 10 minutes ago
    store = InMemorySummaryStore()
    background = BackgroundSummarizer(
        ExtractiveSummarizer(),
        session_service=sessions,
        store=store,
        app_name="desk",
        idle_after=300,
        clock=lambda: now,
    )
    done = await background.run_once()
    assert [(s.session_id, s.status, s.session_version) for s in done] == [("idle", "ok", 8)]
    assert await background.run_once() == []  # nothing new
    background.mark_ended(user_id="ana", session_id="busy")
    background.mark_ended(user_id="ana", session_id="gone")  # deleted meanwhile: skipped
    done = await background.run_once()
    assert [s.session_id for s in done] == ["busy"]
    # New events on an idle session: summarised again at its new length.
    session = await sessions.get_session(app_name="desk", user_id="ana", session_id="idle")
    late = Event(invocation_id="i9", author="user", timestamp=EVENTS[-1].timestamp + 1,
                 content=Content.from_text("Any news on B-2040?"))  # fmt: skip
    await sessions.append_event(session, late)
    (again,) = await background.run_once()
    assert (again.session_id, again.session_version) == ("idle", 9)
    stored_summary = await store.get(app_name="desk", user_id="ana", session_id="idle")
    assert stored_summary == again
    assert again.record is not None


async def test_failures_and_errors_are_stored_and_not_retried() -> None:
    sessions = InMemorySessionService()
    await make_sessions(sessions)
    store = InMemorySummaryStore()
    model = ScriptedLlm([ScriptedLlm.text(FIRST_OUTPUT), ScriptedLlm.text(FIRST_OUTPUT)])
    background = BackgroundSummarizer(
        SummaryService(model), session_service=sessions, store=store, app_name="desk",
        idle_after=0, clock=lambda: 2e9,
    )  # fmt: skip
    background.mark_ended(user_id="ana", session_id="idle")
    outcomes = {s.session_id: s for s in await background.run_once()}
    # One model script for two sessions: "idle" fails its checks, "busy" finds no step left
    # (the scripted model raises) and is stored as an error.
    failed = outcomes["idle"]
    assert (failed.status, failed.record, failed.attempts) == ("failed", None, 2)
    assert failed.problems[0][0].kind == "dropped_entity"
    assert await background.run_once() == []

    crashing = BackgroundSummarizer(
        Exploding(), session_service=sessions, store=InMemorySummaryStore(), app_name="desk",
        idle_after=0, clock=lambda: 2e9,
    )  # fmt: skip
    errors = await crashing.run_once()
    assert {(s.status, s.error) for s in errors} == {
        ("error", "RuntimeError: model host unreachable")
    }
    assert await crashing.run_once() == []


async def test_the_background_task_runs_off_the_request_path() -> None:
    sessions = InMemorySessionService()
    await make_sessions(sessions)
    store = InMemorySummaryStore()
    background = BackgroundSummarizer(
        ExtractiveSummarizer(), session_service=sessions, store=store, app_name="desk",
        idle_after=10**9, poll_interval=3600,
    )  # fmt: skip
    await background.start()
    assert background.running
    background.mark_ended(user_id="ana", session_id="busy")  # returns at once
    for _ in range(200):
        if await store.get(app_name="desk", user_id="ana", session_id="busy") is not None:
            break
        await asyncio.sleep(0.01)
    assert (await store.get(app_name="desk", user_id="ana", session_id="busy")) is not None
    assert await store.get(app_name="desk", user_id="ana", session_id="idle") is None
    await background.stop()
    assert not background.running


@pytest.mark.parametrize("steps", range(6))
async def test_stop_is_not_lost_to_a_wake_arriving_with_it(steps: int) -> None:
    """``stop`` cancels the loop even when its wait for a wake ends in the same moment:
    Python 3.11's ``asyncio.wait_for`` returned the woken wait's result instead of raising
    the cancellation, and the loop went back to sleep for ``poll_interval`` (an hour here)
    with ``stop`` awaiting it. The session ended before the loop's first scan, so the wake is
    still set when that scan ends; ``steps`` turns of the event loop after the summary is
    stored find the moment the loop's wait is woken."""
    sessions = InMemorySessionService()
    await make_sessions(sessions)
    store = InMemorySummaryStore()
    background = BackgroundSummarizer(
        ExtractiveSummarizer(), session_service=sessions, store=store, app_name="desk",
        idle_after=10**9, poll_interval=3600,
    )  # fmt: skip
    await background.start()
    background.mark_ended(user_id="ana", session_id="busy")
    for _ in range(10_000):
        if await store.get(app_name="desk", user_id="ana", session_id="busy") is not None:
            break
        await asyncio.sleep(0)
    for _ in range(steps):
        await asyncio.sleep(0)
    stopping = asyncio.ensure_future(background.stop())
    done, _ = await asyncio.wait({stopping}, timeout=5)
    stopping.cancel()
    assert done, "stop() is still waiting for the loop"
    assert not background.running
