"""The README's Python examples run as written."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_the_tour_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tour = next(block for block in _python_blocks() if "asyncio.run(main())" in block)
    script = tmp_path / "tour.py"
    script.write_text(tour, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "desk Refunded $12.50 for A-1001." in out
    assert "events stored" in out
    assert (tmp_path / "app.db").exists()
