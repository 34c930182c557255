"""The command line is one package, ``agentlog.cli``: no library module imports typer or rich,
the CLI imports a command's machinery only when that command runs, and its help reads whole at
80 columns."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from agentlog.cli import app

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "agentlog"
CLI_ONLY = ("typer", "rich", "click")


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_library_module_imports_typer_or_rich() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(_imported_roots(path) & set(CLI_ONLY))
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] != "cli"
    }
    assert {name: roots for name, roots in offenders.items() if roots} == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from rich.console import Console\n", encoding="utf-8")
    assert _imported_roots(module) == {"rich"}


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(out.split())


def test_the_command_line_starts_without_the_server_or_the_models() -> None:
    loaded = _modules_after(
        "import sys\nsys.argv = ['agentlog', '--help']\nfrom agentlog.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    heavy = {"fastapi", "uvicorn", "pydantic", "rich", "agentlog.server", "agentlog.runner"}
    assert heavy & loaded == set()
    assert {"agentlog.cli.serve", "agentlog.cli.worker", "agentlog.cli.summarize"} <= loaded


def test_importing_agentlog_imports_no_model_until_a_name_is_used() -> None:
    assert "agentlog.events" not in _modules_after("import agentlog")
    assert "agentlog.events" in _modules_after("import agentlog\nagentlog.Event")


def _commands() -> list[tuple[str, Any]]:
    # typer carries its own copy of click, so its commands are not the click package's
    group: Any = typer.main.get_command(app)
    return sorted(group.commands.items())


@pytest.mark.parametrize("name", [name for name, _ in _commands()])
def test_help_reads_whole_at_80_columns(name: str) -> None:
    command = dict(_commands())[name]
    result = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.output
    for param in command.params:
        for option in param.opts:
            if option.startswith("--"):
                assert f"  {option}" in result.output or f"/ {option}" in result.output, option


def test_the_command_list_shows_each_summary_whole() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    for name, command in _commands():
        summary = command.get_short_help_str(limit=1_000)
        assert any(line.split() == [name, *summary.split()] for line in result.output.splitlines())
        assert not summary.endswith("...")
