"""Rule 3 of :mod:`.binding`: a named key says its own state (:func:`state_unsaid`).

An item word naming a key (the words :func:`.binding.binds` skips as the item naming a field)
while that key holds a state the item does not say and nothing it does (``"warranty":
"expired"`` for "under warranty", ``{"unlock": {"queued": true}}`` for "unlocked", ``"fee":
{"waived": false}``, ``"warranty_until"`` a day before the event's) is a state the tool did
not say (issue 13, round 8). A cancellation marking the object's states (:mod:`._cancelled`)
makes them not so now, and a value the item writes under the object's key does not lift it
(round 10).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from agentlog.summary.record import _cancelled
from agentlog.summary.record._keys import TIME_BOUNDS, key_words
from agentlog.summary.record._others import foreign_owned, of_another
from agentlog.summary.record._values import any_scalar, bare_id, denies
from agentlog.summary.record._walk import MAX_DEPTH
from agentlog.summary.record._words import NEGATED, REVERSALS, forms
from agentlog.summary.record.leaves import Leaf, Payload, under

__all__ = ["state_unsaid"]


def state_unsaid(
    alternatives: frozenset[str],
    spoken: frozenset[str],
    text_words: Collection[str],
    ids: Collection[str],
    amounts: Collection[str],
    payloads: Sequence[Payload],
    text: str,
    parts: Sequence[Sequence[frozenset[str]]] = (),
    acted: bool = False,
) -> bool:
    """Rule 3 for one word (in its forms) that names a key: whether the thing it names holds,
    in the payloads, a state the item does not say, and nothing the item says.

    A state of the thing is a short word value under a key with the word
    (``"warranty": "expired"``, ``"vip_upgrade": "requested"``), a flag whose key has it
    (``"vip_upgrade_requested": true``), and, in an object whose key path the item names
    whole, a flag or a generic key's value (``"unlock": {"queued": true}``, ``"address_change":
    {"status": "received"}``); a key holding ``false`` (or an act's key saying it is not so,
    :attr:`.leaves.Leaf.void`) whose words and those above it the item names (``"fee": {"waived":
    false}``); a time bound with the word that the event's day is
    outside (``"warranty_until"`` a day before it). A value the item writes (a word, a sum)
    under the word says the thing's state; a name, a number, free text, a list's member or
    record, a past state or another thing's (:mod:`._things`) is no state of it, nor a value
    written as a name (``"city": "Bristol"``). A word that says the act done (``acted``: a
    participle, "credited", naming the key "credit") is not said by a sum the item writes
    when the thing's state says it is not so (:func:`_says_not_so`). A word of a writing
    tool's name (``update_marketing_preferences``) names what the call acted on when the
    item says the act in another of its words ("updated"): the act is what the item says of
    it."""
    if any(
        not p.reads
        and not alternatives.isdisjoint(p.tool)
        and not (p.tool - alternatives).isdisjoint(spoken)
        for p in payloads
    ):
        return False  # "updated marketing preferences": the act says what the item says
    negated = frozenset(w[len(NEGATED) :] for w in text_words if w.startswith(NEGATED))
    if acted and amounts and any(_says_not_so(p, alternatives, spoken, ids) for p in payloads):
        return True  # "credit": {"amount": 50.0, "status": "reversed"} for "$50.00 credited"
    unsaid = firm = False
    owned = parts if len(parts) == len(payloads) else [()] * len(payloads)
    for payload, foreign_parts in zip(payloads, owned, strict=True):
        for leaf in under(payload, alternatives):
            if leaf.past or leaf.prose or leaf.member:
                continue  # held before, free text, a list's member: no state of it now
            # A state its object's cancellation marks says nothing of it now, but that.
            cancelled = bool(leaf.tail) and _cancelled_unsaid(leaf.tail, spoken, text_words)
            if cancelled:
                said = False
            elif (leaf.amount is not None and leaf.amount in amounts) or not leaf.words.isdisjoint(
                spoken
            ):
                said = True  # "late fee of $25.00", "warranty active": what the thing is
            elif not leaf.words and leaf.amount is None and not leaf.void and leaf.states:
                # a flag: "refund_approved": true for "refund approved"
                said = leaf.states <= alternatives or not leaf.states.isdisjoint(spoken)
            else:
                said = False
            if not said and (
                (unsaid and (firm or not cancelled))
                or not _unsaid_state(leaf, alternatives, spoken, negated)
            ):
                continue
            if leaf.field and leaf.value in payload.proper:
                continue  # "city": "Bristol": what it is called
            if leaf.thing is not None and ids and of_another(leaf.thing, ids, payload):
                continue  # another thing's (read last: it reads the object's names)
            if foreign_parts and foreign_owned(leaf, foreign_parts):
                continue  # a part of the top another thing's identifier owns
            if said:
                return False
            unsaid, firm = True, firm or cancelled
        if not unsaid and spoken.isdisjoint(TIME_BOUNDS):
            unsaid = any(not alternatives.isdisjoint(rest) for _, rest in payload.lapsed)
        if not unsaid:
            unsaid = any(
                not alternatives.isdisjoint(words)
                and words <= spoken
                and not _negates(negated, words)
                for words in payload.denied
            )
    if firm:  # "unlock": {"status": "done", "cancelled": true} for "unlock done"
        return True
    if unsaid:  # a value the item writes that is no leaf (an identifier, a date) says it too
        folded = text.casefold()
        return not any(_writes_under(p.source, alternatives, folded) for p in payloads)
    return False


def _says_not_so(
    payload: Payload, alternatives: frozenset[str], spoken: frozenset[str], ids: Collection[str]
) -> bool:
    """Whether the thing the item's word names holds a state saying it is not so (a denial,
    a "not yet", an undoing: ``"status": "reversed"``, ``"denied"``, ``"pending"``), which the
    item does not say, and no state the item says: its sum (``"amount": 50.0``) is what the
    thing is, not that it was done, so "$50.00 credited" of a credit reversed says what the
    tool did not."""
    denied = False
    for leaf in under(payload, alternatives):
        if not leaf.words or leaf.past or leaf.prose or leaf.member:
            continue
        if not leaf.words.isdisjoint(spoken):
            return False  # a state the item says ("credit reversed")
        if leaf.thing is not None and ids and of_another(leaf.thing, ids, payload):
            continue
        if leaf.field and not leaf.field.isdisjoint(alternatives):
            continue  # the named field's own value: rule 3's, read below
        denied = denied or not leaf.words.isdisjoint(REVERSALS) or denies(leaf.value)
    return denied


def _cancelled_unsaid(
    tail: frozenset[str], spoken: frozenset[str], text_words: Collection[str]
) -> bool:
    """Whether a leaf's ``tail`` holds a cancellation (:mod:`._cancelled`) the item does not
    say: the state it marks is not so now, and no value the item writes under its key says
    it is (``"status": "done"`` of a cancelled unlock, for "unlock done")."""
    words = tail & _cancelled.WORDS
    return bool(words) and not words <= spoken and not words <= frozenset(text_words)


def _writes_under(node: Any, alternatives: frozenset[str], text: str, depth: int = 0) -> bool:
    """Whether a value under a key with one of ``alternatives`` (at any depth below it) is
    written in ``text`` (case folded): an identifier, a date, a number of three characters or
    more (``"line": {"line_id": "L1002"}`` for "line L1002")."""
    if depth > MAX_DEPTH:
        return False
    items: Iterable[tuple[Any, Any]]
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list | tuple):
        items = ((None, v) for v in node)
    else:
        return False
    for key, value in items:
        named = key is not None and not alternatives.isdisjoint(key_words(str(key)))
        if named and _written(value, text):
            return True
        if isinstance(value, dict | list | tuple) and _writes_under(
            value, alternatives, text, depth + 1
        ):
            return True
    return False


def _written(node: Any, text: str) -> bool:
    """Whether a scalar of ``node`` (at any depth) is written in ``text`` (case folded)."""

    def in_text(value: Any) -> bool:
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return False
        said = bare_id(str(value))
        return len(said) >= 3 and said in text

    return any_scalar(node, in_text, MAX_DEPTH)


def _unsaid_state(
    leaf: Leaf, alternatives: frozenset[str], spoken: frozenset[str], negated: frozenset[str]
) -> bool:
    """Whether ``leaf`` (under a key with one of ``alternatives``, saying nothing the item
    says) is a state of the thing the key names (:func:`state_unsaid`)."""
    if not leaf.states or leaf.clause or leaf.records or (leaf.words and not leaf.state):
        return False  # a sentence, a record of a list, a name: no state of the thing
    if alternatives.isdisjoint(leaf.field) and (
        (leaf.words and leaf.field) or not leaf.subject <= spoken
    ):
        return False  # of a part the item does not name, or a field of the object
    # An act not so is a state the item says only by naming the act.
    return not leaf.void or (leaf.states <= spoken and not _negates(negated, leaf.states))


def _negates(negated: frozenset[str], words: Collection[str]) -> bool:
    """Whether the item negates one of ``words`` in some form ("not waived", "no refund")."""
    return any(not forms(w).isdisjoint(negated) or w in negated for w in words)
