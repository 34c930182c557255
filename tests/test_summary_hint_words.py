"""The look-ups the validator narrows for speed still find every word they narrow to: each
free-text key, in any case, by the group of its last letter, and the hints of hedges, markers
and asked-for identifiers among a text's words."""

from __future__ import annotations

import pytest

from agentlog.summary.record._payload import _TEXT_KEYS, established
from agentlog.summary.record._words import letters_of


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
