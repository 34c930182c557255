"""Content words, for asking whether a cited event says what an item says.

An item's words are compared with the words of the events it cites. Both sides are folded
(:func:`~agentlog.summary.record.unicode_fold.fold_words`: look-alike letters, zero-width
characters and case undone, a word of another script kept in it), split into runs of letters
(``shipping_fee`` is ``shipping`` and ``fee``; digits belong to entities, which are compared as
wholes), and reduced to content: :data:`STOP_WORDS` (grammar, and the words any record uses to
narrate: "customer", "agent", "called", "returned") are left out, and ``n't`` reads as ``not``,
which stays: "not refunded" says the opposite of "refunded". So the word a negator governs reads
as negated (:data:`NEGATED`, ``not~refunded``): an event that says "not refunded" does not hold
"refunded". Likewise the words of a condition (:data:`CONDITIONAL`: after "if", "unless",
"once", "when", "pending", "subject to", "requires", "until", "provided", ... up to the clause's
end, and, where the marker is written as prose, what its clause says before it) read as
conditional (``if~approved``): "full refund if approved" holds ``if~approved``, never
``approved``, so it does not support "Full refund approved", while "refund once approved" says
the same condition, and what is said outright supports its conditional. The markers are English
words of grammar, not of any domain; a marker inside an identifier (``cancel_pending_order``)
conditions only what follows it, and an identifier that ends in one (``approval_required``,
``refund_pending``, ``waiver_requested``) conditions its own words. A **hedge**
(:data:`_HEDGES`: "provisionally", "tentatively", "in principle", "likely", "may", "to be
confirmed", a reference "- see terms", a trailing ``*``, ``?`` or dagger) conditions its whole
clause, before and after it, up to a string's quote or a sentence's end: "approved
(conditional)" holds ``if~approved`` only.

What markup deletes is not said: struck out (``~~approved~~``, ``<del>``, ``<s>``,
``<strike>``, a letter with a combining stroke through it) or commented out (``<!-- -->``);
bold (``**approved**``) is its text, not a footnote's mark.

A word of an item is found in an event when the event holds it in some inflection: each item
word is expanded into its likely forms (:func:`forms`: ``refund`` ~ ``refunds``, ``refunded``,
``refunding``; ``shipped`` ~ ``ship``, ``shipping``) and the sets are intersected, which is
cheaper than stemming every word of every event.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from agentlog.summary.record import _languages
from agentlog.summary.record._scope import current
from agentlog.summary.record.unicode_fold import fold_words, wide_chars

__all__ = [
    "CONDITIONAL",
    "NEGATED",
    "REVERSALS",
    "STOP_WORDS",
    "content_words",
    "forms",
    "letter_runs",
    "letters_of",
    "participle",
    "word_set",
]

STOP_WORDS: Final = frozenset(
    """
    a about above after again agent agents all also am an and any are as asked asks
    assistant at be been before being below between both but by ca call called calls can
    checked could customer customers did do does doing done down during each either else etc
    even ever every few for found from further gave get gets got had has have having he her
    here hers herself him himself his how i if in into is issued it its itself just let
    looked made make makes me mention mentioned mentions more most my myself noted of off on
    once only or other our ours ourselves out over own per reported result results returned
    returns said same say says session she should showed shows so some stated such than that
    the their theirs them themselves then there these they this those through to told too
    tool tools under until up upon us user users very via wanted wants was we were what when
    where which while who whom why will with wo would yet you your yours yourself yourselves
    s d ll m re t ve
    """.split()  # noqa: SIM905 (a list literal of 150 words reads worse)
)
"""Words that carry no claim of their own: grammar, and the verbs and nouns of narration. The
last line is what an apostrophe leaves of a possessive or a contraction ("customer's", "I'd",
"we'll", "I'm", "you're", "I've"): a record's "the customer's card" must not lean on the "s"
of the user's "What's"."""

