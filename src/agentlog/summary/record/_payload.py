"""What a rendered tool payload establishes: its keys and short values, not its free text nor
the keys whose value says no (see :func:`established`)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from agentlog.summary.record._scope import current

__all__ = ["established"]

_FREE_WORDS: Final = 6
"""Words in a payload's string value from which it is free text, not an established value."""
# A string value holding at least _FREE_WORDS - 1 spaces (an escaped quote ends it early:
# less is blanked, never more). It starts with a literal, so the engine jumps from one string
# value to the next, and its possessive repeats never backtrack.
_FREE_TEXT: Final = re.compile(rf'": "[^"\\ ]*+(?: [^"\\ ]*+){{{_FREE_WORDS - 1},}}+"')
_SAYS_NO: Final = r"no|n|false|none|null|nil|nope|never|n/a|na|-+|0(?:\.0+)?"
"""A string that says no, read in any case with the spaces and a full stop around it."""
_DENIED: Final = (
    r"denied|rejected|declined|refused|pending|missing|unknown|tbd|ineligible|unapproved"
    r"|disapproved|revoked|withdrawn|expired|invalid|(?:not|no|never) [^\"]*"
    # Not yet so, or not wholly: asked for, waiting, being looked at, in doubt.
    r"|awaiting|waiting|on hold|held|(?:under|in) review|requested|in progress|in process"
    r"|queued|processing|submitted|to be [a-z]+|tb[ca]|undecided|unclear|unsure|partial"
    r"|partially|tentative|provisional|conditional|open|escalated|unconfirmed|unverified"
    r"|suspended|cancell?ed|on ?going|deferred|postponed"
    # No in other words and signs: a switch that is off, a cross, a refusal said plainly.
    r"|off|disabled|nah|negative|\u2717|\u2718|\u274c|\u2716|\u26d4"
)
"""A string that says a predicate's key is not so (``"refund_approved": "pending"``, "on
hold", "requested"), though for another key it is a state like any (``"status": "rejected"``,
``"status": "processing"``)."""
_NO_STRING: Final = rf'" *(?i:({_SAYS_NO})|({_DENIED}))?[ .!]*"'
_NOT_SO: Final = re.compile(
    r'"([^"]*)": (?:false|null|0(?:\.0+)?(?![\d.])|\[\]|\{\}'
    rf"|{_NO_STRING}|\[{_NO_STRING}\])"
)
"""A key and a value that says the thing is not so: ``false``, ``null``, zero, empty, a
string that says no (``"no"``, ``"0"``, ``""``, ``"never"``), or, for a key that names a
predicate (``refund_approved``, ``is_refundable``), one that denies it (``"not yet"``)."""
_PLAIN_NO: Final = re.compile(
    r'"[^"]*": (?:false|null|0(?:\.0+)?(?![\d.])|\[\]|\{\}'
    rf'|" *(?i:{_SAYS_NO})?[ .!]*"|\[" *(?i:{_SAYS_NO})?[ .!]*"\])'
)
"""A key and a value that says no whatever the key (:data:`_NOT_SO` but for denials)."""
_PLAIN_NO_VALUE: Final = re.compile(_PLAIN_NO.pattern.removeprefix('"[^"]*'))
"""The value of :data:`_PLAIN_NO` from its key's closing quote: it starts with ``": ``, so
the engine jumps from one key to the next, not from one quote to the next (twice as many)."""
_DENIES: Final = re.compile(rf'": \[?" *(?i:{_DENIED})[ .!]*"')
_DENIES_FOLDED: Final = re.compile(rf'": \[?" *(?:{_DENIED})[ .!]*"')
""":data:`_DENIES` of a payload in lower case."""
_NO_VALUE: Final = re.compile(_NOT_SO.pattern.removeprefix('"([^"]*)"'))
"""The value alone (from the ``:`` after its key): it starts with a literal, so the engine
jumps from one candidate to the next instead of trying every key."""
_BRACES: Final = re.compile(r'"(?:[^"\\]|\\.)*+"|[{}]')
_SAYS_NO_INSIDE: Final = re.compile(r'": (?:false|\[?" *(?i:no|n|false|none|never|nope)[ .!]*"\]?)')
"""A value inside an object that says no (not ``null``, ``0`` nor ``""``: a field left empty
says nothing of the decision the object records)."""
_KEY_WORDS: Final = re.compile(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])")
_DECISION_ENDS: Final = ("al", "ion", "ance", "ence")
"""English suffixes of a noun naming an act (approval, decision, acceptance, consent aside)."""
_PREDICATE_HEADS: Final = frozenset({"is", "has", "can", "was", "allow", "allowed", "needs"})
_TEXT_KEYS: Final = (
    *("text", "message", "messages", "description", "subject", "title", "note", "notes"),
    *("comment", "comments", "body", "content", "summary", "memo", "remark", "remarks"),
    *("feedback", "details", "tag", "tags", "label", "labels"),
    *("review", "reviews", "reply", "replies", "complaint", "complaints", "question"),
    *("questions", "quote", "quotes", "statement", "testimonial", "transcript", "chat"),
)
"""Words that, ending a key's name, say its value is free text (``subject``, ``customer_note``,
``customerNote``, a memory entry's ``text``): whoever typed it, a tool only stores it, however
short. Not "reason": a cancellation's or a return's reason is what the action recorded, mostly
one of a few values ("no longer needed", "damaged_in_transit"), and a record repeats it."""
_FREE_VALUE: Final = re.compile(r'"(?:[^"\\]|\\.)*+"|\[(?:"(?:[^"\\]|\\.)*+"(?:, )?)*+\]')
"""A string, or a list of strings, as rendered JSON spells them."""
_BY_LAST: Final = {k[-1]: [j for j in _TEXT_KEYS if j[-1] == k[-1]] for k in _TEXT_KEYS}
_LAST_LETTERS: Final = "".join(sorted(_BY_LAST))
_FREE_KEY: Final = re.compile(
    # One class of every key's last letter first: most keys end in none of them, and fail
    # there, before a look-behind per group is tried.
    f'": ["\\[](?<=[{_LAST_LETTERS}]": .)(?:'
    + "|".join(
        f'(?<={last}": .)(?:' + "|".join(f'(?<={k}": .)' for k in keys) + ")"
        for last, keys in _BY_LAST.items()
    )
    + ")",
    re.IGNORECASE,
)
"""Where a free-text field's value starts: the ``": "`` comes first, so the engine jumps
from one value to the next, and a look-behind for each key's end tells a free-text field
(the keys grouped by their last letter: one look-behind of a letter rules out a group, most
keys end in none of theirs)."""


