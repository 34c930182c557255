"""More fast paths of validation and of the extractive summariser, checked against the plain
formulations they replace, on random text built from the pieces that make the edge cases."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from agentlog.summary.record import _extract, _scan
from agentlog.summary.record.unicode_fold import _SPELT_APART, _SPELT_PAIR, loosen

PIECES = [
    "jane", "doe", "jane_doe", "_1234", "_12345", "_", "-", ".", " ", "\n", '"', "#", "1234",
    "12345", "123", "1234567890", "12345678901", "0", "credit_card", "gift_card", "a", "Z",
    "é", "\u0430", "\u200b", "?",
    "n o t e", "a b", "x y z", "I", ":",
]  # fmt: skip


def texts(seed: int, n: int = 4_000) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14))) for _ in range(n)]


def test_item_ids_side_by_side_and_glued() -> None:
    text = "1234567890 2345678901,3456789012 x4567890123 5678901234.5 67890123456 7890123456"
    found = [text[a:b] for a, b in _scan.item_ids(text)]
    assert found == ["1234567890", "2345678901", "3456789012", "7890123456"]
    assert found == [m[0] for m in _scan._ITEM_ID.finditer(text)]


def test_user_ids_take_four_digits_only() -> None:
    def plain(text: str) -> list[tuple[int, int]]:
        found = []
        for m in _scan._UNDER_DIGITS.finditer(text):
            if m.end() - m.start() != 5:
                continue
            head = _scan._USER_HEAD.search(text, max(0, m.start() - 64), m.start())
            if head is not None and _scan._PAYMENT_HEAD.search(text, head.start(), m.start()):
                continue
            if head is not None:
                found.append((head.start(), m.end()))
        return found

    hits = 0
    for text in texts(11):
        scan = _scan.ascii_copy(text)
        expected = plain(scan)
        hits += bool(expected)
        assert list(_scan.user_ids(scan)) == expected, repr(text)
    assert hits > 10  # the pieces make user ids often enough to test something


def test_loosen_skips_only_texts_without_letters_spelt_apart() -> None:
    for text in [*texts(12), "n o t e for the next agent", "a b c", "x a b"]:
        folded = text.lower()
        if _SPELT_APART.search(folded) is not None:
            assert _SPELT_PAIR.search(folded) is not None, repr(text)
    assert loosen("please n o t e this") == "please note this"
    assert loosen("n o t e: x") == "note: x"
    assert loosen("a b only") == "a b only"


def _plain_scalars(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _plain_scalars(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _plain_scalars(v, key)
    elif value not in _extract._LEAF_SKIP and value is not True:
        yield key, " ".join(str(value).split())


def payloads(seed: int, n: int = 1_500) -> list[Any]:
    rng = random.Random(seed)
    leaves: list[Any] = ["A-1001", "pending", "12.50", 0, 0.0, 1, True, False, None, "", "a  b",
                         "W4923227", "jane_doe_1234", "refund of A-1001", 7751905257]  # fmt: skip

    def make(depth: int) -> Any:
        roll = rng.random()
        if depth > 3 or roll < 0.4:
            return rng.choice(leaves)
        if roll < 0.7:
            return [make(depth + 1) for _ in range(rng.randint(0, 4))]
        keys = ["order_id", "status", "items", "price", "note", "id", "user_id"]
        return {rng.choice(keys) + str(i): make(depth + 1) for i in range(rng.randint(0, 4))}

    return [make(0) for _ in range(n)]


def test_scalars_are_the_leaves_in_order() -> None:
    for payload in payloads(13):
        assert _extract._scalars(payload) == list(_plain_scalars(payload)), payload


def test_kept_fields_search_each_leaf_for_every_entity_that_fits() -> None:
    def plain(payload: Any, entities: set[str], skip: set[str]) -> list[tuple[str, str]]:
        seen, by_key = set(skip), {}
        for key, shown in _plain_scalars(payload):
            if shown not in seen and _extract.holds(shown, entities):
                seen.add(shown)
                by_key.setdefault(key, []).append(_extract.clip(shown, _extract._FIELD_CHARS))
        return [(k, ", ".join(vs)) for k, vs in by_key.items()]

    rng = random.Random(14)
    pool = ["A-1001", "W4923227", "jane_doe_1234", "12.50", "of A", "doe", "refund of A-1001"]
    for payload in payloads(15):
        entities = set(rng.sample(pool, rng.randint(0, len(pool))))
        skip = set(rng.sample(pool, rng.randint(0, 2)))
        # Neither a dict's top level nor its lists read here: the leaves alone.
        wrapped = [payload]
        assert _extract.kept_fields(wrapped, entities, skip) == plain(wrapped, entities, skip)


def test_spelt_pair_starts_with_a_literal() -> None:
    # What makes it cheap: the engine jumps to each space instead of trying every position.
    assert _SPELT_PAIR.pattern.startswith(" ")
    assert re.compile(_SPELT_PAIR.pattern).search("n o") is None
