"""What an extractive record keeps of the transcript's entities: before the items are built, the
quantities of a result an agent told the customer (:func:`relayed`), which its fact keeps; after,
a search whose entities other items keep dropped (:func:`drop_held`), and every entity no item
keeps attached to an item citing the event it came from (:func:`keep_entities`), so the record
passes the same validator as a model's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from agentlog.summary.record._extract import action_of, clip
from agentlog.summary.record._sentences import part_holding, sentences
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.provenance import USER_AUTHOR
from agentlog.summary.record.schema import SummaryItem, SummaryRecord
from agentlog.summary.record.validate import ExpectedEntity, missing_entities
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._pending import whole_in
from agentlog.transcript import TranscriptLine

__all__ = ["drop_held", "keep_entities", "relayed"]

_QUANTITY: Final = re.compile(r'": "(\d[\d.,]{0,8} (?:[^\W\d_]{1,6}|%))"')
"""A JSON string of a number, a space and its unit: ``2.5 mg``, ``40.5 kg``, ``8 hours``,
``6.9 %`` (not ``619 Broadway``, nor a product's option such as ``8GB``, which reads as one
word). It starts with the literal that opens a value, which the engine jumps to."""


def relayed(lines: Sequence[TranscriptLine]) -> dict[str, set[str]]:
    """Per tool result, its quantities (``2.5 mg``, ``40.5 kg``, ``3 boxes``) that an agent's
    message writes whole: what the agent told the customer of it, so a fact of it keeps them
    beside the identifiers, though no entity check asks."""
    said = "\n".join(ln.body for ln in lines if ln.kind == "text" and ln.author != USER_AUTHOR)
    found: dict[str, set[str]] = {}
    if not any(c.isdigit() for c in said):
        return found
    for ln in lines:
        if ln.kind == "result" and '": "' in ln.body:
            for m in _QUANTITY.finditer(ln.body):
                if whole_in(said, m[1]):
                    found.setdefault(ln.event_id, set()).add(m[1])
    return found


def drop_held(
    draft: Draft,
    record: SummaryRecord,
    expected: dict[str, ExpectedEntity],
    patterns: EntityPatterns,
    goal: str,
) -> SummaryRecord:
    """``record`` without the searches none of whose results the session named whose
    entities (the arguments) other items keep: "Listed invoices kestrel-ops: 60 results" says
    nothing the record does not. ``goal`` is the goal's text that counts as keeping an
    entity."""
    facts = list(record.facts)
    for item in record.facts:
        if item.text not in draft.unnamed:
            continue
        absent = {x.entity.key for x in missing_entities(item.text, expected, patterns)}
        held = {k: x for k, x in expected.items() if k not in absent}
        rest = [goal, *(i.text for _, i in record.items() if i is not item)]
        if not held or not missing_entities("\n".join(rest), held, patterns):
            facts.remove(item)
    return record.model_copy(update={"facts": tuple(facts)})


def keep_entities(
    draft: Draft,
    record: SummaryRecord,
    expected: dict[str, ExpectedEntity],
    patterns: EntityPatterns,
) -> SummaryRecord:
    """Attach every entity no item keeps to an item citing the event it was first seen in."""
    missing: dict[str, list[ExpectedEntity]] = {}
    for x in missing_entities(record.text(), expected, patterns):
        if x.event_ids:
            missing.setdefault(x.event_ids[0], []).append(x)
    if not missing:
        return record
    bodies: dict[str, list[TranscriptLine]] = {}
    for line in draft.lines:
        bodies.setdefault(line.event_id, []).append(line)
    facts, decisions = list(record.facts), list(record.decisions)
    for event_id, entities in missing.items():
        lines = bodies.get(event_id, [])
        chosen: list[str] = []
        for line in lines:
            if line.kind == "text":
                for sentence in sentences(line.body):
                    if (
                        any(x.entity.text in sentence for x in entities)
                        and sentence not in chosen
                        and (draft.instructions is None or not draft.instructions.search(sentence))
                    ):
                        held = [x.entity.text for x in entities if x.entity.text in sentence]
                        chosen.append(part_holding(sentence, held))
        # A sentence chosen for its entities is kept whole unless it is very long.
        text = " ".join(clip(s, max(draft.limit, 600)) for s in chosen)
        left = [x.entity.shown() for x in entities if x.entity.text not in text]
        if left and not text and _also(left, event_id, (facts, decisions)):
            continue  # an item citing that event says them: no "<tool> mentioned" item
        if left:
            author = lines[0].author if lines else "the session"
            if lines and lines[0].kind == "result":  # a tool's name is no one's words
                author = action_of(author) + " showed"
            else:
                author += " mentioned"
            prefix = f"{text} " if text else f"{author} "
            text = prefix + (("also " if text else "") + ", ".join(left))
        draft.add(facts, text, [event_id])
    return record.model_copy(update={"facts": tuple(facts), "decisions": tuple(decisions)})


def _also(left: Sequence[str], event_id: str, sections: Iterable[list[SummaryItem]]) -> bool:
    """Add ``left`` (entities no item keeps) to the first item citing ``event_id``, as
    ``...; also X, Y``; whether there was one."""
    for items in sections:
        for i, item in enumerate(items):
            if event_id in item.sources:
                text = f"{item.text}; also {', '.join(left)}"
                items[i] = item.model_copy(update={"text": text})
                return True
    return False
