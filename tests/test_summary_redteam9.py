"""Red team, round 9: a real tool's result that holds the claim's words in a state that is not
so (issue 13).

Rounds 1-8 attacked results that say no, say another thing, or repeat the customer. Here the
result does hold the claimed state, word for word, but not as a fact about the thing now:

1. inside a hypothetical part of the answer: a preview, a dry run or a validation-only call, a
   simulation, a sample or an example response, a field schema, a quote, a proposal, a
   what-if, a forecast, a mock or a sandbox;
2. as a capability or a permission: ``can_approve_refund``, ``permissions.approve_refund``,
   ``available_actions``, an ``..._allowed`` flag, an automatic-approval threshold;
3. as a state a sibling key ended (``voided_at``, ``superseded_by``) or a condition
   (``approved_if``);
4. with an amount or a count that another field holds (a refund of the order's total where
   ``refund_amount`` says less; all items where one of three was refunded).

Each payload is tried in two domains (an order's refund, an account's unlock) with several
wordings, under round 7's citings and through ``validate_output``
(:func:`test_summary_redteam7.verified_cases`), and the main ones through a compaction and a
handoff. The controls check that the same keys beside a real state leave it ``verified``.

Measured on the tree this round started from (``05b0c13`` and the Gemini fix), counted by
running every case: **all 600 end** ``verified``: hypothetical parts 384 of 384, capabilities
120 of 120, ended or conditional states 72 of 72, another field's figure 24 of 24; through a
compaction 4 of 4 and a handoff 4 of 4. The validator reads a key's words for what the thing
is and whether it held before, never for whether the value is so at all. The tests that hold
them are strict xfails (:data:`_OPEN`; a fix turns each into a failure to unmark).

After :mod:`agentlog.summary.record._unreal` (a key's words saying its value is not a fact
now: a context, a modal word, a setting, a type's name; an ended state undoing its object),
and a sum or a count read as the field the item names whole (``refund_amount``'s for "refund
of $84.00", ``items_refunded``'s for "3 items refunded"; a ceiling, ``max_refund``, is no
sum granted), counted the same way: **none of the 600 ends** ``verified``: hypothetical
parts 0 of 384, capabilities 0 of 120, ended or conditional states 0 of 72, another field's
figure 0 of 24; through a compaction 0 of 4 and a handoff 0 of 4. Twelve more shapes of the
same families (:data:`MORE_SHAPES`: an expected result, a schema, a nested or camel-cased
dry run, a development environment, a flag written "yes", a sum requested beside the one
approved, a ceiling alone) end as they do.
"""

from __future__ import annotations

from collections.abc import Callable
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

_OPEN: Final[frozenset[str]] = frozenset()
"""Cases that still end ``verified``: open (module docstring)."""


@pytest.fixture(autouse=True)
def _known_verdicts(request: pytest.FixtureRequest) -> None:
    """Mark the cases listed above as strict xfails: each fails once its fix lands."""
    if request.node.name in _OPEN:
        request.applymarker(pytest.mark.xfail(strict=True, reason="open after round 9"))


# --- the two domains: a thing, its tool, the state claimed and how it is written -------------

ORDER: Final = {"order_id": "A-1001", "total": 84.0}
ACCOUNT: Final = {"account_id": "ACC-5521", "plan": "basic"}
REFUND_WORDINGS: Final = [
    "Refund approved for A-1001.",
    "A-1001: refund approved.",
    "The refund for A-1001 was approved.",
]
UNLOCK_WORDINGS: Final = [
    "ACC-5521 unlocked.",
    "Account ACC-5521 is unlocked.",
    "ACC-5521: unlock done.",
]


def order(answer: dict[str, Any]) -> list[Event]:
    return tool_session("lookup_order", {"order_id": "A-1001"}, {**ORDER, **answer})


def account(answer: dict[str, Any]) -> list[Event]:
    return tool_session("get_account", {"account_id": "ACC-5521"}, {**ACCOUNT, **answer})


