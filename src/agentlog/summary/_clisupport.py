"""The parts of ``agentlog summarize`` and ``agentlog eval`` (:mod:`agentlog.summary.cli`):
choosing summarisers, running them over sessions, loading and writing, and the tables."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from agentlog.events import Event
from agentlog.models.base import BaseLlm
from agentlog.sessions.base import Session, SessionService
from agentlog.summary.digest import render_digest
from agentlog.summary.entities import EntityPatterns
from agentlog.summary.evaluation import EvalReport, Tally, aggregate, score_session
from agentlog.summary.extractive import ExtractiveSummarizer
from agentlog.summary.import_ import ImportedSession, load_jsonl_sessions
from agentlog.summary.metrics import SummaryMetrics
from agentlog.summary.result import Summarizer, SummaryResult, TokenPrice
from agentlog.summary.service import SummaryService

__all__ = [
    "PatternSet",
    "Summarizers",
    "eval_table",
    "evaluate",
    "load_jsonl",
    "load_store_sessions",
    "make_model",
    "open_store",
    "metrics_table",
    "patterns_named",
    "progress",
    "summarize_all",
    "write_result",
]

AnySession = Session | ImportedSession


class PatternSet(StrEnum):
    """Entity patterns to check against; ``auto`` picks by the session's ``meta.domain``."""

    auto = "auto"
    default = "default"
    retail = "retail"
    telecom = "telecom"


def patterns_named(name: str) -> EntityPatterns:
    """``EntityPatterns.default()``, ``.retail()`` or ``.telecom()``."""
    return {"retail": EntityPatterns.retail, "telecom": EntityPatterns.telecom}.get(
        name, EntityPatterns.default
    )()


def _meta(session: AnySession) -> Mapping[str, Any]:
    return session.meta if isinstance(session, ImportedSession) else {}


def _id(session: AnySession) -> str:
    return session.session_id if isinstance(session, ImportedSession) else session.id


class Summarizers:
    """One summariser per pattern set, made on first use: extractive, or ``SummaryService``."""

    def __init__(
        self,
        patterns: PatternSet,
        *,
        model: BaseLlm | None = None,
        max_tool_chars: int = 2_000,
        price: TokenPrice | None = None,
    ) -> None:
        self.patterns = patterns
        self.model = model
        self.max_tool_chars = max_tool_chars
        self.price = price
        self._made: dict[str, Summarizer] = {}

    @property
    def label(self) -> str:
        """``extractive`` or ``llm:<model>``."""
        return "extractive" if self.model is None else f"llm:{self.model.model}"

    def for_session(self, session: AnySession) -> Summarizer:
        """The summariser for ``session``'s domain (or for the chosen pattern set)."""
        name = self.patterns.value
        if name == "auto":
            name = str(_meta(session).get("domain") or "default")
        name = name if name in ("retail", "telecom") else "default"
        if name not in self._made:
            patterns = patterns_named(name)
            if self.model is None:
                made: Summarizer = ExtractiveSummarizer(
                    patterns=patterns, max_tool_chars=self.max_tool_chars
                )
            else:
                prices = {self.model.model: self.price} if self.price else None
                made = SummaryService(
                    self.model, patterns=patterns, max_tool_chars=self.max_tool_chars, prices=prices
                )
            self._made[name] = made
        return self._made[name]


async def summarize_all(
    sessions: Sequence[AnySession],
    summarizers: Summarizers,
    *,
    concurrency: int = 1,
    done: Callable[[AnySession, SummaryResult], None] | None = None,
) -> list[SummaryResult]:
    """Every session's result, in order, ``concurrency`` at a time; ``done`` after each."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(session: AnySession) -> SummaryResult:
        async with gate:
            given = session if isinstance(session, Session) else session.events
            result = await summarizers.for_session(session).summarize(given)
        if result.session_id is None:
            result = result.model_copy(update={"session_id": _id(session)})
        if done is not None:
            done(session, result)
        return result

    return list(await asyncio.gather(*(one(s) for s in sessions)))


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


def make_model(
    spec: str | None, base_url: str | None, price: str | None
) -> tuple[BaseLlm | None, TokenPrice | None]:
    """The model ``--model`` names (``None``: extractive) and the ``--price`` ``IN,OUT``."""
    token_price = None
    if price is not None:
        try:
            inp, out = (float(x) for x in price.split(","))
        except ValueError:
            raise typer.BadParameter(
                "expected INPUT,OUTPUT per million tokens", param_hint="--price"
            ) from None
        token_price = TokenPrice(inp, out)
    if spec is None:
        return None, token_price
    from agentlog.models.registry import model_from_spec

    try:
        return model_from_spec(spec, base_url=base_url), token_price
    except (ValueError, ImportError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--model") from exc


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _tally(t: Tally | None) -> tuple[str, str]:
    return ("n/a", "") if t is None else (_pct(t.rate), f"{t.hit}/{t.total}")


def open_store(db: str) -> SessionService:
    """The session store ``--db`` names: a SQLite file that must exist, or a ``postgresql://``
    DSN."""
    if db.startswith(("postgresql://", "postgres://")):
        try:
            from agentlog.sessions.postgres import PostgresSessionService
        except ImportError as exc:
            raise typer.BadParameter(str(exc), param_hint="--db") from None

        return PostgresSessionService(db)
    if not Path(db).is_file():
        raise typer.BadParameter(f"no such SQLite file: {db}", param_hint="--db")
    from agentlog.sessions.sqlite import SqliteSessionService

    return SqliteSessionService(db)


async def load_store_sessions(
    store: SessionService, *, app_name: str, user_id: str | None, session_id: str | None
) -> list[Session]:
    """One session (``user_id`` and ``session_id`` given), or every session of the app (of one
    user), with their events; closes ``store``."""
    try:
        if session_id is not None and user_id is not None:
            keys = [(user_id, session_id)]
        else:
            listed = await store.list_sessions(app_name=app_name, user_id=user_id)
            keys = [(s.user_id, s.id) for s in listed]
        return [
            await store.get_session(app_name=app_name, user_id=u, session_id=s) for u, s in keys
        ]
    finally:
        await store.close()


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def write_result(out: Path, session: AnySession, result: SummaryResult) -> list[Path]:
    """``<session id>.json`` (the result, with its record or its problems) and, for a delivered
    record, ``<session id>.md`` (its digest) in ``out``."""
    name = _UNSAFE.sub("_", _id(session)).strip("._") or "session"
    written = [out / f"{name}.json"]
    written[0].write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    if result.record is not None:
        events: Session | Sequence[Event] = (
            session.events if isinstance(session, ImportedSession) else session
        )
        digest = render_digest(result.record, events, title=f"Session {_id(session)}")
        written.append(out / f"{name}.md")
        written[1].write_text(digest, encoding="utf-8")
    return written


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


def evaluate(
    name: str, results: Sequence[SummaryResult], sessions: Sequence[AnySession], label: str
) -> EvalReport:
    """Score each result against its session's meta."""
    scores = [
        score_session(r, _meta(s), [(c.name, c.args) for e in s.events for c in e.function_calls()])
        for r, s in zip(results, sessions, strict=True)
    ]
    return aggregate(name, label, scores)


def load_jsonl(path: Path) -> list[ImportedSession]:
    """The sessions of a JSON Lines file, or a usage error saying which line is wrong."""
    try:
        return load_jsonl_sessions(path)
    except (ValueError, OSError) as exc:
        raise typer.BadParameter(f"{path}: {exc}") from None
