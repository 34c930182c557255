"""Provenance: whose word an item rests on, decided by code from what its cited events hold.

The label a model writes is never read. Each item (and the goal) is compared with the units of
the events it cites (:mod:`agentlog.summary.record.evidence`: tool traffic and decisions are
``evidence``, an agent's prose ``agent``, the user's words ``user``; compaction and handoff
events are read through to what they carry). An item says two kinds of things:

- its **entities**: the identifiers, amounts and dates the validator's finders see in its text
  (the domain's patterns, any identifier-shaped token, any identifier learned from the
  session's tool traffic; event ids written as citations are not entities);
- its **words**: its content words (:mod:`agentlog.summary.record._words`), entities left out.

What a tool payload establishes is its keys and short values: a string of six words or more
in it (a ticket's description, a contact form's message, a note), or any string in a field
named for free text (``subject``, ``customer_note``, ``tags``, a memory entry's ``text``), is
someone's words that the tool stores or passes on, often the customer's own, and a key whose
value says no (``false``, ``null``, ``0``, empty, ``"no"``, ``"false"``, ``"n/a"``) says that
the thing is not so (``"refund_eligible": false``); neither lends its words to an item
(:func:`agentlog.summary.record.evidence.Unit.words`). Identifiers, amounts and dates in them
still count as held. Of a payload that lists several records (a list of objects: orders,
bookings), an item about some of them reads only those: what the result says of order A-2002
is not said of order A-1001 listed beside it. A negated word is held only negated, on both sides
(:mod:`agentlog.summary.record._words`): ``"not_refundable": true`` does not hold "refundable".
A word of a condition (after "if", "once", "pending", "subject to", "requires", "until", ...,
up to the clause's end; in prose, what the clause says before its marker too; English
markers) is held only as a condition: "full refund if approved" does not hold "approved" nor
"full", though it holds "refund once approved", and what is said
outright holds its conditional ("approved" holds "refund if approved"). A key naming a decision
or an act of granting (``approval``, ``decision``, ``authorization``, ``acceptance``) whose
value denies it (``"approval": "refused"``) holds its word only negated ("no approval").

An item is **supported** by the units of some tiers when every entity is held by one of the
cited units of those tiers, and every word is held by the cited units that hold one of its
entities, or, for a paraphrase ("the fee" of a refund whose record cited only the refund), by
some event of those tiers in the session that holds one of its entities: a verified item's
words are the tools' words about the same things, wherever the record found them. An item
without entities needs one cited unit that holds every one of its words: sharing a tool's name
or a key is not enough to be vouched for by that tool.

The label is the strongest tier that supports the item:

- ``verified``: ``evidence`` units support it;
- ``agent_statement``: only with ``agent`` units too;
- ``user_claim``: not even then, and what it cites of the user (directly, or through
  agentlog's own events) holds one of its entities or words, or what no cited event holds is
  words the user wrote; otherwise ``agent_statement`` (the record's own words, which no cited
  event holds).

Round 3 of the red team (issue 13) added, each a rule of grammar or of structure, never a
domain's words:

- a **hedge** reads as a condition over its whole clause, though it names none
  ("provisionally approved", "approved (conditional)", "approved*", "approved - see terms",
  "in principle", "likely", "may", "to be confirmed"), and an identifier that ends by asking
  for its thing (``approval_required``, ``waiver_requested``) holds its words only as asked;
  a predicate's or a decision's value that says "not yet" in other words ("on hold",
  "requested", "under review", "processing") denies it, and so does an object under a key
  naming a decision (``"approval": {"status": "denied"}`` reads "no approval");
- **groups of records**: of a list of objects, or a map of lists (``{"approved": [...],
  "denied": [...]}``), about none of the item's identifiers, a clause's words come from one
  record ("fee waiver" of one decision and "approved" of another say nothing together);
- **said together**: each clause's words are said of the identifiers it names, and the
  item's identifiers are held together (by one cited event, or a call and its result): a
  refund of one result is not joined to the order of another;
- **arguments the agent wrote**: a call's string argument that only the user's words (those
  before the call) support, and that no tool result says, is not what the call established
  (it stays an agent statement), unless the item says the agent made that call with it (it
  names the tool and the argument's key: "Cancelled pending order #W1: reason no longer
  needed"); a result's string of four content words or more, all the user's earlier words,
  is an echo whatever its key; a deterministic decision's word the user wrote that neither
  its actions (state change, transfer) nor any tool result says is the user's, however short
  the run it comes in; an artifact's name is nobody's established words.

So no wording and no choice of citations turns the user's words into a verified fact: every
word of a verified item is one the session's tool traffic (or a deterministic decision) holds
about its entities, and a word no tool ever wrote ("pre-approved", "authorised", "waived")
keeps it from being verified, however it is spelt or cited. An item whose entities no cited
event holds is not labelled but refused: the validator reports "cited events do not support
..." (``unsupported``). An item that cites no
event of the session backs nothing and is a ``user_claim`` (the validator refuses its sources
anyway); a goal that cites no event is the customer's request, a ``user_claim`` too.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from agentlog.events import Event
from agentlog.summary.record._fold import casefold_utf8
from agentlog.summary.record._words import CONDITIONAL, content_words, forms, word_set
from agentlog.summary.record.binding import binds, numbers_of
from agentlog.summary.record.entities import Entity, EntityPatterns, _utf8_tokens
from agentlog.summary.record.evidence import USER_AUTHOR, Evidence, Tier, Unit
from agentlog.summary.record.expected import ParsedTranscript, Transcript
from agentlog.summary.record.learned import extended, identifier_shaped, regrouped
from agentlog.summary.record.leaves import Payload
from agentlog.summary.record.schema import SECTIONS, Provenance, SummaryItem, SummaryRecord
from agentlog.transcript import transcript_lines

__all__ = [
    "USER_AUTHOR",
    "Labelled",
    "item_entities",
    "label_provenance",
    "label_record",
    "support",
]

_EVIDENCE: Final[frozenset[Tier]] = frozenset({"evidence"})
_SPOKEN: Final[frozenset[Tier]] = frozenset({"evidence", "agent"})


@dataclass(frozen=True, slots=True)
class Labelled:
    """One item's label, and the entities none of its cited events holds."""

    provenance: Provenance
    unsupported: tuple[Entity, ...] = ()


