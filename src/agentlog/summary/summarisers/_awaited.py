"""Outcomes still awaited, as open questions: what a result says is to come (a date under a
``..._by`` key, a status that says it waits), and, once the commitments are known, which open
questions stay: not one a commitment says, nor a deadline a result says on the same day, nor a
wait a later status ended; a thing still waiting after a second read is one question."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from agentlog.summary.record._extract import clip, words_of
from agentlog.summary.record._scan import date_entities
from agentlog.summary.record.learned import identifier_shaped, is_id_key
from agentlog.summary.record.schema import SummaryItem
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._pending import covers, ids_in, pending_status, same_day
from agentlog.summary.summarisers._wording import arguments
from agentlog.summary.summarisers._writes import made_id

__all__ = ["awaited", "open_questions"]

_AWAITED: Final = frozenset({"due", "deadline", "by"})
"""The last word of a result's key naming when an outcome is to come (``decision_by``)."""


def awaited(
    draft: Draft, name: str, args: Any, payload: Any, sources: list[str], *, wrote: bool = False
) -> None:
    """An outcome a result says is still to come, as an open question: a top-level key whose
    last word is ``due``, ``deadline`` or ``by`` holding a date (``decision_by``,
    ``merchant_response_due``), with what the result or its call identifies and its status:
    "ESC-30218: status queued, decision by May 26, 2026"; or a status that says it waits
    (:func:`pending_status`): "LR.2026.0931: status pending_manager"."""
    if not isinstance(payload, Mapping):
        return
    waits = [
        f"{words_of(key)} {value}"
        for key, value in payload.items()
        if isinstance(key, str)
        and isinstance(value, str)
        and words_of(key).rsplit(" ", 1)[-1] in _AWAITED
        and next(date_entities(value), None) is not None
        and not draft.ended(value)  # a deadline the session outlived awaits nothing
    ]
    status = payload.get("status")
    waiting = isinstance(status, str) and pending_status(status)
    settles = not wrote and not waits and not waiting and isinstance(status, str) and bool(status)
    if not waits and not waiting and not settles:
        return
    # A status alone waits on what the call made (``create_leave_request``'s request).
    made = (
        None if waits else made_id(name, payload, arguments(args, (), draft.limit, draft.patterns))
    )
    named = [] if made is None else [made[1]]
    held = (payload, args if isinstance(args, Mapping) else {})
    named += [
        str(v)
        for fields in held
        for k, v in fields.items()
        if isinstance(k, str) and isinstance(v, str) and is_id_key(k) and identifier_shaped(v)
    ]
    if settles:
        # The same lookup's status that no longer waits ("approved" after "pending_manager"):
        # what it names waits no more from here (:func:`open_questions` drops its earlier
        # question). Another tool's status ("sent_to_insurer") or a write's (another work
        # order "open") says what it did, not that the wait is over.
        at = max((draft.order.get(s, -1) for s in sources), default=-1)
        for thing in named:
            draft.settled[name, thing] = max(at, draft.settled.get((name, thing), -1))
        return
    if waiting and not named:
        # What waits, when no key says it identifies: the result's or the call's value
        # shaped like an identifier ("waiver_request": "WVR-2026-0088").
        # A note holding one is not its name: its identifier is.
        named = [i for f in held for v in f.values() if isinstance(v, str) for i in ids_in(v)]
    # A status the write's decision or the read's fact shows is said once, there; one that
    # says it waits is what the question is.
    shown = isinstance(status, str) and status in draft.said and not waiting
    parts = [f"status {status}"] if isinstance(status, str) and status and not shown else []
    head = f"{named[0]}: " if named else ""
    text = clip(head + ", ".join(parts + waits), draft.limit)
    draft.awaiting.add(text)
    question = draft.item(text, sources)
    if question is None:
        return
    for at, asked in enumerate(draft.open_questions):
        if asked.text == question.text:  # the same thing read again, still waiting
            sources = [*asked.sources, *question.sources]
            draft.open_questions[at] = asked.model_copy(
                update={"sources": tuple(dict.fromkeys(sources))}
            )
            return
    draft.open_questions.append(question)
    if named:
        draft.waits_on[question.text] = named[0]
        draft.asked_by[question.text] = name


def open_questions(draft: Draft, commitments: Sequence[SummaryItem]) -> list[SummaryItem]:
    """The open questions that stay beside ``commitments`` (see the module docstring)."""
    # An awaited outcome a commitment already says ("You'll have a decision by May 26
    # (ESC-30218)" for "ESC-30218: status queued, decision by May 26") goes.
    questions = [
        q
        for q in draft.open_questions
        if q.text not in draft.awaiting or not any(covers(c.text, q.text) for c in commitments)
    ]
    # Someone else's deadline a result's awaited outcome says on the same day ("They have
    # until 2026-05-25 to accept" for "DBC-7741-ZH: shipper deadline 2026-05-25") is said
    # once, by the result.
    results = [q.text for q in questions if q.text in draft.awaiting - draft.deadlines]
    questions = [
        q
        for q in questions
        if q.text not in draft.deadlines or not any(same_day(r, q.text) for r in results)
    ]
    # A thing read (or written) again, still waiting, is one question of what it waits on now
    # ("#W1: status pending (item modified)" after "#W1: status pending"), citing both.
    merged: list[SummaryItem] = []
    at: dict[str, int] = {}  # what waits: where its question is
    for q in questions:
        thing = draft.waits_on.get(q.text)
        settled = draft.settled.get((draft.asked_by.get(q.text, ""), thing or ""), -1)
        if thing is not None and settled > max(draft.order.get(s, -1) for s in q.sources):
            continue  # read again later, no longer waiting: nothing is open
        if thing is not None and thing in at:
            before = merged[at[thing]]
            sources = tuple(dict.fromkeys([*before.sources, *q.sources]))
            merged[at[thing]] = q.model_copy(update={"sources": sources})
            continue
        if thing is not None:
            at[thing] = len(merged)
        merged.append(q)
    return merged
