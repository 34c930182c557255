"""What the conversation leaves unresolved, as open questions: a customer's question the agents'
last reply before the customer spoke again could not answer ("I can't tell from here", "I'm
not sure", "I'm checking with the claims team"), an agent's question the customer could not
answer ("I don't remember"), what the customer says at the end they will do themselves ("I'll
call back to book"), and what the agents' last message asks the customer to hand over
("Please upload your certificate"). Each question is given the identifiers of the reply (or of
the agents' message before it) when it names none, as a commitment is."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from agentlog.summary.record._extract import clip
from agentlog.summary.record._sentences import names_something, sentences
from agentlog.summary.record.provenance import USER_AUTHOR
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._pending import ids_in, same_day, upper_first, with_ids
from agentlog.transcript import TranscriptLine

__all__ = ["unresolved"]

_APOS: Final = r"['\u2019]"
_CANNOT_ANSWER: Final = re.compile(
    rf"\b(?:can(?:no|{_APOS})t|cannot|unable to|not able to) (?:yet )?(?:tell|say|see|confirm"
    rf"|answer|promise|guarantee|know)\b"
    rf"|\b(?:i|we)(?:{_APOS}m|{_APOS}re| am| are) not (?:sure|certain)\b"
    rf"|\b(?:i|we) don{_APOS}t know\b"
    rf"|\b(?:i|we){_APOS}(?:m|re) (?:checking|asking|finding out)\b|\bcheck with\b"
    r"|\bfind out\b|\bnoted (?:the|your) question\b|\b(?:get|come) back to you\b",
    re.IGNORECASE,
)
"""A reply that leaves the question open: it cannot say, or it is finding out (our own doubt:
"I'm not sure", not the customer's, "If you're not sure, I can list them")."""
_NOT_KNOWN: Final = re.compile(
    rf"\b(?:don{_APOS}t|do not|can{_APOS}t|cannot) (?:remember|recall|know|say|tell)\b"
    r"|\bnot sure\b|\bno idea\b",
    re.IGNORECASE,
)
"""A customer's answer that does not know."""
_OWN_FUTURE: Final = re.compile(
    rf"^(?:\w+[,!.]? ){{0,3}}?(?:i|we)(?:{_APOS}ll| will) (?:(?:also|then) )?(?:call|come"
    r"|send|upload|bring|pay|book|return|email|forward|sign|submit|provide|visit|reply)\b",
    re.IGNORECASE,
)
"""The customer's own act to come, one that hands something over or comes back ("Great,
I'll call back to book"; not "I'll wait")."""
_HAND_OVER: Final = re.compile(
    r"^(?:please|kindly) (?:(?:also|then|just) )?(?:send|upload|provide|sign|return|submit"
    r"|pay|bring|email|forward|complete|fill in)\b[^;]*",
    re.IGNORECASE,
)
"""A request to the customer to hand something over (a closed list of English verbs of giving)."""
_YOUR: Final = re.compile(r"\byour\b", re.IGNORECASE)
"""The customer's own, which the item says of them in the third person ("Customer to upload
their certificate")."""
_IDS: Final = 1
"""A question is given at most this many identifiers (the first: what the message is about)."""


def unresolved(draft: Draft, last_reply: int, last_user: int) -> None:
    """Add the open questions the conversation leaves (see the module docstring); ``last_reply``
    and ``last_user`` are the indexes of the agents' and the customer's last text lines."""
    texts = [(i, ln) for i, ln in enumerate(draft.lines) if ln.kind == "text"]
    asking = [i for i, ln in texts if ln.author == USER_AUTHOR and "?" in ln.body]
    last_asked = asking[-1] if asking else -1  # the customer's last message that asks
    for at, (i, line) in enumerate(texts):
        later = [ln for _, ln in texts[at + 1 :]]
        before = [ln for _, ln in texts[:at] if ln.author != USER_AUTHOR]
        if line.author == USER_AUTHOR:
            reply = _reply(later)
            if (
                i == last_asked
                and reply is not None
                and _unanswerable(reply)
                and not _looked_up(draft, line, reply)
            ):
                for question in (s for s in sentences(line.body) if s.endswith("?")):
                    _ask(draft, f"Customer asked: {question}", [line, reply], before)
            if i > last_reply:
                for said in sentences(line.body):
                    if not said.endswith("?") and _OWN_FUTURE.search(said):
                        _ask(draft, f"Customer said: {said}", [line], [])
            continue
        answer = later[0] if later and later[0].author == USER_AUTHOR else None
        if (
            answer is not None
            and _NOT_KNOWN.search(answer.body)
            and _unanswerable(_reply(later[1:]))
        ):
            # Neither the customer nor the agents' reply to them could answer it.
            parts = sentences(line.body)
            for k, question in enumerate(parts):
                if question.endswith("?"):
                    lead = parts[k - 1] if k > 0 and "?" not in parts[k - 1] else ""
                    if lead and names_something(lead):
                        question = f"{lead} {question}"
                    _ask(draft, f"{line.author} asked: {question}", [line, answer], before)
        if i == last_reply and i > last_user:
            for said in sentences(line.body):
                asked = _HAND_OVER.search(said)
                wanted = "" if asked is None else _YOUR.sub("their", asked[0].split(" ", 1)[1])
                text = f"Customer to {wanted}" if wanted else ""
                # A day a result's awaited outcome says already ("upl_8c1f2e: due
                # 2026-06-30" for "send the photos by 30 June 2026") is said once.
                if text and not any(same_day(q.text, text) for q in draft.open_questions):
                    _ask(draft, text, [line], [line])


def _looked_up(draft: Draft, question: TranscriptLine, reply: TranscriptLine) -> bool:
    """Whether the agents called a tool between the customer's question and the reply: what
    they found answers it, though the reply may not say all ("I can't tell you an amount")."""
    start = draft.order.get(question.event_id, -1)
    end = draft.order.get(reply.event_id, -1)
    return any(start < draft.order.get(event, -1) < end for event, _, _ in draft.calls.values())


def _unanswerable(reply: TranscriptLine | None) -> bool:
    """Whether the agents' reply leaves a question open (:data:`_CANNOT_ANSWER`)."""
    return reply is not None and _CANNOT_ANSWER.search(reply.body) is not None


def _reply(later: Sequence[TranscriptLine]) -> TranscriptLine | None:
    """The agents' last message before the customer's next one, if any."""
    reply = None
    for ln in later:
        if ln.author == USER_AUTHOR:
            break
        reply = ln
    return reply


def _ask(
    draft: Draft,
    text: str,
    cited: Sequence[TranscriptLine],
    before: Sequence[TranscriptLine],
) -> None:
    """Add the open question ``text`` citing ``cited``, with the identifier of the agents'
    line it cites (else of the last of ``before`` naming one) when it names none, citing it."""
    sources = [ln.event_id for ln in cited]
    if not ids_in(text):
        agents = [ln for ln in cited if ln.author != USER_AUTHOR]
        for ln in [*agents, *reversed(before)]:
            found = ids_in(ln.body)
            if found:
                text = with_ids(text, found[:_IDS])
                sources.append(ln.event_id)
                break
    draft.add(draft.open_questions, clip(upper_first(text), draft.limit), sources)
