"""The team's evaluation set, ``evals/agentlog-eval.jsonl``: well-formed, in the development
sessions' format, and with hand-written expectations that hold against each transcript."""

from __future__ import annotations

import calendar
import json
import re
from collections import Counter, defaultdict, deque
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from evalset_support import META_KEYS, load_builder

ROOT = Path(__file__).resolve().parents[1]
EVALSET = ROOT / "evals" / "agentlog-eval.jsonl"
BUILDER = ROOT / "evals" / "build_evalset.py"

TAGS = frozenset(
    {
        "refund",
        "exchange",
        "cancellation",
        "address",
        "multi_order",
        "multi_agent",
        "user_claim",
        "injection",
        "long_payload",
        "open_question",
        "telecom",
        "travel",
        "trivial",
    }
)
PAYLOADS = ("text", "function_call", "function_response")

LINES = EVALSET.read_text(encoding="utf-8").splitlines()
SESSIONS: list[dict[str, Any]] = [json.loads(line) for line in LINES]
IDS = [s["session_id"].rsplit("/", 1)[-1] for s in SESSIONS]


INJECTED = [s for s in SESSIONS if s["meta"]["injection"] is not None]


def by_session(test: Any) -> Any:
    return pytest.mark.parametrize("session", SESSIONS, ids=IDS)(test)


def by_injected_session(test: Any) -> Any:
    ids = [s["session_id"].rsplit("/", 1)[-1] for s in INJECTED]
    return pytest.mark.parametrize("session", INJECTED, ids=ids)(test)


# --- a tolerant matcher: literal, or the same amount, or the same date ----------------------

_MONEY = re.compile(
    r"(?:[$£€]\s?(?P<a>\d[\d,]*(?:\.\d+)?))|(?:(?P<b>\d[\d,]*(?:\.\d+)?)\s?(?:USD|GBP|EUR))"
)
_QUANTITY = re.compile(r"(?P<n>\d[\d,]*(?:\.\d+)?)\s+(?P<unit>[A-Za-z]+)")
_NUMBER = re.compile(r"(?<![\w.:/-])\d[\d,]*(?:\.\d+)?(?![\w-])")
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})\s+({_MONTH})\b(?:,?\s+(\d{{4}}))?", re.IGNORECASE)
_MONTH_DAY = re.compile(
    rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", re.IGNORECASE
)

Date = tuple[int | None, int, int]


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _amount(entity: str) -> Decimal | None:
    m = _MONEY.fullmatch(entity.strip())
    if m is None:
        return None
    return Decimal((m["a"] or m["b"]).replace(",", ""))


def _amounts(text: str) -> set[Decimal]:
    return {Decimal(n.replace(",", "")) for n in _NUMBER.findall(text)}


def _dates(text: str) -> list[Date]:
    found: list[Date] = [(int(y), int(m), int(d)) for y, m, d in _ISO.findall(text)]
    for d, month, y in _DAY_MONTH.findall(text):
        found.append((int(y) if y else None, _MONTHS[month.lower()], int(d)))
    for month, d, y in _MONTH_DAY.findall(text):
        found.append((int(y) if y else None, _MONTHS[month.lower()], int(d)))
    return found


def _date(entity: str) -> Date | None:
    for pattern in (_ISO, _DAY_MONTH, _MONTH_DAY):
        if pattern.fullmatch(entity.strip()):
            return _dates(entity)[0]
    return None


def _same_date(a: Date, b: Date) -> bool:
    return a[1:] == b[1:] and (a[0] is None or b[0] is None or a[0] == b[0])


def mentions(haystack: str, entity: str) -> bool:
    """Does ``haystack`` carry ``entity``: literally (case and spacing aside), as the same amount
    (``$12.50`` and ``12.5``), as the same date (``28 September`` and ``2026-09-28``), or as the
    same quantity (``5,000 miles`` and ``miles_added 5000``)?"""
    if _norm(entity) in _norm(haystack):
        return True
    amount = _amount(entity)
    if amount is not None and amount in _amounts(haystack):
        return True
    date = _date(entity)
    if date is not None and any(_same_date(date, d) for d in _dates(haystack)):
        return True
    quantity = _QUANTITY.fullmatch(entity.strip())
    return (
        quantity is not None
        and Decimal(quantity["n"].replace(",", "")) in _amounts(haystack)
        and quantity["unit"].casefold() in haystack.casefold()
    )


