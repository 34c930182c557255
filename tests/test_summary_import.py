"""Loaders: the JSON Lines session format and google-adk session dumps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentlog.events import ErrorCode
from agentlog.summary import (
    EntityPatterns,
    ExtractiveSummarizer,
    import_adk_session,
    iter_jsonl_sessions,
    load_jsonl_sessions,
    render_transcript,
)

TAU2 = Path(__file__).parent / "data" / "tau2"
"""A sample of tau2-bench sessions (every fifth of the development set; see its README)."""
ADK = Path(__file__).parent / "data" / "adk_session.json"

LINE = json.dumps(
    {
        "session_id": "t-1",
        "source": "unit",
        "events": [
            {"id": "e001", "author": "agent", "text": "Hi!"},
            {"id": "e002", "author": "user", "text": "Cancel #W1234567 please."},
            {"id": "e003", "author": "agent", "function_call": {"name": "get", "args": {"id": 1}}},
            {"id": "e004", "author": "agent", "function_call": {"name": "get", "args": {"id": 2}}},
            {
                "id": "e005",
                "author": "get",
                "function_response": {"name": "get", "response": {"n": 1}},
            },
            {
                "id": "e006",
                "author": "get",
                "function_response": {"name": "get", "response": "two"},
            },
            {
                "id": "e007",
                "author": "user",
                "function_call": {"name": "check_status_bar", "args": {}},
            },
        ],
        "meta": {"reward": 1.0},
    }
)


def test_jsonl_sessions_become_events() -> None:
    (session,) = load_jsonl_sessions([LINE, "", "  "])
    assert session.session_id == "t-1"
    assert session.meta == {"reward": 1.0, "source": "unit"}
    events = session.events
    assert [e.id for e in events] == [f"e00{i}" for i in range(1, 8)]
    assert [e.invocation_id for e in events] == ["inv-e001"] + ["inv-e002"] * 6
    assert [e.timestamp for e in events] == [float(i) for i in range(7)]
    # Responses answer the oldest open call of their name.
    calls = [c.id for e in events for c in e.function_calls()]
    responses = [r.id for e in events for r in e.function_responses()]
    assert calls[:2] == responses == ["call-e003", "call-e004"]
    assert events[5].function_responses()[0].response == {"result": "two"}
    assert events[6].author == "user"
    assert events[6].content is not None
    assert events[6].content.role == "user"


def test_bad_lines_say_where(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(LINE + "\n" + '{"session_id": "x", "events": [{"id": "e1", "author": "u"}]}\n')
    with pytest.raises(ValueError, match="line 2"):
        load_jsonl_sessions(path)
    assert next(iter_jsonl_sessions(path)).session_id == "t-1"


def test_the_development_sessions_load() -> None:
    for name in ("retail", "telecom"):
        sessions = load_jsonl_sessions(TAU2 / f"{name}.jsonl")
        assert len(sessions) == 8
        assert all(s.meta["domain"] == name and s.meta["gold_actions"] for s in sessions)
        for s in sessions:
            calls = {c.id for e in s.events for c in e.function_calls()}
            answered = {r.id for e in s.events for r in e.function_responses()}
            assert answered <= calls


@pytest.mark.parametrize("form", ["snake", "camel"])
def test_a_google_adk_session_dump(form: str) -> None:
    session = import_adk_session(json.loads(ADK.read_text())[form])
    assert (session.id, session.app_name, session.user_id) == ("adk-session-1", "desk_app", "ana")
    assert session.state == {"order": "A-1001", "user:tier": "gold"}
    assert session.version == 7
    events = session.events
    assert [e.author for e in events] == [
        "user",
        "desk",
        "desk",
        "desk",
        "desk",
        "refunds",
        "refunds",
    ]
    # The thought part is dropped; the call keeps ADK's id and its response pairs with it.
    assert [p.function_call.id for p in events[1].content.parts if p.function_call] == ["adk-fc-1"]  # type: ignore[union-attr]
    assert len(events[1].content.parts) == 1  # type: ignore[union-attr]
    assert events[1].usage is not None
    assert events[1].usage.input_tokens == 120
    assert events[2].function_responses()[0].id == "adk-fc-1"
    assert events[2].actions.state_delta == {"order": "A-1001"}
    assert events[4].actions.transfer_to_agent == "refunds"
    assert events[6].error_code is ErrorCode.MAX_TOKENS
    assert render_transcript(events).splitlines()[:3] == [
        "[ev-1] user: My order A-1001 is late. Refund the $12.50 shipping fee?",
        '[ev-2] desk CALLS lookup_order {"order_id": "A-1001"}',
        '[ev-3] desk RESULT lookup_order {"order_id": "A-1001", "status": "shipped", '
        '"shipped_on": "2026-09-28", "shipping_fee": 12.5}',
    ]
    result = ExtractiveSummarizer(patterns=EntityPatterns.default()).summarize_now(session)
    assert result.ok
    assert result.session_id == "adk-session-1"
    assert import_adk_session(json.dumps(json.loads(ADK.read_text())[form])) == session


def test_the_public_surface_is_curated() -> None:
    import inspect

    import agentlog.summary as summary

    assert summary.__all__ == sorted(summary.__all__, key=lambda n: (not n.isupper(), n))
    for name in summary.__all__:
        obj = getattr(summary, name)
        if isinstance(obj, type) or inspect.isfunction(obj):
            assert obj.__doc__, f"{name} has no docstring"