def in_both_domains(
    family: list[tuple[str, dict[str, Any], dict[str, Any]]],
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Parametrise a test over a family's payloads (one for an order, one for an account),
    each tried in its domain."""

    def mark(test: Callable[..., None]) -> Callable[..., None]:
        by_payload = pytest.mark.parametrize(
            ("order_answer", "account_answer"),
            [(f[1], f[2]) for f in family],
            ids=[f[0] for f in family],
        )
        marked: Callable[..., None] = pytest.mark.parametrize("domain", ["order", "account"])(
            by_payload(test)
        )
        return marked

    return mark


def assert_none_verified(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    """No wording of the domain's claim ends verified beside its payload."""
    if domain == "order":
        assert verified_cases(order(order_answer), REFUND_WORDINGS) == []
    else:
        assert verified_cases(account(account_answer), UNLOCK_WORDINGS) == []


# --- 1. a hypothetical part of the answer ----------------------------------------------------

HYPOTHETICAL: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    # (shape, the order's answer, the account's answer)
    ("preview", {"preview": {"refund_approved": True}}, {"preview": {"unlocked": True}}),
    ("dry run", {"dry_run": True, "refund_approved": True}, {"dry_run": True, "unlocked": True}),
    (
        "validation only",
        {"validate_only": True, "refund_approved": True},
        {"validate_only": True, "unlocked": True},
    ),
    (
        "simulation",
        {"simulation": {"refund_approved": True}},
        {"simulated_result": {"status": "unlocked"}},
    ),
    ("sample", {"sample": {"refund_status": "approved"}}, {"sample": {"status": "unlocked"}}),
    (
        "example",
        {"example_response": {"refund_approved": True}},
        {"example_response": {"unlocked": True}},
    ),
    ("schema", {"fields": {"refund_approved": "boolean"}}, {"fields": {"unlocked": "boolean"}}),
    (
        "quote",
        {"quote": {"refund_status": "approved", "valid_until": "2030-01-01"}},
        {"quote": {"status": "unlocked", "valid_until": "2030-01-01"}},
    ),
    ("proposal", {"proposed": {"refund_status": "approved"}}, {"proposed": {"status": "unlocked"}}),
    ("what-if", {"what_if": {"refund_approved": True}}, {"what_if": {"unlocked": True}}),
    ("forecast", {"forecast": {"refund": "approved"}}, {"forecast": {"status": "unlocked"}}),
    (
        "mock",
        {"mock": True, "refund_status": "approved"},
        {"mock": True, "status": "unlocked"},
    ),
    (
        "sandbox",
        {"environment": "sandbox", "refund_approved": True},
        {"environment": "sandbox", "unlocked": True},
    ),
    ("test mode", {"mode": "test", "refund_approved": True}, {"mode": "test", "unlocked": True}),
    (
        "would result in",
        {"would_result_in": {"refund_status": "approved"}},
        {"would_result_in": {"status": "unlocked"}},
    ),
    ("draft", {"refund": {"status": "approved", "draft": True}}, {"draft": {"unlocked": True}}),
]


@in_both_domains(HYPOTHETICAL)
def test_a_hypothetical_part_of_the_answer_is_not_a_fact(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


# --- 2. a capability or a permission ---------------------------------------------------------

CAPABILITY: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    ("can", {"can_approve_refund": True}, {"can_unlock": True}),
    (
        "permissions",
        {"permissions": {"approve_refund": True}},
        {"permissions": {"unlock": True}},
    ),
    (
        "available actions",
        {"available_actions": {"approve_refund": True}},
        {"available_actions": {"unlock": True}},
    ),
    ("allowed", {"approve_refund_allowed": True}, {"unlock_allowed": True}),
    ("threshold", {"auto_approve_refund_below": 100}, {"auto_unlock_after_minutes": 30}),
]


