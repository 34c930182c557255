"""Checked summaries: rendering and validation of a long session, and the extractive summariser.

Run from the repository root with the dev venv (it needs nothing beyond agentlog)::

    .venv/bin/python -m bench.summary [--eval-dir ../shared/eval] [--runs 7] [--only-speed]

1. **render + validate, 1,000 events**: a session of 1,000 events made by chaining the
   development sessions (ids renumbered ``e0001``...), rendered with ``transcript_lines`` and
   checked with ``validate_output`` (parsing included) against two records that pass, one row
   each: the smallest passing record (one item per event holding entities, listing them: the
   size of record a model writes) and the extractive summariser's record (every tool result
   spelled out, the largest). Target: render + validate under 20 ms, for both records.
2. **extractive summariser**: ``ExtractiveSummarizer.summarize_now`` (render, extract,
   validate) over all 80 development sessions, in sessions per second, with how many pass the
   validator. Target: at least 200 sessions a second.

3. **records per set** (issue 13): the extractive summariser over each evaluation set in the
   repository (the team set ``evals/agentlog-eval.jsonl``, the tau2 sample in
   ``tests/data/tau2/``, and the booking, insurance, logistics, clinic, SaaS, banking, property,
   payroll and permits sets, whose domains have no preset and so take the default patterns): how
   many records pass the validator; the median record size over transcript size (the record's
   goal and item texts against the rendered transcript, in characters; target at most 10%); the
   median size of the entities alone (the entities the validator requires, joined by ", ": what
   any passing record must at least hold); the recall of the identifiers named in the session's
   write actions (the key argument values of each succeeded state-changing call, found in the
   record; target at least 95%); and the write actions kept (each such call a decision citing
   its call and its result; target 100%).

Each speed figure is the median of ``--runs`` runs, which is what a target is judged on; the
best run is printed next to it. Without the development sessions the first measurement uses
the worked refund example repeated.

``--against TREE`` (a worktree of an older commit: ``git worktree add /tmp/old COMMIT``) also
compares render + validate with that tree's, as the issue asks, in one run: ``--rounds``
rounds, each timing this tree then TREE in a fresh process (CPU time, the median of ``--runs``
runs, each tree validating its own records), and prints the medians over the rounds and the
ratio this / TREE, which a noisy machine moves much less than the times themselves.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from agentlog.events import Event
from agentlog.summary import (
    EntityPatterns,
    ExtractiveSummarizer,
    ImportedSession,
    SummaryItem,
    SummaryRecord,
    load_jsonl_sessions,
    render_transcript,
    transcript_entities,
    transcript_lines,
    validate_output,
)
from agentlog.summary.evaluation._match import key_values, mentions
from agentlog.summary.example import refund_session_events
from agentlog.summary.record._extract import failed, is_state_changing

RENDER_TARGET_MS = 20.0
EXTRACTIVE_TARGET = 200.0
DOMAINS = {"retail": EntityPatterns.retail(), "telecom": EntityPatterns.telecom()}
ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "team set": (ROOT / "evals" / "agentlog-eval.jsonl",),
    "tau2 sample": (ROOT / "tests/data/tau2/retail.jsonl", ROOT / "tests/data/tau2/telecom.jsonl"),
    "booking set": (ROOT / "evals" / "booking-eval.jsonl",),
    "insurance set": (ROOT / "evals" / "insurance-eval.jsonl",),
    "logistics set": (ROOT / "evals" / "logistics-eval.jsonl",),
    "clinic set": (ROOT / "evals" / "clinic-eval.jsonl",),
    "SaaS set": (ROOT / "evals" / "saas-eval.jsonl",),
    "banking set": (ROOT / "evals" / "banking-eval.jsonl",),
    "property set": (ROOT / "evals" / "property-eval.jsonl",),
    "payroll set": (ROOT / "evals" / "payroll-eval.jsonl",),
    "permits set": (ROOT / "evals" / "permits-eval.jsonl",),
}
SIZE_TARGET = 0.10
RECALL_TARGET = 0.95


def set_figures(sessions: Sequence[ImportedSession]) -> tuple[str, str, str, str, str, int]:
    """Pass count, median size ratio, the median size of the entities alone (what any record
    keeping them must reach), write-action identifier recall, write actions kept, and how many
    targets missed, of the extractive summariser over ``sessions``."""
    passed, ratios, floors, hit, named, kept, writes = 0, [], [], 0, 0, 0, 0
    for session in sessions:
        domain = str(session.meta.get("domain", ""))
        patterns = DOMAINS.get(domain) or EntityPatterns.default()
        result = ExtractiveSummarizer(patterns=patterns).summarize_now(session.events)
        record = result.record
        passed += record is not None
        text = record.text() if record is not None else ""
        transcript = render_transcript(session.events)
        ratios.append(len(text) / max(1, len(transcript)))
        required = transcript_entities(transcript_lines(session.events), patterns).values()
        shown = ", ".join(x.entity.shown() for x in required)
        floors.append(len(shown) / max(1, len(transcript)))
        decided = [set(i.sources) for i in record.decisions] if record is not None else []
        for call_event, result_event, args in _writes(session.events):
            writes += 1
            kept += any({call_event, result_event} <= cited for cited in decided)
            for value in key_values(args):
                named += 1
                hit += mentions(text, value)
    ratio = statistics.median(ratios) if ratios else 0.0
    recall = hit / named if named else 1.0
    missed = (ratio > SIZE_TARGET) + (recall < RECALL_TARGET) + (kept < writes)
    return (
        f"{passed}/{len(sessions)}",
        f"{ratio:.1%}",
        f"{statistics.median(floors):.1%}" if floors else "-",
        f"{recall:.1%} of {named}",
        f"{kept}/{writes}",
        missed,
    )


def _writes(events: Sequence[Event]) -> list[tuple[str, str, dict[str, object]]]:
    """(call event, result event, arguments) of each state-changing call that succeeded."""
    calls = {c.id: (e.id, c.name, dict(c.args)) for e in events for c in e.function_calls()}
    found = []
    for event in events:
        for response in event.function_responses():
            call = calls.get(response.id)
            if call is None or failed(response.response):
                continue
            delta = bool(event.actions.state_delta)
            if not is_state_changing(call[1], call[2], response.response, delta=delta):
                continue
            found.append((call[0], event.id, call[2]))
    return found


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and best wall time of ``runs`` calls, in seconds (GC off while timing)."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times), min(times)


def long_session(sessions: Sequence[ImportedSession], n: int) -> tuple[Event, ...]:
    """``n`` events chained from ``sessions`` (or the worked example), renumbered."""
    source = [e for s in sessions for e in s.events] or list(refund_session_events())
    events = []
    for i in range(n):
        event = source[i % len(source)]
        events.append(event.model_copy(update={"id": f"e{i + 1:04d}", "timestamp": float(i)}))
    return tuple(events)


def smallest_record(events: Sequence[Event], patterns: EntityPatterns) -> SummaryRecord:
    """The smallest record that passes: per event holding entities, one item listing them."""
    by_event: dict[str, list[str]] = {}
    for x in transcript_entities(transcript_lines(events), patterns).values():
        by_event.setdefault(x.event_ids[0], []).append(x.entity.shown())
    items = tuple(
        SummaryItem(text=", ".join(shown), sources=(eid,)) for eid, shown in by_event.items()
    )
    return SummaryRecord(goal="", facts=items)


_SPEED_DRIVER = """
import gc, json, statistics, sys, time
from pathlib import Path
from agentlog.summary import (EntityPatterns, ExtractiveSummarizer, SummaryItem, SummaryRecord,
    load_jsonl_sessions, transcript_entities, transcript_lines, validate_output)