_NOT: Final = re.compile(r"n['\u2019]t\b")
_NEGATORS: Final = ("not", "no", "non", "never", "nor", "without", *_languages.NEGATORS)
_NEGATED: Final = re.compile(
    rf" ({'|'.join(_NEGATORS)})((?: (?:{'|'.join(sorted(STOP_WORDS, key=len, reverse=True))}))*)"
    r" ([^\W\d_]+)"
)
"""A negator, the grammar after it, and the word it negates, in a text spaced by
:func:`_spaced` with a space before it (a literal first: the engine skips to each space)."""
_SPACED_NEGATORS: Final = tuple(f" {n} " for n in _NEGATORS)
_WIDE_NEGATOR_STARTS: Final = frozenset(f" {n[0]}" for n in _NEGATORS if not n.isascii())
"""A space and the first letter of each negator that is not ASCII (Cyrillic, Greek): a text
holding none of them holds none of those negators."""
NEGATED: Final = "not~"
"""How a word reads after a negator: "not refundable" holds ``not`` and ``not~refundable``,
never ``refundable``, so a payload's ``not_refundable`` does not hold an item's "refundable"."""
_VOWELS: Final = frozenset("aeiou")

CONDITIONAL: Final = "if~"
"""How a word of a condition reads: "refund if approved" holds ``if~approved``, not
``approved`` (one prefix for every marker: "once approved" states the same condition)."""
_MARKERS: Final = (
    *("if", "unless", "once", "when", "whenever", "pending", "until", "till", "provided"),
    *("providing", "requires", "require", "required", "requiring", "needs", "awaiting"),
    *("subject to", "contingent on", "conditional on", "depending on", "depends on"),
    *("upon", "assuming", "in case", "as long as", "so long as", "only after"),
)
_CLAUSE_END: Final = re.compile(r'[,;:!?"()\[\]{}\n]|\.(?!\d)')
"""Where a condition ends, in the folded text: a clause's punctuation, a string's closing
quote, a full stop but not a decimal point."""
_CLAUSE_START: Final = re.compile(r'.*(?:[,;:!?"()\[\]{}\n]|\.(?!\d))', re.DOTALL)
"""Up to the last clause end before a point (searched between the last condition and it)."""
_BY_HINT: Final = {
    hint: re.compile(
        rf" (?:{'|'.join(m.replace(' ', ' +') for m in _MARKERS if hint in m.split())})(?= )"
    )
    for hint in {max(m.split(), key=len) for m in _MARKERS}
}
"""Each marker's longest word ("case", not "in"), and the markers holding it: a text is
searched only for the markers of the words it holds, each search from a literal space."""
_MARKER_HINTS: Final = frozenset(_BY_HINT)

