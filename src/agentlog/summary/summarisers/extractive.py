"""``ExtractiveSummarizer``: a deterministic, model-free summariser with the same checked output.

It reads the same rendered transcript a model would, and builds:

- ``goal``: the customer's first message;
- ``facts``: each tool result (its name, arguments and the leaves of its payload), citing the
  call and the result;
- ``decisions``: each state-changing tool call that succeeded (a name with a write verb,
  ``cancel_``, ``modify_``, ``refund_``, ..., or a result event that changed state) and each
  handoff to another agent;
- ``commitments``: the agent's sentences that promise something ("I will", "will be
  refunded", "within 5 days", ...), questions excluded;
- ``open_questions``: the customer's questions after the agent's last reply, calls still
  without a result, and a final error.

Then every entity of the transcript that no item keeps is attached to an item citing the event
it came from (the sentence around it, for a message), so the record passes the same validator
as a model's. It is the offline default and the evaluation's baseline, not a reader's ideal.

It copies text, so it never copies instruction-like text
(:mod:`~agentlog.summary.record.instructions`): the strings of tool payloads are cleaned of such
sentences before they are read, and every item's text is cleaned again before it is added (an item
left empty is not added). An entity that only occurred inside such a sentence is still kept, as
"<author> mentioned <entity>"."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from agentlog.approvals import REQUEST_CONFIRMATION
from agentlog.events import Event
from agentlog.summary.record._extract import (
    clip,
    failed,
    is_lookup,
    is_promise,
    is_state_changing,
    names_something,
    needs_context,
    payload_text,
    sentences,
)
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.provenance import USER_AUTHOR
from agentlog.summary.record.result import SummaryInput, SummaryResult, events_of
from agentlog.summary.record.schema import SummaryItem, SummaryRecord
from agentlog.summary.record.validate import (
    ExpectedEntity,
    ParsedTranscript,
    check_and_label,
    entity_occurrences,
    missing_entities,
    transcript_entities,
)
from agentlog.summary.summarisers.metrics import SummaryMetrics
from agentlog.transcript import TranscriptLine, transcript_lines

__all__ = ["ExtractiveSummarizer", "is_state_changing"]

_COVERED: Final = re.compile(r"^of \d+ events? \([^)]*\): ")
"""How a compaction line opens: the events it covers, which its citation already names."""
_TRANSFER_TOOL: Final = "transfer_to_agent"
"""The transfer tool's name (``TransferToAgentTool.NAME``; the agents package is a layer up)."""


def _same(value: Any) -> Any:
    return value