def established(payload: str) -> str:
    """:func:`_established`, read once per check (:mod:`._scope`): a payload is cited by
    several items, and the events holding an identifier are read for each."""
    readings = current()
    if readings is None:
        return _established(payload)
    found = readings.established.get(payload)
    if found is None:
        found = readings.established[payload] = _established(payload)
    return found


_CROSSES: Final = "\u2717\u2718\u274c\u2716\u26d4\u2715\u274e\U0001f6ab"
"""Signs of no: ballot and multiplication crosses, a cross mark, no entry."""
_CROSS_HINTS: Final = frozenset(_CROSSES)
_CROSSED: Final = re.compile(rf'"(?:[^"\\]|\\.)*?[{_CROSSES}](?:[^"\\]|\\.)*"')
"""A string holding a sign of no ("refund \u274c approved", "unlocked: \u2717"): it states none
of its words (a check mark beside it may be another part's: the whole string goes)."""
_SET_TO_NO: Final = re.compile(
    r"[A-Za-z_][\w.\-]* ?[=:] ?(?i:false|no|n|none|null|nil|off|0(?:\.0+)?)(?![\w.:])"
)
"""A key set to no inside a string, as a log line, a query string or a config writes it
(``refund_approved=false``, ``unlocked = 0``, ``?approved=no&``, ``approved: 0``): the key's
words are not so. It needs a letter before the key's ``=`` or ``:``, so a JSON key (its quote
between) and a time (``12:00``) are not read."""