_HEDGES: Final = re.compile(
    r" (?:provisional(?:ly)?|tentative(?:ly)?|conditional(?:ly)?|preliminar(?:y|ily)|prov"
    r"|likely|unlikely|probabl[ey]|possibl[ey]|maybe|perhaps|presumabl[ey]|supposedly"
    r"|reportedly|allegedly|apparently|expected|estimated|proposed|draft|partial(?:ly)?"
    r"|partly|in part|in principle|tb[cdac]|to be \w+|may|might|could|should|would"
    r"|will|unconfirmed|unverified|with conditions|conditions apply|terms apply|for now|so far"
    r"|previously|formerly|revoked|reversed|rescinded|cancell?ed|withdrawn|voided|overturned"
    r"|retracted|undone|" + "|".join(_languages.HEDGES) + r")(?= )"
)
"""Words that hedge what their clause says without naming a condition ("provisionally
approved", "approved in principle", "approved, see terms", "to be confirmed", "may be
waived"): English adverbs, adjectives and modal verbs of doubt, never a domain's words, and
their like in other languages (:data:`._languages.HEDGES`: "vorläufig genehmigt")."""
_HEDGE_HINTS: Final = frozenset(
    {
        *("provisional", "provisionally", "tentative", "tentatively", "conditional", "prov"),
        *("conditionally", "preliminary", "preliminarily", "likely", "unlikely", "probably"),
        *("probable", "possibly", "possible", "maybe", "perhaps", "presumably", "presumable"),
        *("supposedly", "reportedly", "allegedly", "apparently", "expected", "estimated"),
        *("proposed", "draft", "partial", "partially", "partly", "part", "principle", "tbc"),
        *("tbd", "tba", "may", "might", "could", "should", "would", "will"),
        *("unconfirmed", "unverified", "conditions", "terms", "now", "far", "previously"),
        *("formerly", "revoked", "reversed", "rescinded", "cancelled", "canceled", "withdrawn"),
        *("voided", "overturned", "retracted", "undone"),
        # The longest word of each phrase of another language ("principe" of "en principe"):
        # a hedge is matched from its hint or from the word before.
        *(max(h.split(), key=len) for h in _languages.HEDGES),
    }
)
"""A word of each hedge (:data:`_HEDGES` is searched only in a text holding one)."""
_ASKED: Final = ("required", "needed", "pending", "awaiting", "requested")
_ASKED_HINTS: Final = frozenset(_ASKED)
_ASKED_AFTER: Final = re.compile(rf"(?<=[^\W_])[_-](?:{'|'.join(_ASKED)})(?![\w-])")
_IDENT_START: Final = re.compile(r"[\w-]*$")
"""The identifier an ending of :data:`_ASKED_AFTER` closes, searched back from it."""
"""An identifier that ends by saying its thing is asked for, not had (``approval_required``,
``waiver_requested``, ``refund-pending``): its words read as conditional. (A marker inside an
identifier otherwise conditions what follows it: ``cancel_pending_order``.)"""
REVERSALS: Final = frozenset(
    {"revoked", "reversed", "rescinded", "cancelled", "canceled", "withdrawn", "voided"}
    | {"overturned", "retracted", "undone"}
)
"""Hedges that undo what their clause says, a state of their own when said alone."""
_HINTS: Final = _MARKER_HINTS | _HEDGE_HINTS | _ASKED_HINTS | {"be", "see"}
"""Every word :func:`_clauses` and :func:`_hedges` ask a text whether it holds."""
_NEGATOR_WORDS: Final = frozenset(_NEGATORS)
_READ_HINTS: Final = _HINTS | _NEGATOR_WORDS
"""The words :func:`_read` looks up in a text: the hints, and whether it holds a negator."""
_STRING_ENDS: Final = ('"', "\n", "\u23ce", "[", "]", "{", "}")
_PROSE_BEFORE: Final = frozenset(' ("[/')
"""What stands before a marker written as prose ("approved (pending signature)"), not inside
an identifier (``cancel_pending_order``)."""
_SEE: Final = re.compile(r"[-,(:] *see ")
"""A reference that the value holds only on terms said elsewhere ("approved - see terms",
"approved (see policy)"), not a "see" of prose ("I see it was approved")."""
_HEDGE_MARKS: Final = ("?", "*", "\u2020", "\u2021")
"""Marks that hedge the value they end (a question, a footnote: "approved*", "approved?")."""
_HEDGE_END: Final = re.compile('["\n\u23ce;!?\\[\\]{}]|\\.(?![\\d\\w])')
"""Where a hedge's reach ends: a string's quote, a sentence's end (a full stop before a space,
not an abbreviation's ``prov.`` inside a word, nor a decimal point; a question mark; a line
break, which the transcript shows as ``⏎``), a bracket."""
_HEDGE_ENDS: Final = ('"', "\n", "\u23ce", ";", "!", "?", "[", "]", "{", "}", ". ")
""":data:`_HEDGE_END` as literals, to search back from a hedge for its clause's start."""


_IRREGULAR: Final = frozenset(
    {"paid", "sent", "done", "given", "taken", "made", "sold", "kept", "won", "written"}
    | {"shown", "told", "granted", "okd"}
)
"""English past participles that do not end in ``-ed`` (and "OK'd")."""


def participle(word: str) -> bool:
    """Whether a (folded) word is an English past participle: ``approved``, ``paid``; not a
    word that only ends in ``-eed`` (``speed``, ``need``)."""
    if word.endswith("ed"):
        return len(word) > 4 and not word.endswith("eed")
    return word in _IRREGULAR


_SAME: Final = {"failed": ("error", "errors", "fail", "failure"), "error": ("failed", "failure")}
"""Words a tool writes for what a record says otherwise (a result ``{"error": ...}`` failed)."""


