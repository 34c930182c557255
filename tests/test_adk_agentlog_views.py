"""agentlog's own machinery on sessions a google-adk app keeps on agentlog: compaction (agentlog's,
which ADK's Runner then honours, and ADK's, which agentlog reads), and checked summaries."""

from __future__ import annotations

from typing import Any

import pytest
from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.apps.app import EventsCompactionConfig as AdkCompactionConfig
from google.adk.apps.llm_event_summarizer import LlmEventSummarizer as AdkSummarizer
from google.adk.runners import Runner

from adk_support import CannedLlm, calls, says, texts, user_text
from agentlog import Content, InMemorySessionService
from agentlog.adk import AgentlogSessionService
from agentlog.compaction import EventsCompactionConfig, LlmEventSummarizer
from agentlog.models.base import LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.sessions.base import GetSessionConfig
from agentlog.summary.summarisers.extractive import ExtractiveSummarizer

APP = "shop"
USER = "ana"
SUMMARY = "The user asked where A-1001 is; it shipped, tracking TRK-99812."

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look an order up.

    Args:
        order_id: the order's id.
    """
    return {"order_id": order_id, "status": "shipped", "tracking": "TRK-99812"}


async def run(runner: Runner, session_id: str, text: str) -> None:
    async for _ in runner.run_async(
        user_id=USER, session_id=session_id, new_message=user_text(text)
    ):
        pass


def order_turns() -> list[Any]:
    return [
        calls("lookup_order", "c1", order_id="A-1001"),
        says("A-1001 shipped, tracking TRK-99812."),
        says("You're welcome."),
    ]


async def test_agentlogs_compaction_is_sent_by_adks_runner_in_place_of_what_it_covers() -> None:
    store = InMemorySessionService()
    service = AgentlogSessionService(store)
    model = CannedLlm(order_turns())
    agent = LlmAgent(name="desk", model=model, tools=[lookup_order])
    runner = Runner(app_name=APP, agent=agent, session_service=service)
    session = await service.create_session(app_name=APP, user_id=USER)
    await run(runner, session.id, "Where is A-1001?")
    await run(runner, session.id, "Thanks")

    summarizer = ScriptedLlm([LlmResponse(content=Content.from_text(SUMMARY, role="model"))])
    config = EventsCompactionConfig(2, 0, LlmEventSummarizer(summarizer))
    compaction = await service.compact(
        app_name=APP, user_id=USER, session_id=session.id, config=config
    )
    assert compaction is not None
    assert compaction.actions.compaction is not None
    assert compaction.actions.compaction.compacted_content.parts[0].text == SUMMARY

    model.add(says("Anything else?"))
    await run(runner, session.id, "One more question")
    assert texts(model.requests[-1]) == [SUMMARY, "One more question"]
    # Nothing was deleted: the covered events are all still stored.
    stored = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert [e.text() for e in stored.events if e.author == "user"] == [
        "Where is A-1001?",
        "Thanks",
        "One more question",
    ]


async def test_adks_own_compaction_is_an_agentlog_compaction_listing_what_it_covers() -> None:
    store = InMemorySessionService()
    service = AgentlogSessionService(store)
    model = CannedLlm(order_turns())
    summarizer = CannedLlm([says(SUMMARY)])
    app = App(
        name=APP,
        root_agent=LlmAgent(name="desk", model=model, tools=[lookup_order]),
        events_compaction_config=AdkCompactionConfig(
            compaction_interval=2, overlap_size=0, summarizer=AdkSummarizer(llm=summarizer)
        ),
    )
    runner = Runner(app=app, session_service=service)
    session = await service.create_session(app_name=APP, user_id=USER)
    await run(runner, session.id, "Where is A-1001?")
    await run(runner, session.id, "Thanks")
    assert summarizer.unused == 0

    stored = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
    compactions = [e for e in stored.events if e.actions.compaction is not None]
    assert len(compactions) == 1
    covered = compactions[0].actions.compaction
    assert covered is not None
    assert covered.summary.parts[0].text == SUMMARY
    assert covered.event_ids == tuple(e.id for e in stored.events if e is not compactions[0])
    # agentlog's history load starts at it, as for agentlog's own compactions.
    tail = await store.get_session(
        app_name=APP,
        user_id=USER,
        session_id=session.id,
        config=GetSessionConfig(from_latest_compaction=True),
    )
    assert tail.events == (compactions[0],)


async def test_a_checked_summary_of_an_adk_session_cites_its_tool_results() -> None:
    store = InMemorySessionService()
    service = AgentlogSessionService(store)
    agent = LlmAgent(name="desk", model=CannedLlm(order_turns()[:2]), tools=[lookup_order])
    runner = Runner(app_name=APP, agent=agent, session_service=service)
    session = await service.create_session(app_name=APP, user_id=USER)
    await run(runner, session.id, "Where is A-1001?")

    loaded = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
    result = ExtractiveSummarizer().summarize_now(loaded)
    assert result.record is not None
    tool_events = {e.id for e in loaded.events if e.function_calls() or e.function_responses()}
    verified = [f for f in result.record.facts if f.provenance == "verified"]
    assert verified
    assert "TRK-99812" in verified[0].text
    assert set(verified[0].sources) <= tool_events