def _established(payload: str) -> str:
    """A rendered payload without its free text: string values of :data:`_FREE_WORDS` words or
    more (a ticket's description, a form's message, a note) are someone's words that a tool
    stores or passes on, often the customer's own, not what the tool established, and so is
    any string in a field named for free text (:data:`_TEXT_KEYS`), however short; and a key
    whose value says no (:data:`_NOT_SO`: ``false``, ``null``, ``0``, ``""``, ``"no"``) says
    nothing is so (``"refund_eligible": false``); a key naming a decision whose value denies
    it keeps its last word negated (``"approval": "refused"``: "no approval", "refused")."""
    if '": {' in payload:
        payload = _nested_denials(payload)
    # Most are plain (false, null, 0, "no"), cut by one substitution in C (no search first:
    # it finds as much); a value that only denies is weighed against its key one by one.
    payload = _without_plain_no(payload)
    if _DENIES_FOLDED.search(payload.lower()) is not None:  # case-blind, twice as fast
        payload = _without_no_values(payload)
    if _FREE_KEY.search(payload) is not None:
        payload = _without_free_fields(payload, payload.lower())
    if ": false" in payload or ": null" in payload:  # not after a quoted key: not JSON
        payload = _without_not_so(payload)
    # What is left of "=" or ": 0" is inside strings (JSON's own zeros and a sign of no
    # standing alone as a value went above, with their keys).
    if "=" in payload or ": 0" in payload:
        payload = _SET_TO_NO.sub(" ", payload)
    if not payload.isascii() and _CROSS_HINTS.intersection(payload):
        payload = _CROSSED.sub('""', payload)
    # Rendered JSON puts one space after each ":" and each ",": spaces beyond those are inside
    # values, and too few of them for one value of free text means there is none (most
    # payloads), which two counts in C tell without a scan in Python.
    if payload.count(" ") - 2 * payload.count('": ') < _FREE_WORDS - 1:
        return payload
    return _FREE_TEXT.sub('": ""', payload)


def _without_plain_no(payload: str) -> str:
    """``_PLAIN_NO.sub(" ", payload)``, found from each value: a match of :data:`_PLAIN_NO`
    starts at the quote before a value's ``": `` (its key's opening quote, ``[^"]*`` crossing
    no quote), unless an earlier match holds that quote."""
    kept: list[str] = []
    last = 0
    search, rfind = _PLAIN_NO_VALUE.search, payload.rfind
    value = search(payload)
    while value is not None:
        at = value.start()  # the key's closing quote
        quote = rfind('"', 0, at)
        if quote >= last:
            kept.append(payload[last:quote])
            last = value.end()
            value = search(payload, last)
        else:  # no quote of its own before it (or one a match before held): none here
            value = search(payload, at + 1)
    if not kept:
        return payload
    kept.append(payload[last:])
    return " ".join(kept)


def _nested_denials(payload: str) -> str:
    """``payload`` with each key naming a decision whose object value denies or says no
    (``"approval": {"status": "denied"}``, ``"authorization": {"granted": false}``) read as
    denied (:func:`_denied_key`: "no approval"), as a string value that denies it is."""
    kept, last = [], 0
    at = payload.find('": {')
    while at >= 0:
        quote = payload.rfind('"', 0, at)  # the key's opening quote
        key = payload[quote + 1 : at]
        if quote >= last and _may_name_decision(key.lower()) and _names_decision(key):
            inner = payload[at + 3 : _object_end(payload, at + 3)]
            if _DENIES.search(inner) is not None or _SAYS_NO_INSIDE.search(inner) is not None:
                kept += [payload[last : quote + 1], _denied_key(key)]
                last = at  # the keys inside are read on
        at = payload.find('": {', at + 4)
    return "".join([*kept, payload[last:]]) if kept else payload


def _may_name_decision(key: str) -> bool:
    """Whether a key (in lower case) holds an ending of :data:`_DECISION_ENDS` at all."""
    return "al" in key or "ion" in key or "nce" in key


