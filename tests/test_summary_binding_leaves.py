"""The leaves :func:`read_payload` reads of each kind of value (issue 13, speed): the walk
writes a string's, a flag's and a number's leaf out in place, and must read them as before."""

from __future__ import annotations

from agentlog.summary.record._walk import read_payload
from agentlog.summary.record.leaves import Leaf

_NONE: frozenset[str] = frozenset()

PAYLOAD = {
    "status": "approved",
    "refund": "denied",
    "refund_approved": True,
    "total": 84.0,
    "items": [{"name": "Mug", "price": 12.5}, {"name": "Cup", "price": 3}],
    "currency": "EUR",
    "flags": [True, 2],
}


def _leaf(**fields: object) -> Leaf:
    base: dict[str, object] = {
        "states": _NONE,
        "subject": _NONE,
        "top": False,
        "field": _NONE,
        "words": _NONE,
        "amount": None,
        "value": "",
    }
    base.update(fields)
    return Leaf(**base)  # type: ignore[arg-type]


def test_each_kind_of_value_reads_as_its_leaf() -> None:
    approved, denied = frozenset({"approved"}), frozenset({"denied"})
    items = frozenset({"items"})
    expected = [
        _leaf(states=approved, top=True, words=approved, value="approved", obj=1, state=True),
        _leaf(
            states=denied,
            subject=frozenset({"refund"}),
            field=frozenset({"refund"}),
            words=denied,
            value="denied",
            state=True,
        ),
        _leaf(
            states=frozenset({"refund", "approved"}),
            top=True,
            field=frozenset({"refund", "approved"}),
            obj=1,
        ),
        _leaf(top=True, field=frozenset({"total"}), amount="money:84.00"),
        _leaf(
            states=frozenset({"mug"}),
            subject=frozenset({"name", "items"}),
            field=frozenset({"name"}),
            words=frozenset({"mug"}),
            value="mug",
            records=frozenset({1}),
            state=True,
        ),
        _leaf(subject=items, field=frozenset({"price"}), amount="money:12.50", records={1}),
        _leaf(
            states=frozenset({"cup"}),
            subject=frozenset({"name", "items"}),
            field=frozenset({"name"}),
            words=frozenset({"cup"}),
            value="cup",
            records=frozenset({2}),
            state=True,
        ),
        _leaf(subject=items, field=frozenset({"price"}), amount="money:3.00", records={2}),
        _leaf(
            states=frozenset({"eur"}),
            subject=frozenset({"currency"}),
            field=frozenset({"currency"}),
            words=frozenset({"eur"}),
            value="eur",
            state=True,
        ),
        _leaf(subject=frozenset({"flags"})),  # a flag in a list: no key, no word
        _leaf(subject=frozenset({"flags"}), amount="money:2.00"),
    ]
    read = read_payload("lookup_order", PAYLOAD)
    # Each leaf of a record holds the record it is in (the nested object, read for its names
    # only when the leaf would support an item); the top object's leaves hold none.
    things = [leaf.thing.node if leaf.thing is not None else None for leaf in read.leaves]
    assert things == [None] * 4 + [PAYLOAD["items"][0]] * 2 + [PAYLOAD["items"][1]] * 2 + [None] * 3
    assert [leaf._replace(thing=None) for leaf in read.leaves] == expected
    assert read.currencies == {"EUR"}
    assert read.amounts == {"money:84.00", "money:12.50", "money:3.00", "money:2.00"}
    assert read.keys == {"status", "refund", "total", "items", "name", "price", "currency", "flags"}
    assert sorted(read.stating) == ["approved", "cup", "denied", "eur", "mug", "refund"]


def test_a_flag_in_a_list_states_no_word_and_a_string_holding_json_is_read() -> None:
    read = read_payload("t", {"log": '{"refund": "denied"}', "checks": [True, False]})
    assert [leaf.states for leaf in read.leaves] == [frozenset({"denied"}), _NONE]
    assert read.leaves[0].subject == {"log", "refund"}
    assert read.leaves[1].subject == {"checks"}
