"""Heuristics of the extractive summariser about the conversation's sentences: which promise
(and what part of them), what a customer asks for first (the goal), and whether a text says
anything a record's items do not say already."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from agentlog.summary.record._extract import clip
from agentlog.summary.record._words import content_words, forms, word_set
from agentlog.summary.record.learned import identifier_shaped

__all__ = [
    "Said",
    "drop_lead_in",
    "goal_parts",
    "goal_text",
    "has_deadline",
    "is_promise",
    "names_something",
    "needs_context",
    "part_holding",
    "promise_part",
    "says_future",
    "sentences",
]

_OPENS: Final = (
    r"(?:The|This|That|These|Those|There|Then|It|Its|I|I'[a-z]+|We|We'[a-z]+|You|You'[a-z]+"
    r"|He|She|They|Our|Your|My|A|An|If|Once|When|Please|Thanks|Thank)"
)
"""Words that open a sentence (pronouns, articles, conjunctions): English, not a domain's."""
_GOAL_TOKEN: Final = re.compile(r"[A-Za-z0-9#]+(?:[_/:#.-][A-Za-z0-9]+)*")
_INITIAL: Final = r"(?<![\w.])[A-Z]\."
_TITLES: Final = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof")
"""Titles written with a stop that come before a name, so never end a sentence ("Dr. Okafor")."""
_AFTER_TITLE: Final = "".join(rf"(?<!\b{title}\.)" for title in _TITLES)
_SENTENCE: Final = re.compile(
    rf"\s*⏎\s*|{_AFTER_TITLE}(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)]))"
    rf"(?:(?<!{_INITIAL})\s+(?=[^a-z\s])|(?<={_INITIAL})\s+(?=[^A-Za-z\s]|{_OPENS}\b))"
)
"""Where a message's sentences part: a line break, or a stop (and a closing quote or bracket
after it: 'the reason "ordered by mistake." The payment ...') before a space and no lower-case
letter; after an initial ("signed by K. Osei"), only before a word that opens a sentence
("We chose plan B. The ..."); never after a title (:data:`_TITLES`)."""
# What makes an agent's sentence a promise: a future ("I'll", "will call", "should reach"), an
# entitlement ("you'll have access until"), or a present tense that schedules ("ships by 27
# March", "closes on 30 April", "is on its way", "goes back to your card"). A conditional
# ("once we receive it, we'll ship") is still a promise; advice and policy ("refunds are
# available within 14 days") are not.
# Matched against the lower-cased sentence: a case-sensitive search of lower-case text is
# about 2.5 times faster than an IGNORECASE one.
_PROMISE: Final = re.compile(
    r"\b(?:i|we)(?:['\u2019]ll| will| shall)\b(?! (?:need|require|ask|be (?:happy|glad)))"
    r"|\b(?:i|we)(?:['\u2019]ve| have) (?:\w+ed|sent|made|done|paid|issued|set)\b"
    r"|\b(?:will|won['\u2019]t) (?:(?:also|then|now|still) )?(?:arrive|reach|ship|call|email"
    r"|contact|text|send|show|appear|include|follow|expire|renew|close|stay|remain open"
    r"|take effect|post|review|process|get back|be (?:\w+ed|sent|back|there|active|made|done"
    r"|paid))\b"
    r"|\bshould (?:arrive|reach|show|post|appear|land|be (?:back|there|with you|credited))\b"
    r"|\byou(?:['\u2019]ll| will)(?: also| then| still)? (?:receive|get|see|be|have|keep)\b"
    r"|\byou can \w+(?: \w+){0,3} (?:until|before) "
    r"|\b(?:ships|arrives|follows|reaches|closes|continues|resumes|posts"
    r"|stays open|takes effect|picks up again|(?:is|are) (?:scheduled|billed|charged|emailed"
    r"|sent|booked|set)) (?:[\w$£€.,]+ ){0,6}?(?:by|on|within|until|from|for|before|in|with) "
    r"|\bappears on\b|\b(?:is|are) due (?:on|by)\b|\bbilled on\b|\bruns from\b"
    r"|\bon (?:its|their) way\b|\bby email\b|\bin your (?:email|inbox)\b"
    r"|\bgoes back to\b|\b(?:is|are) (?:refunded|credited) to\b"
)
_NOT_PROMISE: Final = re.compile(
    r"^(?:let me|feel free)\b|\blet me know\b|^please\b[^;]*$"
    r"|^(?:i|we)(?:['\u2019]ve| have) (?:\w+ )?(?:verified|located|found|checked|looked|reviewed"
    r"|pulled|confirmed|identified|authenticated)\b",
    re.IGNORECASE,
)
"""Not a promise: an offer ("let me know"), a request, and a lookup reported ("I have located
your account")."""
_HELPING: Final = re.compile(
    r"^(?:\w+,? ){0,12}?(?:i|we)(?:['\u2019]ll| will) (?:\w+ )?(?:help|guide|walk|assist"
    r"|troubleshoot|go through|take you through)\b(?!.*\b(?:and|then) (?:(?:i|we)(?:['\u2019]ll"
    r"| will) )?(?:email|send|call|text|refund|ship|issue|credit|cancel|book|contact|follow)\b)",
    re.IGNORECASE,
)
"""A promise of help in the conversation itself ("I'll guide you through a few checks"): what
follows in the session is its keeping, not a commitment to the customer."""
# A conditional is a promise when it names what is promised ("once we receive the jacket,
# we'll refund $12.00"), not when it only describes the next step ("once you confirm, I'll
# proceed").
_CONDITIONAL: Final = re.compile(r"^(?:if|once|when|after|as soon as)\b", re.IGNORECASE)
# A promise that names nothing ("It will reach your card in five days") is read with the
# sentence before it, which says what "it" is.
_MONTH: Final = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?"
)
_IDENTIFIES: Final = re.compile(
    r"[A-Za-z]-?\d{3,}|#\w*\d|[$£€]\s?\d|\d+(?:\.\d+)? ?[A-Z]{3}\b|\w@\w[\w-]*\.\w"
)
"""What identifies what a sentence is about: an identifier, an amount, an e-mail address (a
promise to e-mail ``ana@example.org`` reads alone)."""
_DATED: Final = re.compile(rf"\d{{4}}-\d\d-\d\d|\b\d{{1,2}} {_MONTH}|\b{_MONTH} \d{{1,2}}\b")
_REFERS_BACK: Final = re.compile(
    r"^(?:it|this|that|they|these|those|both|the (?:refund|credit|"
    r"replacement|order|parcel|change|switch|fee|amount))\b",
    re.IGNORECASE,
)


