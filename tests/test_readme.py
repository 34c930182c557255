"""Every Python block of the README runs as written, in the order a reader meets them, in one
folder (so the summary block reads the store the tour wrote).

Two conventions let a block be something other than a script:

- a block after prose ending in a file name (``A server, `orders_server.py`:``) is that file,
  written for the blocks after it, not run on its own;
- a block reading ``os.environ["AGENTLOG_DB"]`` needs PostgreSQL: it runs against the test
  server (``AGENTLOG_TEST_POSTGRES_DSN``) with its ``schema="agentlog"`` swapped for a
  throwaway schema, and is skipped, saying so, without one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _postgres import DSN_VARIABLE, drop_schemas, new_schema_name
from agentlog.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_BLOCK = re.compile(r"(?P<before>(?:[^\n]*\n){0,3})```python\n(?P<code>.*?)```", re.DOTALL)
_NAMED_FILE = re.compile(r"`(?P<name>[\w/.-]+\.py)`:\s*$")
_NEEDS_POSTGRES = 'os.environ["AGENTLOG_DB"]'


@dataclass
class Block:
    number: int
    code: str
    file: str | None
    """The file name the prose gives it, for a module the next blocks import."""
    stdout: str = ""
    skipped: str | None = None


def _blocks() -> list[Block]:
    blocks = []
    for number, match in enumerate(_BLOCK.finditer(README.read_text(encoding="utf-8"))):
        named = _NAMED_FILE.search(match["before"].strip())
        blocks.append(Block(number, match["code"], named["name"] if named else None))
    return blocks


def _run(block: Block, folder: Path) -> None:
    if block.file is not None:
        (folder / block.file).write_text(block.code, encoding="utf-8")
        return
    code, env, schema = block.code, dict(os.environ), None
    if _NEEDS_POSTGRES in code:
        dsn = os.environ.get(DSN_VARIABLE, "")
        if not dsn:
            block.skipped = f"{DSN_VARIABLE} is not set"
            return
        schema = new_schema_name("agentlog_readme")
        assert code.count('schema="agentlog"') == 1, "a PostgreSQL block names its schema once"
        code = code.replace('schema="agentlog"', f'schema="{schema}"')
        env["AGENTLOG_DB"] = dsn
    script = folder / f"block_{block.number}.py"
    script.write_text(code, encoding="utf-8")
    try:
        done = subprocess.run(
            [sys.executable, script.name],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        if schema is not None:
            drop_schemas(env["AGENTLOG_DB"], [schema])
    assert done.returncode == 0, f"README block {block.number} failed:\n{code}\n{done.stderr}"
    block.stdout = done.stdout


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> list[Block]:
    folder = tmp_path_factory.mktemp("readme")
    blocks = _blocks()
    for block in blocks:
        _run(block, folder)
    return blocks


def _one(blocks: list[Block], marker: str) -> Block:
    [block] = [b for b in blocks if marker in b.code]
    return block


def test_every_block_runs(ran: list[Block]) -> None:
    scripts = [b for b in ran if b.file is None and b.skipped is None]
    assert len(scripts) >= 7
    assert all(b.stdout for b in scripts), [b.number for b in scripts if not b.stdout]


def test_the_tour_pauses_for_a_confirmation_and_resumes(ran: list[Block]) -> None:
    out = _one(ran, "confirmation_answer(asked[0].request_id").stdout
    assert 'asks: Allow refund_order with {"order_id": "A-1001", "amount": 12.5}?' in out
    assert "desk Refunded $12.50 for A-1001." in out
    assert "6 events stored" in out


def test_the_script_block_runs_without_async(ran: list[Block]) -> None:
    block = _one(ran, "runner.run_sync(")
    assert "async" not in block.code
    assert block.stdout.strip() == "[('user', 'Hi'), ('desk', 'Hello, Ana.')]"


def test_the_compaction_block_shows_the_summary_in_place_of_the_window(ran: list[Block]) -> None:
    out = _one(ran, "EventsCompactionConfig(").stdout
    assert out.strip() == (
        "the last model call read: ['[Summary of earlier conversation]\\nAna asked five "
        "questions; all were answered.', 'Question 6?', 'Answer 6.', 'Question 7?']"
    )


def test_the_summary_block_digests_the_tours_session(ran: list[Block]) -> None:
    out = _one(ran, "ExtractiveSummarizer()").stdout
    assert out.startswith("## Session ")
    assert "Refunded order A-1001: amount 12.5" in out


@pytest.mark.postgres
def test_the_postgres_block_runs_on_the_test_server(ran: list[Block]) -> None:
    block = _one(ran, _NEEDS_POSTGRES)
    if block.skipped:
        pytest.skip(block.skipped)
    assert "state: {'user:tier': 'gold'}" in block.stdout


def test_the_eval_command_names_files_a_clone_has() -> None:
    text = README.read_text(encoding="utf-8")
    [line] = [line for line in text.splitlines() if line.startswith("agentlog eval ")]
    files = line.split("#")[0].split()[2:]
    assert files
    assert [f for f in files if not (ROOT / f).is_file()] == []
    result = CliRunner().invoke(app, ["eval", "--json", *(str(ROOT / f) for f in files)])
    assert result.exit_code == 0, result.output
    scored = json.loads(result.stdout[result.stdout.index("{") :])["files"]
    assert [Path(f["file"]).name for f in scored] == [Path(f).name for f in files]
    assert all(f["sessions"] > 0 for f in scored)
