"""State as a pure fold of deltas, routed to four scopes."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agentlog import REMOVED, Event, EventActions
from agentlog.state import apply_delta, fold, merged_view, scope_of, split_delta, strip_temp


def test_scope_of() -> None:
    assert scope_of("app:x") == "app"
    assert scope_of("user:x") == "user"
    assert scope_of("temp:x") == "temp"
    assert scope_of("x") == "session"
    assert scope_of("apps:x") == "session"


def test_split_delta_strips_prefixes() -> None:
    delta = split_delta({"app:a": 1, "user:b": 2, "temp:c": 3, "d": REMOVED})
    assert delta.app == {"a": 1}
    assert delta.user == {"b": 2}
    assert delta.temp == {"temp:c": 3}
    assert delta.session == {"d": REMOVED}


def test_fold_deletes_and_skips_temp() -> None:
    assert fold([{"a": 1, "temp:t": 1}, {"b": 2}, {"a": REMOVED}]) == {"b": 2}
    assert fold([], initial={"x": 1}) == {"x": 1}


def test_merged_view_shows_prefixes() -> None:
    view = merged_view({"a": 1}, {"b": 2}, {"c": 3})
    assert view == {"app:a": 1, "user:b": 2, "c": 3}


def test_strip_temp_leaves_other_keys() -> None:
    event = Event(
        invocation_id="i",
        author="policy",
        actions=EventActions(state_delta={"temp:policy_version": 3, "refund_eligible": True}),
    )
    stored = strip_temp(event)
    assert dict(stored.actions.state_delta) == {"refund_eligible": True}
    assert stored.id == event.id
    plain = Event(invocation_id="i", author="a", actions=EventActions(state_delta={"k": 1}))
    assert strip_temp(plain) is plain


keys = st.sampled_from(["a", "b", "c", "temp:d"])
values = st.none() | st.integers() | st.text(max_size=3)


@given(st.lists(st.dictionaries(keys, values, max_size=3), max_size=10))
def test_fold_equals_applying_deltas_one_by_one(raw: list[dict[str, Any]]) -> None:
    deltas = [EventActions(state_delta=d).state_delta for d in raw]
    state: dict[str, Any] = {}
    for d in deltas:
        state = apply_delta(state, {k: v for k, v in d.items() if not k.startswith("temp:")})
    assert fold(deltas) == state
    assert all(v is not REMOVED for v in state.values())
