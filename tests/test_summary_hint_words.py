"""The look-ups the validator narrows for speed still find every word they narrow to: each
free-text key, in any case, by the group of its last letter, the hints of hedges, markers
and asked-for identifiers among a text's words, a negator among them, and each value that
says no from its key's closing quote."""

from __future__ import annotations

import pytest

from agentlog.summary.record._payload import (
    _PLAIN_NO,
    _TEXT_KEYS,
    _without_plain_no,
    established,
)
from agentlog.summary.record._words import NEGATED, letters_of


@pytest.mark.parametrize("key", _TEXT_KEYS)
def test_every_free_text_key_is_blanked_in_any_spelling(key: str) -> None:
    for spelt in (key, key.upper(), f"customer_{key}", f"customer{key.capitalize()}"):
        payload = f'{{"{spelt}": "pre-approved", "status": "shipped"}}'
        kept = established(payload)
        assert "pre-approved" not in kept, spelt
        assert '"status": "shipped"' in kept


@pytest.mark.parametrize("key", ["status", "product", "name", "amount", "city", "item_id"])
def test_a_key_ending_in_a_free_text_keys_letter_keeps_its_value(key: str) -> None:
    assert "pre-approved" in established(f'{{"{key}": "pre-approved"}}')


@pytest.mark.parametrize(
    ("text", "conditional"),
    [
        ('"refund": "approved, to be confirmed"', "approved"),  # "be" hints "to be ..."
        ('"refund": "approved - see terms"', "approved"),  # "see" hints a reference
        ('"state": "approval_required"', "approval"),  # an identifier asking for it
        ("refund approved once signed", "approved"),  # a marker
        ("refund provisionally approved", "approved"),  # a hedge word
    ],
)
def test_each_kind_of_hint_still_conditions_its_clause(text: str, conditional: str) -> None:
    spaced = letters_of(text)
    assert f" if~{conditional} " in spaced
    assert f" {conditional} " not in spaced


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("refund not approved", "approved"),  # no condition: read by the negator alone
        ('"note": "never refunded", "status": "closed"', "refunded"),
        ("refund approved once signed, fee not waived", "waived"),  # beside a condition
    ],
)
def test_a_negator_still_negates_with_or_without_a_condition(text: str, negated: str) -> None:
    spaced = letters_of(text)
    assert f" {NEGATED}{negated} " in spaced
    assert f" {negated} " not in spaced


def test_a_text_with_no_negator_and_no_condition_reads_as_spaced() -> None:
    # "nothing" starts as "no" and "not" do, and negates nothing.
    words = letters_of('{"refund": "approved", "nothing": "known"}').split()
    assert words == ["refund", "approved", "nothing", "known"]


@pytest.mark.parametrize(
    "payload",
    [
        '{"a": false, "b": "no", "c": [" N/A "], "d": 0.00, "e": {}, "f": [], "g": "yes"}',
        '{"a": "no": false, "b": null}',  # a value that ends where a key would: not JSON
        '"": false": false',
        'x": false, "y": null',  # no opening quote before the first
        '{"n": 0, "m": 0.5, "k": "0.0", "j": "-", "i": "Never!"}',
    ],
)
def test_values_that_say_no_are_cut_as_the_whole_pattern_cuts_them(payload: str) -> None:
    assert _without_plain_no(payload) == _PLAIN_NO.sub(" ", payload)
