"""Two versions of the extractive summariser, interleaved: its speed and its record's cost.

Run from the repository root with the dev venv::

    .venv/bin/python -m bench.extractive_ab --a /tmp/new/src --b /tmp/old/src [--rounds 6]

``--a`` and ``--b`` are two copies of ``src/`` (for instance this tree's, and the same tree with the
extractive summariser's files, ``summarisers/extractive.py`` and every ``summarisers/_*.py``, and
``record/_extract.py`` taken from an older commit: the rest of the code, the validator included,
then is the same on both sides; a module the older commit lacks is left as it is, unused). Each
round runs A then B in fresh processes and measures, in CPU time (median of ``--runs``): the
extractive summariser over the development sessions (``--eval-dir``), in sessions per second, and
render + validate of a 1,000-event session against its extractive record. It prints each round, then
the median over the rounds of each figure and of the ratio A / B, which a noisy machine moves less
than the figures themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(eval_dir: Path, runs: int) -> dict[str, float]:
    """One side's figures, in this process (its ``agentlog`` is the side's)."""
    from agentlog.summary import (
        EntityPatterns,
        ExtractiveSummarizer,
        load_jsonl_sessions,
        transcript_lines,
        validate_output,
    )
    from bench.summary import DOMAINS, long_session

    sessions = [s for p in sorted(eval_dir.glob("*.jsonl")) for s in load_jsonl_sessions(p)]
    patterns = [
        DOMAINS.get(str(s.meta.get("domain", ""))) or EntityPatterns.default() for s in sessions
    ]
    long = long_session(sessions, 1000)
    record = ExtractiveSummarizer().summarize_now(long).record
    assert record is not None
    output = record.model_dump_json()

    def summarise() -> None:
        for session, pattern in zip(sessions, patterns, strict=True):
            ExtractiveSummarizer(patterns=pattern).summarize_now(session.events)

    def validate() -> None:
        validate_output(output, events=long, transcript=transcript_lines(long))

    figures = {}
    for name, fn in (("summarise", summarise), ("validate", validate)):
        times = []
        for _ in range(runs):
            start = time.process_time()
            fn()
            times.append(time.process_time() - start)
        figures[name] = statistics.median(times)
    return {
        "sessions_per_s": len(sessions) / figures["summarise"],
        "validate_ms": figures["validate"] * 1000,
        "items": float(sum(1 for _ in record.items())),
    }


def side(src: Path, eval_dir: Path, runs: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
    where = str(eval_dir.resolve())  # the child runs in the repository's root
    command = [sys.executable, "-m", "bench.extractive_ab", "--side", where, str(runs)]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--side"]:
        print(json.dumps(measure(Path(args[1]), int(args[2]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--a", type=Path, required=True, help="a copy of src/ (the new side)")
    parser.add_argument("--b", type=Path, required=True, help="a copy of src/ (the reference)")
    parser.add_argument(
        "--eval-dir",
        type=Path,
        default=ROOT.parent / "shared" / "eval",
        help="development sessions (../shared/eval beside the repository)",
    )
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5)
    parsed = parser.parse_args(args)
    rows: list[tuple[dict[str, float], dict[str, float]]] = []
    for i in range(parsed.rounds):
        a = side(parsed.a, parsed.eval_dir, parsed.runs)
        b = side(parsed.b, parsed.eval_dir, parsed.runs)
        rows.append((a, b))
        print(
            f"round {i + 1}: A {a['sessions_per_s']:.0f} sessions/s, validate "
            f"{a['validate_ms']:.1f} ms ({a['items']:.0f} items); B {b['sessions_per_s']:.0f} "
            f"sessions/s, validate {b['validate_ms']:.1f} ms ({b['items']:.0f} items)"
        )
    for key, unit in (("sessions_per_s", "sessions/s"), ("validate_ms", "ms")):
        a_med = statistics.median(a[key] for a, _ in rows)
        b_med = statistics.median(b[key] for _, b in rows)
        ratio = statistics.median(a[key] / b[key] for a, b in rows)
        print(f"{key}: A {a_med:.1f} {unit}, B {b_med:.1f} {unit}, A / B {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
