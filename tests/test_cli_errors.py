"""User errors on the command line: one line naming the fix (two for a usage error, the second
pointing at ``--help``), exit code 2, no traceback; ``--debug`` adds the traceback.

Each case drives the real ``agentlog`` command through typer's ``CliRunner``; ``serve`` never
gets as far as uvicorn.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from agentlog.cli import app
from agentlog.cli.errors import CommandGroup

KEY_VARIABLES = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
)
UNREACHABLE = "postgresql://agentlog:secret@127.0.0.1:1/nowhere"
"""Port 1 on loopback: refused at once, no PostgreSQL needed."""


@pytest.fixture(autouse=True)
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import uvicorn

    for variable in (*KEY_VARIABLES, "AGENTLOG_DB", "AGENTLOG_MODEL", "AGENTLOG_BASE_URL"):
        monkeypatch.delenv(variable, raising=False)
    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **k: calls.append(app))
    return calls


def run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output.strip().splitlines()


def one_line(*args: str) -> str:
    code, lines = run(*args)
    assert code == 2, lines
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    return lines[0]


def usage_lines(*args: str) -> str:
    code, lines = run(*args)
    assert code == 2, lines
    assert len(lines) == 2, lines
    assert lines[1].startswith(f"Try 'agentlog {args[0]} --help'")
    return lines[0]


def test_serve_refuses_a_database_whose_folder_does_not_exist(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "folder" / "x.db"
    line = usage_lines("serve", "--db", str(db))
    assert line == (
        f"Error: Invalid value for --db: the folder {str(db.parent)!r} does not exist: fix the "
        "path, or make the folder first"
    )
    assert not (tmp_path / "no").exists()


def test_demo_refuses_a_database_whose_folder_does_not_exist(tmp_path: Path) -> None:
    line = usage_lines("demo", "--db", str(tmp_path / "missing" / "demo.db"))
    assert "does not exist: fix the path" in line
    assert not (tmp_path / "missing").exists()


def test_serve_refuses_to_start_on_an_unreachable_postgres(
    served: list[Any],
) -> None:
    pytest.importorskip("psycopg")
    code, lines = run("serve", "--db", UNREACHABLE, "--no-summaries")
    assert code == 2, lines
    assert len(lines) == 2, lines
    assert lines[0].startswith("Error: PostgreSQL store 127.0.0.1:1/nowhere: ")
    assert lines[1] == "Check that the database is up and that --db names it."
    assert "secret" not in "\n".join(lines)
    assert served == []


@pytest.mark.parametrize(
    ("args", "variable"),
    [
        (("serve", "--model", "openai:gpt-4o-mini"), "OPENAI_API_KEY"),
        (("demo", "--model", "anthropic:claude-sonnet-4-5"), "ANTHROPIC_API_KEY"),
        (("serve", "--model", "gemini:gemini-2.5-flash"), "GEMINI_API_KEY"),
    ],
)
def test_a_missing_api_key_names_the_variable(
    args: tuple[str, ...], variable: str, tmp_path: Path
) -> None:
    line = usage_lines(*args, "--db", str(tmp_path / "x.db"))
    assert (
        line == f"Error: Invalid value for --model: {args[-1]!r} needs an API key: set {variable}"
    )


def test_summarize_with_a_model_and_no_key_names_the_variable(tmp_path: Path) -> None:
    sessions = tmp_path / "s.jsonl"
    sessions.write_text("", encoding="utf-8")
    line = usage_lines("summarize", "--jsonl", str(sessions), "--model", "openai:gpt-4o-mini")
    assert line == (
        "Error: Invalid value for --model: 'openai:gpt-4o-mini' needs an API key: "
        "set OPENAI_API_KEY"
    )


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_an_unknown_model_provider_lists_the_ones_there_are(command: str, tmp_path: Path) -> None:
    line = usage_lines(command, "--model", "bogus:foo", "--db", str(tmp_path / "x.db"))
    assert line == (
        "Error: Invalid value for --model: unknown model provider 'bogus' in 'bogus:foo': use "
        "one of 'openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5', 'gemini:gemini-2.5-flash'"
    )


@pytest.mark.parametrize(
    ("dsn", "says"),
    [
        pytest.param(UNREACHABLE, "Error: PostgreSQL store 127.0.0.1:1/nowhere: ", id="refused"),
        pytest.param("postgresql://%zz@/x", "Error: invalid PostgreSQL DSN: ", id="malformed"),
    ],
)
def test_summarize_with_a_bad_dsn(dsn: str, says: str) -> None:
    pytest.importorskip("psycopg")
    code, lines = run("summarize", "--db", dsn, "--app", "desk")
    assert code == 2, lines
    assert len(lines) == 2, lines
    assert lines[0].startswith(says)
    assert lines[1] == "Check that the database is up and that --db names it."


@pytest.mark.parametrize(
    ("agent", "says"),
    [
        (
            "json:loads",
            "Error: Invalid value for --agent: json:loads is not an agent but a function that "
            "needs arguments: name a BaseAgent, or a function of no arguments that returns one",
        ),
        (
            "json:__version__",
            "Error: Invalid value for --agent: json:__version__ is a str, not an agent: name a "
            "BaseAgent, or a function of no arguments that returns one",
        ),
        (
            "agentlog_no_such_module:root",
            "Error: Invalid value for --agent: no module named 'agentlog_no_such_module': check "
            "the name, and run from the folder that holds it or add that folder to PYTHONPATH",
        ),
        (
            "json:root",
            "Error: Invalid value for --agent: module 'json' has no 'root'",
        ),
        (
            "json",
            "Error: Invalid value for --agent: 'json' is not 'module:object', e.g. 'myapp:root'",
        ),
    ],
)
def test_a_bad_agent_reference_says_what_is_wrong(agent: str, says: str, tmp_path: Path) -> None:
    line = usage_lines("serve", "--agent", agent, "--db", str(tmp_path / "x.db"))
    assert line == says


def test_an_agent_module_in_the_current_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, served: list[Any]
) -> None:
    (tmp_path / "agentlog_cwd_agent.py").write_text(
        "from agentlog.server.desk import refund_desk\nroot = refund_desk()\n", encoding="utf-8"
    )
    (tmp_path / "agentlog_cwd_broken.py").write_text("import agentlog_absent_dependency\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for name in ("agentlog_cwd_agent", "agentlog_cwd_broken"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    code, lines = run(
        "serve", "--agent", "agentlog_cwd_agent:root", "--db", "x.db", "--no-summaries"
    )
    assert code == 0, lines
    [app_served] = served
    assert app_served.state.agentlog.runner.agent.name == "desk"
    asyncio.run(app_served.state.agentlog.store.close())
    # A module that is there but fails to import is not reported as missing.
    line = usage_lines("serve", "--agent", "agentlog_cwd_broken:root", "--db", "x.db")
    assert line == (
        "Error: Invalid value for --agent: importing 'agentlog_cwd_broken' failed: "
        "No module named 'agentlog_absent_dependency'"
    )


def test_a_factory_that_fails_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "agentlog_cwd_factory.py").write_text(
        "def make():\n    raise RuntimeError('no CRM_URL set')\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    line = usage_lines("serve", "--agent", "agentlog_cwd_factory:make", "--db", "x.db")
    assert line == (
        "Error: Invalid value for --agent: calling agentlog_cwd_factory:make() failed: "
        "RuntimeError: no CRM_URL set"
    )


def test_debug_shows_the_traceback_then_the_line(tmp_path: Path) -> None:
    code, lines = run("--debug", "serve", "--model", "bogus:foo", "--db", str(tmp_path / "x.db"))
    assert code == 2
    assert lines[0] == "Traceback (most recent call last):"
    assert any("InvalidConfigError" in line for line in lines)
    assert lines[-2].startswith("Error: Invalid value for --model: unknown model provider")
    assert lines[-1] == "Try 'agentlog serve --help' for help."


def test_a_bug_is_not_a_user_error_and_keeps_its_traceback() -> None:
    demo = typer.Typer(cls=CommandGroup)

    @demo.callback()
    def _root() -> None:
        pass

    @demo.command()
    def crash() -> None:
        raise RuntimeError("a bug")

    result = CliRunner().invoke(demo, ["crash"])
    assert result.exit_code == 1
    assert isinstance(result.exception, RuntimeError)
