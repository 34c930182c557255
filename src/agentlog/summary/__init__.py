"""Checked summaries: a record of a session for a reader who cannot ask.

Every item of a record cites the events it came from, and code checks the record before anyone
reads it: it parses, every item has sources, every source is an event of the session, and every
identifier, amount and date of the transcript is still in it, and no item carries
instruction-like text ("note for the next agent: pre-approved ..."). Code, not the model, labels
what rests only on the customer's word. A record that fails twice is not delivered.

- :class:`SummaryService` (a model, through an ordinary runner) and
  :class:`ExtractiveSummarizer` (no model) both return a :class:`SummaryResult`.
- :func:`render_transcript`, :class:`EntityPatterns` and :func:`validate_output` are the parts.
- :func:`render_digest`, :func:`start_handoff` and :func:`memory_entries` use a record;
  :class:`BackgroundSummarizer` takes summaries when sessions go idle or end (or hands them
  to a :class:`SummaryQueue`, such as :class:`agentlog.jobs.queue.JobQueue`).
- Summaries are kept in a :class:`SummaryStore`: in memory, SQLite, or PostgreSQL
  (:mod:`agentlog.summary.postgres`, the ``postgres`` extra).
"""

import importlib
from typing import TYPE_CHECKING, Any

from agentlog.summary.agent import SUMMARY_INSTRUCTION, SummaryAgent
from agentlog.summary.background import BackgroundSummarizer, SummaryQueue
from agentlog.summary.compaction_check import compaction_validator
from agentlog.summary.digest import render_digest
from agentlog.summary.entities import (
    Entity,
    EntityPattern,
    EntityPatterns,
    find_entities,
    normalise_amount,
)
from agentlog.summary.extractive import ExtractiveSummarizer, is_state_changing
from agentlog.summary.handoff import (
    HANDOFF_AUTHOR,
    HANDOFF_SOURCE_KEY,
    HANDOFF_TARGET_KEY,
    render_handoff,
    start_handoff,
)
from agentlog.summary.import_ import (
    ImportedSession,
    import_adk_session,
    iter_jsonl_sessions,
    load_jsonl_sessions,
    session_from_jsonl,
)
from agentlog.summary.instructions import DEFAULT_INSTRUCTION_PATTERNS, InstructionPatterns
from agentlog.summary.memory_entries import MemoryEntryFields, memory_entries
from agentlog.summary.metrics import SummaryMetrics
from agentlog.summary.provenance import label_provenance
from agentlog.summary.result import Summarizer, SummaryInput, SummaryResult, TokenPrice
from agentlog.summary.schema import (
    SECTIONS,
    Provenance,
    SummaryItem,
    SummaryRecord,
    model_output_schema,
)
from agentlog.summary.store import (
    InMemorySummaryStore,
    SqliteSummaryStore,
    StoredSummary,
    SummaryStore,
)
from agentlog.summary.validate import (
    ExpectedEntity,
    Problem,
    ProblemKind,
    check_record,
    dropped_entities,
    entity_recall,
    instruction_problems,
    parse_record,
    transcript_entities,
    validate_output,
)
from agentlog.transcript import render_transcript, transcript_lines

__all__ = [
    "DEFAULT_INSTRUCTION_PATTERNS",
    "HANDOFF_AUTHOR",
    "HANDOFF_SOURCE_KEY",
    "HANDOFF_TARGET_KEY",
    "SECTIONS",
    "SUMMARY_INSTRUCTION",
    "BackgroundSummarizer",
    "Entity",
    "EntityPattern",
    "EntityPatterns",
    "ExpectedEntity",
    "ExtractiveSummarizer",
    "ImportedSession",
    "InMemorySummaryStore",
    "InstructionPatterns",
    "MemoryEntryFields",
    "Problem",
    "ProblemKind",
    "Provenance",
    "SqliteSummaryStore",
    "StoredSummary",
    "Summarizer",
    "SummaryAgent",
    "SummaryInput",
    "SummaryItem",
    "SummaryMetrics",
    "SummaryQueue",
    "SummaryRecord",
    "SummaryResult",
    "SummaryService",
    "SummaryStore",
    "TokenPrice",
    "check_record",
    "compaction_validator",
    "dropped_entities",
    "entity_recall",
    "find_entities",
    "import_adk_session",
    "instruction_problems",
    "is_state_changing",
    "iter_jsonl_sessions",
    "label_provenance",
    "load_jsonl_sessions",
    "memory_entries",
    "model_output_schema",
    "normalise_amount",
    "parse_record",
    "render_digest",
    "render_handoff",
    "render_transcript",
    "session_from_jsonl",
    "start_handoff",
    "transcript_entities",
    "transcript_lines",
    "validate_output",
]


if TYPE_CHECKING:
    from agentlog.summary.service import SummaryService

# Names whose modules need the runner, imported on first use: importing the record and its
# checks (schema, provenance, validate, entities) never imports the runner.
_LAZY = {"SummaryService": "agentlog.summary.service"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentlog.summary' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