@in_both_domains(CAPABILITY)
def test_a_capability_is_not_the_act(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


# --- 3. a state ended by a sibling, or held on a condition -----------------------------------

ENDED: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    (
        "voided",
        {"refund": {"approved": True, "voided_at": "2026-11-30"}},
        {"unlock": {"done": True, "reverted_at": "2026-11-30"}},
    ),
    (
        "superseded",
        {"refund": {"status": "approved", "superseded_by": "RF-2"}},
        {"unlock": {"status": "done", "superseded_by": "LK-2"}},
    ),
    (
        "condition",
        {"refund": {"approved_if": "the parcel comes back"}},
        {"unlocked_if": "identity is confirmed"},
    ),
]


@in_both_domains(ENDED)
def test_a_state_ended_or_conditional_is_not_so(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


# --- 4. an amount or a count another field holds ---------------------------------------------

OTHER_FIGURE: Final[list[tuple[str, dict[str, Any], list[str]]]] = [
    (
        "refund amount",
        {"refund_approved": True, "refund_amount": 42.0},
        ["A-1001 refund of $84.00 approved.", "Refund of $84.00 approved for A-1001."],
    ),
    (
        "refund ceiling",
        {"refund_approved": True, "max_refund": 84.0, "refund_amount": 10.0},
        ["A-1001 refund of $84.00 approved.", "Refund of $84.00 approved for A-1001."],
    ),
    (
        "items counted",
        {"refund_approved": True, "items": 3, "items_refunded": 1},
        ["All 3 items of A-1001 refunded.", "A-1001: 3 items refunded."],
    ),
]


@pytest.mark.parametrize(
    ("answer", "wordings"), [(o[1], o[2]) for o in OTHER_FIGURE], ids=[o[0] for o in OTHER_FIGURE]
)
def test_a_figure_another_field_holds_is_not_this_ones(
    answer: dict[str, Any], wordings: list[str]
) -> None:
    assert verified_cases(order(answer), wordings) == []


# --- more shapes of the same families (not counted above) -----------------------------------

MORE_SHAPES: Final[list[tuple[str, dict[str, Any], list[str]]]] = [
    ("expected result", {"expected_result": {"refund": "approved"}}, REFUND_WORDINGS),
    ("recommended action", {"recommended_action": "approve refund"}, REFUND_WORDINGS),
    ("response schema", {"response_schema": {"refund_approved": {"type": "boolean"}}}, []),
    ("nested dry run", {"result": {"dry_run": True, "refund_approved": True}}, REFUND_WORDINGS),
    ("camel case", {"isDryRun": True, "refund_approved": True}, REFUND_WORDINGS),
    ("execution mode", {"execution_mode": "simulation", "refund_approved": True}, []),
    ("development", {"environment": "development", "refund_approved": True}, []),
    ("a yes in a dry run", {"dry_run": True, "refund_approved": "yes"}, REFUND_WORDINGS),
    ("a yes in a failure", {"ok": False, "refund_approved": "yes"}, REFUND_WORDINGS),
    ("expired", {"refund": {"approved": True, "expired": True}}, REFUND_WORDINGS),
    (
        "requested, not approved",
        {"refund": {"requested_amount": 84.0, "approved_amount": 42.0, "approved": True}},
        ["Refund of $84.00 approved for A-1001."],
    ),
    (
        "a ceiling alone",
        {"refund_approved": True, "max_refund": 84.0},
        ["A-1001 refund of $84.00 approved.", "Refund of $84.00 approved for A-1001."],
    ),
]


@pytest.mark.parametrize(
    ("answer", "wordings"),
    [(m[1], m[2] or REFUND_WORDINGS) for m in MORE_SHAPES],
    ids=[m[0] for m in MORE_SHAPES],
)
def test_more_shapes_of_the_same_families(answer: dict[str, Any], wordings: list[str]) -> None:
    assert verified_cases(order(answer), wordings) == []


# --- paths: a compaction and a handoff -------------------------------------------------------

PATHED: Final[list[tuple[list[Event], str]]] = [
    (order(HYPOTHETICAL[0][1]), REFUND_WORDINGS[0]),
    (account(HYPOTHETICAL[1][2]), UNLOCK_WORDINGS[0]),
    (order(CAPABILITY[0][1]), REFUND_WORDINGS[1]),
    (order(ENDED[0][1]), REFUND_WORDINGS[2]),
]


@pytest.mark.parametrize(("events", "wording"), PATHED)
def test_through_a_compaction(events: list[Event], wording: str) -> None:
    assert_not_verified_through_a_compaction(events, wording)


@pytest.mark.parametrize(("events", "wording"), PATHED)
async def test_through_a_handoff(events: list[Event], wording: str) -> None:
    await assert_not_verified_through_a_handoff(events, wording)


# --- what must stay verified: the same keys beside a real state ------------------------------

CONTROLS: Final[list[tuple[list[Event], str]]] = [
    (order({"refund_approved": True}), REFUND_WORDINGS[0]),
    (order({"dry_run": False, "refund_approved": True}), REFUND_WORDINGS[1]),
    (order({"environment": "production", "refund_approved": True}), REFUND_WORDINGS[2]),
    (
        order({"preview_url": "https://shop.example/p/1", "refund_approved": True}),
        REFUND_WORDINGS[0],
    ),
    (order({"permissions": ["read"], "refund_approved": True}), REFUND_WORDINGS[1]),
    (order({"refund_approved": True, "refund_amount": 84.0}), "A-1001 refund of $84.00 approved."),
    (order({"refund": {"status": "approved", "draft": False}}), REFUND_WORDINGS[0]),
    (account({"unlocked": True, "mode": "live"}), UNLOCK_WORDINGS[0]),
    (account({"status": "unlocked", "can_lock": True}), UNLOCK_WORDINGS[1]),
    (account({"unlock": {"done": True, "requested_at": "2026-11-30"}}), UNLOCK_WORDINGS[2]),
    # A context's word in a key that holds no object (a date, an identifier), and a setting's
    # word beside a state (``mfa_test_passed`` is no test mode): what the tool said holds.
    (order({"refund_approved": True, "estimated_delivery": "2026-09-25"}), REFUND_WORDINGS[0]),
    (order({"refund_approved": True, "quote_id": "Q-77"}), REFUND_WORDINGS[1]),
    (account({"status": "unlocked", "mfa_test_passed": True}), UNLOCK_WORDINGS[0]),
    # A modal word of a field beside the act (credit on offer), and a record that ends another
    # (``supersedes``: this one holds now).
    (order({"refund_approved": True, "available_credit": 20.0}), REFUND_WORDINGS[2]),
    (order({"refund": {"approved": True, "supersedes": "RF-1"}}), REFUND_WORDINGS[0]),
    # A draft said to be one, and a flag written "yes".
    (order({"refund": {"approved": True, "draft": True}}), "Draft refund approved for A-1001."),
    (order({"refund_approved": "yes"}), REFUND_WORDINGS[1]),
    # The order's count and the refund's own sum, each said of what holds it.
    (
        order({"refund_approved": True, "items": 3, "items_refunded": 1}),
        "A-1001 has 3 items; refund approved.",
    ),
    (
        order({"refund_approved": True, "refund_amount": 42.0}),
        "Refund of $42.00 approved for A-1001.",
    ),
    (
        order({"refund": {"requested_amount": 84.0, "approved_amount": 84.0, "approved": True}}),
        "Refund of $84.00 approved for A-1001.",
    ),
    # A ceiling said as one.
    (
        order({"refund_approved": True, "max_refund": 84.0}),
        "A-1001 refund approved, max refund $84.00.",
    ),
    # A flag that says another thing of its object than that it is not so.
    (order({"refund_approved": True, "recommended": True}), REFUND_WORDINGS[0]),
]


@pytest.mark.parametrize(("events", "wording"), CONTROLS)
def test_what_the_tool_said_stays_verified(events: list[Event], wording: str) -> None:
    assert label(wording, ["e02", "e03"], events) == "verified", wording