def sentences(body: str) -> list[str]:
    """A message's sentences (and list items), bullets stripped."""
    return [s.strip(" -*•\t") for s in _SENTENCE.split(body) if s.strip(" -*•\t")]


def is_promise(sentence: str) -> bool:
    """Whether an agent's sentence promises something (not a question, not a pleasantry)."""
    return (
        "?" not in sentence
        and not sentence.endswith(":")  # it introduces a list ("Here's what I'll do:")
        and _PROMISE.search(sentence.lower()) is not None
        and _NOT_PROMISE.search(sentence) is None
        and (_HELPING.search(sentence) is None or has_deadline(sentence))
        and (_CONDITIONAL.match(sentence) is None or names_something(sentence))
    )


_LEAD_IN: Final = re.compile(
    r"^(?:done|noted|sure|ok(?:ay)?|great|perfect|all set|got it|alright|(?:good|great) news"
    r"|update|note|heads up)[:!,] (?=\S)",
    re.IGNORECASE,
)
"""An interjection before a colon that opens a message ("Done: ...", "Good news: ..."): it
says nothing what follows does not."""
_CLAUSE: Final = re.compile(r"; ")


_PART: Final = re.compile(r"(?<=\w[;:]) (?=\S)")
_PART_WORDS: Final = 4
"""A part of a sentence shorter than this many words does not read alone."""


