"""Per-turn cost of agentlog's OpenTelemetry spans (``agentlog.tracing``), before and after.

Run from the repository root with the dev venv (it needs ``opentelemetry-sdk``)::

    .venv/bin/python -m bench.tracing [--turns 1000] [--repeat 3]

The script is ``bench.runner``'s ``agentlog memory`` configuration: one session of ``--turns``
turns on ``InMemorySessionService``, each turn a model call, a tool call, a model call (four
stored events, six spans when traced), the model's own time taken off. Configurations, each in
a fresh interpreter (OpenTelemetry cannot be un-imported), ``--repeat`` times in turn so a slow
spell of the machine lands on all of them:

- ``absent``: OpenTelemetry hidden from the import system (no ``otel`` extra): every hook is
  the stream itself or a no-op;
- ``api only``: the API installed, no tracer provider configured: each hook checks once;
- ``recording``: the SDK's ``TracerProvider`` with a ``BatchSpanProcessor`` and an exporter that
  drops what it gets, so every span is made, filled and handed over as in production.

Reported at each checkpoint turn N: the median framework time of turns N-4..N (of the median
run), and the difference from ``absent``. Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.abc
import json
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

CONFIGS: Final = ("absent", "api only", "recording")
CHECKPOINTS: Final = (10, 100, 1_000)
ROOT: Final = Path(__file__).resolve().parents[1]


class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "opentelemetry" or name.startswith("opentelemetry."):
            raise ImportError(f"No module named {name!r} (hidden by bench.tracing)")


def _setup(config: str) -> None:
    if config == "absent":
        sys.meta_path.insert(0, _Hide())
        return
    if config == "recording":
        from opentelemetry import trace
        from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
        from opentelemetry.sdk.trace.export import (
            BatchSpanProcessor,
            SpanExporter,
            SpanExportResult,
        )

        class Drop(SpanExporter):
            def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
                return SpanExportResult.SUCCESS

        provider = TracerProvider()
        provider.add_span_processor(BatchSpanProcessor(Drop()))
        trace.set_tracer_provider(provider)


def _one(config: str, turns: int) -> list[float]:
    """Framework seconds of each turn, in this interpreter, set up as ``config``."""
    _setup(config)
    from agentlog import InMemorySessionService, tracing
    from bench.runner import Stats, run_agentlog

    expected = config != "absent"
    if tracing.ENABLED is not expected:
        raise RuntimeError(f"{config}: tracing.ENABLED is {tracing.ENABLED}")
    stats = asyncio.run(run_agentlog(Stats(config), InMemorySessionService(), turns, set()))
    return stats.seconds


def _ms_at(seconds: list[float], turn: int, window: int = 5) -> float:
    return statistics.median(seconds[max(0, turn - window) : turn]) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=1_000, help="turns in the session (1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration (3)")
    parser.add_argument("--config", choices=CONFIGS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.config is not None:
        print(json.dumps(_one(args.config, args.turns)))
        return
    checkpoints = [c for c in CHECKPOINTS if c <= args.turns] or [args.turns]
    runs: dict[str, list[list[float]]] = {c: [] for c in CONFIGS}
    for round_ in range(args.repeat):
        for config in CONFIGS:
            print(f"round {round_ + 1}: {config}", file=sys.stderr, flush=True)
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "bench.tracing",
                    "--config",
                    config,
                    "--turns",
                    str(args.turns),
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=True,
            )
            runs[config].append(json.loads(done.stdout))
    print(f"{'turn':>6} | " + " | ".join(f"{c:>16}" for c in CONFIGS))
    for turn in checkpoints:
        ms = {c: statistics.median(_ms_at(r, turn) for r in runs[c]) for c in CONFIGS}
        cells = [
            f"{ms[c]:>9.3f} ms" + (f" {ms[c] - ms['absent']:+.3f}" if c != "absent" else "      ")
            for c in CONFIGS
        ]
        print(f"{turn:>6,} | " + " | ".join(f"{cell:>16}" for cell in cells))
    print()
    print(
        "ms: framework time of a turn (its stream read to the end, minus the model's time), "
        f"median of turns N-4..N, median of {args.repeat} runs; +x: the difference from absent."
    )


if __name__ == "__main__":
    main()
