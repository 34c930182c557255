"""``render_digest``: a checked record as Markdown for a ticket, every item linked to its events.

Items that rest only on the customer's word read "The customer says: ..." (open questions:
"The customer asks: ..."). Item text is escaped, so a record cannot smuggle links, images or
HTML into the ticket.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final
from urllib.parse import quote

from agentlog.events import Event
from agentlog.sessions.base import Session
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.provenance import label_provenance
from agentlog.summary.record.schema import SECTIONS, SummaryItem, SummaryRecord

__all__ = ["DEFAULT_LINK", "render_digest"]

DEFAULT_LINK: Final = "#{event_id}"
"""Links to anchors named after the events; pass a URL template (``{session_id}``,
``{event_id}``) or a function of the event id to link elsewhere."""

_TITLES: Final = {
    "facts": "Facts",
    "decisions": "Decisions",
    "commitments": "Commitments",
    "open_questions": "Open questions",
}
_GOAL_MARKS: Final[dict[str | None, str]] = {
    "user_claim": " (the customer's words)",
    "agent_statement": " (an agent's words)",
}
_SPECIAL: Final = re.compile(r"([\\`*\[\]<>|])")


def _escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _target(url: str) -> str:
    return f"<{url}>" if any(c in url for c in " ()<>") else url


def _label(event_id: str) -> str:
    return event_id if len(event_id) <= 12 else "…" + event_id[-6:]


def render_digest(
    record: SummaryRecord,
    session: Session | Sequence[Event] | None = None,
    *,
    link: str | Callable[[str], str] = DEFAULT_LINK,
    title: str | None = None,
    patterns: EntityPatterns | None = None,
) -> str:
    """``record`` as Markdown: the goal, then one bullet per item with links to its events.

    With ``session`` given, its id heads the digest and fills ``{session_id}`` in ``link``, and
    every label is decided again by code from its events (with the validator's ``patterns`` if
    it had domain ones): a record parsed without the validator carries the labels a model
    wrote, and a digest shows none of them.
    """
    session_id = session.id if isinstance(session, Session) else ""
    if session is not None:
        events = session.events if isinstance(session, Session) else session
        record = label_provenance(record, events, patterns=patterns)

    def href(event_id: str) -> str:
        if callable(link):
            return link(event_id)
        return link.replace("{session_id}", quote(session_id, safe="")).replace(
            "{event_id}", quote(event_id, safe="")
        )

    def bullet(item: SummaryItem, asks: bool) -> str:
        text = _escape(item.text)
        if item.provenance == "user_claim":
            text = f"The customer {'asks' if asks else 'says'}: {text}"
        elif item.provenance == "agent_statement":
            text = f"An agent said: {text}"
        links = ", ".join(f"[{_escape(_label(s))}]({_target(href(s))})" for s in item.sources)
        return f"- {text} ({links})"

    heading = title or (f"Session {session_id}" if session_id else "Session summary")
    goal = _GOAL_MARKS.get(record.goal_provenance, "") if record.goal else ""
    lines = [
        f"## {_escape(heading)}",
        "",
        f"**Goal{goal}:** {_escape(record.goal) or '(not stated)'}",
    ]
    for section in SECTIONS:
        items = record.section(section)
        lines += ["", f"### {_TITLES[section]}", ""]
        lines += [bullet(i, section == "open_questions") for i in items] or ["- None."]
    return "\n".join(lines) + "\n"
