"""The extractive summariser over the 80 development sessions, ``times`` times, for callgrind.

The work of :mod:`bench.summary`'s rate row (each session summarised with its domain's
patterns: render, extract, validate), without the timing. Run it twice under callgrind, with
no pass and with one, and subtract: the difference is what one pass over the 80 sessions
costs, loading them being the same in both::

    PYTHONPATH=. valgrind --tool=callgrind .venv/bin/python -m bench.extractive_rate \\
        --eval-dir ../shared/eval 0
    PYTHONPATH=. valgrind --tool=callgrind .venv/bin/python -m bench.extractive_rate \\
        --eval-dir ../shared/eval 1

(``I refs`` of the second minus the first.) Compare two trees by running both from each.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agentlog.summary import ExtractiveSummarizer, load_jsonl_sessions
from bench.summary import DOMAINS


def main() -> None:
    """Load the development sessions, then summarise each of them ``times`` times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("times", type=int, help="passes over the sessions (0 or 1)")
    parser.add_argument("--eval-dir", type=Path, default=Path("../shared/eval"))
    args = parser.parse_args()
    work = []
    for domain, patterns in DOMAINS.items():
        path = args.eval_dir / f"tau2-{domain}-gpt41.jsonl"
        if path.is_file():
            summarizer = ExtractiveSummarizer(patterns=patterns)
            work.extend((summarizer, s.events) for s in load_jsonl_sessions(path))
    for _ in range(args.times):
        for summarizer, events in work:
            summarizer.summarize_now(events)


if __name__ == "__main__":
    main()