def item_entities(
    texts: Sequence[str], patterns: EntityPatterns, evidence: Evidence
) -> list[list[Entity]]:
    """The entities of each text (an item's), found by one scan of them all."""
    joined = "\n".join(texts)
    starts: list[int] = []
    offset = 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + 1
    found: list[dict[str, Entity]] = [{} for _ in texts]
    for entity in patterns.find(joined):
        found[bisect_right(starts, entity.start) - 1].setdefault(entity.key, entity)
    learned = evidence.parsed.learned().found if patterns.learn else {}
    plain = {k[3:] for k in learned if _plain_word(k[3:])}  # all capitals, ten digits, ...
    tokens = [regrouped(text, _utf8_tokens(casefold_utf8(text))) for text in texts]
    # Most tokens are words or bare numbers: only the others, and those the tool traffic
    # names, are looked at one by one, once each for the whole record.
    distinct: set[str] = set().union(*tokens)
    named: dict[str, str] = {}
    for token in [t for t in distinct if not (t.isalpha() or t.isdigit())] + [*(distinct & plain)]:
        bare = token.strip("#-")
        key = "id:" + bare
        if bare and not evidence.names_event(bare) and (key in learned or identifier_shaped(bare)):
            named[token] = bare  # an event id is a citation, not an entity
    for index, held in enumerate(tokens):
        have = found[index]
        text = texts[index]
        folded = text.casefold()
        # In the order the text names them (a set's order changes with the hash seed, and so
        # would every problem that lists them).
        for token in sorted(held & named.keys(), key=lambda t: (folded.find(named[t]), t)):
            bare = named[token]
            if "id:" + bare not in have:
                at = folded.find(bare)  # shown as written
                shown = text[at : at + len(bare)] if at >= 0 and text.isascii() else bare
                have["id:" + bare] = Entity("id", "identifier", shown, "id:" + bare, starts[index])
    return [_as_written(list(f.values()), text) for f, text in zip(found, texts, strict=True)]


