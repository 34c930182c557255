"""Entity shapes a new domain uses, found with no preset (issue 13, item 4): a card's last
digits, identifiers introduced by a tool result's prose, amounts and dates as Europe writes
them, identifiers written in spaced groups (an IBAN), and what is not an entity."""

from __future__ import annotations

import pytest

from agentlog import Content, Event, EventActions, Part
from agentlog.summary import (
    EntityPatterns,
    ExtractiveSummarizer,
    SummaryItem,
    SummaryRecord,
    transcript_entities,
    transcript_lines,
    validate_output,
)
from agentlog.summary.evaluation.scoring import mentions
from agentlog.summary.record.learned import is_id_key

T0 = 1_790_000_000.0


def event(n: int, author: str, part: Part) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    return Event(
        id=f"e{n:02d}",
        invocation_id="i1",
        author=author,
        timestamp=T0 + n,
        content=Content(role=role, parts=(part,)),
    )


def read(n: int, name: str, args: dict[str, object], result: dict[str, object]) -> list[Event]:
    """A tool call (event ``n``) and its result (event ``n + 1``)."""
    return [
        event(n, "agent", Part.from_function_call(name, args, f"c{n}")),
        event(n + 1, name, Part.from_function_response(name, result, f"c{n}")),
    ]


def problems(events: list[Event], text: str, sources: tuple[str, ...]) -> list[str]:
    """The problems of a record holding one fact, ``text``, citing ``sources``."""
    record = SummaryRecord(
        goal="Help the customer",
        goal_sources=("e01",),
        facts=(SummaryItem(text=text, sources=sources),),
    )
    _, found = validate_output(record, events=events, transcript=transcript_lines(events))
    return [str(p) for p in found]


def entity_texts(events: list[Event]) -> set[str]:
    found = transcript_entities(transcript_lines(events), EntityPatterns.default())
    return {x.entity.text for x in found.values()}


# --- a card's last four digits ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "names_an_id"),
    [
        ("last4", True),
        ("last_four", True),
        ("lastFour", True),
        ("card_last_4_digits", True),
        ("last_four_digits", True),
        ("last_name", False),
        ("four", False),
        ("line4", False),
        ("digits", False),
        ("last_login", False),
    ],
)
def test_a_cards_last_digits_are_named_by_their_key(key: str, names_an_id: bool) -> None:
    assert is_id_key(key) is names_an_id


def card_session() -> list[Event]:
    card = {"brand": "visa", "last4": "4242", "exp": "12/29"}
    return [
        event(1, "user", Part(text="Please refund it to my card ending 4242.")),
        *read(2, "get_payment_method", {"customer": "Ana Lima"}, card),
        event(4, "agent", Part(text="I see your Visa •••• 4242.")),
    ]


@pytest.mark.parametrize("written", ["card ending 4242", "Visa •••• 4242", "Visa **** 4242"])
def test_a_record_keeping_a_cards_last_four_passes_as_people_write_them(written: str) -> None:
    assert problems(card_session(), f"Refund to the {written}", ("e03",)) == []


def test_a_record_dropping_a_cards_last_four_fails() -> None:
    assert "4242" in entity_texts(card_session())
    (problem,) = problems(card_session(), "Refund to the Visa card", ("e03",))
    assert problem.startswith("dropped_entity")
    assert "4242" in problem


# --- identifiers that only a tool result's prose introduces ------------------------------------


@pytest.mark.parametrize(
    ("result", "said", "entity"),
    [
        # The shape of an identifier: the conversation and a result sharing it is enough.
        ({"result": "Your ticket is TCK88412. An engineer will call."}, "TCK88412", "TCK88412"),
        ({"message": "Your ticket is TCK-88412.", "eta": "2 days"}, "TCK-88412", "TCK-88412"),
        # Capitals or digits alone: the prose must introduce them as an identifier.
        ({"result": "Found one stay; your booking reference is QZKXMB."}, "QZKXMB", "QZKXMB"),
        ({"result": "Opened ticket no. 884120 for the router."}, "884120", "884120"),
        ({"result": "Claim filed under reference: '309170'."}, "309170", "309170"),
    ],
)
def test_an_identifier_a_results_prose_introduces_is_required_when_the_conversation_uses_it(
    result: dict[str, object], said: str, entity: str
) -> None:
    events = [
        event(1, "user", Part(text="Something is broken, please help.")),
        *read(2, "open_case", {"topic": "router"}, result),
        event(4, "agent", Part(text=f"Done: {said} is yours.")),
    ]
    assert entity in entity_texts(events)
    assert problems(events, f"Case {said} opened", ("e03",)) == []
    (problem,) = problems(events, "A case was opened", ("e03",))
    assert problem.startswith("dropped_entity")
    assert entity in problem


