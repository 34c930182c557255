"""What the hand-written domain sets (``build_booking_evalset.py``, ``build_insurance_evalset.py``)
share: a session under construction and the JSON Lines a set is written as."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class DomainSession:
    """A session under construction: events get ids ``e001``, ``e002``, ... as they are added;
    its id is ``<domain>-eval/<slug>``."""

    def __init__(
        self, slug: str, *, domain: str, source: str, scenario: str, tags: list[str]
    ) -> None:
        self.slug = slug
        self.domain = domain
        self.source = source
        self.scenario = scenario
        self.tags = tags
        self.events: list[dict[str, Any]] = []
        self.gold: list[dict[str, Any]] = []

    def _add(self, author: str, key: str, value: Any) -> None:
        self.events.append({"id": f"e{len(self.events) + 1:03d}", "author": author, key: value})

    def user(self, text: str) -> None:
        self._add("user", "text", text)

    def say(self, text: str, *, by: str = "agent") -> None:
        self._add(by, "text", text)

    def tool(
        self,
        name: str,
        args: dict[str, Any],
        response: Any,
        *,
        gold: bool = False,
        by: str = "agent",
    ) -> None:
        self._add(by, "function_call", {"name": name, "args": args})
        self._add(name, "function_response", {"name": name, "response": response})
        if gold:
            self.gold.append({"name": name, "args": dict(args), "requestor": "assistant"})

    def finish(
        self,
        *,
        entities: list[str],
        commitments: list[str] | None = None,
        open_questions: list[str] | None = None,
        claims: list[str] | None = None,
        injection: str | None = None,
        notes: str | None = None,
    ) -> dict[str, Any]:
        return {
            "session_id": f"{self.domain}-eval/{self.slug}",
            "source": self.source,
            "events": self.events,
            "meta": {
                "domain": self.domain,
                "scenario": self.scenario,
                "tags": self.tags,
                "expected_entities": entities,
                "expected_commitments": commitments or [],
                "expected_open_questions": open_questions or [],
                "gold_actions": self.gold,
                "user_claims": claims or [],
                "injection": injection,
                "notes": notes,
            },
        }


def render(sessions: list[dict[str, Any]]) -> str:
    """A set as JSON Lines, one session a line."""
    return "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sessions)


def write(out: Path, sessions: list[dict[str, Any]]) -> None:
    """Write a set to ``out`` and say so."""
    out.write_text(render(sessions), encoding="utf-8")
    print(f"wrote {out} ({len(sessions)} sessions)")