class _Builder:
    """One session's items, in the order they are found."""

    def __init__(
        self,
        events: Sequence[Event],
        lines: Sequence[TranscriptLine],
        limit: int,
        patterns: EntityPatterns,
        entities: dict[str, set[str]],
        instructions: InstructionPatterns | None,
    ):
        self.events = {e.id: e for e in events}
        self.patterns = patterns
        self.instructions = instructions  # None: copy text as it is (nothing to clean)
        self.entities = entities  # event id: texts of the entities its lines hold
        self.lines = lines
        self.limit = limit
        self.facts: list[SummaryItem] = []
        self.decisions: list[SummaryItem] = []
        self.commitments: list[SummaryItem] = []
        self.open_questions: list[SummaryItem] = []
        self.calls: dict[str, tuple[str, str, Any]] = {}  # call id: event id, name, args
        for event in events:
            for call in event.function_calls():
                self.calls[call.id] = (event.id, call.name, call.args)

    def add(self, items: list[SummaryItem], text: str, sources: Iterable[str]) -> None:
        if self.instructions is not None:
            text = self.instructions.drop(text)
            if not text:
                return
        item = SummaryItem(text=text, sources=tuple(dict.fromkeys(sources)))
        if item not in items:
            items.append(item)

    def tool_results(self) -> None:
        answered: set[str] = set()
        reads: dict[tuple[str, str], int] = {}  # (tool, its arguments): the fact saying it
        for event in self.events.values():
            for response in event.function_responses():
                answered.add(response.id)
                call_event, name, args = self.calls.get(response.id, ("", response.name, {}))
                sources = [s for s in (call_event, event.id) if s]
                if name == REQUEST_CONFIRMATION:
                    self.confirmation(args, response.response, sources)
                    continue
                if name == _TRANSFER_TOOL and event.actions.transfer_to_agent:
                    continue  # the transfer line says it, as a sentence
                texts = self.entities.get(event.id, set())
                clean = self.instructions.clean if self.instructions else _same
                shown = payload_text(
                    clean(args), self.limit // 2, self.entities.get(call_event, ())
                )
                head = name + (f" ({shown})" if args else "")
                body = payload_text(clean(response.response), self.limit, texts, self.patterns)
                if failed(response.response):
                    self.add(self.facts, f"{head} failed: {body}", sources)
                elif is_state_changing(name) or (event.actions.state_delta and not is_lookup(name)):
                    self.add(self.decisions, f"{head} done: {body}", sources)
                else:
                    # A lookup is a fact; reading the same thing again updates it, citing both.
                    key = (name, repr(sorted(args.items())) if isinstance(args, dict) else "")
                    at = reads.get(key)
                    if at is not None and at < len(self.facts):
                        text = f"{head}: {body}"
                        if self.instructions is not None:
                            text = self.instructions.drop(text) or self.facts[at].text
                        before = self.facts[at].sources
                        self.facts[at] = SummaryItem(
                            text=text, sources=tuple(dict.fromkeys([*before, *sources]))
                        )
                        continue
                    count = len(self.facts)
                    self.add(self.facts, f"{head}: {body}", sources)
                    if len(self.facts) > count:
                        reads[key] = count
        for call_id, (event_id, name, args) in self.calls.items():
            if call_id not in answered:
                shown = f" ({payload_text(args, self.limit // 2)})" if args else ""
                self.add(self.open_questions, f"{name}{shown} has no result yet", [event_id])

    def confirmation(self, args: Any, answer: Any, sources: list[str]) -> None:
        """An operator's answer to a confirmation request, as a sentence about the call it
        let through or stopped, citing that call, the request and the answer."""
        asked = args.get("function_call_id") if isinstance(args, dict) else None
        call_event, name, call_args = self.calls.get(str(asked), ("", "a tool call", {}))
        confirmed = isinstance(answer, dict) and answer.get("confirmed") is True
        shown = payload_text(call_args, self.limit // 2) if call_args else ""
        verb = "approved" if confirmed else "declined"
        text = f"An operator {verb} {name}" + (f" ({shown})" if shown else "")
        self.add(self.decisions, text, [s for s in (call_event, *sources) if s])

    def conversation(self) -> None:
        last_reply = last_user = -1  # the last text line of the agents, of the user
        for i, ln in enumerate(self.lines):
            if ln.kind == "text":
                if ln.author == USER_AUTHOR:
                    last_user = i
                else:
                    last_reply = i
        for i, line in enumerate(self.lines):
            if line.kind == "text" and line.author != USER_AUTHOR:
                self.promises(line)
                if i == last_reply and i > last_user >= 0:
                    self.unanswered(line)
            elif line.kind == "text" and i > last_reply:
                for sentence in sentences(line.body):
                    if sentence.endswith("?"):
                        self.add(self.open_questions, clip(sentence, self.limit), [line.event_id])
            elif line.kind == "transfer":
                calls = [
                    self.calls[r.id][0]
                    for r in self.events[line.event_id].function_responses()
                    if r.name == _TRANSFER_TOOL and r.id in self.calls
                ] if line.event_id in self.events else []  # fmt: skip
                self.add(
                    self.decisions,
                    f"{line.author} handed the conversation over {line.body}",
                    [*calls, line.event_id],
                )
            elif line.kind == "summary":
                said = _COVERED.sub("", line.body, count=1)  # the span is the citation's job
                self.add(self.facts, f"Earlier conversation, compacted: {said}", [line.event_id])
            elif line.kind in ("code", "artifact"):
                self.add(self.facts, f"{line.author} {line.kind}: {line.body}", [line.event_id])
        if self.lines and self.lines[-1].kind == "error":
            last = self.lines[-1]
            self.add(
                self.open_questions, f"the session ended on an error: {last.body}", [last.event_id]
            )

    def unanswered(self, line: TranscriptLine) -> None:
        """The questions of the agent's last message, which the user never answered."""
        said = sentences(line.body)
        for i, sentence in enumerate(said):
            if not sentence.endswith("?"):
                continue
            before = said[i - 1] if i > 0 else ""
            if "?" not in before and names_something(before):
                # A question mostly asks about what was just offered ("Would you like both?").
                sentence = f"{before} {sentence}"
            text = f"{line.author} asked, with no answer yet: {sentence}"
            self.add(self.open_questions, clip(text, self.limit), [line.event_id])

    def promises(self, line: TranscriptLine) -> None:
        """The agent's promises in one message, each read with the sentence before it when it
        says nothing on its own ("It will reach your card within five working days")."""
        said = sentences(line.body)
        last = ""  # the unclipped text of the item the previous sentence ended, if any
        for i, sentence in enumerate(said):
            if not is_promise(sentence):
                last = ""
                continue
            before = said[i - 1] if i > 0 else ""
            if last and needs_context(sentence):
                # The sentence before ended an item: it grows rather than repeats.
                self.commitments.pop()
                text = f"{last} {sentence}"
            elif "?" not in before and names_something(before) and needs_context(sentence):
                text = f"{before} {sentence}"
            else:
                text = sentence
            count = len(self.commitments)
            self.add(self.commitments, clip(text, self.limit), [line.event_id])
            last = text if len(self.commitments) > count else ""

    def record(self, goal: str) -> SummaryRecord:
        return SummaryRecord(
            goal=goal,
            facts=tuple(self.facts),
            decisions=tuple(self.decisions),
            commitments=tuple(self.commitments),
            open_questions=tuple(self.open_questions),
        )

    def keep_entities(
        self, record: SummaryRecord, expected: dict[str, ExpectedEntity], patterns: EntityPatterns
    ) -> SummaryRecord:
        """Attach every entity no item keeps to an item citing the event it was first seen in."""
        missing: dict[str, list[ExpectedEntity]] = {}
        for x in missing_entities(record.text(), expected, patterns):
            if x.event_ids:
                missing.setdefault(x.event_ids[0], []).append(x)
        if not missing:
            return record
        bodies: dict[str, list[TranscriptLine]] = {}
        for line in self.lines:
            bodies.setdefault(line.event_id, []).append(line)
        facts = list(record.facts)
        for event_id, entities in missing.items():
            lines = bodies.get(event_id, [])
            chosen: list[str] = []
            for line in lines:
                if line.kind == "text":
                    for sentence in sentences(line.body):
                        if (
                            any(x.entity.text in sentence for x in entities)
                            and sentence not in chosen
                            and (
                                self.instructions is None or not self.instructions.search(sentence)
                            )
                        ):
                            chosen.append(sentence)
            # A sentence chosen for its entities is kept whole unless it is very long.
            text = " ".join(clip(s, max(self.limit, 600)) for s in chosen)
            left = [x.entity.shown() for x in entities if x.entity.text not in text]
            if left:
                author = lines[0].author if lines else "the session"
                prefix = f"{text} " if text else f"{author} mentioned "
                text = prefix + (("also " if text else "") + ", ".join(left))
            self.add(facts, text, [event_id])
        return record.model_copy(update={"facts": tuple(facts)})


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
            if event_id is not None:
                by_event.setdefault(event_id, set()).add(entity.text)
        first_user = next(
            (ln for ln in lines if ln.kind == "text" and ln.author == USER_AUTHOR), None
        )

        def build(instructions: InstructionPatterns | None) -> SummaryRecord:
            builder = _Builder(
                events, lines, self.max_item_chars, self.patterns, by_event, instructions
            )
            builder.tool_results()
            builder.conversation()
            said = first_user.body if first_user is not None else ""
            goal = said if instructions is None else instructions.drop(said)
            record = builder.record(clip(goal, self.max_item_chars))
            if goal and first_user is not None:
                record = record.model_copy(update={"goal_sources": (first_user.event_id,)})
            return builder.keep_entities(record, expected, self.patterns)

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