_EXTENSION: Final = re.compile(r"(?:[./:#][^\W_][\w-]*)+")
"""What joins more to an identifier: a joiner and a letter or a digit, and the rest of that
token, as often as it goes on (``.3``, ``.pdf``, ``/24``, ``/B``)."""


def _as_written(entities: list[Entity], text: str) -> list[Entity]:
    """``entities`` with each identifier that the item writes only joined to more
    (:func:`.learned.extended`: ``042-117-09.3``, ``order-form-ACME-4471.pdf``, ``A-1001/B``)
    replaced by the whole of what it writes (each whole, when it writes several): a payload
    holding that holds it, and one holding only the shorter name (another thing, or a part of
    it) does not."""
    if not any(c in text for c in "./:#"):
        return entities
    folded = text.casefold()
    out: list[Entity] | None = None
    for n, entity in enumerate(entities):
        ends = _written_ends(folded, entity.key[3:]) if entity.kind == "id" else []
        if not ends:  # written alone: named as found
            if out is not None:
                out.append(entity)
            continue
        if out is None:
            out = entities[:n]
        keys = {e.key for e in out}
        for at, end in ends:
            whole = "id:" + folded[at:end]
            if whole not in keys:
                keys.add(whole)
                shown = text[at:end] if len(folded) == len(text) else folded[at:end]
                out.append(entity._replace(text=shown, key=whole))
    return entities if out is None else out


def _written_ends(folded: str, bare: str) -> list[tuple[int, int]]:
    """Where ``folded`` writes ``bare`` as a token joined to more, start and end of the whole;
    empty when it also writes ``bare`` alone."""
    found: list[tuple[int, int]] = []
    at = folded.find(bare)
    while at >= 0:
        end = at + len(bare)
        before = folded[at - 1] if at else " "
        after = folded[end] if end < len(folded) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            if not extended(folded, at, end):
                return []
            more = _EXTENSION.match(folded, end)
            assert more is not None
            found.append((at, more.end()))
        at = folded.find(bare, at + 1)
    return found


def _plain_word(token: str) -> bool:
    """Whether a token is letters only or digits only (``_`` and ``-`` aside): never an
    identifier by its shape."""
    bare = token.replace("_", "").replace("-", "")
    return bare.isalpha() or (bare.isdigit() and bare == token)


def _words(text: str, entities: Iterable[Entity]) -> set[str]:
    words = content_words(text)
    for entity in entities:
        words -= _entity_words(entity.text)
    return words


@lru_cache(maxsize=8192)
def _entity_words(text: str) -> frozenset[str]:
    """An entity's letters, as words, also as they read inside a condition ("pending order
    #W765": its ``w`` is ``if~w`` there)."""
    words = content_words(text)
    return frozenset({*words, *(CONDITIONAL + w for w in words)})


def _unsaid(words: Iterable[str], units: Iterable[Unit], about: Sequence[Entity] = ()) -> list[str]:
    """The words that none of ``units`` says, in any of their forms (of a payload listing
    several records, in those about ``about``)."""
    missing = list(words)
    for unit in units:
        if not missing:
            break
        missing = unit.unsaid_about(missing, about) if about else unit.unsaid(missing)
    return missing


