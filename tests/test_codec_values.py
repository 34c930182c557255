"""``encode_values`` writes a list of state values as ``encode_value`` writes the list."""

from __future__ import annotations

import math
from typing import Any

import pytest

from agentlog.errors import NonFiniteNumberError
from agentlog.sessions.codec import encode_value, encode_values

_VALUES: list[Any] = [
    0,
    -7,
    10**30,
    True,
    False,
    None,
    1.5,
    -0.0,
    1e-7,
    "",
    "plain",
    'quote " and back\\slash',
    "control \n\t\x00\x1f\x7f",
    "é 日本語 🦜 \u2028",
    [1, "a", [None]],
    {"nested": {"b": [True, 2.5]}, "é": "x"},
]


@pytest.mark.parametrize("n", [0, 1, 2, len(_VALUES)])
def test_a_list_is_written_as_encode_value_writes_it(n: int) -> None:
    values = _VALUES[:n]
    assert encode_values(values) == encode_value(values)
    assert encode_values(reversed(values)) == encode_value(list(reversed(values)))


def test_a_string_alone_is_written_as_the_encoder_writes_it() -> None:
    for value in _VALUES:
        if isinstance(value, str):
            assert encode_value(value) == encode_value([value])[1:-1]


def test_a_non_finite_number_is_refused() -> None:
    with pytest.raises(NonFiniteNumberError):
        encode_values([1, math.nan])
