"""Label counts of the extractive records of every evaluation set (issue 13, red team round 3).

Run from a tree's root with the dev venv: ``.venv/bin/python -m bench.redteam3_labels``
(``--eval-dir`` for the shared development sessions). For each set (``evals/*.jsonl``, the
tau2 sample, the development sessions): the items of the extractive
summariser's records per provenance label (the goal included), so that a change to the
provenance rules can be shown to keep honest labels: the counts must not drop.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from agentlog.summary import EntityPatterns, ExtractiveSummarizer, load_jsonl_sessions

_DOMAINS = {"retail": EntityPatterns.retail(), "telecom": EntityPatterns.telecom()}
_LABELS = ("verified", "agent_statement", "user_claim")


def counts(path: Path) -> Counter[str]:
    """Items per label over the extractive records of the sessions in ``path``."""
    found: Counter[str] = Counter()
    for session in load_jsonl_sessions(path):
        domain = str(session.meta.get("domain", ""))
        patterns = _DOMAINS.get(domain) or EntityPatterns.default()
        record = ExtractiveSummarizer(patterns=patterns).summarize_now(session.events).record
        if record is None:
            found["no record"] += 1
            continue
        if record.goal_provenance is not None:
            found[record.goal_provenance] += 1
        for _, item in record.items():
            found[str(item.provenance)] += 1
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--eval-dir", default="../shared/eval", help="development sessions")
    args = parser.parse_args(argv)
    paths = [
        *sorted(Path("evals").glob("*.jsonl")),
        *sorted(Path("tests/data/tau2").glob("*.jsonl")),
        *sorted(Path(args.eval_dir).glob("*.jsonl")),
    ]
    print("| set | " + " | ".join(_LABELS) + " | no record |")
    print("| --- |" + " --- |" * (len(_LABELS) + 1))
    for path in paths:
        if not path.is_file():
            continue
        found = counts(path)
        cells = [str(found[label]) for label in (*_LABELS, "no record")]
        print(f"| {path.name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
