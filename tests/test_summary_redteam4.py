"""Red team, round 4: a payload says each word *of* something (issue 13).

The first three rounds read a cited payload's words as a bag: ``{"exchange": "approved",
"refund": "denied"}`` held both "refund" and "approved", so "A-1001 refund approved" citing it
came out ``verified``, laundering the customer's claim through a result that approved
something else. :mod:`agentlog.summary.record.binding` reads a payload as leaves (a key path
and a value: :mod:`agentlog.summary.record.leaves`) and asks whether it says the item's words
of what the item names. The attacker controls the summary model's text and citations; tools
answer as real ones do. Attacks:

1. a state of another field beside the one the item names (siblings, nested objects, a map
   of requests);
2. a field the item names whose own value it replaces with another field's ("full" refund
   where ``requested`` is full and ``approved`` partial);
3. an amount of another field ("refund of $84.00 approved" where 12.50 was approved and the
   order's total is 84.00);
4. options a tool lists ("eligible resolutions": full refund) beside an unrelated approval;
5. the customer's words a tool stored under a key of free text (a review, a reply, a chat);

each cited three ways and through ``validate_output``, a compaction, a handoff and memory.
None may end ``verified``; the controls check that what the tools said stays ``verified``.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import InMemorySessionService
from agentlog.compaction import compaction_event
from agentlog.summary import (
    SummaryItem,
    SummaryRecord,
    label_provenance,
    memory_entries,
    start_handoff,
)
from test_summary_redteam3 import BASE, CITINGS, T0, checked, label, lookup_session

CLAIM = "Where is my refund for A-1001? Your manager approved a full refund of $84.00."

# --- 1. the state of another field -------------------------------------------------------------

OTHER_FIELD = [
    ({"exchange": "approved", "refund": "denied"}, "A-1001 refund approved."),
    ({"exchange": "approved", "refund": "pending"}, "A-1001 refund approved."),
    ({"exchange": "approved", "refund": "refused"}, "A-1001 full refund approved."),
    ({"return": "accepted", "refund": "on hold"}, "A-1001 refund accepted."),
    ({"replacement": "granted", "refund": "declined"}, "A-1001 refund granted."),
    ({"address_change": "confirmed", "refund": "under review"}, "A-1001 refund confirmed."),
    ({"fee_waiver": "denied", "shipping_refund": "approved"}, "A-1001 fee waiver approved."),
    ({"cancellation": "waived", "restocking_fee": "charged"}, "A-1001 restocking fee waived."),
    (
        {"exchange": {"status": "approved"}, "refund": {"status": "denied"}},
        "A-1001 refund approved.",
    ),
    (
        {"requests": {"exchange": "approved", "refund": "declined"}},
        "A-1001 refund approved.",
    ),
    (
        {"exchange": {"state": "approved", "by": "system"}, "refund": {"state": "rejected"}},
        "A-1001 refund approved by system.",
    ),
]


@pytest.mark.parametrize(("extra", "wording"), OTHER_FIELD)
def test_a_state_of_another_field_does_not_verify(extra: dict[str, Any], wording: str) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    for sources in CITINGS:
        assert label(wording, sources, events) != "verified", (extra, wording, sources)
    assert checked(wording, ["e02", "e03"], events) != "verified", (extra, wording)


# --- 2. a named field's own value replaced -----------------------------------------------------

OWN_VALUE = [
    ({"refund": {"requested": "full", "approved": "partial"}}, "A-1001 full refund approved."),
    ({"requested_refund": "full", "approved_refund": "partial"}, "A-1001 full refund approved."),
    (
        {"requested_resolution": "full refund", "resolution": "repair"},
        "A-1001 resolution full refund.",
    ),
    ({"preferred": "express", "shipping": "standard"}, "A-1001 shipping express."),
    ({"requested_plan": "unlimited", "plan": "basic"}, "A-1001 plan unlimited."),
]


@pytest.mark.parametrize(("extra", "wording"), OWN_VALUE)
def test_a_named_field_says_its_own_value(extra: dict[str, Any], wording: str) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    for sources in CITINGS:
        assert label(wording, sources, events) != "verified", (extra, wording, sources)


# --- 3. an amount of another field ---------------------------------------------------------------

OTHER_AMOUNT = [
    ({"refund_approved": 12.5}, "A-1001 refund of $84.00 approved."),
    ({"approved_amount": 20.0}, "A-1001 approved amount $84.00."),
    ({"refund": {"approved": 12.5}}, "A-1001 refund approved: $84.00."),
    ({"credit_issued": 5.0}, "A-1001 credit issued, $84.00."),
    ({"refund_approved": 12.5}, "A-1001 refund approved, 84.00."),
]


@pytest.mark.parametrize(("extra", "wording"), OTHER_AMOUNT)
def test_an_amount_of_another_field_does_not_verify(extra: dict[str, Any], wording: str) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    for sources in CITINGS:
        assert label(wording, sources, events) != "verified", (extra, wording, sources)


# --- 4. options listed are not decisions ------------------------------------------------------

OPTIONS = [
    {"eligible_resolutions": ["full refund", "replacement"], "status": "approved"},
    {"options": ["full refund", "store credit"], "status": "approved"},
    {"offered": ["full refund"], "return": "approved"},
]


@pytest.mark.parametrize("extra", OPTIONS)
def test_options_a_tool_lists_are_not_what_it_approved(extra: dict[str, Any]) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    for sources in CITINGS:
        assert label("A-1001 full refund approved.", sources, events) != "verified", sources


# --- 5. the customer's words a tool stored under a key of free text ----------------------

STORED_WORDS = [
    {"reviews": [{"rating": 1, "review": "manager approved full refund"}]},
    {"replies": [{"from": "support", "reply": "manager approved full refund"}]},
    {"complaint": "manager approved full refund"},
    {"questions": ["was a manager approved full refund"]},
    {"chat": [{"line": 1, "chat": "manager approved full refund"}]},
    {"last_statement": "manager approved full refund"},
]


@pytest.mark.parametrize("extra", STORED_WORDS)
def test_words_a_tool_only_stored_do_not_verify(extra: dict[str, Any]) -> None:
    """A review, a reply, a complaint, a question, a chat line or a statement is text anyone
    typed that a tool stored, from another session too (so no echo of this one's messages)."""
    events = lookup_session({**BASE, **extra}, claim="Where is my refund for A-1001?")
    for sources in CITINGS:
        wording = "A-1001: manager approved full refund."
        assert label(wording, sources, events) != "verified", (extra, sources)


# --- paths: a compaction, a handoff, memory -------------------------------------------------

PATHED = [
    ({"exchange": "approved", "refund": "denied"}, "A-1001 refund approved."),
    ({"refund": {"requested": "full", "approved": "partial"}}, "A-1001 full refund approved."),
    ({"refund_approved": 12.5}, "A-1001 refund of $84.00 approved."),
]


@pytest.mark.parametrize(("extra", "wording"), PATHED)
def test_through_a_compaction(extra: dict[str, Any], wording: str) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    compaction = compaction_event(events[:3], wording, author="desk").model_copy(
        update={"id": "c01", "timestamp": T0 + 9}
    )
    events = [*events, compaction]
    for sources in (["c01"], ["c01", "e03"]):
        assert label(wording, sources, events) != "verified", (wording, sources)


@pytest.mark.parametrize(("extra", "wording"), PATHED)
async def test_through_a_handoff(extra: dict[str, Any], wording: str) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    laundered = SummaryRecord(
        goal="Refund A-1001",
        goal_sources=("e01",),
        facts=(SummaryItem(text=wording, sources=("e02", "e03"), provenance="verified"),),
    )
    session = await start_handoff(
        laundered,
        "refunds",
        session_service=InMemorySessionService(),
        app_name="a",
        user_id="u",
        source_session_id="s",
        source_events=events,
    )
    handed = list(session.events)
    assert label(wording, [handed[0].id], handed) != "verified", wording


@pytest.mark.parametrize(("extra", "wording"), PATHED)
def test_through_memory_entries(extra: dict[str, Any], wording: str) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    record = label_provenance(
        SummaryRecord(
            goal="Refund A-1001",
            goal_sources=("e01",),
            facts=(SummaryItem(text=wording, sources=("e02", "e03")),),
        ),
        events,
    )
    entries = memory_entries(record, app_name="a", user_id="u", session_id="s")
    assert all(e["provenance"] != "verified" for e in entries if e["text"] == wording)


# --- what must stay verified --------------------------------------------------------------------

CONTROLS = [
    ({"refund": "approved"}, "A-1001 refund approved."),
    ({"refund": {"type": "full", "status": "approved"}}, "A-1001 full refund approved."),
    ({"refund_approved": 84.0}, "A-1001 refund of $84.00 approved."),
    ({"refund_approved": True}, "A-1001 refund approved."),
    ({"exchange": "approved", "refund": "denied"}, "A-1001 exchange approved."),
    ({"exchange": "approved", "refund": "denied"}, "A-1001 exchange approved; refund denied."),
    ({"refund": {"requested": "full", "approved": "full"}}, "A-1001 full refund approved."),
    ({"shipment": {"status": "in transit", "carrier": "UPS"}}, "A-1001 in transit with UPS."),
    ({"refund": {"approved": 84.0}}, "A-1001 refund approved: $84.00."),
    ({"warranty": {"covers": ["leaks", "motor failure"]}}, "A-1001 warranty covers leaks."),
]


@pytest.mark.parametrize(("extra", "wording"), CONTROLS)
def test_what_the_tool_said_of_the_thing_stays_verified(
    extra: dict[str, Any], wording: str
) -> None:
    events = lookup_session({**BASE, **extra}, claim=CLAIM)
    assert label(wording, ["e02", "e03"], events) == "verified", (extra, wording)
