"""Each tool result as the items of its kind: a failed call as a fact, a write as a decision
(:mod:`._writes`), a lookup as a fact (:mod:`._things`), a confirmation's answer and a transfer
as decisions, an outcome still to come (:mod:`._awaited`) and a call with no result as open
questions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from agentlog.approvals import REQUEST_CONFIRMATION
from agentlog.summary.record._extract import (
    args_text,
    clip,
    failed,
    is_state_changing,
    payload_text,
    words_of,
)
from agentlog.summary.summarisers._awaited import awaited
from agentlog.summary.summarisers._draft import TRANSFER_TOOL, Draft
from agentlog.summary.summarisers._pending import upper_first
from agentlog.summary.summarisers._prose import last_shown, repeated_labels
from agentlog.summary.summarisers._terse import named_numbers, no_free_text
from agentlog.summary.summarisers._things import read
from agentlog.summary.summarisers._wording import act, arguments, said_in
from agentlog.summary.summarisers._writes import confirmation, write

__all__ = ["tool_results"]

_ERROR_WORD: Final = re.compile(r"^\s*error\b\W*", re.IGNORECASE)
"""How an error message opens ("Error: User not found"), which "failed" says."""


def _same(value: Any) -> Any:
    return value


def tool_results(draft: Draft) -> None:
    """Add the items of every tool result, in the session's order, then the fact of each
    repeated label's latest value and the open question of each call with no result."""
    answered: set[str] = set()
    repeated = repeated_labels(draft.events.values())
    limit, patterns = draft.limit, draft.patterns
    for event in draft.events.values():
        for response in event.function_responses():
            answered.add(response.id)
            call_event, name, args = draft.calls.get(response.id, ("", response.name, {}))
            sources = [s for s in (call_event, event.id) if s]
            if name == REQUEST_CONFIRMATION:
                confirmation(draft, args, response.response, sources)
                continue
            if name == TRANSFER_TOOL:
                if not event.actions.transfer_to_agent:  # else the transfer line says it
                    target = next(iter(said_in(args)), "another agent")
                    draft.add(draft.decisions, f"Handed to {target}", sources)
                    draft.handed_over(draft.order[event.id])
                continue
            texts = draft.entities.get(event.id, set())
            clean = draft.instructions.clean if draft.instructions else _same
            args, payload = clean(args), clean(response.response)
            asked = draft.entities.get(call_event, set())
            values = arguments(args, asked, limit, patterns)
            wrote = False
            if failed(payload):
                error = payload.get("error") if isinstance(payload, dict) else None
                why = str(error) if isinstance(error, str) else ""
                why = why or payload_text(payload, limit // 2, texts, patterns)
                why = _ERROR_WORD.sub("", why, count=1)
                shown = args_text(named_numbers(name, values, asked | texts))
                head = upper_first(" ".join(filter(None, (words_of(name), shown))))
                draft.add(draft.facts, clip(f"{head} failed: {why}", limit), sources)
            elif is_state_changing(
                name,
                args if isinstance(args, Mapping) else {},
                payload,
                delta=bool(event.actions.state_delta),
            ):
                whole = [v for _, v in arguments(args, asked, limit, patterns, cut=False)]
                values = no_free_text(values, asked | texts, draft.shown(), whole)
                write(draft, name, values, payload, texts, sources, repeated)
                wrote = True
            else:
                values = named_numbers(name, values, asked | texts)
                read(draft, name, args, values, payload, texts, sources, repeated)
            if not failed(payload):
                awaited(draft, name, args, payload, sources, wrote=wrote)
    last_shown(draft)
    for call_id, (event_id, name, args) in draft.calls.items():
        if call_id not in answered:
            text = upper_first(act(words_of(name), arguments(args, (), limit, patterns)))
            text += "; no result yet"
            draft.add(draft.open_questions, text, [event_id])