def _object_end(payload: str, start: int) -> int:
    """Where the object opened at ``start`` (a ``{``) closes, strings skipped."""
    depth = 0
    for token in _BRACES.finditer(payload, start):
        if token[0] == "{":
            depth += 1
        elif token[0] == "}":
            depth -= 1
            if depth == 0:
                return token.end()
    return len(payload)


def _without_no_values(payload: str) -> str:
    """``payload`` without the keys whose value says no (:data:`_NOT_SO`), but with those
    whose value only denies (:data:`_DENIED`) where the key names no predicate."""
    kept, last = [], 0
    for value in _NO_VALUE.finditer(payload):
        quote = payload.rfind('"', 0, value.start() - 1)  # the key's opening quote
        if quote < last or payload[value.start() - 1] != '"':
            continue  # not after a quoted key, or inside the span cut before
        denies = value[2] is not None or value[4] is not None
        key = payload[quote + 1 : value.start() - 1]
        if denies and not _predicate(key):
            if _names_decision(key):  # "approval": "refused" holds "no approval", "refused"
                kept += [payload[last : quote + 1], _denied_key(key)]
                last = value.start() - 1  # from the key's closing quote on
            continue
        kept.append(payload[last:quote])
        last = value.end()
    return " ".join([*kept, payload[last:]])


def _predicate(key: str) -> bool:
    """Whether a key names something that is so or not (``refund_approved``, ``refundable``,
    ``is_late``, ``hasReceipt``) rather than a thing with a state (``status``)."""
    words = [w.lower() for w in _KEY_WORDS.split(key) if w]
    if not words:
        return False
    return words[0] in _PREDICATE_HEADS or words[-1].endswith(("ed", "able", "ible"))


@lru_cache(maxsize=4096)
def _names_decision(key: str) -> bool:
    """Whether a word of a key names a decision or an act of granting, by its English suffix
    (``approval``, ``decision``, ``authorization``, ``acceptance``, ``approval_status``), which
    a denying value says did not happen, unlike a thing with a state (``status``, ``payment``)."""
    return any(_decision_word(w) for w in _KEY_WORDS.split(key))


def _decision_word(word: str) -> bool:
    return len(word) > 4 and word.lower().endswith(_DECISION_ENDS)


def _denied_key(key: str) -> str:
    """A key whose value denies it, each word naming a decision negated: ``refund_approval``
    reads as "refund no approval", so it holds ``refund`` but not "approval" (:mod:`._words`)."""
    words = [w for w in _KEY_WORDS.split(key) if w]
    return " ".join(f"no {w}" if _decision_word(w) else w for w in words)


def _without_free_fields(payload: str, lowered: str) -> str:
    """``payload`` with the value of each free-text field (:data:`_TEXT_KEYS`) emptied."""
    spans: list[tuple[int, int]] = []
    for key in _TEXT_KEYS:
        end = f'{key}": '
        at = lowered.find(end)
        while at >= 0:
            before = payload[at - 1] if at else '"'
            camel = before.islower() and payload[at].isupper()  # customerNote
            value = _FREE_VALUE.match(payload, at + len(end))
            if value is not None and (before in '"_ .-' or camel):
                spans.append((value.start(), value.end()))
            at = lowered.find(end, at + 1)
    kept, last = [], 0
    for start, stop in sorted(spans):
        if start >= last:
            kept.append(payload[last:start])
            last = stop
    return '""'.join([*kept, payload[last:]])


def _without_not_so(payload: str) -> str:
    """``payload`` without the keys whose value is ``false`` or ``null`` where the value does
    not follow a quoted key (those :data:`_NOT_SO` cut already)."""
    spans: list[tuple[int, int]] = []
    for value in (": false", ": null"):
        at = payload.find(value)
        while at >= 0:
            quote = payload.rfind('"', 0, at - 1)  # the key's opening quote
            if quote >= 0:
                spans.append((quote, at + len(value)))
            at = payload.find(value, at + 1)
    kept, last = [], 0
    for start, end in sorted(spans):
        if start >= last:
            kept.append(payload[last:start])
            last = end
    return " ".join([*kept, payload[last:]])
