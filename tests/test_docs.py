"""The documentation site builds with ``mkdocs build --strict``, offline, and every Python
block on its pages runs as written.

Strict mode turns every warning into a failure: a broken link, an API reference naming an
object that does not exist, a docstring listing a parameter its signature does not have.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_BLOCK = re.compile(r"```python\n(?P<code>.*?)```", re.DOTALL)
_REMOTE = re.compile(r"""(?:src|href)=["']https?://""")

PAGES = [
    "index.md",
    "tour.md",
    "concepts/events.md",
    "concepts/state.md",
    "concepts/stores.md",
    "concepts/leases.md",
    "concepts/approvals.md",
    "concepts/compaction.md",
    "concepts/summaries.md",
    "server.md",
    "adk.md",
]
"""The pages the issue asks for: the tour, the concepts, the server and the ADK adapter."""

SAYS = {
    ("tour.md", 0): "desk Refunded $12.50 for A-1001.",
    ("concepts/stores.md", 0): "stale: reload and retry",
    ("concepts/compaction.md", 0): "Ana asked three questions; all were answered.', 'Question 4?'",
    ("concepts/summaries.md", 0): "verified Looked up order A-1001",
    ("server.md", 0): "Order A-1001 shipped on",
    ("adk.md", 0): "{'user:tier': 'gold'}",
}
"""What some blocks print, as the page says they do."""


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as data (it uses no custom tags)."""


def _config() -> dict[str, object]:
    config: dict[str, object] = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_Loader)
    return config


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def test_every_page_asked_for_is_built_and_in_the_nav(site: Path) -> None:
    nav = _nav_pages(_config()["nav"])
    on_disk = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(nav) == on_disk  # nothing left out of the nav, nothing missing
    for page in PAGES:
        assert page in nav
        built = site / ("index.html" if page == "index.md" else page.removesuffix(".md"))
        assert built.exists(), page


def test_the_api_reference_comes_from_the_docstrings(site: Path) -> None:
    runner = (site / "reference" / "runner" / "index.html").read_text()
    assert 'id="agentlog.runner.Runner"' in runner
    assert 'id="agentlog.runner.Runner.run_async"' in runner
    adk = (site / "reference" / "adk" / "index.html").read_text()
    assert 'id="agentlog.adk.AgentlogSessionService"' in adk
    assert "BaseSessionService" in adk  # from the module's docstring
    server = (site / "reference" / "server" / "index.html").read_text()
    assert 'id="agentlog.server.wait.TurnOut"' in server


def test_the_site_loads_nothing_from_the_network(site: Path) -> None:
    for page in site.rglob("*.html"):
        head = page.read_text().split("</head>")[0]
        assert not _REMOTE.search(head), page
    plugins = _config()["plugins"]
    assert isinstance(plugins, list)
    assert "social" not in [p if isinstance(p, str) else next(iter(p)) for p in plugins]


def _page_blocks() -> list[tuple[str, int, str]]:
    out = []
    for page in PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        for number, match in enumerate(_BLOCK.finditer(text)):
            out.append((page, number, match["code"]))
    return out


@pytest.mark.parametrize(("page", "number", "code"), _page_blocks())
def test_every_python_block_runs(page: str, number: int, code: str, tmp_path: Path) -> None:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, script.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{page} block {number}:\n{code}\n{done.stderr}"
    assert done.stdout.strip(), f"{page} block {number} printed nothing"
    assert SAYS.get((page, number), "") in done.stdout