@pytest.mark.parametrize(
    "prose",
    [
        "Your zip code 558020 is on file.",  # an attribute's code, not an identifier
        "The team of FIVE is ready: 884120 calls today.",  # no identifier word before it
        "Status code 4040 was returned.",
        "Your order number is 55802.",  # five digits: a zip code as often as an identifier
    ],
)
def test_capitals_or_digits_no_identifier_word_introduces_are_not_learned(prose: str) -> None:
    events = [
        event(1, "user", Part(text="Hi, about 558020, 884120, 55802, 4040 and FIVE.")),
        *read(2, "lookup", {"topic": "router"}, {"result": prose}),
        event(4, "agent", Part(text="Noted: 558020, 884120, 55802, 4040, FIVE.")),
    ]
    assert not {"558020", "884120", "55802", "4040", "FIVE"} & entity_texts(events)


# --- amounts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("1 200,00 zł", "1200.00"),  # a space between thousands, a decimal comma, sign after
        ("1\u202f200,00 zł", "1200.00"),  # a narrow no-break space between thousands
        ("1\u00a0200,00 PLN", "1200.00"),  # a no-break space
        ("249,99 €", "249.99"),
        ("€42,10", "42.10"),
        ("12.500,00 EUR", "12500.00"),
        ("-€5.00", "5.00"),  # a refund: the sign is dropped, as "$5 back" keeps it
        ("€-5.00", "5.00"),
        ("-5,00 €", "5.00"),
        ("350 kr", "350.00"),
        ("¥1,200", "1200.00"),
        ("₹ 499.00", "499.00"),
        ("SEK 1 495,00", "1495.00"),
    ],
)
def test_an_amount_as_europe_and_others_write_it_is_the_same_amount(
    written: str, plain: str
) -> None:
    patterns = EntityPatterns.default()
    (amount,) = [e for e in patterns.find(f"It came to {written} in total.") if e.kind == "money"]
    assert amount.key == f"money:{plain}"
    assert amount.key in patterns.summary_keys(f"The total was {written}.")
    assert mentions(f"The total was {plain}.", written)


@pytest.mark.parametrize(
    "text",
    [
        "version v2.3.1 is live",  # a version, not an amount
        "12.5 kg parcel",  # a quantity with a unit
        "a 15% discount",  # a percentage
        "at 14:30 today",  # a time
        "TRY again in 5 minutes",  # a word in capitals, not a currency code
    ],
)
def test_versions_quantities_percentages_and_times_are_not_amounts(text: str) -> None:
    assert [e for e in EntityPatterns.default().find(text) if e.kind == "money"] == []


# --- dates --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    [
        "2026/05/19",
        "2026.05.19",
        "19.05.2026",
        "May 19th, 2026",
        "19 May 2026",
        "19th of May 2026",
        "2026-05-19T14:30:00Z",
        "2026-05-19 14:30",
    ],
)
def test_a_date_in_any_common_form_is_the_same_date(written: str) -> None:
    dates = [e.key for e in EntityPatterns.default().find(f"Due {written}.") if e.kind == "date"]
    assert dates == ["date:2026-05-19"]


@pytest.mark.parametrize("written", ["05/06/2026", "2026/13/05", "v2026.05.19", "2026/05/19/7"])
def test_a_date_that_reads_both_ways_or_cannot_be_one_is_not_guessed(written: str) -> None:
    assert [e for e in EntityPatterns.default().find(f"On {written}.") if e.kind == "date"] == []


# --- identifiers in spaced groups ---------------------------------------------------------------

SPACED = "DE89 3704 0044 0532 0130 00"
UNSPACED = "DE89370400440532013000"


def iban_session(in_result: str, in_message: str) -> list[Event]:
    account = {"account_ref": "ACC-7731", "iban": in_result, "holder": "Ana Lima"}
    return [
        event(1, "user", Part(text=f"Please pay the refund to {in_message}.")),
        *read(2, "get_account", {"account_ref": "ACC-7731"}, account),
    ]