path, n, runs = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
source = [e for s in load_jsonl_sessions(path) for e in s.events]
events = tuple(source[i % len(source)].model_copy(update={"id": f"e{i + 1:04d}",
    "timestamp": float(i)}) for i in range(n))
patterns = EntityPatterns.retail()
by_event = {}
for x in transcript_entities(transcript_lines(events), patterns).values():
    by_event.setdefault(x.event_ids[0], []).append(x.entity.shown())
smallest = SummaryRecord(goal="", facts=tuple(SummaryItem(text=", ".join(shown), sources=(eid,))
    for eid, shown in by_event.items()))
records = {"smallest": smallest,
    "extractive": ExtractiveSummarizer(patterns=patterns).summarize_now(events).record}
out = {}
for name, record in records.items():
    output = record.model_dump_json()
    times = []
    for _ in range(runs):
        gc.collect(); gc.disable()
        start = time.process_time()
        validate_output(output, events=events, transcript=transcript_lines(events),
            patterns=patterns)
        times.append(time.process_time() - start)
        gc.enable()
    out[name] = statistics.median(times) * 1000
print(json.dumps(out))
"""
"""Render + validate in the tree on ``sys.path``, CPU ms per record, as one JSON line; only
the public API of ``agentlog.summary``, so that an older tree runs it too."""


def against(tree: Path, sessions: Path, events: int, runs: int, rounds: int) -> list[str]:
    """Rows comparing render + validate here and in ``tree``, interleaved (see the docstring)."""
    times: dict[str, list[dict[str, float]]] = {"this tree": [], str(tree): []}
    for _ in range(rounds):
        for name, root in (("this tree", ROOT), (str(tree), tree)):
            env = {**os.environ, "PYTHONPATH": str(root / "src")}
            command = [sys.executable, "-c", _SPEED_DRIVER, str(sessions), str(events), str(runs)]
            done = subprocess.run(command, env=env, cwd=root, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"render + validate failed in {root}: {done.stderr[-2000:]}")
            times[name].append(json.loads(done.stdout.splitlines()[-1]))
    rows = []
    for record in ("smallest", "extractive"):
        here, there = (statistics.median(r[record] for r in times[n]) for n in times)
        rows.append(
            f"render + validate, {record} record: this tree {here:.1f} ms, {tree} {there:.1f} ms"
            f" (CPU, median of {rounds} rounds): ratio {here / there:.2f}"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--eval-dir", default="../shared/eval", help="development sessions")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure")
    parser.add_argument("--events", type=int, default=1_000, help="events in the long session")
    parser.add_argument(
        "--only-speed", action="store_true", help="the speed rows only, without the set figures"
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="TREE",
        help="compare render + validate with this older tree's, interleaved, as ratios",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --against")
    args = parser.parse_args(argv)
    if args.against is not None:
        path = Path(args.eval_dir) / "tau2-retail-gpt41.jsonl"
        if not path.is_file():
            print(f"--against needs {path}", file=sys.stderr)
            return 1
        tree = args.against.resolve()
        print("\n".join(against(tree, path.resolve(), args.events, args.runs, args.rounds)))
        return 0

    eval_dir = Path(args.eval_dir)
    by_domain: dict[str, list[ImportedSession]] = {}
    for domain in DOMAINS:
        path = eval_dir / f"tau2-{domain}-gpt41.jsonl"
        by_domain[domain] = load_jsonl_sessions(path) if path.is_file() else []
    everything = [s for sessions in by_domain.values() for s in sessions]
    rows: list[tuple[str, str, str, str]] = []
    failures = 0

    # 1. render + validate a 1,000-event session.
    events = long_session(by_domain["retail"], args.events)
    patterns = DOMAINS["retail"]
    result = ExtractiveSummarizer(patterns=patterns).summarize_now(events)
    if result.record is None:
        print(f"the reference record does not pass: {result.last_problems[:3]}", file=sys.stderr)
        return 1
    transcript = render_transcript(events)
    render_med, render_best = timed(lambda: transcript_lines(events), args.runs)
    size = f"{len(events):,} events, {len(transcript) / 1000:.0f} kB transcript"
    rows.append(
        (
            "render (transcript_lines)",
            size,
            f"{render_med * 1000:.1f} ms",
            f"{render_best * 1000:.1f} ms",
        )
    )
    records = {
        "smallest passing record": smallest_record(events, patterns),
        "extractive summariser's record": result.record,
    }
    for name, record in records.items():
        output = record.model_dump_json()
        _, problems = validate_output(
            output, events=events, transcript=transcript, patterns=patterns
        )
        if problems:
            print(f"the {name} record does not pass: {problems[:3]}", file=sys.stderr)
            return 1

        def both(output: str = output) -> None:
            lines = transcript_lines(events)
            validate_output(output, events=events, transcript=lines, patterns=patterns)

        med, best = timed(both, args.runs)
        ok = med * 1000 < RENDER_TARGET_MS
        failures += not ok
        items = len(list(record.items()))
        rows.append(
            (
                f"render + validate, {name} (target < {RENDER_TARGET_MS:.0f} ms)",
                f"{items} items, {len(output) / 1000:.0f} kB JSON, {'ok' if ok else 'MISSED'}",
                f"{med * 1000:.1f} ms",
                f"{best * 1000:.1f} ms",
            )
        )

    # 2. the extractive summariser over the development sessions.
    if everything:
        summarizers = {d: ExtractiveSummarizer(patterns=p) for d, p in DOMAINS.items()}
        work = [(summarizers[d], s.events) for d, sessions in by_domain.items() for s in sessions]
        passed = sum(bool(x.summarize_now(s).ok) for x, s in work)

        def run_all() -> None:
            for summarizer, events in work:
                summarizer.summarize_now(events)

        med, best = timed(run_all, args.runs)
        rate_med, rate_best = len(work) / med, len(work) / best
        ok = rate_med >= EXTRACTIVE_TARGET
        failures += not ok
        rows.append(
            (
                f"extractive summariser (target >= {EXTRACTIVE_TARGET:.0f}/s)",
                f"{len(work)} sessions, {passed} pass the validator, {'ok' if ok else 'MISSED'}",
                f"{rate_med:,.0f} sessions/s",
                f"{rate_best:,.0f} sessions/s",
            )
        )
    else:
        rows.append(("extractive summariser", f"no sessions in {eval_dir}", "-", "-"))

    # 3. records per set.
    set_rows: list[tuple[str, ...]] = []
    for name, paths in () if args.only_speed else SETS.items():
        sessions = [s for p in paths if p.is_file() for s in load_jsonl_sessions(p)]
        if not sessions:
            set_rows.append((name, "-", "-", "-", "-", "-"))
            continue
        *figures, missed = set_figures(sessions)
        failures += missed
        set_rows.append((name, *figures))

    header = ("measurement", "workload", "median", "best")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    line = "  ".join("-" * w for w in widths)
    start = time.perf_counter()
    sum(range(10**7))
    calibration = time.perf_counter() - start
    print(
        f"agentlog summary bench: Python {platform.python_version()}, {args.runs} runs each; "
        f"CPU check: sum(range(10**7)) in {calibration:.3f} s"
    )
    print(line)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(line)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    print(line)
    if not set_rows:
        return 1 if failures else 0
    set_header = (
        "extractive records, by set",
        "pass",
        f"median size (target <= {SIZE_TARGET:.0%})",
        "entities alone",
        f"write-action ids recalled (target >= {RECALL_TARGET:.0%})",
        "write actions kept (target all)",
    )
    set_widths = [max(len(r[i]) for r in [set_header, *set_rows]) for i in range(6)]
    set_line = "  ".join("-" * w for w in set_widths)
    print(set_line)
    print("  ".join(h.ljust(w) for h, w in zip(set_header, set_widths, strict=True)))
    print(set_line)
    for set_row in set_rows:
        print("  ".join(c.ljust(w) for c, w in zip(set_row, set_widths, strict=True)))
    print(set_line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