def _supported(
    entities: Sequence[Entity],
    held: Sequence[list[Unit]],
    words: set[str],
    units: Sequence[Unit],
    tiers: frozenset[Tier],
    evidence: Evidence,
    text: str = "",
) -> bool:
    """Whether the ``tiers`` units among ``units`` support the item (see the module docstring);
    ``held[i]`` are the units holding ``entities[i]``."""
    chosen = [u for u in units if u.tier in tiers]
    if not chosen:
        return False
    if not entities:
        return bool(words) and any(
            not u.unsaid(list(words)) and (tiers != _EVIDENCE or _bound(words, text, (), [u]))
            for u in chosen
        )
    found: dict[Unit, None] = {}
    for holders in held:
        mine = [u for u in holders if u.tier in tiers]
        if not mine:
            return False
        found.update(dict.fromkeys(mine))
    # A tool call and its result are one exchange: the call's arguments go with the result.
    links = {u.link for u in found if u.link is not None}
    if links:
        found.update(dict.fromkeys(u for u in chosen if u.link in links))
    anchored = list(found)
    if not words:
        return True
    missing = _unsaid(words, anchored)
    if missing and any([u.expand() for u in anchored]):  # the payloads shown cut short
        missing = _unsaid(missing, anchored)
    if tiers != _EVIDENCE:
        return not missing
    if not _covered(missing, entities, evidence, ()):
        return False
    # It would be verified: read again, each payload that lists several records only of the
    # item's own (a word said of the order beside is not said of this one). Done last, as
    # most items that are not verified fall short before.
    if not _covered(_unsaid(words, anchored, entities), entities, evidence, entities):
        return False
    if not _connected(entities, held, found):
        return False
    pieces = _CLAUSE.split(text)
    if len(pieces) > 1 and not all(_clause_held(p, entities, chosen, evidence) for p in pieces):
        return False
    if any(u.may_group() for u in anchored) and not all(
        _one_record(c, anchored, entities) for c in _clauses(pieces, entities)
    ):
        return False
    return _bound(words, text, entities, anchored, evidence)


_TOKENS: Final = re.compile(r"\S*[\d@_#/]\S*")


def _bound(
    words: set[str],
    text: str,
    entities: Sequence[Entity],
    units: Sequence[Unit],
    evidence: Evidence | None = None,
) -> bool:
    """Whether the payloads of ``units`` say the item's words of what it names
    (:mod:`.binding`): a state of the exchange beside the refund is not the refund's, nor a
    figure of an exchange that names no thing (:meth:`Evidence.names_nothing`)."""
    payloads: list[Payload] = []
    links: list[str | None] = []
    bare: list[Unit] = []
    for unit in units:
        read = unit.leaves()
        if read is None:
            bare.append(unit)
        else:
            payloads.append(read)
            links.append(unit.link)
    if not payloads:
        return True
    ids = [e.key[3:] for e in entities if e.kind == "id"]
    # A word met only inside a token with digits or marks (an e-mail, ``PET-4471``) is that
    # token's letters, not a word the item says.
    checked = words & content_words(_TOKENS.sub(" ", text))
    return binds(
        checked,
        content_words(text),
        ids,
        numbers_of(text),
        payloads,
        lambda word: any(not u.unsaid([word]) for u in bare),
        text,
        links,
        [evidence is not None and evidence.names_nothing(link) for link in links]
        if ids and len(payloads) > 1
        else (),
    )


def _connected(
    entities: Sequence[Entity], held: Sequence[list[Unit]], found: dict[Unit, None]
) -> bool:
    """Whether the item's identifiers are said together: each pair joined by a cited
    exchange (a call and its result) or event holding both, through the others. An item
    that joins an order of one result to a refund of another ("refund R-9 of A-1001") says
    what neither says."""
    ids = [i for i, e in enumerate(entities) if e.kind == "id"]
    if len(ids) < 2:
        return True
    group: dict[object, int] = {}  # a unit's (or exchange's) key: the first id it holds

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    parent = list(range(len(entities)))
    for i in ids:
        for unit in held[i]:
            if unit not in found:
                continue
            key: object = unit.link if unit.link is not None else unit
            other = group.setdefault(key, i)
            parent[root(i)] = root(other)
    return len({root(i) for i in ids}) == 1


