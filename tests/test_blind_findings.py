"""What two blind domain sets showed the summariser, the validator and the scorer miss
(issue 13), each tested on examples of our own making, from other domains and id shapes."""

from __future__ import annotations

from agentlog.summary.evaluation._match import action_recalled, mentions

# --- the scorer -----------------------------------------------------------------------------


def test_irregular_past_names_the_action() -> None:
    action = {"name": "freeze_account", "args": {"account": "ACC-5521"}}
    assert action_recalled(action, ["Froze account ACC-5521 at the owner's request"])
    action = {"name": "write_letter", "args": {"letter": "LTR-0917"}}
    assert action_recalled(action, ["Wrote letter LTR-0917 to the tenant"])


def test_a_bare_decimal_is_the_same_amount_with_grouping_and_a_currency() -> None:
    assert mentions("new premium CAD 2,375.50 from March", "2375.50")
    assert mentions("refund of $1,020.00 issued", "1020.00")
    assert not mentions("refund of $1,020.01 issued", "1020.00")


def test_a_two_digit_year_date_is_read_as_a_date() -> None:
    assert mentions("the parcel is due back on 23 November", "23/11/27")
    assert mentions("renewal on 2031-04-30", "30.04.31")
    assert not mentions("the parcel is due back on 24 November", "23/11/27")


def test_a_european_quantity_matches_its_plain_form() -> None:
    assert mentions("tank level 2045.75, unit l", "2 045,75 l")
    assert mentions("area 3410.5 m2", "3 410,5 m²")
    assert not mentions("area 3410.6 m2", "3 410,5 m²")
    assert mentions("odometer at 5000 miles", "5,000 miles")  # thousands comma, as before


# --- sentences ------------------------------------------------------------------------------


def test_a_sentence_does_not_split_at_an_initial() -> None:
    from agentlog.summary.record._sentences import sentences

    said = "The waybill is signed 'K. Osei' at the depot. J. P. Lindqvist approved it."
    assert sentences(said) == [
        "The waybill is signed 'K. Osei' at the depot.",
        "J. P. Lindqvist approved it.",
    ]
    # a lone capital that ends a sentence still ends it before a word that opens one
    assert sentences("We picked route C. The van leaves at 6.") == [
        "We picked route C.",
        "The van leaves at 6.",
    ]