@pytest.mark.parametrize("in_result", [SPACED, UNSPACED])
@pytest.mark.parametrize("in_message", [SPACED, UNSPACED])
@pytest.mark.parametrize("in_record", [SPACED, UNSPACED])
def test_an_iban_is_one_entity_spaced_or_not_in_transcript_record_and_evidence(
    in_result: str, in_message: str, in_record: str
) -> None:
    events = iban_session(in_result, in_message)
    assert problems(events, f"Refund to {in_record} (ACC-7731)", ("e03",)) == []
    dropped = problems(events, "Refund to the account ACC-7731", ("e03",))
    assert len(dropped) == 1
    assert dropped[0].startswith("dropped_entity")


def test_an_iban_the_cited_event_lacks_is_unsupported_whichever_way_it_is_written() -> None:
    events = iban_session(SPACED, SPACED)
    for written in ("DE89 3704 0044 0532 0130 99", "DE89370400440532013099"):
        found = problems(events, f"Refund to {written} and {SPACED} (ACC-7731)", ("e03",))
        assert any(p.startswith("unsupported") for p in found), written


# --- the scorer ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (SPACED, UNSPACED),
        ("SK 418", "SK418"),
        ("AB12 CDE", "AB12CDE"),
        ("4242 4242 4242 4242", "4242424242424242"),
    ],
)
def test_the_scorer_ignores_spaces_inside_an_identifier_both_ways(a: str, b: str) -> None:
    assert mentions(f"Paid to {a}.", b)
    assert mentions(f"Paid to {b}.", a)
    assert mentions(f"Paid to {a}.", a)


@pytest.mark.parametrize(
    ("haystack", "needle"),
    [
        ("Flight SK 4189 leaves", "SK418"),  # a longer number is another identifier
        ("seat 22 A", "22A"),
        ("ASK 418 more", "SK418"),
        ("Paid to DE89 3704", UNSPACED),
    ],
)
def test_squeezing_spaces_never_joins_a_longer_token(haystack: str, needle: str) -> None:
    assert not mentions(haystack, needle)


# --- phone numbers in international format -----------------------------------------------------


@pytest.mark.parametrize("in_record", ["+1 415 555 0142", "+14155550142", "+1-415-555-0142"])
def test_an_international_phone_number_is_one_entity_however_it_is_grouped(
    in_record: str,
) -> None:
    events = [
        event(1, "user", Part(text="My number is +1 415 555 0142.")),
        *read(2, "get_customer_by_phone", {"phone_number": "+14155550142"}, {"plan": "P-40"}),
    ]
    assert problems(events, f"Line {in_record} is on P-40", ("e02", "e03")) == []
    (problem,) = problems(events, "The line is on P-40", ("e03",))
    assert problem.startswith("dropped_entity")
    assert "+1 415 555 0142" in problem


@pytest.mark.parametrize(
    "text", ["at 2026-05-19T14:30:00+02:00", "+5 points", "+44 12", "a +1 vote", "+123-45"]
)
def test_a_plus_and_a_few_digits_are_no_phone_number(text: str) -> None:
    assert [e for e in EntityPatterns.default().find(text) if e.kind == "digits"] == []


# --- dotted codes -------------------------------------------------------------------------------


def test_a_dotted_code_a_results_prose_and_the_conversation_share_is_required() -> None:
    note = {"result": "Line 2 declared under HTS 8517.62.0090 at 0% duty, version 2.3.1."}
    events = [
        event(1, "user", Part(text="Why is my parcel held?")),
        *read(2, "get_broker_notes", {"entry": "M7Q-0412983-6"}, note),
        event(4, "agent", Part(text="Line 2 is declared as HTS 8517.62.0090 (v2.3.1).")),
    ]
    assert {"8517.62.0090", "M7Q-0412983-6"} <= entity_texts(events)
    assert not {"2.3.1", "v2.3.1"} & entity_texts(events)
    assert problems(events, "Entry M7Q-0412983-6: HTS 8517.62.0090", ("e02", "e03")) == []
    (problem,) = problems(events, "Entry M7Q-0412983-6 is held", ("e02", "e03"))
    assert "8517.62.0090" in problem