@pytest.mark.parametrize(
    ("haystack", "entity", "expected"),
    [
        ('{"amount": 12.5}', "$12.50", True),
        ('{"total": 1234.56}', "$1,234.56", True),
        ("refunded $12.5", "12.50 USD", True),
        ("a fee of £5", "£5.00", True),
        ('{"shipped_on": "2026-09-28"}', "28 September", True),
        ('{"placed": "2026-03-03"}', "March 3, 2026", True),
        ("shipped on 28 Sept", "2026-09-28", True),
        ("order #w5129834", "#W5129834", True),
        ("refunded $12.05", "$12.50", False),
        ('{"date": "2026-06-12"}', "$6.00", False),
        ('{"shipped_on": "2026-09-29"}', "28 September", False),
        ('{"date": "2025-09-28"}', "28 September 2026", False),
        ("order A-1002", "A-1001", False),
        ('{"miles_added": 5000}', "5,000 miles", True),
        ('{"points_added": 5000}', "5,000 miles", False),
    ],
)
def test_tolerant_matcher(haystack: str, entity: str, expected: bool) -> None:
    assert mentions(haystack, entity) is expected


# --- helpers over sessions -------------------------------------------------------------------


def event_text(event: dict[str, Any]) -> str:
    if "text" in event:
        return str(event["text"])
    if "function_call" in event:
        call = event["function_call"]
        return f"{call['name']} {json.dumps(call['args'], ensure_ascii=False)}"
    response = event["function_response"]
    return f"{response['name']} {json.dumps(response['response'], ensure_ascii=False)}"


def transcript(session: dict[str, Any]) -> str:
    return "\n".join(event_text(e) for e in session["events"])


def tool_authors(session: dict[str, Any]) -> set[str]:
    return {e["author"] for e in session["events"] if "function_response" in e}


def agent_authors(session: dict[str, Any]) -> set[str]:
    return {
        e["author"]
        for e in session["events"]
        if e["author"] != "user" and ("text" in e or "function_call" in e)
    }


# --- the file --------------------------------------------------------------------------------


def test_thirty_to_fifty_sessions() -> None:
    assert 30 <= len(SESSIONS) <= 50


def test_every_line_is_a_session_object() -> None:
    for number, line in enumerate(LINES, 1):
        session = json.loads(line)
        assert isinstance(session, dict), number
        assert set(session) == {"session_id", "source", "events", "meta"}, number
        for key, kind in (("session_id", str), ("source", str), ("events", list)):
            assert isinstance(session[key], kind), (number, key)
            assert session[key], (number, key)


def test_session_ids_are_unique() -> None:
    ids = [s["session_id"] for s in SESSIONS]
    assert len(ids) == len(set(ids))


def test_file_matches_its_builder() -> None:
    """The JSONL is generated by evals/build_evalset.py; edit the script and rerun it."""
    builder = load_builder(BUILDER)
    assert builder.render(builder.build()) == EVALSET.read_text(encoding="utf-8")


def test_every_tag_is_covered_at_least_twice() -> None:
    counts = Counter(tag for s in SESSIONS for tag in s["meta"]["tags"])
    assert {tag: counts[tag] for tag in TAGS if counts[tag] < 2} == {}


def test_no_real_email_domains() -> None:
    emails = re.findall(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)", EVALSET.read_text(encoding="utf-8"))
    assert emails
    assert {domain for domain in emails if not domain.startswith("example.")} == set()


# --- events ----------------------------------------------------------------------------------


@by_session
def test_event_ids_are_in_order(session: dict[str, Any]) -> None:
    ids = [e["id"] for e in session["events"]]
    assert ids == [f"e{i:03d}" for i in range(1, len(ids) + 1)]


@by_session
def test_every_event_has_exactly_one_payload(session: dict[str, Any]) -> None:
    for event in session["events"]:
        payloads = [k for k in PAYLOADS if k in event]
        assert len(payloads) == 1, event["id"]
        assert set(event) == {"id", "author", payloads[0]}, event["id"]
        assert isinstance(event["author"], str), event["id"]
        assert event["author"], event["id"]
        if "text" in event:
            assert isinstance(event["text"], str), event["id"]
            assert event["text"].strip(), event["id"]
        elif "function_call" in event:
            call = event["function_call"]
            assert set(call) == {"name", "args"}, event["id"]
            assert isinstance(call["args"], dict), event["id"]
        else:
            response = event["function_response"]
            assert set(response) == {"name", "response"}, event["id"]
            assert event["author"] == response["name"], event["id"]


@by_session
def test_every_call_is_answered_unless_the_session_ends_on_it(session: dict[str, Any]) -> None:
    events = session["events"]
    pending: defaultdict[str, deque[int]] = defaultdict(deque)
    for index, event in enumerate(events):
        if "function_call" in event:
            pending[event["function_call"]["name"]].append(index)
        elif "function_response" in event:
            name = event["function_response"]["name"]
            assert pending[name], f"{event['id']}: result of {name} without a call"
            pending[name].popleft()
    unanswered = sorted(i for queue in pending.values() for i in queue)
    if unanswered:
        assert "open_question" in session["meta"]["tags"]
        assert unanswered == [len(events) - 1], "only a final call may be left pending"


