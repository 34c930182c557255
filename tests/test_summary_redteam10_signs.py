"""Red team, round 10 (its text forms): a tool's string that says no the way a log line, a
query string or a status board writes it (issue 13).

Round 5 read a string that says no whole (``"refund_approved": "no"``, ``"\u274c"``) and a
``key: false`` inside a string; these write the no otherwise:

1. a key set to no with ``=`` inside a string, as logs, query strings and config lines do
   (``"refund_approved=false"``, ``"unlocked = no"``, ``"?refund_approved=0"``), or a zero
   after a colon (``"refund_approved: 0"``);
2. a sign of no beside the claim's words in one string (``"refund \u274c approved"``,
   ``"unlocked: \u2717"``, ``"\u2718 unlocked"``, ``"\U0001f6ab refund approved"``).

Each payload is tried in round 9's two domains with its wordings, under round 7's citings and
through ``validate_output``. Measured on ``efae05a``: **408 of 480 cases end** ``verified``
(keys set to no 192 of 240, signs 216 of 240; a line of several pairs and a board with a check
mark were held already, and stay as shapes of the families). After
:mod:`agentlog.summary.record._payload` reads both (``_SET_TO_NO``, ``_CROSSED``): none
does. The controls (a key set to yes, a check mark, a query string's real values, a clock
time) stay ``verified``.
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from agentlog import Event
from test_summary_redteam3 import label
from test_summary_redteam9 import (
    REFUND_WORDINGS,
    UNLOCK_WORDINGS,
    account,
    assert_none_verified,
    in_both_domains,
    order,
)

SET_TO_NO: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    ("equals false", {"result": "refund_approved=false"}, {"result": "unlocked=false"}),
    ("equals no, spaced", {"result": "refund_approved = no"}, {"result": "unlocked = No"}),
    ("equals zero", {"result": "refund_approved=0"}, {"result": "unlocked=0"}),
    ("equals off", {"flags": "refund_approved=off;vip=on"}, {"flags": "unlocked=off;vip=on"}),
    (
        "query string",
        {"url": "https://x.example/r?order=A-1001&refund_approved=false"},
        {"url": "https://x.example/a?acct=ACC-5521&unlocked=false"},
    ),
    (
        "log line",
        {"log": "2026-11-30T10:00:00Z order=A-1001 refund_approved=FALSE"},
        {"log": "2026-11-30T10:00:00Z account=ACC-5521 unlocked=FALSE"},
    ),
    ("colon zero", {"result": "refund_approved: 0"}, {"result": "unlocked: 0"}),
    ("env line", {"config": "REFUND_APPROVED=0"}, {"config": "ACCOUNT_UNLOCKED=0"}),
    ("equals none", {"result": "refund.approved=none"}, {"result": "account.unlocked=none"}),
    ("equals null", {"result": "refund_approved=null"}, {"result": "unlocked=null"}),
]

SIGNS: Final[list[tuple[str, dict[str, Any], dict[str, Any]]]] = [
    ("cross between", {"status": "refund \u274c approved"}, {"status": "unlock \u274c done"}),
    ("cross after", {"status": "refund approved \u274c"}, {"status": "unlocked \u274c"}),
    ("ballot x", {"status": "refund approved: \u2717"}, {"status": "unlocked: \u2717"}),
    ("heavy ballot x", {"status": "\u2718 refund approved"}, {"status": "\u2718 unlocked"}),
    ("no entry", {"status": "\U0001f6ab refund approved"}, {"status": "\U0001f6ab unlocked"}),
    ("heavy x", {"status": "refund approved \u2716"}, {"status": "unlocked \u2716"}),
    ("no entry sign", {"status": "\u26d4 refund approved"}, {"status": "\u26d4 unlocked"}),
    (
        "beside a check of another part",
        {"board": "\u2705 exchange shipped \u274c refund approved"},
        {"board": "\u2705 password reset \u274c unlocked"},
    ),
    ("multiplication x", {"status": "refund approved \u2715"}, {"status": "unlocked \u2715"}),
    ("negative squared", {"status": "\u274e refund approved"}, {"status": "\u274e unlocked"}),
]


@in_both_domains(SET_TO_NO)
def test_a_key_set_to_no_in_a_string_is_not_so(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


@in_both_domains(SIGNS)
def test_a_sign_of_no_beside_the_words_is_not_so(
    domain: str, order_answer: dict[str, Any], account_answer: dict[str, Any]
) -> None:
    assert_none_verified(domain, order_answer, account_answer)


CONTROLS: Final[list[tuple[list[Event], str]]] = [
    (order({"result": "refund_approved=true"}), REFUND_WORDINGS[0]),
    (order({"status": "refund approved \u2705"}), REFUND_WORDINGS[1]),
    (
        order({"refund_status": "approved", "receipt_url": "https://x.example/r?id=A-1001&v=2"}),
        REFUND_WORDINGS[2],
    ),
    (order({"refund": "approved", "note": "called back at 12:00"}), REFUND_WORDINGS[0]),
    (order({"refund_approved": True, "log": "retries=0"}), REFUND_WORDINGS[1]),
    (account({"result": "unlocked=yes"}), UNLOCK_WORDINGS[0]),
    (account({"status": "\u2714 unlocked"}), UNLOCK_WORDINGS[1]),
]


@pytest.mark.parametrize(("events", "wording"), CONTROLS)
def test_what_the_tool_said_stays_verified(events: list[Event], wording: str) -> None:
    assert label(wording, ["e02", "e03"], events) == "verified", wording