@pytest.mark.parametrize(
    ("value", "named"),
    [("8517.62.0090", True), ("10.0.4.17", True), ("8471.30", False), ("2.3.1", False)],
)
def test_digit_runs_joined_by_dots_under_an_id_key_are_an_identifier_from_three_runs(
    value: str, named: bool
) -> None:
    events = [
        event(1, "user", Part(text="What is the code?")),
        *read(2, "get_line", {"line": "L-2"}, {"hs_code": value, "line_id": "L-2"}),
    ]
    assert (value in entity_texts(events)) is named


# --- more shapes --------------------------------------------------------------------------------

UUID = "3f2b9c1e-8a4d-4e6f-9b1a-2c3d4e5f6a7b"


@pytest.mark.parametrize(
    ("token", "result", "args"),
    [
        ("ana.lima@example.org", {"status": "active"}, {"email": "ana.lima@example.org"}),
        (UUID, {"request_id": UUID}, {}),
        ("0x7f3a9c21", {"result": "ok", "tx_hash": "0x7f3a9c21"}, {}),
        ("a3f9c2e17b", {"ok": True}, {"commit": "a3f9c2e17b"}),
        ("#88412", {"ticket": "#88412", "state": "open"}, {}),
        ("INC0049921", {"result": "Opened INC0049921."}, {}),
    ],
)  # fmt: skip
def test_e_mails_uuids_hex_and_hash_ids_quoted_in_prose_are_identifiers(
    token: str, result: dict[str, object], args: dict[str, object]
) -> None:
    events = [
        event(1, "user", Part(text="Hello, I need help please.")),
        *read(2, "lookup", args, result),
        event(4, "agent", Part(text=f"Found it: '{token}'.")),  # quoted, with punctuation
    ]
    assert token in entity_texts(events)
    assert problems(events, f"Found '{token}'.", ("e02", "e03")) == []
    (problem,) = problems(events, "A lookup was made", ("e03",))
    assert problem.startswith("dropped_entity")


@pytest.mark.parametrize(
    "said", ["version v2.3.1", "a 15% discount", "a 12.5 kg parcel", "at 14:30", "from 09:00-12:00"]
)
def test_versions_percentages_quantities_and_times_are_no_entities(said: str) -> None:
    # A record need not repeat them: a version, a share, a weight or a time is what a thing
    # has, and every timestamp of a payload would be one.
    events = [
        event(1, "user", Part(text=f"About {said}, please.")),
        *read(2, "lookup", {"q": said}, {"result": f"Noted {said}."}),
        event(4, "agent", Part(text=f"Noted: {said}.")),
    ]
    assert entity_texts(events) == set()


# --- shapes the blind clinic and SaaS sets showed (evals/clinic-eval.jsonl, saas-eval.jsonl) ----


def test_an_address_or_a_range_of_them_passed_to_a_tool_is_required() -> None:
    # No key names them and no result repeats them: the agent passed them, so the tool worked
    # on them (a record that drops the removed address hides what changed).
    events = [
        event(1, "user", Part(text="Allow 198.51.100.0/24 and remove 203.0.113.40, on SDK 3.2.0.")),
        *read(
            2,
            "update_ip_allowlist",
            {"add": ["198.51.100.0/24"], "remove": ["203.0.113.40"], "sdk": "3.2.0"},
            {"status": "updated"},
        ),
    ]
    found = entity_texts(events)
    assert {"198.51.100.0/24", "203.0.113.40"} <= found
    assert "3.2.0" not in found  # a version is no dotted code
    assert problems(events, "Allowed 198.51.100.0/24, removed 203.0.113.40", ("e02", "e03")) == []
    (problem,) = problems(events, "Allowed 198.51.100.0/24", ("e02", "e03"))
    assert "203.0.113.40" in problem


def dated(result_dates: dict[str, object], said: str) -> list[Event]:
    return [
        event(1, "user", Part(text="Are my results back?")),
        *read(2, "get_lab_results", {"patient_id": "pat_7n1b39"}, result_dates),
        event(4, "agent", Part(text=said)),
    ]


def date_keys(events: list[Event]) -> set[str]:
    found = transcript_entities(transcript_lines(events), EntityPatterns.default())
    return {k for k, x in found.items() if x.entity.kind == "date"}


