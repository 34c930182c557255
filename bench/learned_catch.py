"""Would the validator pass a record that dropped an expected entity? The catch rate per set.

For each session of an evaluation set and each of its hand-written ``expected_entities``, the
extractive summariser's record loses every item (and the goal) that mentions the entity, and the
validator's entity check runs on what is left: the entity is *caught* when the check reports
an entity of the transcript that means the same thing (same identifier, amount or date, as
``agentlog.summary.evaluation`` matches them) as dropped. Entities the extractive record never
held are counted apart (nothing to drop). The patterns are the default ones for a domain
without a preset, as ``agentlog eval --patterns auto`` picks them.

    .venv/bin/python -m bench.learned_catch evals/booking-eval.jsonl evals/insurance-eval.jsonl
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agentlog.summary.evaluation._match import mentions
from agentlog.summary.importers.jsonl import load_jsonl_sessions
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.expected import ParsedTranscript, transcript_entities
from agentlog.summary.record.schema import SummaryItem, SummaryRecord
from agentlog.summary.record.validate import dropped_entities, parse_record
from agentlog.summary.summarisers.extractive import ExtractiveSummarizer
from agentlog.transcript import transcript_lines

DOMAINS = {"retail": EntityPatterns.retail(), "telecom": EntityPatterns.telecom()}


def holds(text: str, entity: str) -> bool:
    """``mentions``, also with the entity's spaces taken out: ``AB12 CDE`` in prose is
    ``AB12CDE`` in a tool's arguments, and an IBAN is grouped by four or not at all."""
    squeezed = "".join(entity.split())
    return mentions(text, entity) or (squeezed != entity and mentions(text, squeezed))


def without(record: SummaryRecord, entity: str) -> SummaryRecord:
    """``record`` minus the goal and every item that mentions ``entity``."""

    def keep(items: tuple[SummaryItem, ...]) -> tuple[SummaryItem, ...]:
        return tuple(i for i in items if not holds(i.text, entity))

    update = {
        "facts": keep(record.facts),
        "decisions": keep(record.decisions),
        "commitments": keep(record.commitments),
        "open_questions": keep(record.open_questions),
    }
    if holds(record.goal, entity):
        update |= {"goal": "", "goal_sources": ()}
    return record.model_copy(update=update)


def same(found: str, entity: str) -> bool:
    return holds(found, entity) or holds(entity, found)


def catch_rate(path: Path, *, verbose: bool) -> tuple[int, int, int, int]:
    """(caught, droppable, required by the validator, expected) over one set."""
    caught = droppable = required = total = 0
    for session in load_jsonl_sessions(path):
        patterns = DOMAINS.get(str(session.meta.get("domain", ""))) or EntityPatterns.default()
        summariser = ExtractiveSummarizer(patterns=patterns)
        result = summariser.summarize_now(session.events)
        record = result.record
        if record is None:  # the failing record: what it dropped is measured all the same
            record, _ = parse_record(result.outputs[-1])
        assert record is not None
        parsed = ParsedTranscript(
            transcript_lines(
                session.events,
                max_tool_chars=summariser.max_tool_chars,
                max_text_chars=summariser.max_text_chars,
            )
        )
        needed = [x.entity.text for x in transcript_entities(parsed, patterns).values()]
        for entity in session.meta.get("expected_entities", []):
            total += 1
            is_required = any(same(text, entity) for text in needed)
            required += is_required
            if not holds(record.text(), entity):
                if verbose:
                    print(f"  {session.session_id}: {entity}: not in the record")
                continue
            droppable += 1
            lost = dropped_entities(without(record, entity), parsed, patterns)
            hit = any(same(x.entity.text, entity) for x in lost)
            caught += hit
            if verbose and not hit:
                print(f"  {session.session_id}: {entity}: dropped, validator silent")
    return caught, droppable, required, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    for path in args.sets:
        caught, droppable, required, total = catch_rate(path, verbose=args.verbose)
        print(
            f"{path.name}: caught {caught}/{droppable} dropped ({caught / max(1, droppable):.1%});"
            f" the validator requires {required}/{total} expected entities"
        )


if __name__ == "__main__":
    main()