@lru_cache(maxsize=16384)
def forms(word: str) -> frozenset[str]:
    """The inflections under which an event may hold ``word`` (a folded content word); a word
    of a condition (:data:`CONDITIONAL`) is held by the word said outright too (what is so
    meets any condition on it), never the other way round."""
    if word.startswith(CONDITIONAL):
        bare = forms(word.removeprefix(CONDITIONAL))
        return bare | {CONDITIONAL + f for f in bare}
    stems = {word, *_SAME.get(word, ())}
    if len(word) < 4:
        return frozenset(stems)  # "not" is not "notes"
    for suffix in ("ing", "ed", "es", "s", "er", "ers", "ment", "ments", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            stems.add(stem)
            if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS:
                stems.add(stem[:-1])  # shipped -> ship
            if suffix in ("ing", "ed", "er", "ers"):
                stems.add(stem + "e")  # closed -> close
    found = set(stems)
    for stem in stems:
        found.update(stem + s for s in ("s", "es", "ed", "d", "ing", "er", "ers", "ment"))
        if len(stem) >= 3 and stem[-1] not in _VOWELS and stem[-2] in _VOWELS:
            found.update(stem + stem[-1] + s for s in ("ed", "ing", "er"))  # ship -> shipped
        if stem.endswith("e"):
            found.update(stem[:-1] + s for s in ("ing", "ed", "er"))  # close -> closing
    if word.endswith("ed"):
        # A thing done is not the one who does it or the form it is done on: "waived" is not
        # a "waiver" (``waiver_form``), "approved" not an "approver".
        found = {f for f in found if not f.endswith(("er", "ers"))}
    return frozenset(found)


# Every ASCII byte but a letter becomes a space (the quote too, so ``n't`` is read before
# this): words are letters; what holds digits is an entity, compared as one.
_WORD_BYTES: Final = bytes(c if chr(c).isalpha() and c < 0x80 else 0x20 for c in range(256))
_WIDE_WORD_BYTES: Final = bytes(c if c >= 0x80 else _WORD_BYTES[c] for c in range(256))
_LETTERS: Final = re.compile(r"[^\W\d_]+")


def letter_runs(text: str) -> list[str]:
    """``text``'s runs of letters as written (``[^\\W\\d_]+``), in order: of an ASCII text,
    by one translate in C (a regex of a class tests every character in turn)."""
    if text.isascii():
        return text.encode("ascii").translate(_WORD_BYTES).decode("ascii").split()
    return _LETTERS.findall(text)


def _runs(text: str, hedged: bool = True) -> list[str]:
    """The runs of letters of ``text``, folded, ``n't`` read as ``not``."""
    return _spaced(text, hedged).split()


def _spaced(text: str, hedged: bool = True) -> str:
    """``text`` folded, ``n't`` read as ``not``, every character but a letter a space (and,
    unless not ``hedged``, what a hedge reaches conditional); read once per check
    (:mod:`._scope`): an item's clauses and the events it cites are read many times."""
    readings = current()
    if readings is None:
        return _spaced_now(text, hedged)
    known = readings.spaced if hedged else readings.spaced_plain
    spaced = known.get(text)
    if spaced is None:
        spaced = known[text] = _spaced_now(text, hedged)
    return spaced


def _spaced_now(text: str, hedged: bool) -> str:
    if not text.isascii() and _OVERLAY_HINTS.intersection(text):
        text = _OVERLAID.sub(" ", text)  # before folding, which drops the marks
    folded = fold_words(text)
    if "~~" in folded or "<" in folded or "**" in folded:
        folded = _unmarked(folded)
    if "n't" in folded or "n\u2019t" in folded:
        folded = _NOT.sub(" not", folded)
    if folded.isascii():  # a translate in C, several times faster than the regex
        spaced = folded.encode("ascii").translate(_WORD_BYTES).decode("ascii")
        return _read(folded, spaced, hedged)
    # Mostly ASCII, with a few distinct wider characters: each that is not a letter becomes a
    # space (one scan in C each), and the ASCII ones that are not letters too, by the same
    # translate on the text as UTF-8 (every byte of a wider character is >= 0x80, kept).
    letters = folded
    for char in wide_chars(folded):
        if not _is_letter(char):
            letters = letters.replace(char, " ")
    raw = letters.encode("utf-8", "surrogatepass").translate(_WIDE_WORD_BYTES)
    spaced = raw.decode("utf-8", "surrogatepass")
    return _read(folded, spaced, hedged)


def _read(folded: str, spaced: str, hedged: bool) -> str:
    """``spaced`` conditioned and negated (:func:`_conditioned`), its words split once: a
    text with no condition and no negator (most payloads) is read as it is spaced."""
    words = _READ_HINTS.intersection(spaced.split())
    clauses = _clauses(folded, spaced, words, hedged)
    if not clauses and _NEGATOR_WORDS.isdisjoint(words):
        # No negator among its words: no " not " in it for :func:`_negated` to read (spaced,
        # every character but a letter is a space, so a negator between spaces is a word).
        return spaced
    return _conditioned(spaced, clauses)


_OVERLAYS: Final = "\u0334\u0335\u0336\u0337\u0338"
"""Combining marks drawn through a letter (a tilde, strokes, a slash): Unicode's strike-out."""
_OVERLAY_HINTS: Final = frozenset(_OVERLAYS)
_OVERLAID: Final = re.compile(f"[^\\W\\d_]*(?:[^\\W\\d_][{_OVERLAYS}]+)+[^\\W\\d_]*")
"""A word with struck-out letters (``a\u0336p\u0336p\u0336...``): not said, as ``~~...~~``."""
_STRUCK: Final = re.compile(
    r'~~[^~"\n]*~~|<(del|s|strike)(?:\s[^>"]*)?>[^"<]*</\1\s*>|<!--[^"]*?-->', re.IGNORECASE
)
"""Text that markup deletes: struck out (``~~approved~~``, ``<del>``, ``<s>``, ``<strike>``)
or commented out (``<!-- -->``), within one string (never across a quote)."""
_BOLD: Final = re.compile(r'\*\*(?=[^\s*"])([^*"\n]+?)(?<=[^\s*])\*\*')
"""Bold in markdown (``**approved**``): emphasis, not a footnote's mark (``approved**``)."""


def _unmarked(folded: str) -> str:
    """``folded`` without what markup deletes (:data:`_STRUCK`: a struck-out word is not
    said), and bold read as its text."""
    if "~~" in folded or "<" in folded:
        folded = _STRUCK.sub(" ", folded)
    if "**" in folded:
        folded = _BOLD.sub(r"\1", folded)
    return folded


def _clauses(
    folded: str, spaced: str, words: frozenset[str], hedge: bool = True
) -> list[tuple[int, int]]:
    """The spans of the conditions of ``folded``, from its spacing ``spaced``, which keeps every
    character's place (markers are found there, whole: ``refund_if_approved`` has one, as
    every character but a letter is a space there; a clause's ends are found here). ``words``
    are the words of ``spaced`` among :data:`_HINTS` (and any others)."""
    # Only the hint words are looked up again: their set, not every word's, is made.
    hints = _MARKER_HINTS.intersection(words)
    hedged = _hedges(folded, spaced, words) if hedge else []
    if not _ASKED_HINTS.isdisjoint(words) and any(
        f"_{h}" in folded or f"-{h}" in folded for h in _ASKED_HINTS.intersection(words)
    ):
        asked = [(_ident_start(folded, m.start()), m.end()) for m in _ASKED_AFTER.finditer(folded)]
        if asked:
            hedged = _merged(hedged, asked)
    if not hints:  # most texts: one split and a look-up each
        return hedged
    padded = f" {spaced} "
    markers = sorted(
        (m for h in hints for m in _BY_HINT[h].finditer(padded)), key=lambda m: m.start()
    )
    spans: list[tuple[int, int]] = []
    last = 0
    for marker in markers:
        start = marker.end() - 1  # in ``spaced``: the space after the marker
        if start < last:
            continue  # a marker inside the condition before
        at = marker.start()  # in ``spaced``: the character before the marker
        if at > 0 and folded[at - 1] in _PROSE_BEFORE:
            # Written as prose ("approved if requested", not ``cancel_pending_order``): what
            # the sentence (a string's value) says before its condition holds only on it too,
            # past a comma or a bracket ("approved (pending signature)", "approved, if
            # eligible").
            start = max(last, _clause_start(folded, at))
        stop = _CLAUSE_END.search(folded, max(start, marker.end() - 1))
        last = stop.start() if stop is not None else len(folded)
        if start < last:
            spans.append((start, last))
    return _merged(spans, hedged) if hedged else spans


def _hedges(folded: str, spaced: str, words: frozenset[str]) -> list[tuple[int, int]]:
    """The spans a hedge reaches: each hedge word or mark conditions its whole clause, before
    and after it, up to a string's quote or a sentence's end (:data:`_HEDGE_END`). ``words``
    are the text's words among :data:`_HINTS`."""
    spans: list[tuple[int, int]] = []
    hints = set(_HEDGE_HINTS.intersection(words))
    if "be" in words and " to be " in spaced:
        hints.add("to")
    if hints:
        # Each hint's places, found in C; in the padded text a hint starts at the space
        # before it: its place here.
        padded = f" {spaced} "
        for hint in hints:
            at = padded.find(f" {hint} ")
            while at >= 0:
                # The hedge starts at its hint, or at the word before ("in part", "for now").
                m = _HEDGES.match(padded, at) or _HEDGES.match(padded, padded.rfind(" ", 0, at))
                if m is not None:
                    stop = _HEDGE_END.search(folded, m.end())  # past an abbreviation's stop
                    end = stop.start() if stop else len(folded)
                    begun = _clause_start(folded, m.start(), m[0].endswith(" apply"))
                    # A reversal ("approved, then revoked") hedges what else its clause says;
                    # alone ("cancelled") it is the state, and stays one.
                    if hint not in REVERSALS or " " in folded[begun:end].strip():
                        spans.append((begun, end))
                at = padded.find(f" {hint} ", at + 1)
    if "see" in words:
        for m in _SEE.finditer(folded):
            stop = _HEDGE_END.search(folded, m.end())
            spans.append((_clause_start(folded, m.start()), stop.start() if stop else len(folded)))
    for mark in _HEDGE_MARKS:  # a mark hedges what comes before it, up to it
        at = folded.find(mark)
        while at >= 0:
            spans.append((_clause_start(folded, at), at))
            at = folded.find(mark, at + 1)
    return _merged(spans) if spans else spans


def _ident_start(folded: str, point: int) -> int:
    """Where the identifier that runs up to ``point`` starts (looked for in the 80 characters
    before it: an identifier is shorter)."""
    start = max(0, point - 80)
    head = _IDENT_START.search(folded[start:point])
    return start + head.start() if head is not None else point


def _clause_start(folded: str, point: int, string: bool = False) -> int:
    """Where the clause holding ``point`` starts: after the last of :data:`_HEDGE_ENDS`
    before it (a search back in C for each, not a scan in Python); with ``string``, where the
    string or the line starts ("approved; conditions apply" refers back past a ``;``)."""
    ends = _STRING_ENDS if string else _HEDGE_ENDS
    # Each end is looked for only after the nearest found so far (the first, a quote, is
    # near in a payload): the others never scan back to the start of a long text.
    last = -1
    for end in ends:
        last = max(last, folded.rfind(end, last + 1, point))
    return last + 1 if last >= 0 else 0


def _merged(*groups: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of spans, sorted, none overlapping."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(s for group in groups for s in group):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def _conditioned(spaced: str, clauses: list[tuple[int, int]]) -> str:
    """``spaced`` negated (:func:`_negated`), each word of a clause of ``clauses`` read as
    :data:`CONDITIONAL` (its grammar left out: it says nothing a condition needs)."""
    if not clauses:
        return _negated(spaced)
    pieces, last = [], 0
    for start, end in clauses:
        pieces.append(_negated(spaced[last:start]))
        inner = _negated(spaced[start:end]).split()
        pieces.append(" ".join(CONDITIONAL + w for w in inner if w not in STOP_WORDS))
        last = end
    pieces.append(_negated(spaced[last:]))
    return " ".join(pieces)


def _negated(spaced: str) -> str:
    """``spaced`` with each word a negator governs read as :data:`NEGATED` (see there)."""
    padded = f" {spaced}"
    if (
        (padded.isascii() or not any(w in padded for w in _WIDE_NEGATOR_STARTS))
        and " n" not in padded  # "not", "no", "never", "nicht", "nao", "niet", "nie", ...
        and " without " not in padded
        and " kein" not in padded
        and " pas " not in padded
        and " geen " not in padded
    ):
        return spaced
    if not any(n in padded for n in _SPACED_NEGATORS):
        return spaced
    return _NEGATED.sub(rf" \1\2 {NEGATED}\3", padded)[1:]


@lru_cache(maxsize=4096)
def _is_letter(char: str) -> bool:
    return _LETTERS.fullmatch(char) is not None


def letters_of(text: str, hedged: bool = True) -> str:
    """``text``'s folded letters, every other character a space, and a space at each end: a
    word (a run of letters) is in ``word_set(text)`` if and only if ``f" {word} "`` is in it
    (``hedged``: the words a hedge reaches read as conditional)."""
    return f" {_spaced(text, hedged)} "


def word_set(text: str, hedged: bool = True) -> set[str]:
    """Every word of ``text`` (folded), stop words included: the event side (``hedged``: the
    words a hedge reaches read as conditional)."""
    return set(_runs(text, hedged))


def content_words(text: str) -> set[str]:
    """The content words of ``text`` (folded): the item side."""
    words = set(_runs(text))
    words -= STOP_WORDS
    return words
