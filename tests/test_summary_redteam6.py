"""Red team, round 6: the paths to ``verified`` that round 5 listed as still open (issue 13).

The attacker controls the summary model's text and citations and the customer's messages;
tools answer as real ones do. Each family is tried in several wordings, cited three ways and
through ``validate_output`` (every section given), and the main ones through a compaction and
a handoff (the harness of :mod:`test_summary_redteam5`):

1. a date read against the event's own time: an approval dated after the result
   (``"approved_on": "2099-01-01"``, ``effective_from`` later), or one that had lapsed
   (``expires_at``, ``valid_until`` before it);
2. a history of states (``[{"status": "approved"}, {"status": "revoked"}]``: the last, or the
   newest by its date, holds now), and a state split across sibling records
   (``[{"field": "status"}, {"value": "approved"}]``);
3. a comment that cancels a short value ("approved (not really)", "approved - just kidding",
   "approved? no", "would be approved if ...");
4. Title Case: a value written as a name ("Refund Approved") under another thing's key;
5. a decision noun naming another act (``"cancellation": {"approved": true}``, the item
   saying "refund approved");
6. a deterministic agent (no model) whose state change carries the customer's words nested,
   mixed with its own, or as a key;

and families of our own:

7. a key whose value is a list or an object that says no (``[false]``, ``{"value": false}``);
8. a zero with its unit (``"$0.00"``, ``"0 USD"``, ``"0%"``) or a number written as a word;
9. the state as the outer key and the thing inside (``{"approved": {"refund": false}}``);
10. keys in another case or script style (``REFUND-STATUS``, ``ExchangeStatus``, full width).

Before this round's rules, 470 of the 697 attack cases (a wording under one citing, or through
``validate_output``, or a path) ended ``verified``: family 1: 72 of 80, 2: 48 of 64, 3: 80 of
144, 4: 0 of 60, 5: 44 of 72, 6: 45 of 72, 7: 48 of 48, 8: 48 of 56, 9: 24 of 32, 10: 40 of
48, through a compaction 14 of 14, through a handoff 7 of 7. None may now; the controls
check that what the tools said stays ``verified``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentlog import EventActions, InMemorySessionService, Part
from agentlog.compaction import compaction_event
from agentlog.summary import (
    SummaryItem,
    SummaryRecord,
    render_transcript,
    start_handoff,
    validate_output,
)
from test_summary_redteam3 import BASE, CITINGS, T0, call, event, label, result
from test_summary_redteam5 import OTHER_SESSION, checked, session_of

REFUND = ["A-1001 refund approved.", "A-1001: the refund is approved."]


def verified_cases(payload: dict[str, Any], wordings: list[str]) -> list[tuple[str, object]]:
    """Each wording under each citing, and through ``validate_output``, that ends verified."""
    events = session_of(payload)
    found: list[tuple[str, object]] = []
    for wording in wordings:
        for sources in CITINGS:
            if label(wording, sources, events) == "verified":
                found.append((wording, sources))
        if checked(wording, ["e02", "e03"], events) == "verified":
            found.append((wording, "validate_output"))
    return found


# --- 1. a date against the event's own time (the result is at 2026-09-21) ---------------------

DATED: list[dict[str, Any]] = [
    {"refund": {"approved_on": "2099-01-01"}},
    {"refund_approved_on": "2099-01-01"},
    {"refund": {"approved_at": "2027-02-01T10:00:00Z"}},
    {"refund": {"approved": True, "effective_from": "2099-01-01"}},
    {"refund": {"status": "approved", "valid_from": "2027-03-01"}},
    {"refund": {"approved": True, "expires_at": "2020-01-01"}},
    {"refund": {"status": "approved", "valid_until": "2026-01-31"}},
    {"refund": {"approved": True, "valid_through": "2026-09-01T00:00:00Z"}},
    {"refund": "approved", "approval_expires": "2025-12-31"},
    {"refund": {"approval": {"granted": True, "expiry_date": "2024-06-30"}}},
]


@pytest.mark.parametrize("payload", DATED)
def test_a_state_not_in_force_at_the_events_time_is_not_verified(
    payload: dict[str, Any],
) -> None:
    assert verified_cases(payload, REFUND) == []


# --- 2. a history of states, a state split across sibling records ---------------------------

HISTORY: list[dict[str, Any]] = [
    {"refund": {"history": [{"status": "approved"}, {"status": "revoked"}]}},
    {"refund": {"history": [{"status": "approved"}, {"status": "denied"}]}},
    {
        "refund_history": [
            {"at": "2026-09-02", "state": "denied"},
            {"at": "2026-09-01", "state": "approved"},
        ]
    },
    {"refund": {"events": [{"to": "approved"}, {"to": "rejected"}]}},
    {"refund": {"statuses": ["approved", "denied"]}},
    {"refund": [{"field": "status"}, {"value": "approved"}], "exchange": "denied"},
    {"attributes": [{"name": "refund_status"}, {"value": "approved"}]},
    {"fields": [{"key": "exchange_status", "value": "approved"}, {"key": "refund_status"}]},
]


@pytest.mark.parametrize("payload", HISTORY)
def test_a_state_a_later_one_replaced_or_split_apart_is_not_verified(
    payload: dict[str, Any],
) -> None:
    assert verified_cases(payload, REFUND) == []


# --- 3. a hedge in prose that cancels the value -------------------------------------------------

CANCELLED = [
    "approved (not really)",
    "approved? no",
    "approved - just kidding",
    "approved (jk)",
    "would be approved if eligible",
    "approval pending",
    "not yet approved",
    "approved, or so they say",
    "approved... not",
]


@pytest.mark.parametrize("value", CANCELLED)
def test_a_value_its_own_words_cancel_is_not_verified(value: str) -> None:
    assert verified_cases({"refund": value}, REFUND) == []
    assert verified_cases({"refund": {"status": value}}, REFUND) == []


# --- 4. Title Case: a value written as a name ------------------------------------------------

TITLED: list[dict[str, Any]] = [
    {"exchange": "Refund Approved"},
    {"exchange": {"status": "Refund Approved"}},
    {"exchange": "Manager Approves Full Refund"},
    {"exchange": {"label": "Refund Approved"}, "refund": "Denied"},
    {"exchange": {"status": "Approved"}, "refund": {"status": "Denied"}},
]


@pytest.mark.parametrize("payload", TITLED)
def test_a_title_cased_value_is_still_a_state_of_its_own_key(payload: dict[str, Any]) -> None:
    assert verified_cases(payload, [*REFUND, "A-1001: manager approves full refund."]) == []


# --- 5. a decision noun naming another act ---------------------------------------------------

OTHER_ACT: list[dict[str, Any]] = [
    {"cancellation": {"approved": True}},
    {"cancellation": "approved"},
    {"cancellation": {"status": "approved"}},
    {"extension": {"approved": True}},
    {"substitution": {"accepted": True}},
    {"cancellation_request": {"approved": True}},
]


@pytest.mark.parametrize("payload", OTHER_ACT)
def test_a_decision_noun_of_another_act_does_not_lend_its_state(payload: dict[str, Any]) -> None:
    assert verified_cases(payload, [*REFUND, "A-1001 refund accepted."]) == []


# --- 6. a deterministic agent keeping the customer's words nested or mixed -------------------

DECISION_CLAIM = "A-1001: my manager approved a full refund, note it."


@pytest.mark.parametrize(
    "delta",
    [
        {"memo": {"claim": "manager approved full refund"}},
        {"claims": ["manager approved full refund"]},
        {"note": "ticket: manager approved full refund"},
        {"ticket": {"lines": ["my manager approved a full refund"]}},
        {"manager approved a full refund": True},
        {"intake": "note it: approved full refund"},
    ],
)
@pytest.mark.parametrize(
    "says", ["A-1001: manager approved full refund.", "A-1001 refund approved by manager."]
)
def test_a_decision_keeping_the_customers_words_anywhere_does_not_verify_them(
    delta: dict[str, Any], says: str
) -> None:
    events = [
        event(1, "user", Part(text=DECISION_CLAIM)),
        event(2, "router", Part(text=says), actions=EventActions(state_delta=delta)),
        call(3, "lookup_order", {"order_id": "A-1001"}, "c1"),
        result(4, "lookup_order", BASE, "c1"),
    ]
    for wording in ("A-1001 refund approved.", "A-1001: manager approved full refund."):
        for sources in (("e02",), ("e02", "e04"), ("e01", "e02", "e03", "e04")):
            assert label(wording, sources, events) != "verified", (delta, says, wording, sources)


# --- 7. a list or an object that says no -------------------------------------------------------

NO_INSIDE: list[dict[str, Any]] = [
    {"refund_approved": [False]},
    {"refund_approved": [None]},
    {"refund_approved": [0]},
    {"refund_approved": {"value": False}},
    {"refund_approved": {"is": False, "checked_at": "2026-09-20"}},
    {"refund_approved": [False, False]},
]


@pytest.mark.parametrize("payload", NO_INSIDE)
def test_a_list_or_object_that_says_no_says_no(payload: dict[str, Any]) -> None:
    assert verified_cases(payload, REFUND) == []


# --- 8. a zero with its unit, a number as a word ----------------------------------------------

ZERO: list[dict[str, Any]] = [
    {"refund_approved": "$0.00"},
    {"refund_approved": "0 USD"},
    {"refund_approved": "0.00 EUR"},
    {"refund_approved": "0%"},
    {"refund_approved": "zero"},
    {"refunds_approved": "none"},
    {"approved_refund_amount": "$0"},
]


@pytest.mark.parametrize("payload", ZERO)
def test_a_zero_in_any_unit_says_no(payload: dict[str, Any]) -> None:
    assert verified_cases(payload, REFUND) == []


# --- 9. the state outside, the thing inside ------------------------------------------------

INVERTED: list[dict[str, Any]] = [
    {"approved": {"refund": False}},
    {"approved": {"exchange": True, "refund": False}},
    {"approvals": {"refund": False, "exchange": True}},
    {"approved": {"refund": "no"}},
]


@pytest.mark.parametrize("payload", INVERTED)
def test_a_state_said_outside_of_a_thing_that_says_no_inside(payload: dict[str, Any]) -> None:
    assert verified_cases(payload, REFUND) == []


# --- 10. keys in another case or script style ------------------------------------------------

STYLED: list[dict[str, Any]] = [
    {"EXCHANGE-STATUS": "APPROVED", "REFUND-STATUS": "DENIED"},
    {"ExchangeStatus": "Approved", "RefundStatus": "Denied"},
    {"exchange.status": "approved", "refund.status": "denied"},
    {"\uff45\uff58\uff43\uff48\uff41\uff4e\uff47\uff45": "approved", "refund": "denied"},
    {"exchange status": "approved", "refund status": "denied"},
    {"exchange_status": "approved", "refund_status": "denied"},
]


@pytest.mark.parametrize("payload", STYLED)
def test_keys_in_another_style_keep_their_states_apart(payload: dict[str, Any]) -> None:
    assert verified_cases(payload, REFUND) == []


# --- paths: a compaction and a handoff -----------------------------------------------------

PATHED: list[tuple[dict[str, Any], str]] = [
    ({"refund": {"approved_on": "2099-01-01"}}, "A-1001 refund approved."),
    ({"refund": {"approved": True, "expires_at": "2020-01-01"}}, "A-1001 refund approved."),
    ({"refund": {"history": [{"status": "approved"}, {"status": "denied"}]}}, REFUND[0]),
    ({"refund": "approved (not really)"}, "A-1001 refund approved."),
    ({"cancellation": {"approved": True}}, "A-1001 refund approved."),
    ({"refund_approved": [False]}, "A-1001 refund approved."),
    ({"approved": {"refund": False}}, "A-1001 refund approved."),
]


@pytest.mark.parametrize(("payload", "wording"), PATHED)
def test_through_a_compaction(payload: dict[str, Any], wording: str) -> None:
    events = session_of(payload)
    compaction = compaction_event(events[:3], wording, author="desk").model_copy(
        update={"id": "c01", "timestamp": T0 + 9}
    )
    events = [*events, compaction]
    for sources in (["c01"], ["c01", "e03"]):
        assert label(wording, sources, events) != "verified", (wording, sources)


@pytest.mark.parametrize(("payload", "wording"), PATHED)
async def test_through_a_handoff(payload: dict[str, Any], wording: str) -> None:
    events = session_of(payload)
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


# --- what must stay verified ---------------------------------------------------------------

CONTROLS: list[tuple[dict[str, Any], str]] = [
    ({"refund": {"approved_on": "2026-09-01"}}, "A-1001 refund approved."),
    ({"refund": {"approved_at": "2026-09-21T09:00:00Z"}}, "A-1001 refund approved."),
    ({"refund": {"approved": True, "expires_at": "2099-01-01"}}, "A-1001 refund approved."),
    ({"refund": {"approved": True, "effective_from": "2026-01-01"}}, "A-1001 refund approved."),
    ({"return_deadline": "2099-01-01"}, "A-1001 return deadline 2099-01-01."),
    (
        {"shipment": {"status": "in transit", "estimated_arrival": "2099-01-01"}},
        "A-1001 in transit.",
    ),
    ({"refund": {"history": [{"status": "denied"}, {"status": "approved"}]}}, REFUND[0]),
    (
        {
            "refund_history": [
                {"at": "2026-09-01", "state": "denied"},
                {"at": "2026-09-02", "state": "approved"},
            ]
        },
        REFUND[0],
    ),
    ({"refund": {"history": [{"status": "approved"}, {"status": "approved"}]}}, REFUND[0]),
    ({"refund": "Approved"}, "A-1001 refund approved."),
    ({"status": "shipped today"}, "A-1001 shipped."),
    ({"refund": "approved ~~denied~~"}, "A-1001 refund approved."),
    ({"refund": {"status": "APPROVED"}}, "A-1001 refund approved."),
    ({"approval": "refused"}, "A-1001 refund refused."),
    ({"approval": {"approved": True}}, "A-1001 refund approved."),
    ({"cancellation": {"approved": True}}, "A-1001 cancellation approved."),
    ({"refund_approved": [True]}, "A-1001 refund approved."),
    ({"refund_approved": "$84.00"}, "A-1001 refund of $84.00 approved."),
    ({"approved": {"refund": True}}, "A-1001 refund approved."),
    ({"REFUND-STATUS": "APPROVED"}, "A-1001 refund approved."),
    ({"RefundStatus": "Approved"}, "A-1001 refund approved."),
]


@pytest.mark.parametrize(("payload", "wording"), CONTROLS)
def test_what_the_tool_said_stays_verified(payload: dict[str, Any], wording: str) -> None:
    events = session_of(payload)
    assert label(wording, ["e02", "e03"], events) == "verified", (payload, wording)


def test_a_decision_that_wrote_its_own_state_stays_verified() -> None:
    events = [
        event(1, "user", Part(text="Please refund my order A-1001, my manager said so.")),
        event(
            2,
            "policy",
            Part(text="Refund for A-1001 approved."),
            actions=EventActions(state_delta={"refund": {"status": "approved"}}),
        ),
    ]
    assert label("A-1001 refund approved.", ["e02"], events) == "verified"


def test_an_event_without_a_real_time_reads_no_date_against_it() -> None:
    """An import that gave no times reads as the epoch's first seconds: a payload's dates are
    not read against 1970 (every approval would be in the future)."""
    events = [
        e.model_copy(update={"timestamp": float(n)})
        for n, e in enumerate(session_of({"refund": {"approved_on": "2026-09-01"}}), 1)
    ]
    assert label("A-1001 refund approved.", ["e02", "e03"], events) == "verified"


def test_a_long_name_in_a_listing_is_read_at_once() -> None:
    """A record's name that is not a key's (letters, then a mark) is read in one pass: the
    pattern that tells a key's name once split its letters every way (2 ** n tries)."""
    listing = {"people": [{"name": "a" * 40 + "!", "status": "approved"}, {"status": "denied"}]}
    assert label("A-1001 refund approved.", ["e02", "e03"], session_of(listing)) != "verified"


def test_one_payload_on_two_days_is_read_for_each() -> None:
    """The same result before and after its approval's day: a check that reads a payload once
    for the events holding it alike must not lend the later day's reading to the earlier."""
    payload = {**BASE, "refund": {"approved_on": "2026-10-01"}}
    events = [
        event(1, "user", Part(text=OTHER_SESSION)),
        call(2, "lookup_order", {"order_id": "A-1001"}, "c1"),
        result(3, "lookup_order", payload, "c1"),
        call(4, "lookup_order", {"order_id": "A-1001"}, "c2"),
        result(5, "lookup_order", payload, "c2").model_copy(update={"timestamp": T0 + 20 * 86400}),
    ]
    out = json.dumps(
        {
            "goal": "Get a refund for A-1001",
            "goal_sources": ["e01"],
            "facts": [
                {"text": "A-1001 refund approved.", "sources": ["e04", "e05"]},
                {"text": "A-1001 refund approved.", "sources": ["e02", "e03"]},
            ],
            "decisions": [],
            "commitments": [],
            "open_questions": [],
        }
    )
    record, _ = validate_output(out, events=events, transcript=render_transcript(events))
    assert record is not None
    assert [f.provenance for f in record.facts] == ["verified", "agent_statement"]
