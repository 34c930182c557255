"""Round 7's closed families (issue 13): what each rule must still let through.

Each rule that closed a family of :mod:`test_summary_redteam7` keeps what the tools said
``verified``: the item that says the rule's own words, a repeated call asked of another thing,
a sum in cents beside an item that writes no sum.
"""

from __future__ import annotations

from typing import Any

from agentlog import Part
from test_summary_redteam3 import BASE, call, event, label, result
from test_summary_redteam7 import amount_lookup, lookup


def test_an_item_saying_the_referring_key_reads_the_reference() -> None:
    events = lookup({"refund": "approved", "previous_order": "A-2002"})
    assert label("A-1001 refund approved.", ["e02", "e03"], events) == "verified"
    assert label("A-2002 refund approved.", ["e02", "e03"], events) != "verified"


def test_a_repeated_call_about_another_thing_undoes_nothing() -> None:
    def later(args: dict[str, Any]) -> list[Any]:
        return [
            event(1, "user", Part(text="Refund A-1001?")),
            call(2, "lookup_order", {"order_id": "A-1001"}, "c1"),
            result(3, "lookup_order", {**BASE, "refund": "approved"}, "c1"),
            call(4, "lookup_order", args, "c2"),
            result(5, "lookup_order", {**BASE, "refund": "denied"}, "c2"),
        ]

    assert label("A-1001 refund approved.", ["e02", "e03"], later({"order_id": "A-2002"})) == (
        "verified"
    )
    assert label("A-1001 refund approved.", ["e02", "e03"], later({"order_id": "A-1001"})) != (
        "verified"
    )


def test_cents_are_not_a_sum_of_dollars() -> None:
    events = amount_lookup(8400, "amount_cents")
    assert label("A-1001 refund approved.", ["e02", "e03"], events) == "verified"
    assert label("A-1001 refund of $8,400.00 approved.", ["e02", "e03"], events) != "verified"


def test_the_date_of_the_key_the_item_names_verifies() -> None:
    events = lookup({"refund": "approved", "approved_on": "2026-09-01", "placed": "2026-08-01"})
    assert label("A-1001 refund approved on 2026-09-01.", ["e02", "e03"], events) == "verified"
    assert label("A-1001 refund approved on 2026-08-01.", ["e02", "e03"], events) != "verified"
