"""What the conversation's lines say beyond the tools: the agents' commitments
(:mod:`._commitments`) and the questions of their last message, the customer's questions after
the agents' last reply, what it leaves unresolved (:mod:`._unresolved`),
handoffs, compactions, code and artifacts, and a final error."""

from __future__ import annotations

import re
from typing import Final

from agentlog.summary.record._extract import clip
from agentlog.summary.record._sentences import names_something, sentences
from agentlog.summary.record.provenance import USER_AUTHOR
from agentlog.summary.summarisers._commitments import promises
from agentlog.summary.summarisers._draft import TRANSFER_TOOL, Draft
from agentlog.summary.summarisers._unresolved import unresolved
from agentlog.transcript import TranscriptLine

__all__ = ["conversation"]

_COVERED: Final = re.compile(r"^of \d+ events? \([^)]*\): ")
"""How a compaction line opens: the events it covers, which its citation already names."""


def conversation(draft: Draft) -> None:
    """Add the items of the transcript's lines, in order (see the module docstring)."""
    lines = draft.lines
    last_reply = last_user = -1  # the last text line of the agents, of the user
    for i, ln in enumerate(lines):
        if ln.kind == "text":
            if ln.author == USER_AUTHOR:
                last_user = i
            else:
                last_reply = i
    # Where each line's next message is (the end of the session after the last one).
    nexts: list[int] = []
    upcoming = len(draft.order)
    for ln in reversed(lines):
        nexts.append(upcoming)
        if ln.kind == "text":
            upcoming = draft.order.get(ln.event_id, upcoming)
    nexts.reverse()
    previous = -1  # where the last message was
    for i, line in enumerate(lines):
        if line.kind == "text" and line.author != USER_AUTHOR:
            promises(draft, line, previous, nexts[i])
            previous = draft.order.get(line.event_id, previous)
            if i == last_reply and i > last_user >= 0:
                _unanswered(draft, line)
            continue
        if line.kind == "text":
            previous = draft.order.get(line.event_id, previous)
        if line.kind == "text" and i > last_reply:
            for sentence in sentences(line.body):
                if sentence.endswith("?"):
                    draft.add(draft.open_questions, clip(sentence, draft.limit), [line.event_id])
        elif line.kind == "transfer":
            calls = [
                draft.calls[r.id][0]
                for r in draft.events[line.event_id].function_responses()
                if r.name == TRANSFER_TOOL and r.id in draft.calls
            ] if line.event_id in draft.events else []  # fmt: skip
            target = line.body.removeprefix("to ")
            draft.add(draft.decisions, f"Handed to {target}", [*calls, line.event_id])
        elif line.kind == "summary":
            said = _COVERED.sub("", line.body, count=1)  # the span is the citation's job
            draft.add(draft.facts, f"Earlier conversation, compacted: {said}", [line.event_id])
        elif line.kind in ("code", "artifact"):
            draft.add(draft.facts, f"{line.author} {line.kind}: {line.body}", [line.event_id])
    unresolved(draft, last_reply, last_user)
    if lines and lines[-1].kind == "error":
        last = lines[-1]
        draft.add(
            draft.open_questions, f"the session ended on an error: {last.body}", [last.event_id]
        )


def _unanswered(draft: Draft, line: TranscriptLine) -> None:
    """The questions of the agent's last message, which the user never answered."""
    said = sentences(line.body)
    for i, sentence in enumerate(said):
        if not sentence.endswith("?"):
            continue
        before = said[i - 1] if i > 0 else ""
        if "?" not in before and names_something(before):
            # A question mostly asks about what was just offered ("Would you like both?").
            sentence = f"{before} {sentence}"
        text = f"{line.author} asked: {sentence}"
        draft.add(draft.open_questions, clip(text, draft.limit), [line.event_id])
