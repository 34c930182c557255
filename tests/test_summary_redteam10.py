"""Red team, round 10: a state that its own object ends, that another thing's reference owns, or
that a number only measures (issue 13).

Rounds 1-9 attacked results that say no, say another thing, repeat the customer or hold the
claim in a part that is not a fact. Here the claimed state is in the result, of the right kind
of thing, and something beside it says it does not hold of this one:

1. the object holding the state says it was cancelled or voided (``{"refund": {"status":
   "approved", "cancelled": true}}``, ``"refund_cancelled": true``, ``"cancelled_at"``), where
   rounds 5 and 9 read only revocations and ended states (a cancelled *order* may still have
   its refund approved, so a cancellation said of the object above the state undoes nothing);
2. the object holding the state names another thing of the item's kind under a key of no
   naming word (``"target": "A-2002"``, ``"applies_to"``, ``"subject"``, ``"related_order"``),
   where round 8 read only keys that name an identifier or a thing;
3. a number under the claim's key that measures rather than says yes (``"refund_approved":
   0.73``, ``-1``, ``"unlock_confidence": 0.95``, ``"approve_refund_score": 0.9``).

Each payload is tried in two domains (round 9's order refund and account unlock) with round
9's wordings, under round 7's citings and through ``validate_output``, the main ones also
through a compaction and a handoff. The controls check that the same keys beside a real state
leave it ``verified``.

Measured on the tree this round started from (``52b4b78``), counted by running every case (12
per payload and domain: three wordings, each under three citings and through
``validate_output``): **348 of 384 end** ``verified``: cancelled or voided objects 108 of 144
(only ``{"unlock": {"done": true, "is_cancelled": true}}`` holds), another thing's reference
96 of 96, measures 144 of 144; through a compaction 3 of 4 and a handoff 3 of 4. The nine
controls stay ``verified``. The test ids that still end ``verified`` are strict xfails
(:data:`_OPEN`; a fix turns each into a failure to unmark).

After :mod:`agentlog.summary.record._cancelled` (a cancellation marks the states of the object
holding it, or of the part its key's other words name, and of nothing nested; "void" undoes
as "voided" does; a camel-cased ``isCancelled`` reads as ``is_cancelled``), another thing's
identifier by its shape under any key (:mod:`agentlog.summary.record._things`: a nested
object holding one, a top key's other words naming the part it owns, and a key naming an
object only another thing's objects hold) and :mod:`agentlog.summary.record._measures` (a
number below one under an act's key states no yes; a number under a measure word binds only
an item naming the measure), counted the same way: **none of the 384 ends** ``verified``:
cancelled or voided objects 0 of 144, another thing's reference 0 of 96, measures 0 of 144;
through a compaction 0 of 4 and a handoff 0 of 4. The nine controls stay ``verified``, and
so do seven more (:data:`MORE_CONTROLS`). Twelve more shapes of the same families in other
domains (:data:`MORE_SHAPES`: a booking ``isCanceled``, a revocation ``isRevoked``, a
payment's flat ``payment_cancelled_at``, a prescription's ``void``, a parcel of another
package, a payout for another claim, a nested ``account_id`` of another account under the
key the item names, a probability, a percentage, a delivery's fraction, odds, a claim paid
``-1``) end as they do: each ended ``verified`` before these rules.
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from agentlog import Event
from test_summary_redteam3 import label
from test_summary_redteam7 import (
    assert_not_verified_through_a_compaction,
    tool_session,
    verified_cases,
)
from test_summary_redteam8 import assert_not_verified_through_a_handoff
from test_summary_redteam9 import (
    REFUND_WORDINGS,
    UNLOCK_WORDINGS,
    account,
    assert_none_verified,
    in_both_domains,
    order,
)

_OPEN: Final[frozenset[str]] = frozenset()
"""Cases that still end ``verified``: open (module docstring)."""


@pytest.fixture(autouse=True)
def _known_verdicts(request: pytest.FixtureRequest) -> None:
    """Mark the cases listed above as strict xfails: each fails once its fix lands."""
    if request.node.name in _OPEN:
        request.applymarker(pytest.mark.xfail(strict=True, reason="open after round 10"))


# --- 1. the state's own object cancelled or voided --------------------------------------------

CANCELLED: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    (
        "cancelled",
        {"refund": {"status": "approved", "cancelled": True}},
        {"unlock": {"status": "done", "cancelled": True}},
    ),
    (
        "canceled",
        {"refund": {"status": "approved", "canceled": True}},
        {"unlock": {"status": "done", "canceled": True}},
    ),
    (
        "void",
        {"refund": {"status": "approved", "void": True}},
        {"unlock": {"status": "done", "void": True}},
    ),
    (
        "is cancelled",
        {"refund": {"status": "approved", "is_cancelled": True}},
        {"unlock": {"done": True, "is_cancelled": True}},
    ),
    (
        "flat",
        {"refund_status": "approved", "refund_cancelled": True},
        {"unlock_status": "done", "unlock_cancelled": True},
    ),
    (
        "cancelled at",
        {"refund": {"status": "approved", "cancelled_at": "2026-11-30"}},
        {"unlock": {"status": "done", "cancelled_at": "2026-11-30"}},
    ),
]


@in_both_domains(CANCELLED)
def test_a_state_its_own_object_cancelled_is_not_so(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


# --- 2. the state's object names another thing of the item's kind ------------------------------

ANOTHER: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    (
        "target",
        {"refund": {"status": "approved", "target": "A-2002"}},
        {"unlock": {"status": "done", "target": "ACC-9000"}},
    ),
    (
        "related",
        {"refund": {"status": "approved", "related_order": "A-2002"}},
        {"unlock": {"status": "done", "related_account": "ACC-9000"}},
    ),
    (
        "applies to",
        {"refund_status": "approved", "refund_applies_to": "A-2002"},
        {"unlock": {"status": "done", "applies_to": "ACC-9000"}},
    ),
    (
        "subject",
        {"refund": {"status": "approved", "subject": "A-2002"}},
        {"unlock": {"status": "done", "subject": "ACC-9000"}},
    ),
]


@in_both_domains(ANOTHER)
def test_a_state_of_an_object_naming_another_thing_is_not_this_ones(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


# --- 3. a number that measures, not a yes -----------------------------------------------------

MEASURES: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    ("fraction", {"refund_approved": 0.73}, {"unlocked": 0.73}),
    ("negative", {"refund_approved": -1}, {"unlocked": -1}),
    ("fraction as text", {"refund_approved": "0.73"}, {"unlocked": "0.73"}),
    ("confidence", {"refund_approved_confidence": 0.8}, {"unlock_confidence": 0.95}),
    ("likelihood", {"approve_refund_likelihood": 0.8}, {"unlock_likelihood": 0.8}),
    ("score", {"approve_refund_score": 0.9}, {"unlock_score": 0.95}),
]


@in_both_domains(MEASURES)
def test_a_measure_under_the_claims_key_is_no_yes(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


# --- more shapes of the same families, in other domains (not counted above) -----------------

BOOKING: Final = ("get_booking", {"booking_id": "BK-4410"})
BOOKED: Final = ["Booking BK-4410 confirmed.", "BK-4410: booking confirmed."]
INVOICE: Final = ("get_invoice", {"invoice_id": "INV-3307"})
CAPTURED: Final = ["Payment captured for INV-3307.", "INV-3307: payment captured."]
PRESCRIPTION: Final = ("get_prescription", {"rx_id": "RX-5520"})
FILLED: Final = ["Prescription RX-5520 filled.", "RX-5520: prescription filled."]
PACKAGE: Final = ("track_package", {"package_id": "PKG-1234"})
DELIVERED: Final = ["Package PKG-1234 delivered."]
CLAIM: Final = ("get_claim", {"claim_id": "CLM-5512"})
PAID: Final = ["Claim CLM-5512 payout paid.", "CLM-5512: payout paid."]
LOOKUP: Final = ("lookup_order", {"order_id": "A-1001"})
ACCOUNTS: Final = ("get_account", {"account_id": "ACC-5521"})

MORE_SHAPES: Final[list[tuple[str, tuple[str, dict[str, Any]], dict[str, Any], list[str]]]] = [
    # (shape, (tool, arguments), the answer beside the arguments, wordings)
    # 1. a cancellation or a revocation of the state's own object
    (
        "camel-cased cancel",
        BOOKING,
        {"booking": {"status": "confirmed", "isCanceled": True}},
        BOOKED,
    ),
    (
        "camel-cased revoke",
        LOOKUP,
        {"refund": {"status": "approved", "isRevoked": True}},
        REFUND_WORDINGS,
    ),
    (
        "flat cancelled at",
        INVOICE,
        {"payment_status": "captured", "payment_cancelled_at": "2026-09-01"},
        CAPTURED,
    ),
    ("void", PRESCRIPTION, {"prescription": {"status": "filled", "void": True}}, FILLED),
    # 2. another thing's identifier
    (
        "another parcel",
        PACKAGE,
        {"shipment": {"status": "delivered", "parcel": "PKG-9001"}},
        DELIVERED,
    ),
    ("another claim's payout", CLAIM, {"payout_status": "paid", "payout_for": "CLM-7781"}, PAID),
    (
        "another account's unlock",
        ACCOUNTS,
        {"unlock": {"status": "done", "account_id": "ACC-9000"}},
        UNLOCK_WORDINGS,
    ),
    # 3. a measure
    ("probability", LOOKUP, {"refund_approved_probability": 0.8}, REFUND_WORDINGS),
    ("percentage", LOOKUP, {"refund_approved": "73%"}, REFUND_WORDINGS),
    ("a delivery's fraction", PACKAGE, {"delivered": 0.4}, DELIVERED),
    ("odds", PACKAGE, {"delivered_odds": 0.9}, DELIVERED),
    ("paid -1", CLAIM, {"claim_paid": -1}, ["Claim CLM-5512 paid.", "CLM-5512 was paid."]),
]


@pytest.mark.parametrize(
    ("tool", "answer", "wordings"),
    [(m[1], m[2], m[3]) for m in MORE_SHAPES],
    ids=[m[0] for m in MORE_SHAPES],
)
def test_more_shapes_of_the_same_families(
    tool: tuple[str, dict[str, Any]], answer: dict[str, Any], wordings: list[str]
) -> None:
    name, args = tool
    assert verified_cases(tool_session(name, args, {**args, **answer}), wordings) == []


# --- paths: a compaction and a handoff -------------------------------------------------------

PATHED: Final[list[tuple[list[Event], str]]] = [
    (order(CANCELLED[0][1]), REFUND_WORDINGS[0]),
    (account(CANCELLED[2][2]), UNLOCK_WORDINGS[0]),
    (order(ANOTHER[0][1]), REFUND_WORDINGS[1]),
    (order(MEASURES[0][1]), REFUND_WORDINGS[2]),
]


@pytest.mark.parametrize(("events", "wording"), PATHED)
def test_through_a_compaction(events: list[Event], wording: str) -> None:
    assert_not_verified_through_a_compaction(events, wording)


@pytest.mark.parametrize(("events", "wording"), PATHED)
async def test_through_a_handoff(events: list[Event], wording: str) -> None:
    await assert_not_verified_through_a_handoff(events, wording)


# --- what must stay verified: the same keys beside a real state ------------------------------

CONTROLS: Final[list[tuple[list[Event], str]]] = [
    (order({"refund": {"status": "approved", "cancelled": False}}), REFUND_WORDINGS[0]),
    # A cancelled order may still have its refund approved: the cancellation is the order's.
    (order({"status": "cancelled", "refund": {"status": "approved"}}), REFUND_WORDINGS[1]),
    (order({"cancelled": True, "refund": {"status": "approved"}}), REFUND_WORDINGS[2]),
    (order({"refund": {"status": "approved", "applies_to": "A-1001"}}), REFUND_WORDINGS[0]),
    (order({"refund": {"status": "approved", "refund_id": "RF-88120"}}), REFUND_WORDINGS[1]),
    (order({"refund_approved": 1}), REFUND_WORDINGS[2]),
    (order({"refund_approved": True, "fraud_score": 0.12}), REFUND_WORDINGS[0]),
    (account({"unlock": {"status": "done", "cancelled": False}}), UNLOCK_WORDINGS[2]),
    (account({"unlock": {"status": "done", "target": "ACC-5521"}}), UNLOCK_WORDINGS[2]),
]


MORE_CONTROLS: Final[list[tuple[list[Event], str]]] = [
    # A cancellation said no, or of the whole beside a named part, undoes nothing.
    (
        tool_session(
            *BOOKING, {**BOOKING[1], "booking": {"status": "confirmed", "isCancelled": False}}
        ),
        BOOKED[0],
    ),
    (
        tool_session(
            *INVOICE, {**INVOICE[1], "cancelled": True, "payment": {"status": "captured"}}
        ),
        CAPTURED[1],
    ),
    # The parcel, the payout's claim and the nested account are the item's own.
    (
        tool_session(
            *PACKAGE, {**PACKAGE[1], "shipment": {"status": "delivered", "parcel": "PKG-1234"}}
        ),
        DELIVERED[0],
    ),
    (
        tool_session(*CLAIM, {**CLAIM[1], "payout_status": "paid", "payout_for": "CLM-5512"}),
        PAID[1],
    ),
    (
        tool_session(
            *ACCOUNTS, {**ACCOUNTS[1], "unlock": {"status": "done", "account_id": "ACC-5521"}}
        ),
        UNLOCK_WORDINGS[0],
    ),
    # A sum under an act's key, written by the item; a score of something else.
    (tool_session(*INVOICE, {**INVOICE[1], "amount_paid": 0.5}), "INV-3307: $0.50 paid."),
    (tool_session(*PACKAGE, {**PACKAGE[1], "delivered": True, "delay_score": 0.3}), DELIVERED[0]),
]


@pytest.mark.parametrize(("events", "wording"), CONTROLS + MORE_CONTROLS)
def test_what_the_tool_said_stays_verified(events: list[Event], wording: str) -> None:
    assert label(wording, ["e02", "e03"], events) == "verified", wording
