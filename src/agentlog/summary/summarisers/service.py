"""``SummaryService``: summarise a session with a model, check it, retry once, or deliver nothing.

Attempts, exactly:

1. The first attempt sends the fenced transcript (and the list of entities it holds).
2. If the answer has any problem (not JSON, wrong shape, an item without sources, a source
   that is not an event, instruction-like text copied from the transcript, a dropped entity,
   or no answer at all: a provider error or a truncated output), one retry sends the same
   request plus the rejected answer and its problems.
3. If the retry has problems too, there is no record: the result carries each attempt's
   problems and the raw transcript, and the failure is counted.

Each attempt is one model call. The agent carries no ``output_schema`` of its own (the schema
travels in the request, see :class:`~agentlog.summary.summarisers.agent.SummaryAgent`), so
``LlmAgent``'s built-in parse-and-retry never adds calls, and runs are capped at one model call
each.

Both attempts run through an ordinary ``Runner`` as two turns of one throwaway session in the
service's own ``InMemorySessionService``; the session is deleted when the summary is done,
whatever happened, so a long-running service holds no summariser sessions between calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from agentlog.events import Content, Event
from agentlog.models.base import BaseLlm, GenerationConfig
from agentlog.run_config import RunConfig
from agentlog.runner import Runner
from agentlog.sessions.memory import InMemorySessionService
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.result import SummaryInput, SummaryResult, TokenPrice, events_of
from agentlog.summary.record.schema import SummaryRecord
from agentlog.summary.record.validate import (
    ExpectedEntity,
    ParsedTranscript,
    Problem,
    check_and_label,
    parse_record,
    transcript_entities,
)
from agentlog.summary.summarisers.agent import (
    SUMMARY_INSTRUCTION,
    SummaryAgent,
    retry_request,
    summary_request,
)
from agentlog.summary.summarisers.metrics import SummaryMetrics
from agentlog.transcript import transcript_lines

__all__ = ["SummaryService", "checklist"]

_APP: Final = "agentlog_summarizer"
_USER: Final = "summarizer"
_ONE_CALL: Final = RunConfig(max_llm_calls=1)


@dataclass(slots=True)
class _Reply:
    text: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    model: str | None = None
    error: str | None = None


def checklist(expected: Mapping[str, ExpectedEntity]) -> list[str]:
    """The entities to list in the request, as the record may write them."""
    return [x.entity.shown() for x in expected.values()]


class SummaryService:
    """Checked summaries from a model.

    Args:
        model: the summary model.
        patterns: entity patterns of the domain (``EntityPatterns.default()`` if omitted).
        max_tool_chars: tool payloads longer than this are cut in the transcript.
        max_text_chars: message text longer than this is cut in the transcript.
        prices: token prices by model name (the name the provider answers with, else the
            model's own); a model without one costs 0.
        instruction: the summary agent's system prompt.
        entity_checklist: list the transcript's entities in the request, so the model knows
            what the recall check expects (on by default).
        generate_content_config: sampling settings (temperature 0 unless set).
        instruction_patterns: the instruction-like text no item may carry
            (``InstructionPatterns.default()`` if omitted).
    """

    def __init__(
        self,
        model: BaseLlm,
        *,
        patterns: EntityPatterns | None = None,
        max_tool_chars: int = 2_000,
        max_text_chars: int = 4_000,
        prices: Mapping[str, TokenPrice] | None = None,
        instruction: str = SUMMARY_INSTRUCTION,
        entity_checklist: bool = True,
        generate_content_config: GenerationConfig | None = None,
        instruction_patterns: InstructionPatterns | None = None,
    ) -> None:
        self.model = model
        self.instruction_patterns = instruction_patterns or InstructionPatterns.default()
        self.patterns = patterns or EntityPatterns.default()
        self.max_tool_chars = max_tool_chars
        self.max_text_chars = max_text_chars
        self.prices = dict(prices or {})
        self.entity_checklist = entity_checklist
        self.agent = SummaryAgent(
            model=model, instruction=instruction, generate_content_config=generate_content_config
        )
        self.session_service = InMemorySessionService()
        """The runner's store of throwaway sessions; empty between summaries."""
        self.runner = Runner(agent=self.agent, session_service=self.session_service, app_name=_APP)
        self.metrics = SummaryMetrics()
        """Totals over every summary this service attempted."""

    def _cost(self, reply: _Reply) -> float:
        # The provider's own name for the model (a dated version, say) if priced, else ours.
        price = self.prices.get(reply.model or "") or self.prices.get(self.model.model)
        return price.cost(reply.input_tokens, reply.output_tokens) if price else 0.0

    async def _ask(self, session_id: str, message: str) -> _Reply:
        reply = _Reply()
        async for event in self.runner.run_async(
            user_id=_USER,
            session_id=session_id,
            new_message=Content.from_text(message),
            run_config=_ONE_CALL,
        ):
            if event.partial or event.author != self.agent.name:
                continue
            if event.usage is not None:
                reply.input_tokens += event.usage.input_tokens
                reply.output_tokens += event.usage.output_tokens
            reply.model = event.model or reply.model
            if event.error_code is not None:
                reply.error = f"{event.error_code}: {event.error_message or ''}".strip(": ")
            elif event.is_final_response():
                reply.text = event.text()
        return reply

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        """Summarise ``session`` (a ``Session`` or its events); see the module docstring."""
        events, session_id = events_of(session)
        lines = transcript_lines(
            events, max_tool_chars=self.max_tool_chars, max_text_chars=self.max_text_chars
        )
        transcript = "\n".join(line.render() for line in lines)
        parsed_transcript = ParsedTranscript(lines)
        expected = transcript_entities(parsed_transcript, self.patterns)
        wanted = checklist(expected) if self.entity_checklist else []

        record: SummaryRecord | None = None
        problems: list[tuple[Problem, ...]] = []
        outputs: list[str] = []
        recalls: list[float | None] = []
        tokens_in = tokens_out = 0
        cost = 0.0
        message = summary_request(transcript, wanted)
        throwaway = await self.session_service.create_session(app_name=_APP, user_id=_USER)
        try:
            for _attempt in range(2):
                reply = await self._ask(throwaway.id, message)
                tokens_in += reply.input_tokens
                tokens_out += reply.output_tokens
                cost += self._cost(reply)
                outputs.append(reply.text)
                found, found_problems = self._check(reply, events, parsed_transcript, expected)
                problems.append(tuple(found_problems))
                recalls.append(None if found is None else _recall(found_problems, expected))
                if found is not None and not found_problems:
                    record = found
                    break
                message = retry_request(transcript, wanted, reply.text, found_problems)
        finally:
            await self.session_service.delete_session(
                app_name=_APP, user_id=_USER, session_id=throwaway.id
            )
        parsed = [r for r in recalls if r is not None]
        result = SummaryResult(
            session_id=session_id,
            summarizer=f"llm:{self.model.model}",
            record=record,
            attempts=len(outputs),
            problems=tuple(problems),
            outputs=tuple(outputs),
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            cost=cost,
            entity_recall=parsed[-1] if parsed else None,
            first_entity_recall=recalls[0] if recalls else None,
            transcript=None if record is not None else transcript,
        )
        self.metrics.record(result)
        return result

    def _check(
        self,
        reply: _Reply,
        events: Sequence[Event],
        transcript: ParsedTranscript,
        expected: Mapping[str, ExpectedEntity],
    ) -> tuple[SummaryRecord | None, list[Problem]]:
        if reply.error is not None and not reply.text:
            detail = f"the model returned no record ({reply.error})"
            return None, [Problem(kind="schema", detail=detail)]
        found, problems = parse_record(reply.text)
        if found is None:
            return None, problems
        return check_and_label(
            found,
            transcript=transcript,
            events=events,
            patterns=self.patterns,
            expected=expected,
            instruction_patterns=self.instruction_patterns,
        )


def _recall(problems: list[Problem], expected: Mapping[str, ExpectedEntity]) -> float:
    if not expected:
        return 1.0
    dropped = sum(p.kind == "dropped_entity" for p in problems)
    return (len(expected) - dropped) / len(expected)
