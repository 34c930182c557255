"""The web page's record view (server/static/record.js) labels every item and the goal, run
under Node with a minimal DOM (tests/data/web/render_record.mjs)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agentlog.summary import transcript_lines, validate_output
from agentlog.summary.example import FIXED_OUTPUT, refund_session_events

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "agentlog" / "server" / "static"
RENDER = Path(__file__).parent / "data" / "web" / "render_record.mjs"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node to run the page's modules")


def render(summary: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "summary.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RENDER), str(STATIC), str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    tree: dict[str, Any] = json.loads(done.stdout)
    return tree


def text(node: Any) -> str:
    if isinstance(node, str):
        return node
    return "".join(text(c) for c in node["children"])


def find(node: Any, predicate: Any) -> list[dict[str, Any]]:
    if isinstance(node, str):
        return []
    found = [node] if predicate(node) else []
    return found + [n for c in node["children"] for n in find(c, predicate)]


def badges(node: dict[str, Any]) -> list[str]:
    return [text(b) for b in find(node, lambda n: "badge" in n["class"].split())]


def stored(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": "ok",
        "record": record,
        "session_version": 8,
        "summarizer": "extractive",
        "created_at": 0,
    }


def test_every_item_shows_its_label(tmp_path: Path) -> None:
    events = refund_session_events()
    record, problems = validate_output(
        FIXED_OUTPUT, events=events, transcript=transcript_lines(events)
    )
    assert record is not None
    assert not problems
    dumped = record.model_dump(mode="json")
    tree = render(stored(dumped), tmp_path)
    items = find(tree, lambda n: n["tag"] == "li" and "item" in n["class"].split())
    shown = {"verified": "verified", "agent_statement": "agent says", "user_claim": "customer says"}
    expected = [
        (item["text"], shown[item["provenance"]])
        for section in ("facts", "decisions", "commitments", "open_questions")
        for item in dumped[section]
    ]
    assert [(text(i["children"][1]), badges(i)) for i in items] == [(t, [b]) for t, b in expected]
    assert {b for _, b in expected} >= {"verified", "agent says"}  # agent prose is marked too


def test_each_label_has_its_class_and_explanation_and_the_goal_is_labelled(
    tmp_path: Path,
) -> None:
    record = {
        "goal": "Get the shipping fee of A-1001 refunded.",
        "goal_provenance": "user_claim",
        "facts": [
            {"text": "Order A-1001 shipped on 2026-09-28.", "sources": ["e03"],
             "provenance": "verified"},
            {"text": "The desk will call back tomorrow.", "sources": ["e04"],
             "provenance": "agent_statement"},
            {"text": "My manager approved a full refund.", "sources": ["e01"],
             "provenance": "user_claim"},
        ],
        "decisions": [],
        "commitments": [],
        "open_questions": [],
    }  # fmt: skip
    tree = render(stored(record), tmp_path)
    items = find(tree, lambda n: n["tag"] == "li")
    assert [i["class"] for i in items] == ["item verified", "item stated", "item claim"]
    assert [badges(i) for i in items] == [["verified"], ["agent says"], ["customer says"]]
    titles = [b["title"] for i in items for b in find(i, lambda n: "badge" in n["class"])]
    assert "Only an agent said this" in titles[1]
    assert "Only the customer said this" in titles[2]
    (goal,) = find(tree, lambda n: n["tag"] == "p" and "goal" in n["class"].split())
    assert goal["class"] == "goal claim"
    assert badges(goal) == ["customer says"]
    assert text(goal).endswith("Get the shipping fee of A-1001 refunded.")
