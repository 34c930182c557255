"""The per-turn shortcuts of issue 15 write what the general code writes."""

from __future__ import annotations

import random

from agentlog.ids import _ALPHABET, _encode


def _reference_encode(value: int) -> str:
    # The definition: 26 base32 digits, most significant first.
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def test_ulid_encoding_is_crockford_base32_of_26_digits() -> None:
    rng = random.Random(15)
    values = [0, 1, 31, 32, 1023, 1024, (1 << 128) - 1, 1 << 127, (1 << 80) - 1]
    values += [rng.getrandbits(rng.choice((8, 48, 80, 127, 128))) for _ in range(5000)]
    for value in values:
        assert _encode(value) == _reference_encode(value), value
    assert _encode(0) == "0" * 26
    assert _encode((1 << 128) - 1) == "7" + "Z" * 25
