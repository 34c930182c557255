"""A digest of every checked-summary output, to show that a speed change changes none of them.

Run from a tree's root with the dev venv::

    .venv/bin/python -m bench.summary_snapshot [--eval-dir ../shared/eval] [--write F | --compare F]

It records, for every session of ``evals/*.jsonl``, ``tests/data/tau2/*.jsonl`` and the
development sessions (``--eval-dir``): the extractive summariser's result (its record's JSON,
labels included, its problems, outputs and recall) and the validator's record and problems for
that session's smallest passing record (:func:`bench.summary.smallest_record`); for the 1,000
event session of :mod:`bench.summary`, the validator's labelled record and problems for its
smallest passing record and its extractive record; and the table of
:mod:`bench.redteam3_labels`. It prints one SHA-256 digest of all of it; ``--write`` saves the
entries as JSON, ``--compare`` reads such a file and names each entry that differs (exit 1).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
from collections.abc import Sequence
from pathlib import Path

from agentlog.events import Event
from agentlog.summary import (
    EntityPatterns,
    ExtractiveSummarizer,
    load_jsonl_sessions,
    transcript_lines,
    validate_output,
)
from bench import redteam3_labels
from bench.summary import DOMAINS, long_session, smallest_record


def _checked(record_json: str, events: Sequence[Event], patterns: EntityPatterns) -> str:
    """The validator's labelled record and problems for ``record_json``, as JSON."""
    lines = transcript_lines(events)
    record, problems = validate_output(
        record_json, events=events, transcript=lines, patterns=patterns
    )
    return json.dumps(
        {
            "record": None if record is None else record.model_dump(mode="json"),
            "problems": [p.model_dump(mode="json") for p in problems],
        },
        sort_keys=True,
    )


def snapshot(eval_dir: Path) -> dict[str, str]:
    """Every entry (see the module docstring), by a name that says what it is."""
    entries: dict[str, str] = {}
    paths = [
        *sorted(Path("evals").glob("*.jsonl")),
        *sorted(Path("tests/data/tau2").glob("*.jsonl")),
        *sorted(eval_dir.glob("*.jsonl")),
    ]
    for path in paths:
        for n, session in enumerate(load_jsonl_sessions(path)):
            domain = str(session.meta.get("domain", ""))
            patterns = DOMAINS.get(domain) or EntityPatterns.default()
            result = ExtractiveSummarizer(patterns=patterns).summarize_now(session.events)
            name = f"{path.name}#{n}"
            entries[f"{name} extractive"] = result.model_dump_json()
            smallest = smallest_record(session.events, patterns).model_dump_json()
            entries[f"{name} smallest"] = _checked(smallest, session.events, patterns)
    retail = eval_dir / "tau2-retail-gpt41.jsonl"
    sessions = load_jsonl_sessions(retail) if retail.is_file() else []
    events = long_session(sessions, 1_000)
    patterns = DOMAINS["retail"]
    extractive = ExtractiveSummarizer(patterns=patterns).summarize_now(events).record
    records = {"smallest": smallest_record(events, patterns), "extractive": extractive}
    for name, record in records.items():
        dumped = "null" if record is None else record.model_dump_json()
        entries[f"1,000 events {name}"] = _checked(dumped, events, patterns)
    table = io.StringIO()
    with contextlib.redirect_stdout(table):
        redteam3_labels.main(["--eval-dir", str(eval_dir)])
    entries["redteam3_labels"] = table.getvalue()
    return entries


def digest(entries: dict[str, str]) -> str:
    """One SHA-256 of every entry, names included."""
    return hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--eval-dir", default="../shared/eval", help="development sessions")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", type=Path, help="save the entries to this JSON file")
    group.add_argument("--compare", type=Path, help="compare with entries saved by --write")
    args = parser.parse_args(argv)
    entries = snapshot(Path(args.eval_dir))
    print(f"{len(entries)} entries, digest {digest(entries)}")
    if args.write is not None:
        args.write.write_text(json.dumps(entries, sort_keys=True, indent=0))
    if args.compare is not None:
        saved: dict[str, str] = json.loads(args.compare.read_text())
        differ = sorted(k for k in {*saved, *entries} if saved.get(k) != entries.get(k))
        for name in differ:
            print(f"differs: {name}")
        print(f"{len(differ)} of {len(saved)} saved entries differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
