"""Handoffs: a new session that starts from a checked record of another.

The new session's first event, authored ``handoff``, holds the record rendered as plain
sections (the customer's claims and agents' statements marked as such, verified lines left
plain; :mod:`agentlog.summary.record.carried` reads the labels back), and its state delta keeps the
source session id and the target agent under ``handoff:`` keys (session-scoped). The record
travels as a message, not as free text in state that instructions template in, so the
customer's words never become instruction-adjacent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from agentlog.agents.base import BaseAgent
from agentlog.events import Content, Event, EventActions
from agentlog.ids import new_invocation_id
from agentlog.sessions.base import Session, SessionService
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.marks import (
    AGENT_MARK,
    CLAIM_ASKS_MARK,
    CLAIM_MARK,
    EVIDENCE_HEADER,
    GOAL_AGENT,
    GOAL_CLAIM,
    HANDOFF_AUTHOR,
    HANDOFF_SOURCE_KEY,
    HANDOFF_TARGET_KEY,
)
from agentlog.summary.record.provenance import label_provenance
from agentlog.summary.record.schema import SECTIONS, SummaryItem, SummaryRecord

__all__ = [
    "render_handoff",
    "start_handoff",
]


_TITLES: Final = {
    "facts": "Facts",
    "decisions": "Decisions",
    "commitments": "Commitments made to the customer",
    "open_questions": "Open questions",
}


def _one_line(text: str) -> str:
    """``text`` on one line: every run of white space (a line or paragraph separator too) one
    space, so nothing a record holds starts a line of the handoff of its own."""
    return " ".join(text.split())


def _cited(sources: tuple[str, ...]) -> str:
    """``sources`` as a handoff lists them: an id is kept to what can be read back as one (no
    space, bracket or comma), so a source a model wrote cannot close the list and start a line."""
    ids = ("".join(c for c in "".join(s.split()) if c not in "[],") for s in sources)
    return ", ".join(i for i in ids if i)


def _line(item: SummaryItem, section: str) -> str:
    text = _one_line(item.text)
    if item.provenance == "user_claim":
        text = (CLAIM_ASKS_MARK if section == "open_questions" else CLAIM_MARK) + text
    elif item.provenance == "agent_statement":
        text = AGENT_MARK + text
    return f"- {text} [{_cited(item.sources)}]"


def _goal(record: SummaryRecord) -> str:
    text = _one_line(record.goal) or "(not stated)"
    cited = f" [{_cited(record.goal_sources)}]" if _cited(record.goal_sources) else ""
    if record.goal and record.goal_provenance == "user_claim":
        return f"{GOAL_CLAIM}{text}{cited}"
    if record.goal and record.goal_provenance == "agent_statement":
        return f"{GOAL_AGENT}{text}{cited}"
    return f"Goal: {text}{cited}"


def render_handoff(record: SummaryRecord, *, source_session_id: str, target_agent: str) -> str:
    """The record as plain sections for the agent taking over."""
    if any(item.provenance is None for _, item in record.items()):
        raise ValueError("the record's provenance is not set: hand off only a checked record")
    lines = [
        f"Handoff to {_one_line(target_agent)} from session {_one_line(source_session_id)}.",
        "A checked summary of that session: each line cites the events it came from. Lines "
        "marked as the customer's or an agent's are their words, not verified; the "
        f"{EVIDENCE_HEADER}.",
        "",
        _goal(record),
    ]
    for section in SECTIONS:
        items = record.section(section)
        lines += ["", f"{_TITLES[section]}:"]
        lines += [_line(i, section) for i in items] or ["- none"]
    return "\n".join(lines)


async def start_handoff(
    record: SummaryRecord,
    target_agent: str | BaseAgent,
    *,
    session_service: SessionService,
    app_name: str,
    user_id: str,
    source_session_id: str,
    session_id: str | None = None,
    source_events: Iterable[Event] | None = None,
    patterns: EntityPatterns | None = None,
) -> Session:
    """Create the session the target agent continues in, starting from ``record``.

    The labels the handoff shows are decided again, by code, from the source session's events
    (``source_events``, or the session ``source_session_id`` of ``session_service``; with the
    validator's ``patterns`` if it had domain ones): a record built or edited by hand, or
    parsed from a model's output without the validator, cannot hand over an item as verified
    that its cited events do not support. Raises ``SessionNotFoundError`` when no events are
    given and the source session is not in ``session_service``.

    Run it with a ``Runner`` whose agent is (or contains) ``target_agent``; the handoff event
    reaches the model as context from another author, never as the model's own words.
    """
    target = target_agent.name if isinstance(target_agent, BaseAgent) else target_agent
    if source_events is None:
        source = await session_service.get_session(
            app_name=app_name, user_id=user_id, session_id=source_session_id
        )
        source_events = source.events
    record = label_provenance(record, source_events, patterns=patterns)
    text = render_handoff(record, source_session_id=source_session_id, target_agent=target)
    session = await session_service.create_session(
        app_name=app_name, user_id=user_id, session_id=session_id
    )
    event = Event(
        invocation_id=new_invocation_id(),
        author=HANDOFF_AUTHOR,
        content=Content.from_text(text, role="user"),
        actions=EventActions(
            state_delta={HANDOFF_SOURCE_KEY: source_session_id, HANDOFF_TARGET_KEY: target}
        ),
    )
    return await session_service.append_event(session, event)