def test_a_date_that_reads_both_ways_is_read_as_the_session_writes_its_others() -> None:
    # 05/27/2026 can only be month first, so this session's 06/01/2026 is June 1.
    events = dated({"collected": "05/27/2026"}, "Her team replies by 06/01/2026.")
    assert "date:2026-06-01" in date_keys(events)
    sources = ("e02", "e03", "e04")
    assert problems(events, "pat_7n1b39: 05/27/2026, reply by 06/01/2026", sources) == []
    (problem,) = problems(events, "pat_7n1b39: collected 05/27/2026", sources)
    assert "06/01/2026" in problem
    # Day first (27/05/2026) settles it the other way: 6 January.
    assert "date:2026-01-06" in date_keys(dated({"collected": "27/05/2026"}, "By 06/01/2026."))


@pytest.mark.parametrize(
    "others",
    [{}, {"collected": "05/27/2026", "resulted": "28/05/2026"}, {"collected": "27.05.2026"}],
)
def test_a_session_that_writes_dates_both_ways_or_not_at_all_settles_nothing(
    others: dict[str, object],
) -> None:
    # No unambiguous slash date, both orders, or only a dotted one (always day first, and it
    # says nothing of how the session writes slashes): 06/01/2026 stays unguessed.
    events = dated(others, "Her team replies by 06/01/2026.")
    assert not {"date:2026-06-01", "date:2026-01-06"} & date_keys(events)


def test_a_date_both_readings_agree_on_is_a_date() -> None:
    events = dated({"claim_id": "C26-0093315"}, "Seen on 05/05/2026.")
    assert "date:2026-05-05" in date_keys(events)


def test_a_handle_the_customer_gives_and_a_call_passes_is_required() -> None:
    # No digit, so no identifier's shape: the customer's message and the call's argument say
    # it names the thing worked on. The option the agent picked is in no message.
    events = [
        event(1, "user", Part(text="Our workspace kestrel-ops is suspended! Is it a t-shirt?")),
        *read(
            2,
            "reinstate_workspace",
            {"workspace": "kestrel-ops", "mode": "period_end", "note": "t-shirt"},
            {"status": "active"},
        ),
    ]
    found = entity_texts(events)
    assert "kestrel-ops" in found
    assert not {"period_end", "t-shirt"} & found
    assert problems(events, "Reinstated kestrel-ops", ("e01", "e02", "e03")) == []
    (problem,) = problems(events, "Reinstated the workspace", ("e02", "e03"))
    assert "kestrel-ops" in problem


def test_the_agent_a_transfer_names_is_the_apps_not_a_handle_to_keep() -> None:
    # The transcript's TRANSFER line is agentlog's rendering of the routing action, not a
    # message: the agent it names (passed to the transfer tool too) is no entity of the domain.
    call, answer = read(2, "transfer_to_agent", {"agent_name": "refund_flow"}, {"ok": True})
    moved = answer.model_copy(update={"actions": EventActions(transfer_to_agent="refund_flow")})
    events = [event(1, "user", Part(text="I want a refund for A-1001.")), call, moved]
    assert "refund_flow" not in entity_texts(events)


def test_a_quantity_the_agent_repeats_from_a_result_is_kept_in_its_fact() -> None:
    # A dosage is no entity (no check asks for it), but the agent told the customer, so the
    # fact of the prescription keeps it; the quantity nobody repeats, and an option written
    # as one word, stay in the cited result.
    rx = {"rx_number": "RX-4471203", "strength": "2.5 mg", "pack": "30 tablets", "ram": "8GB"}
    events = [
        event(1, "user", Part(text="A refill of RX-4471203, please.")),
        *read(2, "get_prescription", {"rx_number": "RX-4471203"}, rx),
        event(4, "agent", Part(text="Your amlodipine 2.5 mg, RX-4471203, with 8GB.")),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    (fact,) = [f for f in result.record.facts if "RX-4471203" in f.text]
    assert "strength 2.5 mg" in fact.text
    assert "30 tablets" not in fact.text
    assert "8GB" not in fact.text
    assert fact.provenance == "verified"


def test_a_slash_date_among_a_read_objects_own_fields_is_required() -> None:
    # The claim read is one object; its loss date is its own field, as its id is, though
    # written with slashes (a leaf was cut at the first "/" and never matched).
    events = dated({"claim_id": "C26-0093315", "loss_date": "14/05/2026"}, "Seen.")
    assert "date:2026-05-14" in date_keys(events)
    listing = dated({"claims": [{"id": "C1", "loss": "14/05/2026"}, {"id": "C2"}]}, "Seen.")
    assert "date:2026-05-14" not in date_keys(listing)  # a listing's dates are not
