"""The web page's hints come from the agent it serves, and opening a new session asks for no
summary it cannot have. The API half runs on httpx; the page half drives Chromium like
``tests/test_web_page.py`` (and skips the same way without it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentlog import SqliteSessionService
from agentlog.agents import LlmAgent
from agentlog.models.scripted import ScriptedLlm
from agentlog.runner import Runner
from agentlog.server import create_app
from agentlog.server.desk import refund_desk
from agentlog.server.web import agent_hints
from agentlog.summary import ExtractiveSummarizer, InMemorySummaryStore
from server_support import ANA_KEY, auth, desk_app, live_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def book_table(day: str, people: int) -> dict[str, Any]:
    """Book a table at the restaurant. Tables hold up to eight.

    Args:
        day: The day, e.g. 2026-12-24.
        people: How many.
    """
    return {"booked": day, "people": people}


def host() -> LlmAgent:
    sommelier = LlmAgent(
        name="sommelier", description="Suggests wines. Knows the cellar.", model=ScriptedLlm([])
    )
    return LlmAgent(
        name="host",
        description="Takes bookings for the restaurant.",
        model=ScriptedLlm([ScriptedLlm.text("Welcome!")]),
        tools=[book_table],
        sub_agents=[sommelier],
    )


def test_the_hints_are_the_served_agents_own() -> None:
    assert agent_hints(host()) == {
        "name": "host",
        "description": "Takes bookings for the restaurant.",
        "tools": [{"name": "book_table", "description": "Book a table at the restaurant."}],
        "agents": [{"name": "sommelier", "description": "Suggests wines."}],
    }
    desk = agent_hints(refund_desk())
    assert desk["name"] == "desk"
    assert [t["name"] for t in desk["tools"]] == ["lookup_order"]


def test_the_hints_route_answers_behind_the_apis_keys(tmp_path: Path) -> None:
    app = desk_app(SqliteSessionService(tmp_path / "keys.db"))
    with live_server(app) as base:
        assert httpx.get(f"{base}/web/agent", timeout=10).status_code == 401
        answer = httpx.get(f"{base}/web/agent", headers=auth(ANA_KEY), timeout=10)
        assert answer.status_code == 200
        assert answer.json()["name"] == "desk"
        assert answer.json()["summaries"] is False
        assert "/web/agent" not in httpx.get(f"{base}/openapi.json", timeout=10).json()["paths"]


@pytest.fixture
def host_server(tmp_path: Path) -> Iterator[str]:
    runner = Runner(agent=host(), session_service=SqliteSessionService(tmp_path / "host.db"))
    app = create_app(
        runner,
        summaries=InMemorySummaryStore(),
        summarizer=ExtractiveSummarizer(),
        stall_check_interval_s=None,
        close_store_on_shutdown=True,
    )
    with live_server(app) as base:
        yield base


browser_only = pytest.mark.skipif(
    not CHROMIUM.exists() and os.environ.get("AGENTLOG_REQUIRE_BROWSER") != "1",
    reason="needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
)


@pytest.mark.browser
@browser_only
def test_the_page_hints_at_the_served_agent_and_asks_no_summary_of_a_new_session(
    host_server: str,
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page()
            answered: list[tuple[str, int]] = []
            page.on("response", lambda r: answered.append((r.url, r.status)))
            page.goto(f"{host_server}/")
            hint = page.locator("#agent-hint")
            expect(hint).to_contain_text("This server runs host: Takes bookings")
            expect(hint).to_contain_text("book_table — Book a table at the restaurant.")
            expect(hint).to_contain_text("hands over to sommelier — Suggests wines.")
            expect(page.locator("#chat")).not_to_contain_text("A-1001")

            page.get_by_role("button", name="New session").click()
            expect(page.locator("#chat .empty")).to_contain_text("A new session")
            expect(page.locator("#chat .empty")).to_contain_text("This server runs host")
            expect(page.locator("#composer-text")).to_be_enabled()
            page.get_by_label("Message").fill("A table for two, please.")
            page.get_by_label("Message").press("Enter")
            expect(page.locator("#chat .msg", has_text="Welcome!")).to_be_visible()
        finally:
            browser.close()
    assert [url for url, _ in answered if url.endswith("/summary")] == []
    assert [(url, status) for url, status in answered if status == 404] == []
