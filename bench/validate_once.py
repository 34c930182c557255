"""One ``validate_output`` of the 1,000-event session's extractive record, for callgrind.

Instruction counts are repeatable where wall-clock timings on a shared machine are not. Run
it twice under callgrind, with no validation and with one, and subtract: the difference is
what one render + validate costs, the session's building and the summariser's own run being
the same in both::

    valgrind --tool=callgrind .venv/bin/python -m bench.validate_once --eval-dir ../shared/eval 0
    valgrind --tool=callgrind .venv/bin/python -m bench.validate_once --eval-dir ../shared/eval 1

(``I refs`` of the second minus the first.) Compare two trees by running both from each.
``--record smallest`` validates the smallest passing record instead (one item per event
holding entities, :func:`bench.summary.smallest_record`): the validator's fixed cost, with few
cited payloads.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agentlog.summary import (
    ExtractiveSummarizer,
    load_jsonl_sessions,
    transcript_lines,
    validate_output,
)
from bench.summary import DOMAINS, long_session, smallest_record


def main() -> None:
    """Build the session and its record, then validate it ``times`` times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("times", type=int, help="validations to run (0 or 1)")
    parser.add_argument("--eval-dir", type=Path, default=Path("../shared/eval"))
    parser.add_argument("--events", type=int, default=1_000)
    parser.add_argument("--record", choices=("extractive", "smallest"), default="extractive")
    args = parser.parse_args()
    sessions = load_jsonl_sessions(args.eval_dir / "tau2-retail-gpt41.jsonl")
    events = long_session(sessions, args.events)
    patterns = DOMAINS["retail"]
    if args.record == "smallest":
        record = smallest_record(events, patterns).model_dump_json()
    else:
        result = ExtractiveSummarizer(patterns=patterns).summarize_now(events)
        assert result.record is not None, result.problems
        record = result.record.model_dump_json()
    for _ in range(args.times):
        validate_output(
            record, events=events, transcript=transcript_lines(events), patterns=patterns
        )


if __name__ == "__main__":
    main()
