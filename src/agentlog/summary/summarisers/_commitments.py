"""The agents' commitments, message by message (the clauses :mod:`._pending` finds), each with
the identifiers it concerns when it writes none and each said once; not a promise to act now that
a later action kept. And what a later commitment tells the customer again of a fact or a
decision, said once, in the commitment."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from agentlog.summary.record._extract import clip, fields_text
from agentlog.summary.record._sentences import Said, has_deadline, sentences
from agentlog.summary.record.schema import SummaryItem
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._pending import (
    awaits,
    clauses,
    commits,
    concerns,
    first_person_now,
    ids_in,
    owed,
    told_again,
    upper_first,
    with_ids,
)
from agentlog.summary.summarisers._wording import act
from agentlog.transcript import TranscriptLine

__all__ = ["new_commitments", "promises", "told", "told_fact"]

_DOING: Final = re.compile(
    r"(?:^|, (?:and|then|so) )(?:(?:ok(?:ay)?|sure|great|right|first)[,!]? )?(?:i|we)"
    r"(?:['\u2019]ll| will) (?:(?:now|also|first|go ahead and|just) )?([a-z]+)\b",
    re.IGNORECASE,
)
"""A promise to do something now: "I'll refund ...", "reply yes, and I'll process it", its
verb."""
_ANY_ACTION: Final = frozenset({"proceed", "process", "handle", "do", "complete", "take"})
"""Verbs of a promise to act now that name no action: any later write keeps it ("Reply yes and
I'll process this immediately")."""


def promises(draft: Draft, line: TranscriptLine, since: int, until: int) -> None:
    """The agent's commitments in one message, clause by clause (:mod:`._pending`), each with
    the identifiers it concerns when it writes none; and the outcomes it says are awaited from
    someone else, as open questions. ``since`` and ``until`` are where the messages before and
    after it are: a promise to act with no time ahead that a write before the next keeps is its
    decision, and a clause that names nothing concerns what the last write since the one before
    acted on."""
    at = draft.order.get(line.event_id, -1)
    acted = [(t, cited) for where, t, cited in draft.wrote if since < where < at and t]
    wrote = _acted(draft, since, at)
    asks = "?" in line.body  # a message that asks the customer proposes what it says
    earlier: list[str] = []  # the message's sentences and clauses so far
    promised: list[str] = []  # the message's promises so far
    for sentence in sentences(line.body):
        parts = clauses(sentence)
        kept: list[str] = []
        context = list(earlier)
        last = -1  # the last clause kept
        for i, clause in enumerate(parts):
            text = clause.text
            rest = [c.text for c in parts[i + 1 :]]
            if awaits(text) or owed(text):
                if not draft.ended(text):  # a deadline the session outlived awaits nothing
                    ids, cited = _concerned(text, earlier, rest, acted)
                    text = clip(with_ids(upper_first(text), ids), draft.limit)
                    draft.add(draft.open_questions, text, [line.event_id, *cited])
                    draft.awaiting.add(text)
                    draft.deadlines.add(text)
            elif (
                # A clause "and" joins to a commitment shares its time ("ships by 27 March,
                # and the email includes a label").
                commits(clause, acted=wrote, proposal=asks)
                or (
                    last == i - 1 >= 0
                    and clause.joined
                    and commits(clause, acted=True, joined=True)
                )
            ) and not (
                _kept_at_once(draft, text, at)
                or (first_person_now(text) and _acted(draft, at, until))
            ):
                kept.append(text)
                last = i
            elif not kept:
                context.append(text)
            earlier.append(text)
        if kept:
            text = upper_first("; ".join(kept))  # a clause cut from its sentence opens one
            after = [c.text for c in parts[last + 1 :]]
            ids, cited = _concerned(text, context, after, acted)
            # An id an earlier promise of the message says is that promise's ("Case
            # CASE-40917 ... will email you. I'll pass you to our returns team").
            ids = [i for i in ids if not any(i in t for t in promised)]
            text = with_ids(text, ids)
            draft.promised.append(([line.event_id, *cited], text))
            promised.append(text)


def _concerned(
    text: str,
    earlier: Sequence[str],
    after: Sequence[str],
    acted: Sequence[tuple[str, list[str]]],
) -> tuple[list[str], list[str]]:
    """The identifiers a clause that names none concerns (:func:`concerns`), and the events
    to cite for them: none for its message's, the write's for what the write before the
    message acted on."""
    if ids_in(text):
        return [], []
    ids = concerns(earlier, after)
    if ids or not acted:
        return ids, []
    return [acted[-1][0]], acted[-1][1]


def _acted(draft: Draft, after: int, before: int) -> bool:
    """Whether the agents wrote something between these two event positions."""
    return any(after < where < before for where, _, _ in draft.wrote)


def _kept_at_once(draft: Draft, sentence: str, at: int) -> bool:
    """Whether a promise to do something now ("I'll refund the second one") is one a later
    action of the session kept: its decision says it."""
    m = _DOING.search(sentence)
    if m is None or has_deadline(sentence):
        return False
    doing = m[1].lower()
    return any(where > at and (verb == doing or doing in _ANY_ACTION) for where, verb in draft.done)


def new_commitments(draft: Draft) -> list[SummaryItem]:
    """The commitments, each promise once: of two that say the same, the later (said after
    what was done) is kept, and a promise a fact or a decision says already goes."""
    said = Said(i.text for i in (*draft.facts, *draft.decisions, *draft.open_questions))
    later: list[str] = []  # the promises kept so far, from the last
    kept: list[tuple[list[str], str]] = []
    for sources, text in reversed(draft.promised):
        if said.holds(text) or any(said.repeats(text, other) for other in later):
            continue
        later.append(text)
        kept.append((sources, text))
    items: list[SummaryItem] = []
    for sources, text in reversed(kept):
        draft.add(items, clip(text, draft.limit), sources)
    return items


def _later(draft: Draft, item: SummaryItem, commitments: Sequence[SummaryItem]) -> str:
    """What the commitments said after ``item``'s events, one a line."""
    made = max(draft.order.get(s, -1) for s in item.sources)
    return "\n".join(
        c.text for c in commitments if max(draft.order.get(s, -1) for s in c.sources) > made
    )


def told_fact(draft: Draft, fact: SummaryItem, commitments: Sequence[SummaryItem]) -> SummaryItem:
    """``fact`` without the fields a later commitment tells the customer again
    (:func:`told_again`): a time window the promise says again (the record says each once);
    its identifiers and sums stay, verified here."""
    parts = draft.read_parts.get(fact.text)
    said = _later(draft, fact, commitments) if parts is not None else ""
    if parts is None or not said:
        return fact
    title, fields = parts
    kept = [kv for kv in fields if not told_again(*kv, said)]
    if kept == fields:
        return fact
    text = clip(f"{title}: {fields_text(kept)}", draft.limit) if kept else title
    item = draft.item(text, fact.sources)
    return fact if item is None else item


def told(draft: Draft, decision: SummaryItem, commitments: Sequence[SummaryItem]) -> SummaryItem:
    """``decision`` without the times and free values of its result that a later commitment
    tells the customer (:func:`told_again`): "Rescheduled appointment APPT-19J-0930: work
    order WO#88190, slot_7c1e9a" when "The electrician now comes on Friday 19 June, 13:00 to
    17:00" follows. Its arguments stay (what the call asked), and so do identifiers and
    amounts."""
    parts = draft.parts.get(decision.text)
    if parts is None:
        return decision
    said = _later(draft, decision, commitments)
    if not said:
        return decision
    action, values, result, target = parts
    kept = [kv for kv in result if not told_again(*kv, said)]
    if kept == result:
        return decision
    result = kept
    item = draft.item(clip(act(action, values, result, target), draft.limit), decision.sources)
    return decision if item is None else item
