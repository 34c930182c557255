"""Each program in ``examples/`` runs as a user would run it, and does what its docstring says."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from psycopg import sql

from _postgres import drop_schemas, new_schema_name
from agentlog import Content, Runner, SqliteSessionService
from agentlog.agents import LlmAgent
from agentlog.models.scripted import ScriptedLlm
from agentlog.summary import SqliteSummaryStore
from providers.openai_server import completion, running_server, tool_call

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(name: str, *args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_openai_agent_pauses_for_the_refund_and_runs_it_once_approved(tmp_path: Path) -> None:
    with running_server() as server:
        server.reply(
            completion(
                tool_calls=[tool_call("call_1", "lookup_order", '{"order_id": "A-1001"}')],
                finish_reason="tool_calls",
            )
        )
        server.reply(
            completion(
                tool_calls=[
                    tool_call("call_2", "refund_shipping", '{"order_id": "A-1001", "amount": 12.5}')
                ],
                finish_reason="tool_calls",
            )
        )
        server.reply(completion("I refunded the $12.50 shipping fee of A-1001 (R-7781)."))
        out = run_example(
            "openai_agent.py",
            "--base-url", server.base_url, "--model", "gpt-4o-mini", "--approve",
            cwd=tmp_path,
            env={"OPENAI_API_KEY": "sk-test"},
        )  # fmt: skip
        sent = [r.body for r in server.requests]
    assert server.pending == 0
    assert server.unexpected == []
    lines = out.splitlines()
    assert "  desk calls lookup_order({'order_id': 'A-1001'})" in lines
    assert any(line.startswith("operator approves: Allow refund_shipping") for line in lines)
    assert "desk: I refunded the $12.50 shipping fee of A-1001 (R-7781)." in lines
    # The model saw the tool's result only after the approval, and the tool ran once.
    results = [m for m in sent[-1]["messages"] if m["role"] == "tool"]
    assert sum('"refund_id": "R-7781"' in m["content"] for m in results) == 1
    assert (tmp_path / "openai-agent.db").exists()


async def _a_stored_session(db: Path) -> str:
    store = SqliteSessionService(db)
    model = ScriptedLlm([ScriptedLlm.text("Order A-1001 shipped on 2026-09-28; sorry.")])
    runner = Runner(agent=LlmAgent(name="desk", model=model), session_service=store)
    session = await store.create_session(app_name="agentlog", user_id="ana")
    message = Content.from_text("Where is my order A-1001?")
    async for _ in runner.run_async(user_id="ana", session_id=session.id, new_message=message):
        pass
    await store.close()
    return session.id


def test_summaries_over_an_existing_store_are_kept_beside_it(tmp_path: Path) -> None:
    db = tmp_path / "agentlog.db"
    session_id = asyncio.run(_a_stored_session(db))
    out = run_example("summarize_store.py", "--db", str(db), "--app", "agentlog", cwd=tmp_path)
    assert f"{session_id}: Where is my order A-1001?" in out
    assert "1 summarised, 1 delivered" in out

    async def stored() -> int | None:
        summaries = SqliteSummaryStore(db)
        try:
            kept = await summaries.get(app_name="agentlog", user_id="ana", session_id=session_id)
        finally:
            await summaries.close()
        return None if kept is None or kept.record is None else kept.session_version

    assert asyncio.run(stored()) == 2
    again = run_example("summarize_store.py", "--db", str(db), "--app", "agentlog", cwd=tmp_path)
    assert "0 summarised, 0 delivered" in again  # summarised at this length already


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.postgres
@pytest.mark.slow
def test_several_servers_share_one_postgres(postgres_dsn: str, tmp_path: Path) -> None:
    import psycopg

    schema = new_schema_name("agentlog_example")
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        # A process whose search_path names a missing schema cannot create its tables.
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    sep = "&" if "?" in postgres_dsn else "?"
    db = f"{postgres_dsn}{sep}options=-csearch_path%3D{schema}"
    try:
        out = run_example(
            "several_servers.py", "--db", db, "--ports", str(_free_port()), str(_free_port()),
            cwd=tmp_path,
        )  # fmt: skip
    finally:
        drop_schemas(postgres_dsn, [schema])
    lines = out.splitlines()
    assert lines[1].startswith("server A answered: Order A-1001 shipped on 2026-09-28")
    kinds = [line.split()[-1] for line in lines[3:7]]
    assert kinds == ["user_message", "tool_call", "tool_result", "answer"]
    assert lines[7] == "the worker's summary, read from B: Where is my order A-1001?"
    assert lines[8].startswith("and from A: the same record of version ")
