"""Imports in agentlog.summary point down: the record and its checks need no runner."""

from __future__ import annotations

import subprocess
import sys

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
