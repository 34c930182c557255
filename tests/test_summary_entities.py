"""Entity patterns and normalisation: what the recall check looks for and how it compares."""

from __future__ import annotations

import pytest

from agentlog.summary import (
    EntityPattern,
    EntityPatterns,
    SummaryRecord,
    dropped_entities,
    find_entities,
    normalise_amount,
)
from agentlog.summary.record.entities import recall_keys


def keys(text: str, patterns: EntityPatterns | None = None) -> list[str]:
    return [e.key for e in find_entities(text, patterns)]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("order A-1001 is late", "id:a-1001"),
        ("see #W4923227.", "id:w4923227"),
        ("a fee of $12.50", "money:12.50"),
        ("$1,234.56 in all", "money:1234.56"),
        ("12.50 USD", "money:12.50"),
        ("USD 7", "money:7.00"),
        ("€9.5 back", "money:9.50"),
        ('{"price": 12.5}', "money:12.50"),
        ('{"total_due": "4.0"}', "money:4.00"),
        ('{"exchange_price_difference": -23.99}', "money:23.99"),
        ("shipped 2026-09-28 at noon", "date:2026-09-28"),
        ("shipped on 28 September", "date:--09-28"),
        ("due September 28, 2026.", "date:2026-09-28"),
        ("the 3rd of March 2025", "date:2025-03-03"),
        ("by Sept. 4", "date:--09-04"),
    ],
)
def test_default_patterns_find(text: str, key: str) -> None:
    assert keys(text) == [key]


@pytest.mark.parametrize(
    "text",
    [
        "I have 3 questions about 12 items, 80% battery and 275.00 Mbps",
        '{"zip": "85034", "quantity": 2, "tax_rate": 0.08, "credit_card_last_four": 4336}',
        '{"amount": 0.0, "price": 0}',  # zero amounts under a key are not worth a gate
        "COVID-19, GPT-4, UTF-8 and XYZW-1234 are not order ids",
        "I may 3 times; 2026-13-45 is no date",
        "555-123-2002 is a phone number, not a date or an order id by default",
        "v2.5 and x12.50",
    ],
)
def test_default_patterns_ignore_noise(text: str) -> None:
    assert find_entities(text) == []


def test_amounts_compare_after_normalisation() -> None:
    forms = ["$12.50", "12.5 USD", '{"refund": 12.5}', '{"amount": "12.50"}', "$12.5"]
    assert {k for f in forms for k in keys(f)} == {"money:12.50"}
    assert keys("$1,234.56") == keys('{"total": 1234.56}')
    assert normalise_amount("$1,234.5") == "1234.50"
    assert normalise_amount("-7") == "7.00"
    assert normalise_amount("none") is None


def test_dates_match_with_or_without_a_year() -> None:
    patterns = EntityPatterns.default()
    (dated,) = find_entities("shipped 2026-09-28")
    (yearless,) = find_entities("shipped 28 September")
    assert not patterns.summary_keys("on 28 September 2026").isdisjoint(recall_keys(dated))
    assert not patterns.summary_keys("on 28 September").isdisjoint(recall_keys(dated))
    assert not patterns.summary_keys("on 2026-09-28").isdisjoint(recall_keys(yearless))
    assert patterns.summary_keys("on 2025-09-28").isdisjoint(recall_keys(dated))
    assert patterns.summary_keys("on 29 September").isdisjoint(recall_keys(yearless))


def test_summary_side_is_lenient_about_form_not_about_value() -> None:
    patterns = EntityPatterns.retail()
    have = patterns.summary_keys("Refunded 12.5 on order W4923227 for isabella_lopez_6490.")
    assert {"money:12.50", "id:w4923227", "id:isabella_lopez_6490"} <= have
    assert "id:w492322" not in have
    assert "money:12.05" not in have


def test_retail_preset() -> None:
    text = (
        "isabella_lopez_6490 paid with credit_card_8897086, gift_card_8245350 or paypal_1621947; "
        '{"item_ids": ["7751905257"]} #W4923227'
    )
    found = {(e.name, e.text) for e in find_entities(text, EntityPatterns.retail())}
    assert found == {
        ("user_id", "isabella_lopez_6490"),
        ("payment_method_id", "credit_card_8897086"),
        ("payment_method_id", "gift_card_8245350"),
        ("payment_method_id", "paypal_1621947"),
        ("item_id", "7751905257"),
        ("hash_id", "#W4923227"),
    }
    # Payment method ids are not user ids, whatever their digits.
    names = {e.name for e in find_entities("gift_card_1234", EntityPatterns.retail())}
    assert names == {"payment_method_id"}
    item = next(p for p in EntityPatterns.retail().ids if p.name == "item_id")
    assert item.scope == "mentioned"


def test_telecom_preset() -> None:
    text = "Line L1002 (555-123-2002, also (555) 123-2002) on plan P1001; bill B1234321 for C1001."
    found = find_entities(text, EntityPatterns.telecom())
    assert [(e.name, e.key) for e in found] == [
        ("account_id", "id:l1002"),
        ("phone", "digits:5551232002"),
        ("phone", "digits:5551232002"),
        ("account_id", "id:p1001"),
        ("account_id", "id:b1234321"),
        ("account_id", "id:c1001"),
    ]
    assert find_entities("call 1555-123-20021 or 5G", EntityPatterns.telecom()) == []


def test_patterns_extend_and_switch_off() -> None:
    patterns = EntityPatterns.default().extend(ticket=r"case/\d{4}(?!\d)")
    assert keys("see case/2041 now", patterns) == ["id:case/2041"]
    assert keys("see case/2041 now") == []
    kept = SummaryRecord(goal="Case case/2041 is open.")
    assert dropped_entities(kept, "[e1] user: see case/2041", patterns) == []
    lost = SummaryRecord(goal="Case case/2042 is open.")
    assert len(dropped_entities(lost, "[e1] user: see case/2041", patterns)) == 1
    plain = EntityPatterns(ids={}, money=False, dates=False)
    assert find_entities("A-1001 $5 2026-01-01", plain) == []
    custom = EntityPatterns([EntityPattern.of("case", r"CASE-\d+", scope="mentioned")])
    assert [p.scope for p in custom.ids] == ["mentioned"]
    assert "case" in repr(custom)


def test_non_ascii_text_keeps_positions_and_currencies() -> None:
    text = (
        "📶 Poor — you\u2019re owed €9.50 and $12.50 for A-1001 on 28 September, user jo_li_1234."
    )
    found = find_entities(text, EntityPatterns.retail())
    assert [(e.text, e.key) for e in found] == [
        ("€9.50", "money:9.50"),
        ("$12.50", "money:12.50"),
        ("A-1001", "id:a-1001"),
        ("28 September", "date:--09-28"),
        ("jo_li_1234", "id:jo_li_1234"),
    ]
    assert all(text[e.start : e.start + len(e.text)] == e.text for e in found)


def test_an_amount_too_long_to_round_is_not_an_amount() -> None:
    from agentlog.summary.record._scan import amount_key

    assert amount_key("1" * 40) is None
    assert amount_key("1,234.5") == "money:1234.50"
