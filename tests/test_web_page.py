"""The web page in a real browser: Debian's Chromium, driven by Playwright, against a real
uvicorn server on 127.0.0.1 with a fresh SQLite file and the offline refund desk.

Needs ``/usr/bin/chromium`` (``apt-get install chromium``) and the ``playwright`` Python
package; no browser is ever downloaded (Chromium is launched by path). Screenshots of each
step go to ``artifacts/screenshots/`` at the repository root.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentlog import SqliteSessionService
from agentlog.agents import LlmAgent
from agentlog.cli.stores import build_extras
from agentlog.context import ToolContext
from agentlog.events import Content, CredentialRequest, ErrorCode
from agentlog.models.base import LlmRequest, LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.router import user_message
from agentlog.runner import Runner
from agentlog.server import create_app
from agentlog.server.desk import RefundDeskModel, refund_desk
from agentlog.summary import ExtractiveSummarizer
from server_support import ANA_KEY, BEN_KEY, auth, desk_app, live_server

CHROMIUM = Path("/usr/bin/chromium")

# CI sets AGENTLOG_REQUIRE_BROWSER=1 after installing Chromium, so there a missing browser
# fails the run instead of skipping the browser tests quietly.
if os.environ.get("AGENTLOG_REQUIRE_BROWSER") == "1" and not CHROMIUM.exists():
    raise RuntimeError("AGENTLOG_REQUIRE_BROWSER=1 but /usr/bin/chromium is missing")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="needs the playwright Python package (pip install playwright)"
)
Browser, Page, expect = sync_api.Browser, sync_api.Page, sync_api.expect
# Assertions wait up to 15 s, not Playwright's 5: on a loaded 2-core CI machine a turn and its
# rendering can take longer, and a passing page never waits that long.
expect.set_options(timeout=15_000)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
WIDE = {"width": 1360, "height": 900}

FIRST = "Hi, my order A-1001 still has not arrived. Where is it?"
FIRST_ANSWER = "Order A-1001 shipped on 2026-09-28; we promised it by 2026-09-25."
# The date is only the customer's word: the handoff record marks it as a claim.
REFUND = (
    "That is late. Please refund the shipping fee; "
    "I was promised delivery by 2026-09-22 on the phone."
)
REFUNDED = "Done: the $12.50 shipping fee for order A-1001 is refunded (refund R-7781)."

# Watches the chat on every change, from the first paint of every page load: the most drafts
# and the most copies of each answer it ever held at once.
WATCH = """
(needles) => {
  const watch = { maxDrafts: 0, sawDraft: false, maxCopies: {} };
  window.__chatWatch = watch;
  const check = (chat) => {
    const drafts = chat.querySelectorAll(".draft").length;
    watch.maxDrafts = Math.max(watch.maxDrafts, drafts);
    watch.sawDraft = watch.sawDraft || drafts > 0;
    const messages = [...chat.querySelectorAll(".msg")];
    for (const needle of needles) {
      const copies = messages.filter((m) => m.textContent.includes(needle)).length;
      watch.maxCopies[needle] = Math.max(watch.maxCopies[needle] || 0, copies);
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const chat = document.getElementById("chat");
    new MutationObserver(() => check(chat)).observe(chat, {
      childList: true, subtree: true, characterData: true,
    });
  });
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


class Desk:
    """One browser page on one server, with the steps the tests take."""

    def __init__(self, page: Any, base: str, name: str) -> None:
        self.page, self.base, self.name = page, base, name
        self.problems: list[str] = []
        page.on("pageerror", lambda exc: self.problems.append(f"uncaught: {exc}"))
        page.on("console", self._console)
        page.set_default_timeout(20_000)

    def _console(self, message: Any) -> None:
        # A 401 or 404 the page handles still shows as a failed load; anything else logged as
        # an error (an exception, a Content-Security-Policy violation) is a bug.
        if message.type == "error" and "Failed to load resource" not in message.text:
            self.problems.append(message.text)

    def shot(self, step: str, *, full_page: bool = False) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.name}-{step}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def open(self, query: str = "") -> None:
        self.page.goto(f"{self.base}/{query}")
        expect(self.page).to_have_title("agentlog")

    def new_session(self) -> str:
        self.page.get_by_role("button", name="New session").click()
        expect(self.page.locator("#composer-text")).to_be_enabled()
        expect(self.page.locator("#send")).to_be_enabled()
        sid = self.page.locator("#session-label code").inner_text()
        assert f"session={sid}" in self.page.url
        return sid

    def say(self, text: str) -> None:
        self.page.get_by_label("Message").fill(text)
        self.page.get_by_label("Message").press("Enter")

    def idle(self) -> None:
        """Wait until the page has no turn streaming."""
        expect(self.page.locator("#send")).to_be_enabled()
        expect(self.page.locator("#chat")).to_have_attribute("aria-busy", "false")

    def chat_messages(self, text: str) -> Any:
        return self.page.locator("#chat .msg", has_text=text)

    def timeline_ids(self) -> list[str]:
        ids: list[str] = self.page.locator("#timeline > li").evaluate_all(
            "items => items.map(li => li.id)"
        )
        return ids

    def watch(self) -> dict[str, Any]:
        result: dict[str, Any] = self.page.evaluate("window.__chatWatch")
        return result

    def check_console(self) -> None:
        assert not self.problems, self.problems


