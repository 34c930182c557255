"""``ExtractiveSummarizer``: a deterministic, model-free summariser with the same checked output.

It reads the same rendered transcript a model would, and builds:

- ``goal``: the customer's request from their first message, at most 100 characters;
- ``facts``: one per thing a tool read (``Order A-1001: status shipped, ...``: its identifier,
  the fields the record must keep and one status; a second read merged into it), a search as
  its argument values, how many it found and the results the conversation named, a failed
  call, and a labelled part that several tools' prose results repeat as one fact of its last
  value, each citing the call and the result;
- ``decisions``: each state-changing tool call that succeeded (a name with a write verb,
  ``cancel_``, ``modify_``, ``refund_``, ..., or a result event that changed state) as
  ``<verb phrase> <object id>: <what changed>``, an operator's answer to a confirmation, and
  each handoff to another agent (``Handed to <agent>``);
- ``commitments``: the clauses of the agents' sentences that say what will happen
  (:mod:`._pending`: "HR will reply within 5 working days (HRC:2026:118)"), each with the
  identifier it concerns when it writes none; not a finished action (its decision says it),
  nor a promise to act now that a later action kept ("I'll refund the second one");
- ``open_questions``: the customer's questions after the agent's last reply, calls still
  without a result, outcomes a result or an agent says are awaited ("ESC-30218: decision by
  May 26, 2026", a waiting status, "They have until 2026-05-25 to accept") unless a
  commitment says as much, and a final error. A result's field a later commitment tells the
  customer again is said once, in the commitment.

Then every entity of the transcript that no item keeps is attached to an item citing the event
it came from (the sentence around it, for a message), so the record passes the same validator
as a model's. It is the offline default and the evaluation's baseline, not a reader's ideal.

It copies text, so it never copies instruction-like text
(:mod:`~agentlog.summary.record.instructions`): the strings of tool payloads are cleaned of such
sentences before they are read, and every item's text is cleaned again before it is added (an item
left empty is not added). An entity that only occurred inside such a sentence is still kept, as
"<author> mentioned <entity>".

Each job is a module beside this one, a function taking the session's :class:`~._draft.Draft`:
the tool results (:mod:`._results`: the things read, :mod:`._things`; the writes,
:mod:`._writes`; the outcomes awaited, :mod:`._awaited`), the conversation
(:mod:`._conversation`, its commitments :mod:`._commitments`), the goal (:mod:`._goal`) and the
entities kept (:mod:`._kept`); this module assembles their items into the record and checks it."""

from __future__ import annotations

from agentlog.summary.record._extract import is_state_changing
from agentlog.summary.record._scope import one_check
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.result import SummaryInput, SummaryResult, events_of
from agentlog.summary.record.schema import SummaryRecord
from agentlog.summary.record.validate import (
    ParsedTranscript,
    check_and_label,
    entity_occurrences,
    transcript_entities,
)
from agentlog.summary.summarisers._awaited import open_questions
from agentlog.summary.summarisers._commitments import new_commitments, told, told_fact
from agentlog.summary.summarisers._conversation import conversation
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._goal import first_request, goal
from agentlog.summary.summarisers._kept import drop_held, keep_entities, relayed
from agentlog.summary.summarisers._results import tool_results
from agentlog.summary.summarisers._things import found_things, once_each
from agentlog.summary.summarisers.metrics import SummaryMetrics
from agentlog.transcript import transcript_lines

__all__ = ["ExtractiveSummarizer", "is_state_changing"]