def part_holding(sentence: str, held: Sequence[str]) -> str:
    """The shortest run of a sentence's parts (cut at semicolons and colons) holding every
    one of ``held``, when it reads alone; else the sentence. "XY127 costs $26.00 more; XY131
    costs $9.00 more", for $26.00: its first part; a greeting left out."""
    parts = _PART.split(sentence)
    best = sentence
    for i in range(len(parts)):
        for j in range(i + 1, len(parts) + 1):
            run = " ".join(parts[i:j])
            if len(run) < len(best) and all(h in run for h in held):
                if len(run.split()) >= _PART_WORDS:
                    best = run
                break
    best = _without_lead(best.rstrip(";:"), held)
    if any(best.startswith(h) for h in held):
        return best  # "tomas.reyes@example.org" is kept as written
    return best[:1].upper() + best[1:]


def _without_lead(sentence: str, held: Sequence[str]) -> str:
    """``sentence`` without its greeting ("Hi, we're on the Team plan": "We're on the Team
    plan"), when what is left holds ``held``."""
    rest = _GREETING.sub("", sentence, count=1)
    return rest if rest and all(h in rest for h in held) else sentence


def has_deadline(text: str) -> bool:
    """Whether ``text`` says when (``within 5 to 7 business days``, ``by 23 February``)."""
    return _DEADLINE.search(text) is not None


def drop_lead_in(sentence: str) -> str:
    """``sentence`` without its lead-in (``Done: ``), capitalised."""
    sentence = _LEAD_IN.sub("", sentence, count=1)
    return sentence[:1].upper() + sentence[1:]


_NUMBER_WORD: Final = r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few)"
_DEADLINE: Final = re.compile(
    rf"\b(?:within|in|after) {_NUMBER_WORD}(?: (?:to|or|-) {_NUMBER_WORD})?(?: \w+)? "
    r"(?:minutes?|hours?|days?|weeks?|months?)\b"
    rf"|\b(?:by|until|before|on) (?:\d|{_MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day)",
    re.IGNORECASE,
)
"""A deadline (``within 5 to 7 business days``, ``by 23 February``): a clause saying when a
promise is kept is part of it."""


def promise_part(sentence: str) -> str:
    """The part of a promising sentence that promises: its lead-in ("Done:") left out, and,
    of its clauses (cut at semicolons), those that promise, each with the clause before it
    when it reads only with it ("I'm sorry about the delay; it is on its way": the second);
    the whole sentence when no clause promises alone."""
    sentence = drop_lead_in(sentence)
    clauses = _CLAUSE.split(sentence)
    if len(clauses) > 1:
        kept: list[str] = []
        for i, clause in enumerate(clauses):
            promises = _PROMISE.search(clause.lower()) and not _NOT_PROMISE.search(clause)
            if not promises and not has_deadline(clause):
                continue
            before = clauses[i - 1] if i > 0 else ""
            if before and before not in kept and needs_context(clause) and names_something(before):
                kept.append(before)
            kept.append(clause)
        if kept:
            sentence = "; ".join(kept)
    sentence = sentence.strip()
    return sentence[:1].upper() + sentence[1:]


_FIGURE: Final = re.compile(r"[#\w][\w/-]*\d[\w/-]*(?:[.,]\d+)*")


def _figures(text: str) -> set[str]:
    """The tokens of ``text`` that hold a digit (identifiers, amounts, dates), case folded and
    numbers as their value (``$1,234.50``: ``1234.5``)."""
    found = set()
    for token in _FIGURE.findall(text):
        plain = token.replace(",", "")
        try:
            found.add(str(float(plain)).removesuffix(".0"))
        except ValueError:
            found.add(token.casefold())
    return found