@contextmanager
def desk_page(
    browser: Any, base: str, name: str, *, watch: tuple[str, ...] = (), **context: Any
) -> Iterator[Desk]:
    context.setdefault("viewport", WIDE)
    ctx = browser.new_context(**context)
    if watch:
        ctx.add_init_script(script=f"({WATCH})({json.dumps(list(watch))})")
    try:
        desk = Desk(ctx.new_page(), base, name)
        yield desk
        desk.check_console()
    finally:
        ctx.close()


@contextmanager
def desk_server(
    tmp_path: Path, *, around: Callable[[Any], Any] | None = None, **kwargs: Any
) -> Iterator[str]:
    """``agentlog serve``'s default app (the refund desk, summaries and memory in one SQLite
    file), in local mode unless keys are asked for, wrapped in ``around`` if given; yields the
    base URL."""
    db = tmp_path / "web.db"
    summaries, memory, _ = build_extras(str(db))
    kwargs.setdefault("local", True)
    app = desk_app(
        SqliteSessionService(db),
        summaries=summaries,
        summarizer=ExtractiveSummarizer(),
        memory=memory,
        close_store_on_shutdown=True,
        **kwargs,
    )
    with live_server(around(app) if around else app) as base:
        yield base


def slow_session_lists(app: Any) -> Any:
    """``app``, answering ``GET /sessions`` a second late: the page waits on it after each turn,
    so a request shown during a turn stays on screen while the page is still busy."""

    async def slowed(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and (scope["method"], scope["path"]) == ("GET", "/sessions"):
            await asyncio.sleep(1.0)
        await app(scope, receive, send)

    return slowed


def stored(base: str, sid: str, key: str | None = None) -> dict[str, Any]:
    headers = auth(key) if key else {}
    response = httpx.get(f"{base}/sessions/{sid}", headers=headers, timeout=10)
    response.raise_for_status()
    session: dict[str, Any] = response.json()
    return session


def test_a_refund_from_first_message_to_the_handoff_record(browser: Any, tmp_path: Path) -> None:
    # A little latency per streamed chunk, so drafts are on screen long enough to see.
    with (
        desk_server(tmp_path, delay_s=0.1) as base,
        desk_page(browser, base, "refund", watch=(FIRST_ANSWER, REFUNDED)) as desk,
    ):
        page = desk.page
        desk.open()
        expect(page.get_by_text("Start a session")).to_be_visible()
        desk.shot("01-start")
        sid = desk.new_session()

        # A message: the draft grows in place, then the answer replaces it.
        desk.say(FIRST)
        expect(page.locator("#chat .draft")).to_have_count(1)
        desk.shot("02-draft")
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()
        expect(page.locator("#chat .draft")).to_have_count(0)
        expect(page.locator("#chat .msg.user", has_text=FIRST)).to_have_count(1)
        expect(page.locator("#chat .chip.call", has_text="lookup_order")).to_have_count(1)
        expect(page.locator("#chat .chip.result", has_text="lookup_order")).to_have_count(1)
        desk.shot("03-answer")
        watch = desk.watch()
        assert watch["sawDraft"]
        assert watch["maxDrafts"] == 1
        assert watch["maxCopies"][FIRST_ANSWER] == 1  # never the draft and the answer at once
        assert desk.timeline_ids() == [e["id"] for e in stored(base, sid)["events"]]

        # A refund: handed over, checked against policy, then it waits for a person.
        desk.say(REFUND)
        approval = page.locator("#chat .approval")
        expect(approval.get_by_role("button", name="Approve")).to_be_visible()
        desk.idle()
        expect(page.locator("#chat .divider.handoff")).to_contain_text("refund_flow")
        expect(approval).to_contain_text("order_id")
        expect(page.locator("#state-meta")).to_contain_text("1 waiting")
        desk.shot("04-approval")

        # After a reload the request is still open: the page asks the server what is pending.
        page.reload()
        desk.idle()
        expect(approval.get_by_role("button", name="Approve")).to_be_visible()
        expect(page.locator("#chat .msg.user")).to_have_count(2)
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        session = stored(base, sid)
        assert [p["request_id"] for p in session["pending"]] == [
            approval.get_attribute("data-request-id")
        ]
        assert desk.timeline_ids() == [e["id"] for e in session["events"]]
        desk.shot("05-reloaded")

        # Approve: the turn resumes and the refund is done.
        approval.get_by_role("button", name="Approve").click()
        expect(desk.chat_messages(REFUNDED)).to_have_count(1)
        desk.idle()
        expect(approval).to_contain_text("Approved")
        expect(approval.get_by_role("button")).to_have_count(0)
        expect(page.locator("#chat .draft")).to_have_count(0)
        expect(page.locator("#state")).to_contain_text("R-7781")
        expect(page.locator("#state-meta")).not_to_contain_text("waiting")
        desk.shot("06-refunded")
        watch = desk.watch()
        assert watch["maxCopies"][REFUNDED] == 1
        assert watch["maxDrafts"] <= 1
        session = stored(base, sid)
        assert session["pending"] == []
        assert desk.timeline_ids() == [e["id"] for e in session["events"]]

        # The checked handoff record: a customer's claim is marked as one.
        page.get_by_role("button", name="Summarise").click()
        record = page.locator("#record")
        expect(record.locator(".record-status.ok")).to_contain_text("Checked")
        claim = record.locator(".item.claim", has_text="2026-09-22")
        expect(claim).to_have_count(1)
        expect(claim.locator(".claim-badge")).to_have_text("customer says")
        expect(record.locator(".item:not(.claim)", has_text="R-7781")).not_to_have_count(0)
        desk.shot("07-record")

        # Follow a citation of the refund to its event in the timeline.
        refund_item = record.locator(".items-decisions .item", has_text="R-7781")
        cite = refund_item.locator("a.cite").last
        cited = cite.get_attribute("data-event-id")
        assert cited in {e["id"] for e in session["events"]}
        cite.click()
        target = page.locator(f'#timeline > li[id="{cited}"]')
        expect(target).to_have_class(re.compile(r"\bhighlight\b"))
        expect(target).to_be_in_viewport(ratio=1)
        expect(target).to_be_focused()
        expect(target).to_contain_text(cited)
        assert page.url.endswith(f"#{cited}")
        desk.shot("08-citation")

        # The digest's links (#<event id>) land on the same elements, from a fresh load.
        digest = httpx.get(f"{base}/sessions/{sid}/digest", timeout=10).text
        linked = re.findall(r"\(#([0-9A-Za-z_-]+)\)", digest)
        assert linked
        desk.open(f"?session={sid}#{linked[-1]}")
        target = page.locator(f'#timeline > li[id="{linked[-1]}"]')
        expect(target).to_have_class(re.compile(r"\bhighlight\b"))
        expect(target).to_be_in_viewport(ratio=1)
        expect(record.locator(".record-status.ok")).to_be_visible()  # the summary reloads too
        desk.shot("09-digest-link")


def test_declining_a_refund(browser: Any, tmp_path: Path) -> None:
    with desk_server(tmp_path) as base, desk_page(browser, base, "decline") as desk:
        page = desk.page
        desk.open()
        sid = desk.new_session()
        desk.say(FIRST)
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()
        desk.say(REFUND)
        approval = page.locator("#chat .approval")
        approval.get_by_role("button", name="Decline").click()
        expect(desk.chat_messages("I have not refunded anything")).to_have_count(1)
        desk.idle()
        expect(approval).to_contain_text("Declined")
        expect(approval.get_by_role("button")).to_have_count(0)
        expect(page.locator("#state")).not_to_contain_text("R-7781")
        desk.shot("01-declined")
        assert "refunds" not in stored(base, sid)["state"]


def test_an_answer_given_as_soon_as_the_request_shows_is_sent(browser: Any, tmp_path: Path) -> None:
    # The request arrives mid-turn, and the page is busy until the turn's stream has ended and
    # it has reloaded the details. Its buttons were once enabled then while a click did nothing,
    # so a quick "Decline" was never sent (the flaky test_declining_a_refund).
    with (
        desk_server(tmp_path, around=slow_session_lists) as base,
        desk_page(browser, base, "decline-at-once") as desk,
    ):
        page = desk.page
        desk.open()
        sid = desk.new_session()
        desk.say(FIRST)
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()
        desk.say(REFUND)
        decline = page.locator("#chat .approval").get_by_role("button", name="Decline")
        expect(decline).to_be_visible()
        expect(decline).to_be_disabled()
        decline.click()  # waits until the page takes answers
        expect(desk.chat_messages("I have not refunded anything")).to_have_count(1)
        desk.idle()
        session = stored(base, sid)
        assert session["pending"] == []
        assert "refunds" not in session["state"]


def test_a_server_with_keys_asks_for_one_and_hides_other_users_sessions(
    browser: Any, tmp_path: Path
) -> None:
    with desk_server(tmp_path, local=False) as base, desk_page(browser, base, "keys") as desk:
        page = desk.page
        bens = httpx.post(f"{base}/sessions", json={}, headers=auth(BEN_KEY), timeout=10)
        desk.open()
        expect(page.locator("#notice")).to_contain_text("needs an API key")
        expect(page.get_by_label("API key", exact=True)).to_be_focused()
        desk.shot("01-key-needed")

        page.get_by_label("API key", exact=True).fill(ANA_KEY)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#session-select")).to_contain_text("No sessions yet")
        assert page.evaluate("localStorage.getItem('agentlog.apiKey')") == ANA_KEY
        sid = desk.new_session()
        desk.say("hello")
        expect(desk.chat_messages("What is your order number?")).to_have_count(1)
        desk.idle()
        desk.shot("02-with-key")
        assert len(stored(base, sid, ANA_KEY)["events"]) == 2

        # Another user's session reads as missing, as it does over the API.
        page.get_by_label("Session id").fill(bens.json()["id"])
        page.get_by_role("button", name="Open", exact=True).click()
        expect(page.locator("#notice")).to_contain_text(f"no session '{bens.json()['id']}'")
        expect(page.locator("#session-label")).to_have_text("No session open")
        desk.shot("03-not-yours")


def test_compaction_markers(browser: Any, tmp_path: Path) -> None:
    with (
        desk_server(tmp_path, compaction_interval=2) as base,
        desk_page(browser, base, "compaction") as desk,
    ):
        page = desk.page
        desk.open()
        sid = desk.new_session()
        for text in ("hello", "where is my order A-1001?", "and order B-2040?"):
            desk.say(text)
            desk.idle()
        # A compaction is stored after a turn's stream ends: the follow stream brings it
        # within the server's poll interval, and Sync (which reopens it) at once.
        marker = page.locator("#chat details.compaction")
        for _ in range(50):
            if marker.count():
                break
            page.get_by_role("button", name="Sync").click()
            desk.idle()
            page.wait_for_timeout(100)
        expect(marker.first).to_be_visible()
        events = stored(base, sid)["events"]
        compactions = [e for e in events if "compaction" in e["actions"]]
        covered = {i for e in compactions for i in e["actions"]["compaction"]["event_ids"]}
        assert covered
        compacted = page.locator("#timeline > li.compacted").evaluate_all(
            "items => items.map(li => li.id)"
        )
        assert set(compacted) == covered
        assert desk.timeline_ids() == [e["id"] for e in events]
        marker.first.locator("summary").click()
        expect(marker.first).to_contain_text("earlier events")
        desk.shot("01-compacted")
        page.locator("#timeline > li.kind-compaction").first.scroll_into_view_if_needed()
        desk.shot("02-compacted-timeline")


class FailingDeskModel:
    """The desk's model, except that a message saying "crash" starts a draft and then stops
    with a safety error."""

    def __init__(self) -> None:
        self.desk = RefundDeskModel(delay_s=0.05)

    @property
    def model(self) -> str:
        return "failing-desk"

    async def generate(
        self, request: LlmRequest, *, stream: bool = False
    ) -> AsyncIterator[LlmResponse]:
        said = [p.text for c in request.contents for p in c.parts if p.text]
        if said and "crash" in said[-1]:
            yield LlmResponse(content=Content.from_text("I will now", "model"), partial=True)
            yield ScriptedLlm.error(ErrorCode.SAFETY, "raw provider detail: blocked by filter 7")
            return
        async for response in self.desk.generate(request, stream=stream):
            yield response


def test_an_error_shows_the_sentence_for_people(browser: Any, tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "web.db")
    runner = Runner(agent=refund_desk(FailingDeskModel()), session_service=store)
    app = create_app(runner, stall_check_interval_s=None, close_store_on_shutdown=True)
    with live_server(app) as base, desk_page(browser, base, "error") as desk:
        page = desk.page
        desk.open()
        desk.new_session()
        desk.say("please crash")
        error = page.locator("#chat .msg.error")
        expect(error).to_have_count(1)
        desk.idle()
        expect(error).to_contain_text(user_message(ErrorCode.SAFETY))
        expect(error).to_have_attribute("role", "alert")
        expect(page.locator("#chat .draft")).to_have_count(0)
        chat = page.locator("#chat").inner_text()
        assert "raw provider detail" not in chat
        assert ErrorCode.SAFETY.value not in chat.replace("safety rule", "")
        expect(page.locator("#timeline .tag-error")).to_have_count(1)
        expect(page.locator("#record")).to_contain_text("This server keeps no summaries.")
        desk.shot("01-error")
        # The conversation goes on after it.
        desk.say("where is my order A-1001?")
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()


def test_a_narrow_screen_in_dark_mode(browser: Any, tmp_path: Path) -> None:
    with (
        desk_server(tmp_path) as base,
        desk_page(
            browser, base, "narrow", viewport={"width": 390, "height": 844}, color_scheme="dark"
        ) as desk,
    ):
        page = desk.page
        desk.open()
        desk.new_session()
        desk.say(FIRST)
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()
        desk.say(REFUND)
        expect(page.locator("#chat .approval")).to_be_visible()
        desk.idle()
        overflow: list[int] = page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert overflow[0] <= overflow[1], overflow  # nothing sticks out sideways
        expect(page.get_by_role("button", name="Approve")).to_be_in_viewport()
        desk.shot("01-chat")
        page.get_by_role("button", name="Approve").click()
        expect(desk.chat_messages(REFUNDED)).to_have_count(1)
        desk.idle()
        page.get_by_role("button", name="Summarise").click()
        expect(page.locator("#record .record-status.ok")).to_be_visible()
        desk.shot("02-page", full_page=True)


def test_a_dropped_stream_resumes_with_last_event_id(browser: Any, tmp_path: Path) -> None:
    """The turn's response is cut after its first stored events: the page reattaches to the
    session's stream with Last-Event-ID and ends up with every stored event once (its follow
    stream carries them too)."""
    with desk_server(tmp_path) as base, desk_page(browser, base, "resume") as desk:
        page = desk.page
        resumed_from: list[str | None] = []
        page.on(
            "request",
            lambda r: (
                resumed_from.append(r.headers.get("last-event-id"))
                if r.url.endswith("/stream") and r.method == "GET"
                else None
            ),
        )

        def cut(route: Any) -> None:
            response = route.fetch()
            frames = re.split(r"\r?\n\r?\n", response.text())
            kept = [f for f in frames[:3] if f.strip()]
            assert all("event: end" not in f for f in kept)
            route.fulfill(response=response, body="\r\n\r\n".join(kept) + "\r\n\r\n")

        desk.open()
        sid = desk.new_session()
        resumed_from.clear()  # only what follows the cut counts
        page.route("**/sessions/*/messages", cut, times=1)
        desk.say(FIRST)
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()
        events = stored(base, sid)["events"]
        assert desk.timeline_ids() == [e["id"] for e in events]
        # The newest stored event the page held: the cut stream's last, or a later one that
        # the session's follow stream had brought meanwhile.
        assert len(resumed_from) == 1
        assert resumed_from[0] in [e["id"] for e in events[2:]]
        expect(page.locator("#chat .msg.user")).to_have_count(1)
        expect(page.locator("#chat .chip")).to_have_count(2)
        desk.shot("01-resumed")


def test_two_pages_on_one_session_follow_each_other(browser: Any, tmp_path: Path) -> None:
    """A message sent in one page shows up in another page open on the same session as it
    runs (drafts included), without a reload, and the other way round; each event once. A page
    that opens another session stops following the first."""
    second = "And where is my order B-2040?"
    with (
        desk_server(tmp_path, delay_s=0.1) as base,
        desk_page(browser, base, "follow-a", watch=(FIRST_ANSWER, second)) as a,
        desk_page(browser, base, "follow-b", watch=(FIRST_ANSWER, second)) as b,
    ):
        follows: list[str] = []
        stopped: list[str] = []
        b.page.on("request", lambda r: follows.append(r.url) if "follow=true" in r.url else None)
        b.page.on("requestfailed", lambda r: stopped.append(r.url))
        a.open()
        sid = a.new_session()
        b.open(f"?session={sid}")
        b.idle()
        expect(b.page.locator("#chat .empty")).to_contain_text("A new session")

        # Sent in A: B shows the draft growing, then the answer in its place.
        a.say(FIRST)
        expect(b.page.locator("#chat .draft")).to_have_count(1)
        expect(b.page.locator("#turn-status")).to_contain_text("is writing")
        b.shot("01-draft-from-the-other-page")
        expect(b.chat_messages(FIRST_ANSWER)).to_have_count(1)
        expect(b.page.locator("#chat .msg.user", has_text=FIRST)).to_have_count(1)
        expect(b.page.locator("#chat .draft")).to_have_count(0)
        expect(b.page.locator("#chat .empty")).to_have_count(0)
        a.idle()
        b.idle()
        events = stored(base, sid)["events"]
        # B's details are reloaded once the turn ended, and its status line cleared.
        expect(b.page.locator("#state-meta")).to_have_text(f"{len(events)} events")
        expect(b.page.locator("#turn-status")).to_have_text("")
        expect(b.page.locator("#timeline > li")).to_have_count(len(events))
        assert b.timeline_ids() == [e["id"] for e in events]
        b.shot("02-answer-from-the-other-page")

        # And back: sent in B, shown in A.
        b.say(second)
        expect(a.page.locator("#chat .msg.user", has_text=second)).to_have_count(1)
        expect(a.page.locator("#chat .msg.agent:not(.draft)")).to_have_count(2)
        a.idle()
        b.idle()
        events = stored(base, sid)["events"]
        for desk in (a, b):
            expect(desk.page.locator("#timeline > li")).to_have_count(len(events))
            assert desk.timeline_ids() == [e["id"] for e in events]
            expect(desk.page.locator("#chat .draft")).to_have_count(0)
            watch = desk.watch()
            # The sending page gets its turn over two streams and still shows it once.
            assert watch["maxCopies"] == {FIRST_ANSWER: 1, second: 1}, desk.name
            assert watch["maxDrafts"] <= 1, desk.name
        a.shot("03-reply-from-the-other-page")

        # B opens another session: its follow stream of the first one is closed, and what A
        # sends there no longer reaches B.
        [first_follow] = follows
        b.page.get_by_role("button", name="New session").click()
        expect(b.page.locator("#session-label code")).not_to_have_text(sid)
        b.idle()
        a.say("hello again")
        expect(a.page.locator("#chat .msg.user")).to_have_count(3)
        a.idle()
        assert first_follow in stopped
        expect(b.page.locator("#chat .msg")).to_have_count(0)
        assert len(follows) == 2


def test_a_followed_session_deleted_elsewhere_is_closed_and_unlisted(
    browser: Any, tmp_path: Path
) -> None:
    """The page following a session that another client deletes says so, closes it and drops
    it from the list of sessions."""
    with desk_server(tmp_path) as base, desk_page(browser, base, "deleted") as desk:
        desk.open()
        sid = desk.new_session()
        desk.say(FIRST)
        expect(desk.chat_messages(FIRST_ANSWER)).to_have_count(1)
        desk.idle()
        expect(desk.page.locator(f'#session-select option[value="{sid}"]')).to_have_count(1)
        assert httpx.delete(f"{base}/sessions/{sid}").status_code == 204
        expect(desk.page.locator("#notice")).to_contain_text("This session was deleted")
        expect(desk.page.locator("#session-label")).to_have_text("No session open")
        expect(desk.page.locator("#state-meta")).to_have_text("")
        expect(desk.page.locator(f'#session-select option[value="{sid}"]')).to_have_count(0)
        desk.shot("01-deleted-elsewhere")


def test_the_sse_parser_at_every_chunk_size(browser: Any, tmp_path: Path) -> None:
    """The page's own parser, in the browser: a body cut into chunks of every size (one cut
    falls between a line's CR and LF) gives the same frames, ids only where the server set
    them, pings skipped."""
    body = (
        'id: 01A\r\nevent: event\r\ndata: {"a": 1}\r\n\r\n: ping\r\n\r\n'
        'event: draft\r\ndata: {"b": 2}\r\n\r\nevent: end\r\ndata: {}\r\n\r\n'
    )
    with desk_server(tmp_path) as base, desk_page(browser, base, "sse") as desk:
        desk.open()
        results = desk.page.evaluate(
            """async (body) => {
                const { SseParser } = await import("/static/sse.js");
                const out = [];
                for (let size = 1; size <= body.length; size++) {
                    const parser = new SseParser();
                    const events = [];
                    for (let i = 0; i < body.length; i += size) {
                        events.push(...parser.push(body.slice(i, i + size)));
                    }
                    events.push(...parser.finish());
                    out.push(JSON.stringify(events));
                }
                return out;
            }""",
            body,
        )
    expected = [
        {"event": "event", "data": '{"a": 1}', "id": "01A"},
        {"event": "draft", "data": '{"b": 2}', "id": None},
        {"event": "end", "data": "{}", "id": None},
    ]
    assert len(results) == len(body)
    assert all(json.loads(r) == expected for r in results)


def test_a_credential_request_takes_a_secret_that_stays_out_of_the_log(
    browser: Any, tmp_path: Path
) -> None:
    secret = "sk-live-0123456789abcdef"
    seen: list[Any] = []

    def fetch_invoice(invoice_id: str, tool_context: ToolContext) -> dict[str, Any]:
        """Fetch an invoice from the billing API."""
        if tool_context.credential is None:
            tool_context.request_credential(
                CredentialRequest(auth_type="api_key", hint="The billing API's key, please.")
            )
            return {"status": "needs a key"}
        seen.append(tool_context.credential)
        return {"invoice": invoice_id, "paid": True}

    model = ScriptedLlm(
        [
            ScriptedLlm.call("fetch_invoice", {"invoice_id": "9"}),
            ScriptedLlm.text("Invoice 9 is paid."),
        ]
    )
    store = SqliteSessionService(tmp_path / "web.db")
    agent = LlmAgent(name="billing", model=model, tools=[fetch_invoice])
    app = create_app(
        Runner(agent=agent, session_service=store),
        stall_check_interval_s=None,
        close_store_on_shutdown=True,
    )
    with live_server(app) as base, desk_page(browser, base, "credential") as desk:
        page = desk.page
        desk.open()
        sid = desk.new_session()
        desk.say("is invoice 9 paid?")
        card = page.locator("#chat .approval.credential")
        expect(card).to_contain_text("The billing API's key, please.")
        desk.idle()
        desk.shot("01-asked")
        page.get_by_label("Credential (api_key)").fill(secret)
        page.get_by_role("button", name="Send credential").click()
        expect(desk.chat_messages("Invoice 9 is paid.")).to_have_count(1)
        desk.idle()
        expect(card).to_contain_text("Credential given")
        expect(card.locator("input")).to_have_count(0)
        desk.shot("02-answered")
        session = stored(base, sid)
    assert seen == [{"api_key": secret}]
    assert secret not in json.dumps(session)
