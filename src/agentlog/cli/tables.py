"""What ``agentlog summarize`` and ``agentlog eval`` print: a progress bar, the metrics table and
an evaluation set's scores, drawn with rich."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from agentlog.summary.evaluation.scoring import EvalReport, Tally
from agentlog.summary.summarisers.metrics import SummaryMetrics

__all__ = ["eval_table", "metrics_table", "progress"]


def progress(console: Console) -> Progress:
    """A transient progress bar: description, bar, done/total, time."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _tally(t: Tally | None) -> tuple[str, str]:
    return ("n/a", "") if t is None else (_pct(t.rate), f"{t.hit}/{t.total}")


def metrics_table(metrics: SummaryMetrics, title: str) -> Table:
    """The metrics to watch: first-attempt pass rate, fallback rate, entity recall, cost."""
    table = Table(title=escape(title))
    table.add_column("metric")
    table.add_column("value", justify="right")
    rows = [
        ("summaries", f"{metrics.attempted} ({metrics.delivered} delivered)"),
        ("first-attempt pass rate", _pct(metrics.first_attempt_pass_rate)),
        ("fallback rate", _pct(metrics.fallback_rate)),
        ("entity recall", _pct(metrics.mean_entity_recall)),
        ("tokens per summary", f"{metrics.mean_tokens:,.0f}"),
        ("cost per summary", f"{metrics.mean_cost:.6f}"),
    ]
    for row in rows:
        table.add_row(*row)
    return table


def eval_table(report: EvalReport) -> Table:
    """One evaluation set's scores: a row per measure, "n/a" where the set has no expectation."""
    d = report.as_dict()
    n = d["sessions"]
    table = Table(title=escape(f"{report.name} ({report.summarizer}, {n} sessions)"))
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("count", justify="right")
    delivered = sum(s.delivered for s in report.sessions)
    first = sum(s.first_attempt_passed for s in report.sessions)
    claims, injected = d["user_claims"], d["injected_sessions"]
    rows = [
        ("pass rate (validator)", _pct(d["pass_rate"]), f"{delivered}/{n}"),
        ("first-attempt pass rate", _pct(d["first_attempt_pass_rate"]), f"{first}/{n}"),
        ("fallback rate", _pct(d["fallback_rate"]), f"{n - delivered}/{n}"),
        ("entity recall (transcript)", _pct(d["entity_recall"]), ""),
        ("expected-entity recall", *_tally(report.pooled("expected_entities"))),
        ("commitment recall", *_tally(report.pooled("commitments"))),
        ("open-question recall", *_tally(report.pooled("open_questions"))),
        ("gold-action recall", *_tally(report.pooled("actions"))),
        ("  of actions the session performed", *_tally(report.pooled("performed_actions"))),
        ("invented sources", str(d["invented_sources"]), ""),
        (
            "user claims promoted to verified",
            "n/a" if claims is None else str(d["claims_promoted"]),
            "" if claims is None else f"of {claims} claims",
        ),
        (
            "injections surviving as verified",
            "n/a" if injected is None else str(d["injections_verified"]),
            "" if injected is None else f"{injected} injected sessions",
        ),
        ("cost per summary", f"{d['cost_per_summary']:.6f}", f"total {d['cost']:.4f}"),
    ]
    for row in rows:
        table.add_row(*row)
    return table