class Said:
    """What a record's items say so far: their words (in any inflection) and figures, to ask
    whether a text would say anything new."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.words: set[str] = set()
        self.figures: set[str] = set()
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        self.words |= word_set(text)
        self.figures |= _figures(text)

    def repeats(self, text: str, other: str) -> bool:
        """Whether ``text`` says next to nothing that ``other`` does not: every figure of it
        is in ``other`` or these items, and at most a third of its content words are not in
        ``other``. A text of no content words says nothing to compare: it is not a repeat."""
        words = content_words(text)
        if not words or not _figures(text) <= self.figures | _figures(other):
            return False
        theirs = word_set(other)
        new = sum(forms(w).isdisjoint(theirs) for w in words)
        return new <= len(words) // 3

    def holds(self, text: str) -> bool:
        """Whether every content word (in some inflection) and every figure of ``text`` is
        said already (a text of no content words is not: there is nothing to compare)."""
        words = content_words(text)
        return (
            bool(words)
            and _figures(text) <= self.figures
            and all(not forms(w).isdisjoint(self.words) for w in words)
        )


def names_something(sentence: str) -> bool:
    """Whether a sentence holds an identifier, an amount or a date."""
    return _IDENTIFIES.search(sentence) is not None or _DATED.search(sentence) is not None


_FUTURE: Final = re.compile(r"\b(?:will|won['\u2019]t|shall)\b", re.IGNORECASE)


def says_future(sentence: str) -> bool:
    """Whether a sentence says what will happen ("A driver will collect on 21 May"), which a
    promise after it may go on from, though no promise pattern knows its verb."""
    return _FUTURE.search(sentence) is not None


def needs_context(sentence: str) -> bool:
    """Whether a promise reads only with the sentence before it: it refers back ("It will
    reach your card") or names no identifier or amount (a date alone does not say what)."""
    return _REFERS_BACK.match(sentence) is not None or _IDENTIFIES.search(sentence) is None


_GREETING: Final = re.compile(
    r"^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))\b(?: there\b)?[\s,.!]*)+",
    re.IGNORECASE,
)
_ASKS: Final = re.compile(
    r"\b(?:i(?:['\u2019]d| would) like|i want|i need|i(?:['\u2019]m| am) (?:trying|looking)"
    r"|can you|could you|would you|please|help me|how (?:do|can) i)\b|\?",
    re.IGNORECASE,
)


_SHORT_ASK: Final = 50
"""A request shorter than this many characters is read with the sentences before it."""


def goal_text(said: str, limit: int) -> str:
    """The customer's request from their first message: its greeting left out, the first
    sentence that asks (the first sentence if none does), with the sentences before it while
    it is short or refers back; cut to ``limit``; then, in brackets, the identifiers of the
    sentences the cut left out."""
    asked, also = goal_parts(said, limit)
    return asked + also


def goal_parts(said: str, limit: int) -> tuple[str, str]:
    """:func:`goal_text` in its two parts: the request, and the bracketed identifiers the cut
    left out (``""`` if none)."""
    said = _GREETING.sub("", said)
    parts = sentences(said)
    if not parts:
        return "", ""
    asks = next((i for i, s in enumerate(parts) if _ASKS.search(s) is not None), 0)
    # A short request reads with the sentence before it ("My order A-1001 still hasn't
    # arrived. What's going on?"); a long one says enough alone.
    first = asks
    while first > 0 and (
        len(" ".join(parts[first : asks + 1])) < _SHORT_ASK
        or _REFERS_BACK.match(parts[first]) is not None  # "It keeps stopping"
    ):
        first -= 1
    text = " ".join(parts[first : asks + 1])
    # The identifiers of the sentences the cut left out ("Flat K7-0211." after the ask) go
    # with it: what the customer's request is about, which no tool may ever name.
    left = [s for i, s in enumerate(parts) if not first <= i <= asks]
    ids = [t for t in _GOAL_TOKEN.findall(" ".join(left)) if identifier_shaped(t)]
    ids = [t for t in dict.fromkeys(ids) if t not in text]
    also = f" ({', '.join(ids)})" if ids else ""
    return clip(text[:1].upper() + text[1:], limit), also