def _clause_held(
    piece: str, entities: Sequence[Entity], chosen: Sequence[Unit], evidence: Evidence
) -> bool:
    """Whether a clause's words are said of the identifiers it names (by the cited units
    holding them, or the session's tool traffic about them): "A-2002 refunded; A-1001 also"
    does not lend A-2002's refund to A-1001."""
    lowered = piece.casefold()
    mine = [e for e in entities if e.kind == "id" and e.key[3:] in lowered]
    if not mine:
        return True
    words = _words(piece, entities)
    if not words:
        return True
    units = {u: None for u in chosen if any(u.holds(e) for e in mine)}
    links = {u.link for u in units if u.link is not None}
    units.update((u, None) for u in chosen if u.link is not None and u.link in links)
    missing = _unsaid(words, list(units), mine)
    return _covered(missing, mine, evidence, mine)


def _one_record(words: set[str], units: Sequence[Unit], entities: Sequence[Entity]) -> bool:
    """Whether a clause's words that one cited unit alone says come, of each group of records
    it holds about none of the item's identifiers, from one record (:meth:`Unit.apart`)."""
    for unit in units:
        if not unit.groups_say(words):
            continue
        others = [u for u in units if u is not unit]
        alone = _unsaid(words, others)
        if alone:  # of those, what this unit says (the rest a paraphrase found elsewhere)
            unsaid = set(unit.unsaid(alone))
            alone = [w for w in alone if w not in unsaid]
        if alone and unit.apart(alone, entities):
            return False
    return True


_CLAUSE: Final = re.compile(r"[;.!?]\s|[;!?]|\s(?:and|but|while|whereas)\s", re.IGNORECASE)
"""Where an item's clauses part: each says its own thing, of its own record."""


def _clauses(pieces: Sequence[str], entities: Sequence[Entity]) -> list[set[str]]:
    """The content words of each clause of an item's text (:data:`_CLAUSE`), entities aside."""
    return [w for w in (_words(c, entities) for c in pieces) if w]


def _covered(
    missing: list[str], entities: Sequence[Entity], evidence: Evidence, about: Sequence[Entity]
) -> bool:
    """Whether no word is ``missing``, or the session's tool traffic says those words about
    the same identifiers: a paraphrase (the record cited the refund, the fee is in the lookup)."""
    for entity in entities:
        if not missing:
            break
        missing = _unsaid(missing, evidence.holding(entity, _EVIDENCE), about)
    return not missing


def _calls_named(text: str, units: list[Unit]) -> list[Unit]:
    """``units`` with each call that passed the user's words whole where the item says the
    agent made that call (it names the tool, and the key of each such value: "Cancelled
    pending order #W1: reason no longer needed"), and without them elsewhere."""
    said = word_set(text)  # stop words too: "Checked compensation" names check_compensation
    spoken = set().union(*map(forms, said)) | said

    def named(alternatives: frozenset[str]) -> bool:
        return any(not _spelt(w).isdisjoint(spoken) for w in alternatives)

    return [u.full[1] if u.full is not None and all(map(named, u.full[0])) else u for u in units]


def _spelt(word: str) -> frozenset[str]:
    """:func:`forms` of a tool's word, and its ``-ied`` forms (``apply``: "applied")."""
    found = forms(word)
    if len(word) > 3 and word.endswith("y") and word[-2] not in "aeiou":
        found |= {word[:-1] + "ied", word[:-1] + "ies"}
    return found