class ExtractiveSummarizer:
    """Checked summaries without a model; see the module docstring.

    Args:
        patterns: entity patterns of the domain (``EntityPatterns.default()`` if omitted).
        max_tool_chars: the transcript's limit on a tool payload, as for ``SummaryService``.
        max_text_chars: the transcript's limit on a text, as for ``SummaryService``.
        max_item_chars: an item's text is cut to about this many characters (entities lost
            by the cut are attached again).
        instruction_patterns: the instruction-like text never copied into a record (and
            checked by the validator); ``InstructionPatterns.default()`` if omitted.
    """

    def __init__(
        self,
        *,
        patterns: EntityPatterns | None = None,
        max_tool_chars: int = 2_000,
        max_text_chars: int = 4_000,
        max_item_chars: int = 300,
        instruction_patterns: InstructionPatterns | None = None,
    ) -> None:
        self.patterns = patterns or EntityPatterns.default()
        self.instruction_patterns = instruction_patterns or InstructionPatterns.default()
        self.max_tool_chars = max_tool_chars
        self.max_text_chars = max_text_chars
        self.max_item_chars = max_item_chars
        self.metrics = SummaryMetrics()
        """Totals over every summary this summariser attempted."""

    def summarize_now(self, session: SummaryInput) -> SummaryResult:
        """Summarise and validate ``session``, synchronously (it never waits on anything)."""
        with one_check():  # the validator reads again what the summary read: once for both
            return self._summarize(session)

    def _summarize(self, session: SummaryInput) -> SummaryResult:
        events, session_id = events_of(session)
        lines = transcript_lines(
            events, max_tool_chars=self.max_tool_chars, max_text_chars=self.max_text_chars
        )
        parsed = ParsedTranscript(lines)
        transcript = parsed.text
        occurrences = entity_occurrences(parsed, self.patterns)
        expected = transcript_entities(parsed, self.patterns, occurrences)
        by_event: dict[str, set[str]] = {}
        for entity, event_id in occurrences:
            # Only what a record must keep leads an item: the rest of a dump is left out.
            if event_id is not None and entity.key in expected:
                by_event.setdefault(event_id, set()).add(entity.text)
        for event_id, values in relayed(lines).items():
            by_event.setdefault(event_id, set()).update(values)
        first_user = first_request(lines)

        def build(instructions: InstructionPatterns | None) -> SummaryRecord:
            draft = Draft.of(
                events, lines, self.max_item_chars, self.patterns, by_event, instructions
            )
            tool_results(draft)
            conversation(draft)
            asked, also = goal(first_user, self.max_item_chars, instructions)
            record = _assembled(draft, asked + also)
            if asked + also and first_user is not None:
                record = record.model_copy(update={"goal_sources": (first_user.event_id,)})
            # The bracketed identifiers keep what the cut left out; they hold nothing a search's
            # fact says for the tool, so they never stand in for it.
            record = drop_held(draft, record, expected, self.patterns, asked)
            return keep_entities(draft, record, expected, self.patterns)

        # Cleaning costs a regex scan per copied string, so it runs only when it has work: when
        # the transcript, or the record copied without it, holds instruction-like text.
        record = build(None)
        find = self.instruction_patterns.search
        if find(record.text()) is not None or find(transcript) is not None:
            record = build(self.instruction_patterns)
        labelled, problems = check_and_label(
            record,
            transcript=parsed,
            events=events,
            patterns=self.patterns,
            expected=expected,
            instruction_patterns=self.instruction_patterns,
        )
        dropped = sum(p.kind == "dropped_entity" for p in problems)
        recall = (len(expected) - dropped) / len(expected) if expected else 1.0
        result = SummaryResult(
            session_id=session_id,
            summarizer="extractive",
            record=None if problems else labelled,
            attempts=1,
            problems=(tuple(problems),),
            outputs=(record.model_dump_json(),),
            entity_recall=recall,
            first_entity_recall=recall,
            transcript=transcript if problems else None,
        )
        self.metrics.record(result)
        return result

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        """``summarize_now``, for callers that take any ``Summarizer``."""
        return self.summarize_now(session)


def _assembled(draft: Draft, goal_text: str) -> SummaryRecord:
    """The record of ``draft``'s items under ``goal_text``: each promise once, the open
    questions that stay beside the commitments, a lookup that found a thing folded into the
    thing's fact, and what a later commitment tells again said once, in the commitment."""
    commitments = new_commitments(draft)
    questions = open_questions(draft, commitments)
    return SummaryRecord(
        goal=goal_text,
        facts=tuple(
            told_fact(draft, f, commitments) for f in once_each(draft, found_things(draft))
        ),
        decisions=tuple(told(draft, d, commitments) for d in draft.decisions),
        commitments=tuple(commitments),
        open_questions=tuple(questions),
    )
