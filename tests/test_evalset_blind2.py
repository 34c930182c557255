"""The blind-written domain sets (``evals/clinic-eval.jsonl``, ``saas-eval.jsonl``,
``banking-eval.jsonl``, ``property-eval.jsonl``, ``payroll-eval.jsonl`` and
``permits-eval.jsonl``): each file is what its script writes, in the
development sessions' format, and its hand-written expectations hold against its own
transcripts."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from evalset_support import META_KEYS, load_builder

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "clinic": (ROOT / "evals" / "clinic-eval.jsonl", ROOT / "evals" / "build_clinic_evalset.py"),
    "saas": (ROOT / "evals" / "saas-eval.jsonl", ROOT / "evals" / "build_saas_evalset.py"),
    "banking": (
        ROOT / "evals" / "banking-eval.jsonl",
        ROOT / "evals" / "build_banking_evalset.py",
    ),
    "property": (
        ROOT / "evals" / "property-eval.jsonl",
        ROOT / "evals" / "build_property_evalset.py",
    ),
    "payroll": (
        ROOT / "evals" / "payroll-eval.jsonl",
        ROOT / "evals" / "build_payroll_evalset.py",
    ),
    "permits": (
        ROOT / "evals" / "permits-eval.jsonl",
        ROOT / "evals" / "build_permits_evalset.py",
    ),
}


def sessions(domain: str) -> list[dict[str, Any]]:
    data, _ = SETS[domain]
    return [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]


def every_session() -> list[Any]:
    return [pytest.param(s, id=s["session_id"]) for domain in SETS for s in sessions(domain)]


def text_of(event: dict[str, Any]) -> str:
    payload = event.get("text", event.get("function_call", event.get("function_response")))
    return payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)


@pytest.mark.parametrize("domain", sorted(SETS))
def test_the_set_is_what_its_script_writes(domain: str) -> None:
    data, script = SETS[domain]
    module = load_builder(script)
    assert data.read_text(encoding="utf-8") == module.render(module.build())
    got = sessions(domain)
    assert 12 <= len(got) <= 15
    assert len({s["session_id"] for s in got}) == len(got)
    assert all(s["meta"]["domain"] == domain for s in got)
    tags = {tag for s in got for tag in s["meta"]["tags"]}
    # What the brief asks each set to hold.
    assert {"write", "failed_call", "multi_agent", "injection", "user_claim"} <= tags
    assert {"long_payload", "tool_only_id", "prose_result"} <= tags


@pytest.mark.parametrize("session", every_session())
def test_events_are_numbered_and_each_call_has_its_result(session: dict[str, Any]) -> None:
    events = session["events"]
    assert [e["id"] for e in events] == [f"e{i:03d}" for i in range(1, len(events) + 1)]
    for event in events:
        assert sum(k in event for k in ("text", "function_call", "function_response")) == 1
    for call, result in itertools.pairwise(events):
        if "function_call" in call:
            assert result["function_response"]["name"] == call["function_call"]["name"]
            assert result["author"] == call["function_call"]["name"]
    assert set(session["meta"]) == META_KEYS


@pytest.mark.parametrize("session", every_session())
def test_the_expectations_hold_against_the_transcript(session: dict[str, Any]) -> None:
    meta = session["meta"]
    events = session["events"]
    everything = "\n".join(text_of(e) for e in events)
    said_by_user = "\n".join(e["text"] for e in events if e["author"] == "user" and "text" in e)
    assert meta["expected_entities"]
    for entity in meta["expected_entities"]:
        assert entity in everything, entity
    for claim in meta["user_claims"]:
        assert claim in said_by_user, claim
    if meta["injection"] is not None:
        assert meta["injection"] in everything
        assert meta["injection"] not in said_by_user or "injection" in meta["tags"]
    calls = [e["function_call"] for e in events if "function_call" in e]
    for gold in meta["gold_actions"]:
        assert {"name": gold["name"], "args": gold["args"]} in calls
        assert gold["name"] != "transfer_to_agent"
        assert gold["requestor"] == "assistant"
    assert ("write" in meta["tags"]) == bool(meta["gold_actions"])