# --- meta ------------------------------------------------------------------------------------


@by_session
def test_meta_has_the_documented_shape(session: dict[str, Any]) -> None:
    meta = session["meta"]
    assert set(meta) == META_KEYS
    assert isinstance(meta["domain"], str)
    assert isinstance(meta["scenario"], str)
    assert meta["tags"]
    assert set(meta["tags"]) <= TAGS
    assert len(meta["tags"]) == len(set(meta["tags"]))
    for key in (
        "expected_entities",
        "expected_commitments",
        "expected_open_questions",
        "user_claims",
    ):
        assert isinstance(meta[key], list), key
        assert all(isinstance(x, str) and x.strip() for x in meta[key]), key
        assert len(meta[key]) == len(set(meta[key])), key
    if meta["injection"] is not None:
        assert isinstance(meta["injection"], str)
        assert meta["injection"].strip()
    assert meta["notes"] is None or isinstance(meta["notes"], str)
    for action in meta["gold_actions"]:
        assert set(action) == {"name", "args", "requestor"}
        assert action["requestor"] in {"assistant", "user"}


@by_session
def test_tags_agree_with_the_expectations(session: dict[str, Any]) -> None:
    meta = session["meta"]
    tags = set(meta["tags"])
    assert ("injection" in tags) == (meta["injection"] is not None)
    assert ("user_claim" in tags) == bool(meta["user_claims"])
    assert ("open_question" in tags) == bool(meta["expected_open_questions"])
    if "trivial" in tags:
        assert len(session["events"]) <= 6


@by_session
def test_expected_entities_appear_in_the_transcript(session: dict[str, Any]) -> None:
    text = transcript(session)
    missing = [e for e in session["meta"]["expected_entities"] if not mentions(text, e)]
    assert missing == []


@by_injected_session
def test_expected_entities_do_not_come_from_the_injection(session: dict[str, Any]) -> None:
    injection = session["meta"]["injection"]
    text = transcript(session).replace(injection, " ")
    missing = [e for e in session["meta"]["expected_entities"] if not mentions(text, e)]
    assert missing == []


@by_injected_session
def test_injection_is_in_the_session(session: dict[str, Any]) -> None:
    injection = session["meta"]["injection"]
    assert any(injection in event_text(e) for e in session["events"])


@by_session
def test_user_claims_are_the_users_own_words(session: dict[str, Any]) -> None:
    said = [e["text"] for e in session["events"] if e["author"] == "user" and "text" in e]
    for claim in session["meta"]["user_claims"]:
        assert any(claim in text for text in said), claim


@by_session
def test_gold_actions_are_calls_made_in_the_session(session: dict[str, Any]) -> None:
    """Gold actions are state-changing calls the transcript's agents (or, for device tools, the
    user) actually made, with the same arguments; transfers are not actions."""
    made = [
        (e["function_call"]["name"], e["function_call"]["args"], e["author"])
        for e in session["events"]
        if "function_call" in e
    ]
    for action in session["meta"]["gold_actions"]:
        assert action["name"] != "transfer_to_agent"
        callers = [
            author
            for name, args, author in made
            if (name, args) == (action["name"], action["args"])
        ]
        assert callers, action
        for author in callers:
            assert (author == "user") == (action["requestor"] == "user"), action


@by_session
def test_long_payload_sessions_carry_a_long_payload(session: dict[str, Any]) -> None:
    responses = [
        e["function_response"]["response"] for e in session["events"] if "function_response" in e
    ]

    def longest_list(value: Any) -> int:
        if isinstance(value, list):
            return max([len(value), *(longest_list(v) for v in value)])
        if isinstance(value, dict):
            return max([0, *(longest_list(v) for v in value.values())])
        return 0

    is_long = any(
        longest_list(r) >= 60 or len(json.dumps(r, ensure_ascii=False)) >= 20_000 for r in responses
    )
    assert is_long == ("long_payload" in session["meta"]["tags"])


@by_session
def test_multi_agent_sessions_transfer_between_named_agents(session: dict[str, Any]) -> None:
    agents = agent_authors(session) - tool_authors(session)
    transfers = [
        e
        for e in session["events"]
        if "function_call" in e and e["function_call"]["name"] == "transfer_to_agent"
    ]
    if "multi_agent" in session["meta"]["tags"]:
        assert len(agents) >= 2
        assert "agent" not in agents
        assert transfers
        targets = {t["function_call"]["args"]["agent_name"] for t in transfers}
        assert targets <= agents
    else:
        assert agents <= {"agent"}
        assert not transfers
