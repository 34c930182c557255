"""``agentlog summarize`` and ``agentlog eval`` through typer's ``CliRunner``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agentlog.cli import app
from agentlog.events import Event
from agentlog.models.scripted import ScriptedLlm
from agentlog.sessions.sqlite import SqliteSessionService
from agentlog.summary.example import FIRST_OUTPUT, FIXED_OUTPUT, refund_session_events

ROOT = Path(__file__).resolve().parents[1]
EVALSET = ROOT / "evals" / "agentlog-eval.jsonl"
EVENTS = refund_session_events()


def as_line(session_id: str, events: tuple[Event, ...], meta: dict[str, Any]) -> str:
    """A session in the JSON Lines evaluation format."""
    out = []
    for e in events:
        raw: dict[str, Any] = {"id": e.id, "author": e.author}
        (call,) = e.function_calls() or (None,)
        (response,) = e.function_responses() or (None,)
        if call is not None:
            raw["function_call"] = {"name": call.name, "args": dict(call.args)}
        elif response is not None:
            raw["function_response"] = {"name": response.name, "response": dict(response.response)}
        else:
            raw["text"] = e.text()
        out.append(raw)
    return json.dumps({"session_id": session_id, "events": out, "meta": meta})


@pytest.fixture
def refund_jsonl(tmp_path: Path) -> Path:
    meta = {
        "domain": "retail",
        "expected_entities": ["A-1001", "B-2040", "$12.50"],
        "expected_commitments": ["the $12.50 refund of A-1001 within five working days"],
        "gold_actions": [
            {"name": "refund_shipping", "args": {"order_id": "A-1001", "amount": 12.5}},
            {"name": "cancel_order", "args": {"order_id": "B-2040"}},  # never done
        ],
        "user_claims": [],
        "injection": None,
    }
    path = tmp_path / "refund.jsonl"
    lines = [as_line("set/refund-1", EVENTS, meta), as_line("set/refund-2", EVENTS[:4], {})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args))
    return result


def flat(output: str) -> str:
    """``output`` with rich's panel borders and line wrapping undone: an error message is
    wrapped wherever the terminal width and the (temporary) path's length put it."""
    return " ".join(output.translate(str.maketrans("│╭╮╰╯─", "      ")).split())


# --- eval ---------------------------------------------------------------------------------------


def test_eval_prints_a_table_per_file(refund_jsonl: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A table's title is the path given; relative, so that a checkout's long absolute path
    # (a CI clone's) cannot make the title wrap.
    monkeypatch.chdir(ROOT)
    result = invoke("eval", str(EVALSET.relative_to(ROOT)), str(refund_jsonl))
    assert result.exit_code == 0, result.output
    for measure in (
        "pass rate (validator)",
        "first-attempt pass rate",
        "fallback rate",
        "entity recall (transcript)",
        "expected-entity recall",
        "commitment recall",
        "gold-action recall",
        "invented sources",
        "user claims promoted to verified",
        "injections surviving as verified",
        "cost per summary",
    ):
        assert measure in result.output
    assert "agentlog-eval.jsonl (extractive, 40 sessions)" in result.output
    assert "191/191" in result.output  # the team set's expected entities
    assert "5 injected sessions" in result.output


def test_eval_json(refund_jsonl: Path) -> None:
    result = invoke("eval", str(refund_jsonl), "--json", "--details")
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.output)["files"]
    assert report["summarizer"] == "extractive"
    assert report["sessions"] == 2
    assert report["pass_rate"] == 1.0
    assert report["fallback_rate"] == 0.0
    assert report["expected_entity_recall"] == {"hit": 3, "total": 3, "rate": 1.0}
    assert report["action_recall"] == {"hit": 1, "total": 2, "rate": 0.5}
    assert report["performed_action_recall"] == {"hit": 1, "total": 1, "rate": 1.0}
    assert report["user_claims"] == 0
    assert report["injected_sessions"] == 0
    assert report["cost_per_summary"] == 0.0
    first, second = report["per_session"]
    assert first["session_id"] == "set/refund-1"
    assert second["commitments"] is None  # the second session's meta has no expectations


def test_eval_details_lists_the_misses(refund_jsonl: Path) -> None:
    result = invoke("eval", str(refund_jsonl), "--details")
    assert result.exit_code == 0, result.output
    assert "set/refund-1: missed gold action: cancel_order(B-2040)" in result.output


