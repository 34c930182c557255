"""Imports in agentlog.summary point down: the record and its checks need no runner."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import agentlog.summary


def _imported_after(statement: str) -> set[str]:
    """The agentlog modules a fresh interpreter holds after ``statement``."""
    code = f"import sys\n{statement}\nprint(' '.join(m for m in sys.modules if 'agentlog' in m))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return set(done.stdout.split())


def test_the_record_and_its_checks_do_not_import_the_runner() -> None:
    loaded = _imported_after(
        "import agentlog.summary.record.schema, agentlog.summary.record.provenance, "
        "agentlog.summary.record.validate, agentlog.summary.record.entities"
    )
    assert "agentlog.summary.record.validate" in loaded
    assert "agentlog.runner" not in loaded
    assert "agentlog.summary.summarisers.service" not in loaded


def test_a_payload_is_read_into_leaves_without_the_checks_that_read_them() -> None:
    loaded = _imported_after("import agentlog.summary.record._walk")
    assert "agentlog.summary.record.leaves" in loaded
    record = "agentlog.summary.record."
    checks = {record + name for name in ("binding", "_others", "_unsaid", "_misstated")}
    assert loaded.isdisjoint(checks)


def test_the_package_still_exports_the_model_backed_service() -> None:
    from agentlog.summary.summarisers.service import SummaryService

    assert agentlog.summary.SummaryService is SummaryService
    assert "SummaryService" in agentlog.summary.__all__
    assert "SummaryService" in dir(agentlog.summary)
    loaded = _imported_after("from agentlog.summary import SummaryService")
    assert "agentlog.runner" in loaded  # on first use, not before


# The extractive summariser's job modules, bottom up: each imports only from the layers below
# it (a new job module goes in a layer here).
_JOB_LAYERS = (
    ("_draft", "_goal", "_pending", "_wording"),
    ("_terse",),
    ("_prose",),
    ("_things",),
    ("_writes",),
    ("_awaited",),
    ("_commitments", "_kept", "_results", "_unresolved"),
    ("_conversation",),
)


def _summariser_imports(path: Path) -> set[str]:
    """The modules of ``agentlog.summary.summarisers`` that the module at ``path`` imports."""
    package = "agentlog.summary.summarisers"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(package + "."):
                found.add(node.module.removeprefix(package + ".").split(".")[0])
            elif node.module == package:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(package + "."):
                    found.add(alias.name.removeprefix(package + ".").split(".")[0])
    return found


def test_the_summarisers_job_modules_import_only_downward() -> None:
    folder = Path(agentlog.summary.__file__).parent / "summarisers"
    layer = {name: i for i, names in enumerate(_JOB_LAYERS) for name in names}
    jobs = {p.stem for p in folder.glob("_*.py") if p.stem != "__init__"}
    assert jobs == set(layer), "place each job module in a layer of _JOB_LAYERS"
    upward = [
        (job, imported)
        for job in sorted(jobs)
        for imported in sorted(_summariser_imports(folder / f"{job}.py"))
        if imported not in layer or layer[imported] >= layer[job]
    ]
    assert upward == []  # a job imports neither its own layer, one above, nor a public module
