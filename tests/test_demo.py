"""`agentlog demo` runs end to end offline and shows each act of the refund desk."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from agentlog import SqliteSessionService
from agentlog.cli import app
from agentlog.cli.demo import APP, USER, run_demo


async def test_the_demo_runs_and_stores_what_it_shows(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    db = tmp_path / "demo.db"
    session_id = await run_demo(db, console=console)
    text = out.getvalue()

    assert "customer: Hi, my order A-1001" in text
    assert '→ lookup_order(order_id="A-1001")' in text
    assert "approval needed" in text
    assert "operator approves request" in text
    assert "← refund_shipping" in text
    assert "within five working days" in text
    assert "compaction" in text
    assert "events summarised" in text
    assert "summary attempt 1: rejected" in text
    assert "B-2040" in text.split("summary attempt 1: rejected")[1].split("summary attempt 2")[0]
    assert "summary attempt 2: every check passed" in text
    record = text.split("the checked handoff record")[1]
    assert "Is B-2040 affected too?" in record
    # The refund is said as its call and result hold it: verified, not "An agent said".
    assert "• Refunded the $12.50 shipping fee of A-1001 (refund R-7781)." in record

    store = SqliteSessionService(db)
    try:
        stored = await store.get_session(app_name=APP, user_id=USER, session_id=session_id)
    finally:
        await store.close()
    assert stored.state["refund_eligible"] is True
    assert stored.state["refunds"][0]["refund_id"] == "R-7781"
    assert "temp:policy_version" not in stored.state
    assert sum(e.actions.compaction is not None for e in stored.events) == 1
    assert stored.events[-1].text().startswith("Thanks. Is my other order B-2040")


def test_the_command_line_demo(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--db", str(tmp_path / "cli.db")])
    assert result.exit_code == 0, result.output
    assert "the checked handoff record" in result.output


async def test_a_declined_refund_ends_in_a_checked_record_that_says_so(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    session_id = await run_demo(tmp_path / "demo.db", console=console, approve=lambda _: False)
    text = out.getvalue()

    assert "operator declines request" in text
    reply = text.split('"declined": true}')[1].split("── end of turn")[0]
    assert "declined" in reply
    assert "R-7781" not in reply
    assert "summary attempt 2: every check passed" in text
    record = " ".join(text.split("the checked handoff record")[1].split())
    assert "refund of A-1001 was declined" in record
    for said in ("approved", "R-7781", "five working days"):
        assert said not in record

    store = SqliteSessionService(tmp_path / "demo.db")
    try:
        stored = await store.get_session(app_name=APP, user_id=USER, session_id=session_id)
    finally:
        await store.close()
    assert "refunds" not in stored.state