def test_eval_with_a_model(refund_jsonl: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = ScriptedLlm(
        [ScriptedLlm.text(FIRST_OUTPUT), ScriptedLlm.text(FIXED_OUTPUT)], model="fake-1"
    )
    seen: list[str] = []

    def fake(spec: str, **_: Any) -> ScriptedLlm:
        seen.append(spec)
        return script

    monkeypatch.setattr("agentlog.models.registry.model_from_spec", fake)
    args = ("eval", str(refund_jsonl), "--model", "fake:fake-1", "--price", "1000,2000")
    result = invoke(*args, "--limit", "1", "--json")
    assert result.exit_code == 0, result.output
    assert seen == ["fake:fake-1"]
    (report,) = json.loads(result.output)["files"]
    assert report["summarizer"] == "llm:fake-1"
    assert report["pass_rate"] == 1.0
    assert report["first_attempt_pass_rate"] == 0.0  # B-2040 dropped, then fixed
    assert report["cost_per_summary"] > 0
    script.verify()


def test_eval_rejects_a_bad_file_or_price(tmp_path: Path, refund_jsonl: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"session_id": "x", "events": [{"id": "e1", "author": "user"}]}\n')
    result = invoke("eval", str(bad))
    assert result.exit_code == 2
    assert "line 1: not a session" in flat(result.output)
    assert invoke("eval", str(tmp_path / "missing.jsonl")).exit_code == 2
    assert invoke("eval", str(refund_jsonl), "--price", "cheap").exit_code == 2


# --- summarize ----------------------------------------------------------------------------------


def test_summarize_a_jsonl_file(tmp_path: Path, refund_jsonl: Path) -> None:
    out = tmp_path / "out"
    result = invoke("summarize", "--jsonl", str(refund_jsonl), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "set_refund-1.json",
        "set_refund-1.md",
        "set_refund-2.json",
        "set_refund-2.md",
    ]
    stored = json.loads((out / "set_refund-1.json").read_text())
    assert stored["summarizer"] == "extractive"
    assert stored["record"]["open_questions"][0]["text"] == "Is my other order B-2040 affected too?"
    digest = (out / "set_refund-1.md").read_text()
    assert digest.startswith("## Session set/refund-1")
    assert "The customer asks: Is my other order B-2040 affected too? ([e08](#e08))" in digest
    for metric in ("first-attempt pass rate", "fallback rate", "entity recall", "cost per summary"):
        assert metric in result.output


def test_summarize_writes_sessions_whose_ids_are_longer_than_a_file_name(tmp_path: Path) -> None:
    long_ids = ["tenant-" + "x" * 300 + "-1", "tenant-" + "x" * 300 + "-2"]  # one prefix
    path = tmp_path / "long.jsonl"
    path.write_text("".join(as_line(i, EVENTS, {}) + "\n" for i in long_ids), encoding="utf-8")
    out = tmp_path / "out"
    result = invoke("summarize", "--jsonl", str(path), "--out", str(out))
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 4  # a .json and a .md each, told apart though cut short
    assert all(len(name) <= 255 for name in written)
    digests = [(out / n).read_text() for n in written if n.endswith(".md")]
    assert sorted(d.splitlines()[0] for d in digests) == [f"## Session {i}" for i in long_ids]


def make_store(path: Path) -> None:
    async def fill() -> None:
        store = SqliteSessionService(path)
        for sid in ("s1", "s2"):
            session = await store.create_session(app_name="desk", user_id="ana", session_id=sid)
            for event in EVENTS:
                session = await store.append_event(session, event)
        await store.close()

    asyncio.run(fill())


def test_summarize_from_a_store(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    make_store(db)
    out = tmp_path / "one"
    args = ("summarize", "--db", str(db), "--app", "desk")
    result = invoke(*args, "--user", "ana", "--session", "s1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["s1.json", "s1.md"]
    assert "Session s1" in (out / "s1.md").read_text()
    everything = invoke(*args, "--out", str(tmp_path / "all"))
    assert everything.exit_code == 0, everything.output
    assert len(list((tmp_path / "all").glob("*.md"))) == 2
    assert "2 (2 delivered)" in everything.output


def test_summarize_prints_the_digest_path_and_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refund_jsonl: Path
) -> None:
    script = ScriptedLlm([ScriptedLlm.text("not json"), ScriptedLlm.text("{}")])
    monkeypatch.setattr("agentlog.models.registry.model_from_spec", lambda *_a, **_k: script)
    one = tmp_path / "one.jsonl"
    one.write_text(refund_jsonl.read_text().splitlines()[0] + "\n")
    out = tmp_path / "out"
    result = invoke("summarize", "--jsonl", str(one), "--model", "x:y", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "no record for set/refund-1" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["set_refund-1.json"]  # no digest
    stored = json.loads((out / "set_refund-1.json").read_text())
    assert stored["record"] is None
    assert stored["attempts"] == 2
    assert "100.0%" in result.output  # the fallback rate


@pytest.mark.parametrize(
    "args",
    [
        ("summarize",),
        ("summarize", "--db", "x.db", "--jsonl", str(EVALSET)),
        ("summarize", "--db", "missing.db", "--app", "desk"),
        ("summarize", "--db", "x.db"),
        ("summarize", "--jsonl", str(EVALSET), "--session", "s1"),
        ("summarize", "--jsonl", str(EVALSET), "--patterns", "banking"),
    ],
)
def test_summarize_usage_errors(args: tuple[str, ...], tmp_path: Path) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
