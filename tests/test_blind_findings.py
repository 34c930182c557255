"""What two blind domain sets showed the summariser, the validator and the scorer miss
(issue 13), each tested on examples of our own making, from other domains and id shapes."""

from __future__ import annotations

from agentlog import Event, Part
from agentlog.summary import (
    ExtractiveSummarizer,
    SummaryItem,
    SummaryRecord,
    transcript_entities,
    transcript_lines,
    validate_output,
)
from agentlog.summary.evaluation._match import action_recalled, mentions
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.learned import identifier_shaped
from test_summary_shapes import event


def found(events: list[Event]) -> set[str]:
    entities = transcript_entities(transcript_lines(events), EntityPatterns.default())
    return {x.entity.text for x in entities.values()}


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


# --- identifiers joined by "#" ---------------------------------------------------------------


def hash_id_session() -> list[Event]:
    ticket = {"ticket": "TKT#5521", "state": "open", "queue": "plumbing"}
    return [
        event(1, "user", Part(text="My ticket about the boiler, any news?")),
        event(2, "agent", Part.from_function_call("get_ticket", {"ref": "TKT#5521"}, "c1")),
        event(3, "get_ticket", Part.from_function_response("get_ticket", ticket, "c1")),
        event(4, "agent", Part(text="Ticket TKT#5521 is open in the plumbing queue.")),
    ]


def test_a_sentence_does_not_split_after_a_title() -> None:
    from agentlog.summary.record._sentences import sentences

    said = "You are booked with Dr. Okafor on 12 June. Mrs. Lee from billing will call. Done."
    assert sentences(said) == [
        "You are booked with Dr. Okafor on 12 June.",
        "Mrs. Lee from billing will call.",
        "Done.",
    ]


def test_an_identifier_joined_by_a_hash_is_shaped_and_learned() -> None:
    assert identifier_shaped("TKT#5521")
    assert identifier_shaped("RMA#0093-B")
    assert not identifier_shaped("ABC#DEF")  # no digit: a word, not an id
    assert "TKT#5521" in found(hash_id_session())


def test_a_record_that_drops_a_hash_joined_identifier_fails_and_the_extractive_keeps_it() -> None:
    events = hash_id_session()
    lines = transcript_lines(events)
    dropped = SummaryRecord(goal="Ask about a ticket", facts=(SummaryItem(text="It is open."),))
    _, problems = validate_output(dropped, events=events, transcript=lines)
    assert any(p.kind == "dropped_entity" and "TKT#5521" in p.detail for p in problems)
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    assert "TKT#5521" in result.record.model_dump_json()


# --- the goal keeps the identifiers its cut left out ------------------------------------------


def test_the_goal_keeps_identifiers_of_the_sentences_it_cut() -> None:
    from agentlog.summary.record._sentences import goal_text

    said = "The courier dented the crate, case RMA#0093-B. Can you send another? Depot K7-0211."
    goal = goal_text(said, 100)
    assert goal.startswith("The courier dented the crate, case RMA#0093-B. Can you send another?")
    assert goal.endswith("(K7-0211)")
    # dates, words and what the goal holds already are not repeated
    assert goal_text("Where is parcel P-4410? It left on 2031-02-03.", 100) == (
        "Where is parcel P-4410?"
    )


def test_the_extractive_goal_names_a_unit_only_the_first_message_gives() -> None:
    events = [
        event(1, "user", Part(text="Is there a slot on Tuesday? Locker Q3-118.")),
        event(2, "agent", Part.from_function_call("find_slots", {"day": "tuesday"}, "c1")),
        event(3, "find_slots", Part.from_function_response("find_slots", {"slots": 0}, "c1")),
        event(4, "agent", Part(text="Nothing on Tuesday, sorry.")),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    assert "Q3-118" in result.record.goal


# --- a write's decision keeps its time window -------------------------------------------------


def test_a_rebooking_decision_keeps_the_window_with_the_date() -> None:
    booked = {"booking": "BK-5512", "day": "2031-03-04", "window": "09:30 until 11:00"}
    events = [
        event(1, "user", Part(text="Can my boat inspection BK-5512 move to Tuesday?")),
        event(2, "agent", Part.from_function_call("rebook_inspection", {"ref": "BK-5512"}, "c1")),
        event(
            3, "rebook_inspection", Part.from_function_response("rebook_inspection", booked, "c1")
        ),
        event(4, "agent", Part(text="Done, see you then.")),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    decision = " ".join(i.text for i in result.record.decisions)
    assert "2031-03-04" in decision
    assert "09:30 until 11:00" in decision


# --- a search's fact is the tools' words only ---------------------------------------------------


def test_a_search_fact_citing_its_call_and_result_is_verified() -> None:
    hits = {"hits": [{"ref": "LOT-77A1", "weight": "12 kg"}, {"ref": "LOT-77B4", "weight": "9 kg"}]}
    events = [
        event(1, "user", Part(text="Which lots came in today?")),
        event(2, "agent", Part.from_function_call("search_lots", {"depot": "north"}, "c1")),
        event(3, "search_lots", Part.from_function_response("search_lots", hits, "c1")),
        event(4, "agent", Part(text="LOT-77A1 is the heavier one.")),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    (fact,) = [i for i in result.record.facts if "LOT-77A1" in i.text]
    assert fact.sources == ("e02", "e03")
    assert fact.provenance == "verified"


# --- a promise keeps what its message named before it ---------------------------------------


def test_a_promise_keeps_the_identifier_an_earlier_sentence_named() -> None:
    said = "Claim CLM-88-4471 is registered. We'll email you once the assessor has been."
    events = [
        event(1, "user", Part(text="Please register my claim about the fence.")),
        event(2, "agent", Part(text=said)),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    (promise,) = result.record.commitments
    assert "CLM-88-4471" in promise.text
    assert "email you once the assessor has been" in promise.text


def test_a_search_fact_stays_when_only_the_goals_brackets_name_its_id() -> None:
    # The goal's bracketed identifiers keep what its cut left out; they are the customer's
    # words, so a verified lookup of the same id is not redundant with them.
    log = {"visits": [{"ref": f"VS-{n:04d}", "day": f"2031-01-{n:02d}"} for n in range(1, 13)]}
    events = [
        event(
            1,
            "user",
            Part(
                text="I'm moving next week. Can my parcels go to the new depot? Member mb_5v2k71."
            ),
        ),
        event(2, "agent", Part.from_function_call("get_visit_log", {"member": "mb_5v2k71"}, "c1")),
        event(3, "get_visit_log", Part.from_function_response("get_visit_log", log, "c1")),
        event(4, "agent", Part(text="Your parcels will go to the new depot from Monday.")),
    ]
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert result.ok
    assert result.record.goal.endswith("(mb_5v2k71)")
    (fact,) = [i for i in result.record.facts if "mb_5v2k71" in i.text]
    assert fact.sources == ("e02", "e03")
    assert fact.provenance == "verified"
