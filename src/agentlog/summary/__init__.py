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
  (:mod:`agentlog.summary.stores.postgres`, the ``postgres`` extra).

The package is split by job, each importing only from the ones before it:

- :mod:`agentlog.summary.record`: the record and its checks (schema, entities, provenance,
  validation, compaction records); never imports the runner;
- :mod:`agentlog.summary.stores`: where summaries are kept;
- :mod:`agentlog.summary.summarisers`: the model-based, extractive and background summarisers;
- :mod:`agentlog.summary.uses`: digests, handoffs and memory entries made from a record;
- :mod:`agentlog.summary.evaluation` and :mod:`agentlog.summary.importers`: scoring records
  against hand-written expectations, and sessions written elsewhere (JSON Lines, google-adk).

Importing this package imports none of them; each name below is loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentlog.summary.importers.adk import import_adk_session
    from agentlog.summary.importers.jsonl import (
        ImportedSession,
        iter_jsonl_sessions,
        load_jsonl_sessions,
        session_from_jsonl,
    )
    from agentlog.summary.record.compaction_check import compaction_validator
    from agentlog.summary.record.entities import (
        Entity,
        EntityPattern,
        EntityPatterns,
        find_entities,
        normalise_amount,
    )
    from agentlog.summary.record.instructions import (
        DEFAULT_INSTRUCTION_PATTERNS,
        InstructionPatterns,
    )
    from agentlog.summary.record.marks import HANDOFF_AUTHOR, HANDOFF_SOURCE_KEY, HANDOFF_TARGET_KEY
    from agentlog.summary.record.provenance import label_provenance
    from agentlog.summary.record.result import Summarizer, SummaryInput, SummaryResult, TokenPrice
    from agentlog.summary.record.schema import (
        SECTIONS,
        Provenance,
        SummaryItem,
        SummaryRecord,
        model_output_schema,
    )
    from agentlog.summary.record.validate import (
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
    from agentlog.summary.stores.base import InMemorySummaryStore, StoredSummary, SummaryStore
    from agentlog.summary.stores.sqlite import SqliteSummaryStore
    from agentlog.summary.summarisers.agent import SUMMARY_INSTRUCTION, SummaryAgent
    from agentlog.summary.summarisers.background import BackgroundSummarizer, SummaryQueue
    from agentlog.summary.summarisers.extractive import ExtractiveSummarizer, is_state_changing
    from agentlog.summary.summarisers.metrics import SummaryMetrics
    from agentlog.summary.summarisers.service import SummaryService
    from agentlog.summary.uses.digest import render_digest
    from agentlog.summary.uses.handoff import render_handoff, start_handoff
    from agentlog.summary.uses.memory_entries import MemoryEntryFields, memory_entries
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

# Where each public name lives. Nothing is imported until it is asked for, so importing the
# record and its checks never imports the summarisers, and the summarisers never the runner.
_LAZY: dict[str, str] = {
    "BackgroundSummarizer": "agentlog.summary.summarisers.background",
    "DEFAULT_INSTRUCTION_PATTERNS": "agentlog.summary.record.instructions",
    "Entity": "agentlog.summary.record.entities",
    "EntityPattern": "agentlog.summary.record.entities",
    "EntityPatterns": "agentlog.summary.record.entities",
    "ExpectedEntity": "agentlog.summary.record.validate",
    "ExtractiveSummarizer": "agentlog.summary.summarisers.extractive",
    "HANDOFF_AUTHOR": "agentlog.summary.record.marks",
    "HANDOFF_SOURCE_KEY": "agentlog.summary.record.marks",
    "HANDOFF_TARGET_KEY": "agentlog.summary.record.marks",
    "ImportedSession": "agentlog.summary.importers.jsonl",
    "InMemorySummaryStore": "agentlog.summary.stores.base",
    "InstructionPatterns": "agentlog.summary.record.instructions",
    "MemoryEntryFields": "agentlog.summary.uses.memory_entries",
    "Problem": "agentlog.summary.record.validate",
    "ProblemKind": "agentlog.summary.record.validate",
    "Provenance": "agentlog.summary.record.schema",
    "SECTIONS": "agentlog.summary.record.schema",
    "SUMMARY_INSTRUCTION": "agentlog.summary.summarisers.agent",
    "SqliteSummaryStore": "agentlog.summary.stores.sqlite",
    "StoredSummary": "agentlog.summary.stores.base",
    "Summarizer": "agentlog.summary.record.result",
    "SummaryAgent": "agentlog.summary.summarisers.agent",
    "SummaryInput": "agentlog.summary.record.result",
    "SummaryItem": "agentlog.summary.record.schema",
    "SummaryMetrics": "agentlog.summary.summarisers.metrics",
    "SummaryQueue": "agentlog.summary.summarisers.background",
    "SummaryRecord": "agentlog.summary.record.schema",
    "SummaryResult": "agentlog.summary.record.result",
    "SummaryService": "agentlog.summary.summarisers.service",
    "SummaryStore": "agentlog.summary.stores.base",
    "TokenPrice": "agentlog.summary.record.result",
    "check_record": "agentlog.summary.record.validate",
    "compaction_validator": "agentlog.summary.record.compaction_check",
    "dropped_entities": "agentlog.summary.record.validate",
    "entity_recall": "agentlog.summary.record.validate",
    "find_entities": "agentlog.summary.record.entities",
    "import_adk_session": "agentlog.summary.importers.adk",
    "instruction_problems": "agentlog.summary.record.validate",
    "is_state_changing": "agentlog.summary.summarisers.extractive",
    "iter_jsonl_sessions": "agentlog.summary.importers.jsonl",
    "label_provenance": "agentlog.summary.record.provenance",
    "load_jsonl_sessions": "agentlog.summary.importers.jsonl",
    "memory_entries": "agentlog.summary.uses.memory_entries",
    "model_output_schema": "agentlog.summary.record.schema",
    "normalise_amount": "agentlog.summary.record.entities",
    "parse_record": "agentlog.summary.record.validate",
    "render_digest": "agentlog.summary.uses.digest",
    "render_handoff": "agentlog.summary.uses.handoff",
    "render_transcript": "agentlog.transcript",
    "session_from_jsonl": "agentlog.summary.importers.jsonl",
    "start_handoff": "agentlog.summary.uses.handoff",
    "transcript_entities": "agentlog.summary.record.validate",
    "transcript_lines": "agentlog.transcript",
    "validate_output": "agentlog.summary.record.validate",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentlog.summary' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