def support(
    text: str, sources: Sequence[str], entities: Sequence[Entity], evidence: Evidence
) -> Labelled:
    """The label of an item with this text, these sources and these entities."""
    units = evidence.cited(sources)
    if not units:
        return Labelled("user_claim")  # it cites nothing the session holds: it backs nothing
    if any(u.full is not None for u in units):
        units = _calls_named(text, units)
    held = [[u for u in units if u.holds(e)] for e in entities]
    unsupported = tuple(e for e, holders in zip(entities, held, strict=True) if not holders)
    tiers = {u.tier for u in units}
    if tiers == {"user"}:
        return Labelled("user_claim", unsupported)  # user text alone
    words = _words(text, entities)
    for tier, allowed, label in (
        ("evidence", _EVIDENCE, "verified"),
        ("agent", _SPOKEN, "agent_statement"),
    ):
        if tier in tiers and _supported(entities, held, words, units, allowed, evidence, text):
            return Labelled(label, unsupported)  # type: ignore[arg-type]
    # Neither: it leans on the user if what it cites of the user says what it says (a
    # compaction or a handoff carries many lines, and only those about the item count), or if
    # what no cited event holds is words the user wrote.
    if entities:
        leans = any(u.tier == "user" for holders in held for u in holders)
    else:  # only the user's units are read for the words
        leans = any(u.tier == "user" and len(u.unsaid([*words])) < len(words) for u in units)
    if leans:
        return Labelled("user_claim", unsupported)
    # A word the item states as a condition leans on the user's word all the same.
    missing = {w.removeprefix(CONDITIONAL) for w in _unsaid(words, units, entities)}
    # The session's whole vocabulary of user words is read only when some word is unheld.
    leans = bool(missing) and not missing.isdisjoint(evidence.user_words())
    return Labelled("user_claim" if leans else "agent_statement", unsupported)


def label_record(
    record: SummaryRecord, evidence: Evidence, patterns: EntityPatterns
) -> tuple[SummaryRecord, list[tuple[str, Labelled]]]:
    """``record`` with every label and cited author set, and each labelled path (``goal``,
    ``facts[0]``, ...) with what it rests on."""
    paths: list[str] = []
    items: list[SummaryItem] = []
    goal = record.goal_item()
    if goal is not None and goal.sources:
        paths.append("goal")
        items.append(goal)
    for path, item in record.items():
        paths.append(path)
        items.append(item)
    entities = item_entities([i.text for i in items], patterns, evidence)
    labels = {
        path: support(item.text, item.sources, found, evidence)
        for path, item, found in zip(paths, items, entities, strict=True)
    }

    def authors(sources: Sequence[str]) -> tuple[str, ...]:
        return tuple(evidence.author(s) for s in sources)

    def labelled(item: SummaryItem, path: str) -> SummaryItem:
        label, cited = labels[path].provenance, authors(item.sources)
        if item.provenance == label and item.authors == cited:
            return item  # frozen, and labelled so already (a record checked again)
        return item.model_copy(update={"provenance": label, "authors": cited})

    update: dict[str, object] = {
        section: tuple(
            labelled(item, f"{section}[{i}]") for i, item in enumerate(record.section(section))
        )
        for section in SECTIONS
    }
    if goal is not None:
        update["goal_authors"] = authors(record.goal_sources)
        update["goal_provenance"] = labels["goal"].provenance if "goal" in labels else "user_claim"
    else:
        update["goal_provenance"] = None
    return record.model_copy(update=update), list(labels.items())


def label_provenance(
    record: SummaryRecord,
    events: Iterable[Event],
    *,
    transcript: Transcript | ParsedTranscript | None = None,
    patterns: EntityPatterns | None = None,
) -> SummaryRecord:
    """``record`` with every item's (and the goal's) provenance and cited authors set from
    what its cited events hold (the transcript is rendered from ``events`` unless given)."""
    events = list(events)
    parsed = ParsedTranscript.of(transcript if transcript is not None else transcript_lines(events))
    labelled, _ = label_record(
        record, Evidence(parsed, events), patterns or EntityPatterns.default()
    )
    return labelled
