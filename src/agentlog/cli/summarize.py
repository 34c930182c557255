"""``agentlog summarize`` and ``agentlog eval``: checked summaries from the command line.

Both run the extractive summariser (offline, deterministic, free) unless ``--model
provider:model`` names a real one, which goes through ``SummaryService`` (validator, one
retry, no unchecked record). ``summarize`` writes each result as JSON and each delivered record
as a Markdown digest and prints the metrics; ``eval`` scores a summariser against evaluation
sets (:mod:`agentlog.summary.evaluation.scoring`) and prints a table per file, or JSON.
"""

from __future__ import annotations

import asyncio
import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from agentlog.cli.summary_runs import AnySession, Summarizers
    from agentlog.summary.record.result import SummaryResult

__all__ = ["PatternSet", "eval_command", "register", "summarize_command"]


class PatternSet(StrEnum):
    """Entity patterns to check against; ``auto`` picks by the session's ``meta.domain``."""

    auto = "auto"
    default = "default"
    retail = "retail"
    telecom = "telecom"


_Model = Annotated[
    str | None,
    typer.Option(
        "--model", help="A real model, e.g. openai:gpt-4o-mini (default: extractive, offline)."
    ),
]
_BaseUrl = Annotated[
    str | None,
    typer.Option(envvar="AGENTLOG_BASE_URL", help="An OpenAI-compatible server's URL."),
]
_Price = Annotated[
    str | None,
    typer.Option(help="The model's price as INPUT,OUTPUT per million tokens, for the cost."),
]
_Patterns = Annotated[
    PatternSet,
    typer.Option(help="Entity patterns; auto picks by each session's meta.domain."),
]
_MaxToolChars = Annotated[
    int, typer.Option(min=100, help="Tool payloads longer than this are cut in the transcript.")
]
_MEASURES = {
    "expected_entities": "entity",
    "commitments": "commitment",
    "open_questions": "open question",
    "actions": "gold action",
}
_Concurrency = Annotated[int, typer.Option(min=1, help="Summaries in flight at once.")]


def _run(
    sessions: list[AnySession], summarizers: Summarizers, concurrency: int, what: str
) -> list[SummaryResult]:
    from rich.console import Console

    from agentlog.cli.summary_runs import summarize_all
    from agentlog.cli.tables import progress

    console = Console(stderr=True)
    with progress(console) as bar:
        task = bar.add_task(what, total=len(sessions))
        return asyncio.run(
            summarize_all(
                sessions,
                summarizers,
                concurrency=concurrency,
                done=lambda _s, _r: bar.advance(task),
            )
        )


def summarize_command(
    db: Annotated[
        str | None, typer.Option(help="A session store: SQLite file or postgresql:// DSN.")
    ] = None,
    app_name: Annotated[str | None, typer.Option("--app", help="The sessions' app.")] = None,
    user: Annotated[str | None, typer.Option(help="Only this user's sessions.")] = None,
    session: Annotated[
        str | None, typer.Option(help="One session (needs --user); default: all of them.")
    ] = None,
    jsonl: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="Sessions from a JSON Lines file."),
    ] = None,
    model: _Model = None,
    base_url: _BaseUrl = None,
    price: _Price = None,
    patterns: _Patterns = PatternSet.auto,
    max_tool_chars: _MaxToolChars = 2_000,
    out: Annotated[
        Path | None,
        typer.Option(file_okay=False, help="Write <session>.json and <session>.md here."),
    ] = None,
    concurrency: _Concurrency = 1,
) -> None:
    """Summarise sessions from a store or a JSON Lines file; write records and digests."""
    from rich.console import Console
    from rich.markup import escape

    from agentlog.cli.stores import open_store
    from agentlog.cli.summary_runs import (
        Summarizers,
        load_jsonl,
        load_store_sessions,
        make_model,
        write_result,
    )
    from agentlog.cli.tables import metrics_table
    from agentlog.summary.summarisers.metrics import SummaryMetrics

    if (db is None) == (jsonl is None):
        raise typer.BadParameter("give either --db (with --app) or --jsonl")
    if session is not None and user is None:
        raise typer.BadParameter("--session needs --user", param_hint="--user")
    llm, token_price = make_model(model, base_url, price)
    sessions: list[AnySession]
    if jsonl is not None:
        sessions = list(load_jsonl(jsonl))
    else:
        if app_name is None:
            raise typer.BadParameter("--db needs --app", param_hint="--app")
        store = open_store(str(db))
        sessions = list(
            asyncio.run(
                load_store_sessions(store, app_name=app_name, user_id=user, session_id=session)
            )
        )
    if not sessions:
        Console(stderr=True).print("[yellow]No sessions to summarise.[/]")
        raise typer.Exit(1)
    summarizers = Summarizers(
        patterns.value, model=llm, max_tool_chars=max_tool_chars, price=token_price
    )
    results = _run(sessions, summarizers, concurrency, "summarising")
    console = Console()
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for s, r in zip(sessions, results, strict=True):
            write_result(out, s, r)
        digests = sum(r.ok for r in results)
        console.print(escape(f"Wrote {len(results)} results and {digests} digests to {out}"))
    metrics = SummaryMetrics()
    for result in results:
        metrics.record(result)
        if not result.ok:
            problems = "; ".join(str(p) for p in result.last_problems[:3])
            console.print(f"[red]no record[/] for {escape(f'{result.session_id}: {problems}')}")
    console.print(metrics_table(metrics, f"agentlog summarize ({summarizers.label})"))


def eval_command(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE", exists=True, dir_okay=False, help="Evaluation sets (JSON Lines)."
        ),
    ],
    model: _Model = None,
    base_url: _BaseUrl = None,
    price: _Price = None,
    patterns: _Patterns = PatternSet.auto,
    max_tool_chars: _MaxToolChars = 2_000,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N sessions of each file.")
    ] = None,
    concurrency: _Concurrency = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    details: Annotated[
        bool, typer.Option(help="Add each session's misses (to the JSON, or as lines).")
    ] = False,
) -> None:
    """Score a summariser against evaluation sets: pass rates, recalls, laundering, cost."""
    from rich.console import Console
    from rich.markup import escape

    from agentlog.cli.summary_runs import Summarizers, evaluate, load_jsonl, make_model
    from agentlog.cli.tables import eval_table

    llm, token_price = make_model(model, base_url, price)
    reports = []
    for path in files:
        sessions: list[AnySession] = list(load_jsonl(path)[:limit])
        summarizers = Summarizers(
            patterns.value, model=llm, max_tool_chars=max_tool_chars, price=token_price
        )
        results = _run(sessions, summarizers, concurrency, path.name)
        reports.append(evaluate(str(path), results, sessions, summarizers.label))
    if as_json:
        payload = {"files": [r.as_dict(sessions=details) for r in reports]}
        typer.echo(json.dumps(payload, indent=2))
        return
    console = Console()
    for report in reports:
        console.print(eval_table(report))
        if details:
            for s in report.sessions:
                for measure, label in _MEASURES.items():
                    tally = getattr(s, measure)
                    for missed in tally.missed if tally is not None else ():
                        line = f"  {s.session_id}: missed {label}: {missed}"
                        console.print(escape(line), soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``summarize`` and ``eval`` to the ``agentlog`` command line."""
    app.command("summarize", short_help="Summarise sessions into checked records and digests.")(
        summarize_command
    )
    app.command("eval", short_help="Score a summariser against evaluation sets.")(eval_command)
