"""What a session leaves pending, read from the grammar of what the agents said and from the
statuses tools returned: the agents' commitments and the outcomes still awaited from someone
else.

A commitment is a clause, not a message: of an agent's sentence (cut at semicolons and colons,
and at a comma before a new subject), the clauses that say what will happen. A clause says so
by grammar, not by a domain's words:

- the sentence-level promise patterns (:func:`is_promise`) on the clause, which also judge our
  own future ("I'll email you", not "I'll guide you through a few checks");
- someone else's modal of the future or of expectation (``will``, ``'ll``, ``should``, ``aim
  to``) with a time ahead ("HR will reply within 5 working days", "That'll be taken from your
  deposit when the checkout inspection is done"); without a time it explains ("This will
  reset the connection");
- a present tense with a time ahead after a label ("Booked: visit VIS-88213 on Saturday 14
  March"), after a write ("The electrician now comes on Friday 19 June"), joined by "and" to
  a commitment ("ships by 27 March, and the email includes a label"), or as the main clause of
  a condition that says when by a deadline ("Once the invoice is in, compliance reviews it
  within 2 business days");
- our promise of an answer to come ("I'll ask finance and come back to you").

A finished action (a past or perfect verb, "I've filed WVR-2026-0088", "Rebooked on XQ 9033")
is the decision of its write, not a commitment, unless what it did lasts until a time ahead
("I've put the balance on hold until 2026-07-06"), a clause of its own says what follows
("Added 2 GB for $5.00, billed on your next statement"), it moved something to a day ("moved
the due date to 2026-07-14") or a time after a comma says when ("I've also raised WO#88241
for the gas safety check, within 7 days"). A habit ("disputes usually close within 10 days"),
a conditional mood and an offer ("If I cancel now, ...") are not promises.
A clause that names no identifier is given those its message names nearest before it (else
after it in its sentence, else what the agents' last write acted on): the id it concerns.

An awaited outcome is a third party's deadline ("The merchant has until 9 July to respond"),
what is still owed ("The €86,90 is still open", :func:`owed`) or a result's status that says
it waits (``pending_manager``, ``under_review``, ``queued``): an open question, dropped when a
commitment says all it does (:func:`covers`). A write's result
field or a read's that a later commitment tells the customer again (:func:`told_again`) is
said once, in the commitment."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from agentlog.summary.record._scan import amount_key, date_entities
from agentlog.summary.record._sentences import (
    drop_lead_in,
    has_deadline,
    is_promise,
)
from agentlog.summary.record.learned import identifier_shaped, is_id_key

__all__ = [
    "Clause",
    "awaits",
    "clauses",
    "commits",
    "concerns",
    "covers",
    "first_person_now",
    "ids_in",
    "marks",
    "owed",
    "pending_status",
    "same_day",
    "told_again",
    "upper_first",
    "whole_in",
    "with_ids",
    "within",
]

_PRONOUN: Final = r"(?:i|we|you|they|it|he|she)"
_SUBJECT: Final = rf"(?:{_PRONOUN}|this|that|these|those|there|the|your|our|its|a|an)"
"""Words a clause's subject opens with (pronouns, articles, possessives): English, no domain's."""
_IRREGULAR: Final = (
    r"left|sent|took|taken|came|went|made|paid|gave|given|got|told|said|rang|ran|found"
    r"|brought|bought|spoke|wrote|written|kept|held|began|shown|done"
)
"""English's irregular past forms and participles (a closed list of the grammar's)."""
_CUT: Final = re.compile(
    rf"(?:; |: |, (?=(?:and|but|so|while|then) {_SUBJECT}\b|{_PRONOUN}\b))(?=\S)",
    re.IGNORECASE,
)
"""Where a sentence's clauses part: a semicolon or a colon, or a comma before a new subject
(with its conjunction, or a pronoun: not "X, the first one,")."""
_LABEL_WORDS: Final = 2
"""A first clause of this many words or fewer before a colon is a label ("Booked:")."""
_REDUCED: Final = re.compile(
    rf", (?:[a-z]+ed|{_IRREGULAR}) (?:on|by|with|to|in|within|from|until|before|after)\b(.*)"
)
"""A participle after a comma that opens a clause of its own, its subject the thing before it
("Added 2 GB for $5.00, billed on your next statement"): the rest of the clause."""
_SUBORDINATE: Final = re.compile(
    r"^(?:(?:and|but|so) )?(?:once|when|if|unless|as soon as|after|before|until|while|because"
    r"|since)\b",
    re.IGNORECASE,
)
"""A clause that opens with a subordinating conjunction, which needs the clause after it."""
_CONJUNCTION: Final = re.compile(r"^(?:and|but|so|while|then)\s+", re.IGNORECASE)
_FUTURE: Final = re.compile(
    r"\b(?:will|shall|won['\u2019]t|should|going to|aims? to|(?:is|are) (?:due|set|expected) to)"
    r"\b|['\u2019]ll\b"
)
"""A modal of the future or of expectation, in the lower-cased clause."""
_HYPOTHETICAL: Final = re.compile(
    r"\b(?:would|could|might|can)\b|(?<!\d )\bmay\b(?! \d)|['\u2019]d\b"
)
"""A conditional mood or a possibility, in the main clause: no promise (the month, "21 May",
is no modal)."""
_CONDITIONAL: Final = re.compile(r"\b(?:would|could|might)\b|['\u2019]d\b")
_OFFER: Final = re.compile(r"^if (?:i|we)\b")
"""An offer of what we would do ("If I cancel now, auto-renew stops"): no promise."""
_ASKS_OF_US: Final = re.compile(
    r"\b(?:will|['\u2019]ll|should) (?:(?:also|still|then|first) )?(?:need|have to|require"
    r"|want|be (?:happy|glad|able))\b|\byou should\b(?! (?:get|receive|see|have|hear))"
)
"""A future that asks something of the customer ("you'll need to", "you should call") or
offers ("I'll be happy to"): no promise."""
_WEEKDAY: Final = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH: Final = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b"
)
_AHEAD: Final = re.compile(
    rf"\b(?:from|till|until|by|before|on|due) (?:the )?(?:\d|{_MONTH}|{_WEEKDAY})"
    r"|\b(?:tomorrow|tonight|later today|the day before|that (?:morning|afternoon|evening)"
    r"|this (?:afternoon|evening))\b|\bnext (?!to\b|door\b)[a-z]+|\b(?:once|as soon as|when)"
    r" (?!again\b)"
)
"""A time ahead, in the lower-cased clause (:func:`has_deadline` finds the rest)."""
_LASTS: Final = re.compile(rf"\b(?:until|till) (?:the )?(?:\d|{_MONTH}|{_WEEKDAY})")
"""A state that lasts until a time ahead ("on hold until 2026-07-06")."""
_DATE_WORDS: Final = (
    rf"(?:{_WEEKDAY}|{_MONTH} \d{{1,2}}\b|\d{{1,2}}(?:st|nd|rd|th)? {_MONTH}|\d{{4}}-\d\d-\d\d"
    r"|\d{1,2}[./]\d{1,2}[./]\d{2,4})"
)
_MOVED_TO: Final = re.compile(rf"\bto (?:the )?(?:{_WEEKDAY} )?{_DATE_WORDS}")
"""A change made to a day ("moved the due date to 2026-07-14", "delivery moved to Friday
2026-05-22"; not to a month, "added to July"): what was done now happens then."""
_TRAILING_TIME: Final = re.compile(r", (?:within|by|before|in about|in) [^,]*$")
"""A time after a comma that ends a clause ("raised WO#88241 for the gas check, within 7
days"): when what was just done follows."""
_SAYS_WORDS: Final = 4
"""A clause of fewer words than this after a write says no outcome of its own."""
_TRAILING_IF: Final = re.compile(r"\s(?:if|unless)\b.*$")
"""A condition that ends a clause."""
_REPLY: Final = re.compile(
    r"\b(?:(?:get|come|call|write|report) back to (?:you|them)|let you know|follow up"
    r"|update you|be in touch)\b"
)
"""Our promise of an answer to come ("I'll ask finance to trace it and come back to you")."""
_PAST: Final = re.compile(
    r"\b(?:was|were|had|did|has|have|hasn['\u2019]t|haven['\u2019]t)\b|['\u2019]ve\b"
    r"|\b(?:ago|earlier|yesterday|last (?:week|month|year|night))\b"
)
"""A past or perfect auxiliary, or a time behind."""
_PARTICIPLE: Final = re.compile(rf"\b([a-z]{{2,}}ed|{_IRREGULAR})\b")
_NOT_PAST: Final = frozenset(
    {"is", "are", "be", "been", "being", "get", "gets", "stay", "stays", "remain", "remains",
     "keep", "keeps", "it's", "that's", "they're", "we're", "you're", "once", "when", "if",
     "the", "a", "an", "your", "our", "its", "their", "this", "that", "these", "those", "my",
     "his", "her"}
)  # fmt: skip
"""Words before a participle that make it a present state, a passive or an adjective ("is
booked", "once approved", "your updated itinerary"), not a past verb."""
_NOT_VERB: Final = frozenset({"need", "needed", "speed", "red", "bed", "hundred", "feed", "seed"})
_STATE: Final = re.compile(
    rf"\b(?:is|are|am)\b(?! (?:(?:now|also|still|then|being|not) )?(?:[a-z]+ed|{_IRREGULAR}"
    r"|due|on (?:its|their) way|back|going)\b)"
    r"|['\u2019](?:s|re) (?:(?:now|also|still) )?(?:a|an|the|in|at|on|within)\b"
)
"""A copula before what a thing is ("Both orders are within 14 days", "It's a prepaid
rental"), not before a passive: a state, not an event."""
_ASIDE: Final = re.compile(r"\([^)]*\)|\b\w+['\u2019]s\b")
"""A bracketed aside or a possessive, which may date a thing rather than an event."""
_HABIT: Final = re.compile(r"\b(?:usually|normally|typically|generally|often|sometimes)\b")
"""An adverb of frequency: what usually happens is policy, not a promise."""
_FIRST_FUTURE: Final = re.compile(r"\b(?:i|we)(?:['\u2019]ll| will| shall)\b")
_ASKING: Final = re.compile(
    r"^(?:please|kindly|let me|feel free|make sure|remember)\b|\blet (?:me|us) know\b",
    re.IGNORECASE,
)
"""A request of the customer or an offer, not a commitment."""
_THIRD_DEADLINE: Final = re.compile(
    r"^(?!(?:i|we|you)\b)(?:\S+\s){0,6}?(?:has|have) (?:until|till) ",
    re.IGNORECASE,
)
"""Someone else's deadline ("The merchant has until 9 July to respond"): what is awaited."""
_WAITING: Final = re.compile(
    r"^(?:pending|awaiting|waiting|waitlist|queued|requested|submitted|processing"
    r"|in[ _-]?progress|on[ _-]?hold|in[ _-]?review|under[ _-]?review|needs?[ _-])"
    r"|(?:^|[ _-])(?:review|pending|approval|decision)$",
    re.IGNORECASE,
)
"""A status that says an outcome is still to come (``pending_manager``, ``under_review``,
``waitlisted``)."""
_AMOUNT: Final = re.compile(r"[$£€¥₹]\s?(\d+(?:[.,' ]\d+)*)")
"""An amount after its currency sign (``£1,249.50``)."""


class Clause(NamedTuple):
    """A clause of a sentence."""

    text: str
    """Its words, a leading conjunction left out."""
    opening: bool
    """Whether it opens its sentence (where a participle is a past: "Rebooked on XQ 9033")."""
    joined: bool
    """Whether "and" joins it to the clause before (they share their time)."""
    labelled: bool = False
    """Whether a label of a word or two opens its sentence before a colon ("Booked: ...")."""


def clauses(sentence: str) -> list[Clause]:
    """A sentence's clauses (see :data:`_CUT`), its lead-in ("Done:") left out."""
    found: list[Clause] = []
    parts: list[str] = []
    sentence = drop_lead_in(sentence)
    for part in _outside_brackets(sentence):
        if parts and _SUBORDINATE.match(parts[-1]):
            parts[-1] += ", " + part  # "once the bill is paid, ...": one clause with its head
        else:
            parts.append(part)
    labelled = (
        len(parts) > 1
        and len(parts[0].split()) <= _LABEL_WORDS
        and sentence.startswith(parts[0] + ": ")
    )
    for part in parts:
        part = part.strip()
        text = _CONJUNCTION.sub("", part)
        if text:
            joined = text != part and part[:4].lower() == "and "
            found.append(Clause(text, not found, joined, labelled and len(found) == 1))
    return found


def _outside_brackets(sentence: str) -> list[str]:
    """The sentence cut at each :data:`_CUT` that no bracket encloses: "(item ID: 2757705742)"
    is an aside of its clause, not where one ends."""
    parts: list[str] = []
    start = read = opened = 0
    for cut in _CUT.finditer(sentence):
        opened += _opened(sentence[read : cut.start()])  # brackets open before the cut
        read = cut.start()
        if opened <= 0:
            parts.append(sentence[start : cut.start()])
            start = cut.end()
    parts.append(sentence[start:])
    return parts


def _opened(text: str) -> int:
    """How many more brackets ``text`` opens than it closes."""
    return text.count("(") + text.count("[") - text.count(")") - text.count("]")


def _past(lower: str, opening: bool) -> bool:
    """Whether a lower-cased clause's verb is past or perfect: an auxiliary that says so, or a
    participle with no word before it that makes it a state or a passive (at the opening of a
    sentence only: "Rebooked on ..."; after a comma it opens a clause of its own)."""
    if _PAST.search(lower):
        return True
    for m in _PARTICIPLE.finditer(lower):
        if m[1] in _NOT_VERB:
            continue
        before = lower[: m.start()].split()[-2:]
        if not before and not opening:
            continue
        if _NOT_PAST.isdisjoint(before) and not _FUTURE.search(" ".join(before)):
            return True
    return False


def commits(clause: Clause, *, acted: bool, proposal: bool = False, joined: bool = False) -> bool:
    """Whether an agent's clause commits to something ahead (see the module docstring).

    ``acted``: whether the agents wrote something since the message before, whose outcome a
    participle clause after a past one reports ("Added 2 GB, billed on your next statement"),
    unless the message is a ``proposal`` (it asks the customer something: "..., prorated from
    today, come to $50.00 now. Go ahead?"); ``joined``: whether it shares the time of the
    commitment "and" joins it to."""
    text = clause.text
    if "?" in text or text.endswith(":") or _ASKING.search(text) or awaits(text):
        return False
    lower = text.lower()
    future = _FUTURE.search(lower) is not None and not _ASKS_OF_US.search(lower)
    first = _FIRST_FUTURE.search(lower) is not None
    if _HABIT.search(lower) and not first:
        return False
    settled = acted and not proposal  # a write was just made, and nothing is proposed
    if _past(lower, clause.opening) and not future:
        # What it did lasts until a time ahead, or a clause of its own says what follows
        # ("Added 2 GB for $5.00, billed on your next statement"), or what was just done was
        # moved to a date or ends on when it follows ("raised WO#88241, within 7 days").
        reduced = _REDUCED.search(lower)
        trailing = _TRAILING_TIME.search(lower)
        return _LASTS.search(lower) is not None or (
            settled
            and (
                (
                    reduced is not None
                    and (has_deadline(reduced[1]) or _AHEAD.search(reduced[1]) is not None)
                )
                or _MOVED_TO.search(lower) is not None
                or (trailing is not None and has_deadline(trailing[0]))
            )
        )
    main = lower.split(", ", 1)[1] if _SUBORDINATE.match(lower) and ", " in lower else lower
    if (_HYPOTHETICAL.search(main) or _OFFER.match(lower)) and not first:
        # An entitlement the promise patterns know ("you can return it until 25 March") is
        # one; a conditional mood or an offer is not.
        return is_promise(text) and _CONDITIONAL.search(main) is None
    if first or is_promise(text):
        # Our own future goes by the promise patterns, which know an offer of help in the
        # conversation itself ("I'll guide you through a few checks") from a commitment.
        return is_promise(text) or (first and _REPLY.search(lower) is not None)
    # A time in brackets or a possessive ("(XY77 on 3 August)", "Tomorrow's visit") dates a
    # thing the clause names, not what it says happens.
    bare = _ASIDE.sub(" ", text)
    ahead = joined or has_deadline(bare) or _AHEAD.search(bare.lower()) is not None
    if future:
        # Someone else's future says what will happen when it says when ("HR will reply within
        # 5 working days"); without a time it explains ("This will reset the connection").
        return ahead
    # A present tense that says when commits where a label says it was just set up ("Booked:
    # visit VIS-88213 on Saturday 14 March"), where a write was just made ("Moved. The
    # electrician now comes on Friday 19 June"), where "and" joins it to a commitment, or
    # where a condition heads it and its main clause says when ("Once the invoice is in,
    # compliance reviews it within 2 business days"); alone it more often says what a thing
    # is ("Both orders are within 14 days") than what will happen.
    # What is (a state) is read in the main clause, without a condition trailing it ("the
    # CHF 2'500.00 is released if it's in order").
    if _STATE.search(_TRAILING_IF.sub("", main)) or not ahead:
        return False
    # A condition's main clause says when by a deadline ("within 3 working days"): "until
    # your next billing cycle" after "When your data limit is reached" explains a rule.
    conditional = main is not lower and has_deadline(main)
    # A clause of a few words is a label or an aside ("For next time:"), not what happens.
    said = settled and len(text.split()) >= _SAYS_WORDS
    return joined or clause.labelled or said or conditional


def first_person_now(text: str) -> bool:
    """Whether a clause promises our own act with no time ahead ("I'll open a case"): the write
    that follows it at once keeps it."""
    lower = text.lower()
    return (
        _FIRST_FUTURE.search(lower) is not None
        and not has_deadline(text)
        and _AHEAD.search(lower) is None
    )


def awaits(text: str) -> bool:
    """Whether an agent's clause says an outcome is awaited from someone else by a deadline."""
    # The words are looked for first: the pattern's search is costlier than a substring's.
    return (
        "?" not in text
        and ("until" in text or "till" in text)
        and _THIRD_DEADLINE.search(text) is not None
    )


_OWED: Final = re.compile(
    r"^(?!(?:i|we)\b)(?:\S+\s){0,8}?(?:is|are|remains?) (?:still (?:open|unpaid|outstanding"
    r"|owed|due|to be \w+)|unpaid|outstanding|due (?:in|by|on|within|before)\b)",
    re.IGNORECASE,
)
"""Something still owed or to be done ("The €86,90 is still open", "Invoice INV-LIC-26-0719
is due in 30 days"): awaited from someone, not promised."""


def owed(text: str) -> bool:
    """Whether an agent's clause says something is still owed or to be done (not what was done:
    "you are owed $400.00, which I've paid")."""
    return "?" not in text and _OWED.search(text) is not None and not _PAST.search(text.lower())


def pending_status(value: str) -> bool:
    """Whether a result's status says its outcome is still to come (``pending_manager``,
    ``awaiting_police_review``, ``under_review``, ``queued``, ``requested``)."""
    return _WAITING.search(value.strip()) is not None


def ids_in(text: str) -> list[str]:
    """The identifier-shaped tokens of ``text``, once each, punctuation around them left out."""
    tokens = (t.strip(".,;:()!?\"'") for t in text.split())
    return list(dict.fromkeys(t for t in tokens if identifier_shaped(t)))


_CONCERNED: Final = 2
"""A clause is given at most this many identifiers of another (the first ones: what the
sentence is about comes first)."""


def concerns(
    earlier: Sequence[str], after: Sequence[str] = (), fallback: Sequence[str] = ()
) -> list[str]:
    """The identifiers a clause that names none concerns: those of the nearest of the
    ``earlier`` texts (sentences and clauses of its message, in order) that names any, else of
    the first of the ``after`` ones (the rest of its sentence: "A truck is on its way: job
    RSA-88213"), else ``fallback`` (what the agent's last write acted on)."""
    for text in [*reversed(earlier), *after]:
        found = ids_in(text)
        if found:
            return found[:_CONCERNED]
    return list(fallback)


def upper_first(clause: str) -> str:
    """``clause`` opening with a capital, as a sentence of its own does."""
    return clause[:1].upper() + clause[1:]


def with_ids(clause: str, ids: Iterable[str]) -> str:
    """``clause`` followed by the ``ids`` it does not write, in brackets."""
    extra = [i for i in ids if i not in clause]
    if not extra:
        return clause
    return f"{clause.rstrip('.')} ({', '.join(extra)})."


@lru_cache(maxsize=256)  # the same commitments are asked about for each item of a record
def marks(text: str) -> frozenset[str]:
    """What identifies what ``text`` is about: its identifiers (case folded), dates (their
    entity keys, ``date:2026-07-09``, or ``date:--07-09`` without a year) and amounts (as their
    value), to ask whether one item says what another does (:func:`within`)."""
    return frozenset(_marks(text))


def _marks(text: str) -> set[str]:
    found = {i.casefold() for i in ids_in(text)}
    found |= {d.key for d in date_entities(text)}
    for m in _AMOUNT.finditer(text):
        key = amount_key(m[1])
        if key is not None:
            found.add(key)
    return found


def within(asked: Iterable[str], said: frozenset[str] | set[str]) -> bool:
    """Whether every mark of ``asked`` is one of ``said``, a date without a year matching the
    same day of any year either way."""
    yearless = {"date:--" + m[-5:] for m in said if m.startswith("date:")}
    return all(
        m in said
        or (m.startswith("date:") and "date:--" + m[-5:] in (said if m[5:7] != "--" else yearless))
        for m in asked
    )


_NUMBER: Final = re.compile(r"\d+(?:[.,]\d+)?")
_DIGITS: Final = re.compile(r"\d+(?:[:.]\d+)*")
_CLOCK: Final = re.compile(r"\b\d{1,2}[:.]\d{2}\b")
"""A time of day (13:00, 9.30)."""
_SHORTEST: Final = 4
"""A value shorter than this ("15", "P2") is not looked for in a commitment: it may be any
number or word there."""


def told_again(key: str, value: str, said: str) -> bool:
    """Whether a write's result field is one the agent's later commitment ``said`` tells the
    customer again, so the record says it once: the value whole (``window 13:00 to 17:00``),
    or a date or time whose dates (however written) and numbers are all in it (``window
    2026-04-09 18:00-22:00`` for "on 9 April between 18:00 and 22:00"). Never an identifier
    or a sum (``refund RF-220931``, ``paid 318.5``): the tool said those, the commitment only
    repeats them; nor a value of words alone (``status processed`` beside "the refund will
    be processed", ``water resistance IPX4``): only a time or a date is said once."""
    value = value.strip()
    if len(value) < _SHORTEST:
        return False
    if (
        _NUMBER.fullmatch(value)
        or is_id_key(key)
        or identifier_shaped(value)
        or _AMOUNT.search(value)
        or "@" in value
        or not (_CLOCK.search(value) or next(date_entities(value), None))
    ):
        # An identifier or a sum the tool answered stays in the item citing the tool, where it
        # is verified: a commitment repeating it is the agent's word only.
        return False
    if whole_in(said.casefold(), value.casefold()):
        return True
    dated = list(date_entities(value))
    if not dated:
        return False
    undated = value
    for d in dated:
        undated = undated.replace(d.text, " ")
    numbers = set(_DIGITS.findall(undated))
    return within({d.key for d in dated}, marks(said)) and numbers <= set(_DIGITS.findall(said))


def whole_in(text: str, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` with no letter or digit glued to either end."""
    at = text.find(value)
    while at >= 0:
        end = at + len(value)
        if (at == 0 or not text[at - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            return True
        at = text.find(value, at + 1)
    return False


def same_day(said: str, question: str) -> bool:
    """Whether ``said`` holds every date of ``question`` (which has one), however written."""
    asked = {d.key for d in date_entities(question)}
    return bool(asked) and within(asked, marks(said))


_IF_ANYWHERE: Final = re.compile(r"\b(?:if|unless|while)\b", re.IGNORECASE)
"""A condition in a commitment, or a wait it runs beside: whether what it waits on happens is
still open ("once approved" says the wait, and so does not leave it open)."""


def covers(commitment: str, question: str) -> bool:
    """Whether a commitment already says what an awaited question does: every identifier, date
    and amount of the question (which has at least one) is in it. A question of a status
    alone (no date) stays beside a commitment that waits on a condition ("If a seat opens,
    we'll email you" for "UPG-5518: status waitlisted"): whether it happens is still open."""
    asked = marks(question)
    if not asked or not within(asked, marks(commitment)):
        return False
    dated = any(m.startswith("date:") for m in asked)
    return dated or _IF_ANYWHERE.search(commitment) is None
