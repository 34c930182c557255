"""The README's google-adk example runs as written."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_adk_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    example = next(b for b in blocks if "AgentlogSessionService.from_url(" in b)
    script = tmp_path / "adk_example.py"
    script.write_text(example, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "greeter Hello, visit 2!" in out
    assert "4 events stored; state: {'user:visits': 2}" in out
    assert (tmp_path / "adk-app.db").exists()
