"""Binding: a tool payload says each of its words *of* something, not into a bag.

Evidence reads a payload's words (:mod:`.evidence`); an item is verified when the cited tool
traffic holds its words. But ``{"exchange": "approved", "refund": "denied"}`` holds "refund"
and "approved" and says neither of the other: "A-1001 refund approved" citing it launders
the customer's claim through a result that approved something else. So before an item is
verified, each payload it leans on is read as **leaves** (a key path and a value:
:mod:`.leaves`, read by :mod:`._walk`), and :func:`binds` asks whether the payload says the
item's words of the thing the item names, by three rules:

1. **A state is said of its subject** (:func:`_bound`). An item word that a cited payload
   states, but only of subjects the item does not name, is said of something else when the
   item names another field of that payload whose short state it does not say (the refund
   that was ``"denied"``) or when the word is a list's member: the item is not verified. A
   word stated at the payload's top level (what the tool was asked about), a word naming one
   of the payload's keys or its tool, and a word other cited evidence holds pass.
2. **A named field says its own value** (:mod:`._misstated`).
3. **A named key says its own state** (:mod:`._unsaid`).

A leaf of another thing than the item's (a nested object naming itself by another
identifier, a part of the top another thing's identifier owns) binds no word of the item
(:mod:`._others`). Rule 1 reads more of the structure (issue 13, the red team's round in
brackets):

- a clause (:func:`._values._clause`) is said of its field only: an item leaning on it must
  name the field (``entry``, ``history``); a value under a key naming free text binds nothing
  (5);
- the item naming what the payload is at its top (``"kind": "refund request"``) does not take
  the state of a part it does not name (``"address_change": {"approved": true}``), unless the
  part says it is that kind (``"type": "refund"``) or names a decision (``approval``) (5); a
  decision noun is the verdict on the whole only when its state says that decision was made
  (``"approval": {"approved": true}``) or refused; ``"cancellation": {"approved": true}`` is
  another act, decided (:func:`_verdict`, 6);
- a key saying its object was undone (:data:`._keys.UNDOING`: ``"revoked": true``,
  ``withdrawn_at``, ``approval_revoked``) undoes the object's other states, unless the item
  says so too (5); an ending key (``superseded_by``) undoes its object, and an item naming that
  object by its key (9);
- a key saying its value held before (:data:`._keys.PAST`: ``was``, ``previous_status``, an
  object under ``old``) binds only an item that says so too (5);
- of records in a list told apart by a short code (:func:`_named_records`: ``R1``), an item
  writing one reads only that record (5);
- a time bound the event's day is outside (``expires_at`` an earlier day) puts its object's
  states out of force, unless the item says so (``expired``) (6);
- a comment after a short value's state (:func:`._values._tail`: "approved (not really)",
  "approved - just kidding") binds only an item that says it too (6);
- of two short states the item's words may be of, the one whose key path the item names whole
  (``"refund": "denied"``) is what it says, not one whose path it names in part
  (``"parent": {"refund": "approved"}``: :func:`_nearer`, 8).

Before the words, :func:`binds` reads the item's sums, dates and identifiers:

- an amount in a payload whose currency (a field named for it, or any value that is an
  ISO 4217 code: ``"unit": "JPY"``) the item's sign or code cannot mean is not the item's
  (:mod:`._currency`, 5);
- a number under a key counting a currency's hundredths (``amount_cents``) is that sum divided
  by 100: "$8,400" is not what it holds (:attr:`.leaves.Payload.minor`, 7);
- a top key holding an identifier without naming it (``"previous_order": "A-2002"``,
  ``"replaces"``) refers to another thing when the top object names its own by a naming key
  (``"order_id": "A-1001"``): an item naming only the other thing is not verified by the
  payload's states, unless it says the key's words (:func:`_referred`, 7);
- of several cited exchanges, one whose tops name their own subjects (``"order_id":
  "A-2002"``) by no identifier the item writes, beside one naming the item's, is about
  another thing: a word or a sum only it holds is not the item's (:func:`_about`, 7); so is
  one whose call and result name no thing at all (``get_offer({"segment": "gold"})``
  answered ``{"credit_limit": 5000}``: :meth:`.evidence.Evidence.names_nothing`, 11);
- an item word naming only a history's key in another thing's object (``"customer":
  {"refund_history": {"last": "approved"}}``) names that owner's history, not the item's
  thing (:mod:`._histories`, round 8's open shape, 11);
- an item naming a dated key (``approved_on``) and writing none of its dates, but one
  another key holds (``placed``), dates the act by another thing (:func:`_other_date`, 7).

The rules are about English keys and JSON structure, never about a domain's vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import Final

from agentlog.summary.record._currency import item_currencies, may_be
from agentlog.summary.record._dated import DATE
from agentlog.summary.record._histories import (
    HISTORIES,
    nested_history_words,
    of_another_history,
)
from agentlog.summary.record._keys import PAST, TIME_BOUNDS, UNDOING
from agentlog.summary.record._misstated import misstated, other_amount
from agentlog.summary.record._others import foreign_owned, keys_of_others, of_another, owned_parts
from agentlog.summary.record._payload import _decision_word
from agentlog.summary.record._scan import amount_key, date_entities, money_entities
from agentlog.summary.record._unsaid import state_unsaid
from agentlog.summary.record._values import denies
from agentlog.summary.record._words import forms, participle
from agentlog.summary.record.leaves import Leaf, Payload

__all__ = ["binds", "numbers_of"]

_NONE: Final[frozenset[str]] = frozenset()

_CODE_TOKEN: Final = re.compile(r"[\w-]+")
"""A token of the item's text that may be a record's short code (``R1``, ``B-7``)."""

_NUMBER: Final = re.compile(r"(?<![\w#/])(?<![\w#/]-)\d(?:[\d,.']*\d)?(?![\w/-])")
"""A number standing alone (not the digits of ``RUN-AERO-10`` or ``#W4418250``)."""


def numbers_of(text: str) -> frozenset[str]:
    """Every number of an item's text as an amount key, currency or not (``fee 50.0``)."""
    return frozenset(k for k in map(amount_key, _NUMBER.findall(text)) if k is not None)


def _spoken(words: Collection[str]) -> frozenset[str]:
    """Every form of the item's plain words (negated and conditional ones aside)."""
    plain = [w for w in words if "~" not in w]
    return frozenset(plain).union(*map(forms, plain)) if plain else frozenset()


def binds(
    words: Collection[str],
    text_words: Collection[str],
    ids: Collection[str],
    amounts: Collection[str],
    payloads: Sequence[Payload],
    said: Callable[[str], bool] = lambda _: False,
    text: str = "",
    links: Sequence[str | None] = (),
    nameless: Sequence[bool] = (),
) -> bool:
    """Whether each of ``payloads`` (a tool's name and the leaves of its call or result) says
    the item's words of what the item names (module docstring).

    ``words`` are the item's content words that need support (its entities' letters out),
    ``text_words`` all its content words (what it names, "pet" of ``PET-4471`` too), ``ids``
    its identifiers (lower case, no ``#``), ``amounts`` the amount keys of its numbers
    (:func:`numbers_of`) and ``text`` the item's text (the short codes and the currency it
    writes). A word for which ``said`` is true is held by cited evidence other than these
    payloads (a decision's text, a call shown without its payload) and needs no leaf.
    ``links`` are the payloads' call ids (a call and its result are one exchange), and
    ``nameless`` says of each payload whether its exchange names no thing at all.
    """
    spoken = _spoken(text_words)
    if not spoken or not payloads:
        return True
    if amounts and text and any(p.currencies for p in payloads):
        written = item_currencies(text)
        if written is not None and any(
            not p.amounts.isdisjoint(amounts) and not may_be(written, p.currencies)
            for p in payloads
        ):
            return False  # "$84.00" where the tool's 84.00 is in yen
    if amounts and any(not p.minor.isdisjoint(amounts) for p in payloads):
        return False  # "$8,400.00" where the tool's 8400 counts cents
    if amounts and text and any(p.counted for p in payloads) and _counted(payloads, text):
        return False  # "$50.00 credited" where the tool's 50 counts percent or miles
    if text and any(p.dates for p in payloads) and _other_date(payloads, spoken, text):
        return False  # "approved on 2026-08-01" where the approval is dated 2026-09-01
    if ids and any(_referred(p, ids, spoken) for p in payloads):
        return False  # "A-2002 refund approved" where A-2002 is the order A-1001 replaced
    if ids and len(payloads) > 1:
        payloads, others = _about(payloads, ids, text.casefold(), links, nameless)
        if others and not _own_words(words, amounts, payloads, others, said):
            return False  # "A-1001 refund approved" where the approval is A-2002's result's
    named = _named_records(text, payloads)
    # The parts of each payload's top that another thing's identifier owns
    # ("refund_applies_to": "A-2002"): read only when the item writes an identifier.
    parts = [owned_parts(p, ids) if ids and p.refs else () for p in payloads]
    written = spoken | frozenset(text_words)  # its negated words too ("no connection")
    undoes = not spoken.isdisjoint(UNDOING)
    keys = frozenset().union(*(p.keys for p in payloads))
    histories = not keys.isdisjoint(HISTORIES)
    # The objects a key says were undone or ended (``reverted_at``): an item naming one by
    # its key ("unlock done" of "unlock": {...}) and no undoing leans on an ended state.
    ended = _NONE if undoes else frozenset().union(*(s for p in payloads for s, _ in p.undoing))
    for word in words:
        if "~" in word or said(word):
            continue
        alternatives = forms(word) | {word}
        if not alternatives.isdisjoint(keys):
            if ended and not alternatives.isdisjoint(ended):
                return False  # "unlock": {"done": true, "reverted_at": ...}: undone
            # A word that names a field is the item naming it, not a state it says; but the
            # field says its own state, which the item must not leave out, unless the word
            # is a state the payloads say too ("shipped" beside "status": "shipped"). Rule 3
            # first: it is cheap and seldom true, and binding the word is not.
            # A participle naming a key of its noun ("credited" of "credit") says the act.
            acted = word not in keys and participle(word)
            if state_unsaid(
                alternatives, spoken, text_words, ids, amounts, payloads, text, parts, acted
            ) and not (
                any(w in p.stating for p in payloads for w in alternatives)
                and _bound(alternatives, spoken, payloads, named, undoes, written, ids, parts)
            ):
                return False
            if ids and keys_of_others(alternatives, ids, payloads, parts):
                return False  # "unlock": {"status": "done", "target": "ACC-9000"}
            if histories and _in_others_history(alternatives, spoken, ids, payloads):
                return False  # "customer": {"refund_history": {"last": "approved"}}
            continue
        if not _bound(alternatives, spoken, payloads, named, undoes, written, ids, parts):
            return False
    if amounts and other_amount(payloads, spoken, amounts):
        return False  # "refund of $84.00" where the refund holds 12.00 and the total 84.00
    literal = frozenset(text_words)
    return not any(misstated(p, spoken, ids, amounts, literal) for p in payloads)


def _in_others_history(
    alternatives: frozenset[str],
    spoken: frozenset[str],
    ids: Collection[str],
    payloads: Sequence[Payload],
) -> bool:
    """Whether each payload naming the item's word by a key names it only in another thing's
    history (:func:`._histories.of_another_history`): a customer's history of refunds is not
    the refund of the order the item names (round 8, round 11)."""
    holding = [p for p in payloads if not alternatives.isdisjoint(p.keys)]
    if not holding or any(alternatives.isdisjoint(_nested(p)) for p in holding):
        return False  # a key holding the word is in no history below a top: not another's
    return all(of_another_history(p.source, alternatives, spoken | p.tool, ids) for p in holding)


def _nested(payload: Payload) -> frozenset[str]:
    """:func:`._histories.nested_history_words` of a payload, read once."""
    if not payload.nested:
        payload.nested.append(nested_history_words(payload.source))
    return payload.nested[0]


def _other_date(payloads: Sequence[Payload], spoken: frozenset[str], text: str) -> bool:
    """Whether the item names a dated key (``approved_on``: its words, time words out) and
    writes none of the dates such keys hold, but one another key holds (``placed``). The
    item's dates are read however it writes them (``2026-12-01``, "1 December 2026", "Dec 1"
    without a year: by its month and day)."""
    written = _dates_written(text)
    if not written:
        return False
    named: set[str] = set()
    other: set[str] = set()
    for payload in payloads:
        for words, date in payload.dates:
            (named if words and words <= spoken else other).update((date, date[4:]))
    return bool(named) and named.isdisjoint(written) and not other.isdisjoint(written)


def _counted(payloads: Sequence[Payload], text: str) -> bool:
    """Whether a sum the item writes as money (a currency's sign or code) is a number the
    payloads hold only as a count of a unit that is not money (:attr:`.leaves.Payload.counted`:
    ``"credited_percent": 50`` for "$50.00 credited")."""
    money = {e.key for e in money_entities(text, _no_key)}
    return any(not p.counted.isdisjoint(money) for p in payloads)


def _no_key(_key: str) -> bool:
    """No JSON key makes an item's number money: it is prose."""
    return False


def _dates_written(text: str) -> set[str]:
    """The dates an item writes, in ISO 8601 and in words (:func:`._scan.date_entities`):
    each ``YYYY-MM-DD``, or ``-MM-DD`` when it writes no year."""
    written = set(DATE.findall(text))
    if any(c.isdigit() for c in text):
        for date in date_entities(text):
            written.add(date.key[5:].removeprefix("-"))
    return written


def _referred(payload: Payload, ids: Collection[str], spoken: frozenset[str]) -> bool:
    """Whether the item names a thing by an identifier the payload holds only under another
    thing's key (``"previous_order": "A-2002"``) while its top object names its own subject
    (``"order_id": "A-1001"``): the payload's states are its subject's, not the one it refers
    to (unless the item says the key's words: "the previous order A-2002")."""
    if not payload.refs or not payload.own:
        return False
    refs = payload.refs
    if any(i in payload.own for i in ids):
        return False
    return any(i in refs and refs[i].isdisjoint(spoken) for i in ids)


def _about(
    payloads: Sequence[Payload],
    ids: Collection[str],
    text: str,
    links: Sequence[str | None],
    nameless: Sequence[bool] = (),
) -> tuple[Sequence[Payload], list[Payload]]:
    """The payloads about what the item names, and those about another thing: an exchange
    (a call and its result, by ``links``; a payload alone without one) whose tops name their
    own subjects (:attr:`.leaves.Payload.own`) by no identifier the item writes (``text``, case
    folded), or that names no thing at all (``nameless``: a policy, an offer, a campaign),
    beside one that names it by one of the item's (the lookup of A-2002 cited with the lookup
    of A-1001; the offer of a $5,000 limit cited with the account's lookup)."""
    if not any(not p.own.isdisjoint(ids) for p in payloads):
        return payloads, []
    linked = list(links) if len(links) == len(payloads) else [None] * len(payloads)
    of_nothing = list(nameless) if len(nameless) == len(payloads) else [False] * len(payloads)
    named: set[str] = set()
    apart: list[bool] = []
    for payload, link, empty in zip(payloads, linked, of_nothing, strict=True):
        other = bool(payload.own) and payload.own.isdisjoint(ids)
        other = (other and not any(i in text for i in payload.own)) or empty
        apart.append(other)
        if not other and link is not None:
            named.add(link)
    mine: list[Payload] = []
    others: list[Payload] = []
    for payload, link, other in zip(payloads, linked, apart, strict=True):
        (others if other and link not in named else mine).append(payload)
    return mine, others


def _own_words(
    words: Collection[str],
    amounts: Collection[str],
    mine: Sequence[Payload],
    others: Sequence[Payload],
    said: Callable[[str], bool],
) -> bool:
    """Whether each word and sum of the item that a payload about another thing holds (a
    state, a key, its tool's name, a number) is held by one about the item's own too: one
    cited result does not lend its approval or its total to the order another names."""
    for word in words:
        if "~" in word or said(word):
            continue
        alternatives = forms(word) | {word}
        if _holds(others, alternatives) and not _holds(mine, alternatives):
            return False
    for amount in amounts:
        if any(amount in p.amounts for p in others) and not any(amount in p.amounts for p in mine):
            return False
    return True


def _holds(payloads: Sequence[Payload], alternatives: frozenset[str]) -> bool:
    return any(
        not alternatives.isdisjoint(p.tool)
        or not alternatives.isdisjoint(p.keys)
        or any(w in p.stating for w in alternatives)
        for p in payloads
    )


def _named_records(text: str, payloads: Sequence[Payload]) -> list[frozenset[int] | None]:
    """For each payload, the records whose short code the item writes (``None``: none)."""
    if not text or not any(p.codes for p in payloads):
        return [None] * len(payloads)
    tokens = set(_CODE_TOKEN.findall(text.lower()))
    named: list[frozenset[int] | None] = []
    for payload in payloads:
        records = [payload.codes[t] for t in tokens if t in payload.codes]
        named.append(frozenset().union(*records) if records else None)
    return named


def _bound(
    alternatives: frozenset[str],
    spoken: frozenset[str],
    payloads: Sequence[Payload],
    named: Sequence[frozenset[int] | None],
    undoes: bool,
    written: frozenset[str] = _NONE,
    ids: Collection[str] = (),
    parts: Sequence[Sequence[frozenset[str]]] = (),
) -> bool:
    """Rule 1 for one word (in its forms): no payload states it, or one states it of the
    payload as a whole or of a subject the item names, or (but for a list's member, a clause
    and a part of what the payload is about) while the item names no other part of that
    payload that says something the item does not; never by free text, nor by a record
    beside the one the item names by its code, nor by a state its object undoes, nor by
    another thing's (``parts``: each payload's, :func:`._others.owned_parts`)."""
    stated = False
    owned = parts if len(parts) == len(payloads) else [()] * len(payloads)
    for payload, records, foreign_parts in zip(payloads, named, owned, strict=True):
        if not alternatives.isdisjoint(payload.tool):
            return True
        for word in alternatives:
            for leaf in payload.stating.get(word, ()):
                stated = True
                if leaf.prose or leaf.void:
                    continue  # a note's words, however short: stored, not established
                if leaf.thing is not None and ids and of_another(leaf.thing, ids, payload):
                    continue  # "related": {"order_id": "A-2002", ...}: another order's
                if foreign_parts and foreign_owned(leaf, foreign_parts):
                    continue  # "refund_applies_to": "A-2002" beside "refund_status"
                if leaf.tail and not leaf.tail <= written:
                    continue  # "approved (not really)": the comment takes the state back
                if records is not None and leaf.records and leaf.records.isdisjoint(records):
                    continue  # the record beside the one the item names by its code
                if not undoes and payload.undoing and _undone(leaf, payload.undoing):
                    continue  # "approved": true beside "revoked": true
                if leaf.past and spoken.isdisjoint(PAST):
                    continue  # "was": "approved" is not so now
                if (
                    payload.lapsed
                    and spoken.isdisjoint(TIME_BOUNDS)
                    and _undone(leaf, payload.lapsed)
                ):
                    continue  # "expires_at" a day before the event's: no longer so
                top, subject = leaf.top, leaf.subject
                kind = payload.kind_of.get(leaf.obj, _NONE) if leaf.obj else _NONE
                if not leaf.words:  # a flag: what else its key names is what it is of
                    rest = leaf.states - alternatives
                    if rest and rest.isdisjoint(spoken):
                        top, subject, kind = False, subject | rest, _NONE
                if top or (subject and subject <= spoken):
                    return True
                if not subject.isdisjoint(spoken) and not _nearer(payload.states, spoken, leaf):
                    return True  # of a part the item names in part ("refund" of details)
                if leaf.member or leaf.clause:
                    continue  # said of the list's key, or of the field holding the sentence
                if (
                    not (payload.kinds - alternatives).isdisjoint(spoken)
                    and kind.isdisjoint(spoken)
                    and not _verdict(subject, leaf)
                ):
                    # The state of a part, the item naming what the whole is (unless the part
                    # is a thing the item names by its kind, "type": "refund", or a decision:
                    # "approval": "refused" is the whole's, as "status" is).
                    continue
                if not _competing(payload.states, spoken, leaf):
                    return True
    return not stated


def _verdict(subject: frozenset[str], leaf: Leaf) -> bool:
    """Whether a part's state is the verdict on the whole: its subject names a decision
    (:func:`._payload._decision_word`) that the state says was made (``"approval":
    {"approved": true}``, one stem) or refused (``"approval": "refused"``), not another act
    that was decided (``"cancellation": {"approved": true}``)."""
    decisions = [w for w in subject if _decision_word(w)]
    if not decisions:
        return False
    if leaf.value and denies(leaf.value):
        return True
    return not _stems(decisions).isdisjoint(_stems(leaf.states))


def _undone(leaf: Leaf, undoing: Sequence[tuple[frozenset[str], frozenset[str]]]) -> bool:
    """Whether a key saying its object was undone (``revoked``, ``approval_revoked``,
    ``refund_rescinded``) is of the leaf's object, and names what the leaf says or nothing
    else."""
    for subject, rest in undoing:
        if not subject <= leaf.subject:
            continue
        if not rest:
            return True
        said = _stems((leaf.subject - subject) | leaf.field | leaf.states)
        if not said.isdisjoint(_stems(rest)):
            return True
    return False


def _stems(words: Collection[str]) -> frozenset[str]:
    """Each word's first five letters: ``approval`` and ``approved`` share one."""
    return frozenset(w[:5] for w in words)


def _nearer(leaves: Sequence[Leaf], spoken: frozenset[str], stating: Leaf) -> bool:
    """Whether another short word state (``leaves``) is said of a subject the item names
    whole, and not in words the item says, while ``stating`` is of a subject it names only
    in part: ``"refund": "denied"`` is the refund the item names, not the ``"parent": {"refund":
    "approved"}`` beside it."""
    return any(
        leaf is not stating
        and leaf.subject
        and leaf.subject <= spoken
        and leaf.states.isdisjoint(spoken)
        and not leaf.past
        for leaf in leaves
    )


def _competing(leaves: Sequence[Leaf], spoken: frozenset[str], stating: Leaf) -> bool:
    """Whether the item names another field of the payload whose state (``leaves``: the
    payload's short word values) it does not say: ``"refund": "denied"`` beside the
    ``"exchange": "approved"`` that "refund approved" leans on."""
    return any(
        leaf is not stating
        and leaf.states.isdisjoint(spoken)
        and not (leaf.subject | leaf.field).isdisjoint(spoken)
        for leaf in leaves
    )
