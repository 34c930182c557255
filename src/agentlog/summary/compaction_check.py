"""A compaction validator built from the summary checks (SPEC 5, issue 4).

Compaction summaries serve the same agent a moment later, but a dropped order number or amount
is lost for good once the window is summarised. This check rejects a compaction whose summary
leaves out an identifier, amount or date of its window, covers events that are not in its
window, or carries instructions aimed at the next reader.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentlog.compaction import CompactionValidator
from agentlog.events import Event
from agentlog.summary.entities import EntityPatterns
from agentlog.summary.expected import missing_entities, transcript_entities
from agentlog.summary.instructions import InstructionPatterns
from agentlog.summary.render import transcript_lines

__all__ = ["compaction_validator"]


def compaction_validator(
    patterns: EntityPatterns | None = None,
    *,
    instruction_patterns: InstructionPatterns | None = None,
    max_tool_chars: int = 2_000,
) -> CompactionValidator:
    """A ``CompactionValidator`` for ``EventsCompactionConfig(validator=...)``."""
    entity_patterns = patterns or EntityPatterns.default()
    instructions = instruction_patterns or InstructionPatterns.default()

    def check(compaction_event: Event, window: Sequence[Event]) -> list[str]:
        compaction = compaction_event.actions.compaction
        if compaction is None:
            return ["the event is not a compaction"]
        summary = "".join(p.text or "" for p in compaction.summary.parts)
        problems: list[str] = []
        known = {e.id for e in window}
        unknown = [i for i in compaction.event_ids if i not in known]
        if unknown:
            problems.append(f"covers events outside its window: {', '.join(unknown[:5])}")
        expected = transcript_entities(
            transcript_lines(window, max_tool_chars=max_tool_chars), entity_patterns
        )
        for missing in missing_entities(summary, expected, entity_patterns):
            problems.append(f"dropped {missing.entity.shown()} ({missing.entity.name})")
        if (found := instructions.search(summary)) is not None:
            problems.append(f"carries instruction-like text: {found!r}")
        return problems

    return check
