"""What a record must keep: the entities of a rendered transcript, and which of them a text
has lost.

Entities are looked for in the rendered transcript, the text the summariser was given, so a
record is never asked for something a truncated payload hid from it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from agentlog.summary._scan import ascii_copy, new_entity
from agentlog.summary.entities import Entity, EntityPatterns, is_word, recall_keys
from agentlog.summary.render import TranscriptLine, parse_line

__all__ = [
    "ExpectedEntity",
    "Transcript",
    "entity_occurrences",
    "missing_entities",
    "missing_from_transcript",
    "transcript_entities",
]


@dataclass(frozen=True, slots=True)
class ExpectedEntity:
    """An entity the transcript holds: its first occurrence and the events it occurs in."""

    entity: Entity
    event_ids: tuple[str, ...]


Transcript = str | Sequence[TranscriptLine]
"""A rendered transcript: its text, or the lines ``transcript_lines`` made (faster: nothing
has to be parsed back)."""


def _line_heads(
    transcript: Transcript,
) -> tuple[str, str, list[tuple[int, int, str | None, bool]]]:
    """The text, its ASCII copy and, per line, (start, body start, event id, is a tool result)."""
    heads: list[tuple[int, int, str | None, bool]] = []
    offset = 0
    if isinstance(transcript, str):
        for line in transcript.split("\n"):
            parsed = parse_line(line)
            if parsed is None:
                heads.append((offset, offset, None, False))
            else:
                heads.append((offset, offset + parsed[3], parsed[0], parsed[2] == "result"))
            offset += len(line) + 1
        return transcript, ascii_copy(transcript), heads
    rendered: list[str] = []
    for tl in transcript:
        line = tl.render()
        rendered.append(line)
        end = offset + len(line)
        heads.append((offset, end - len(tl.body), tl.event_id, tl.kind == "result"))
        offset = end + 1
    text = "\n".join(rendered)
    # Copied line by line, most lines are ASCII already and cost nothing.
    scan = text if text.isascii() else "\n".join(map(ascii_copy, rendered))
    return text, scan, heads


def entity_occurrences(
    transcript: Transcript, patterns: EntityPatterns, skip: Collection[str] = frozenset()
) -> list[tuple[Entity, str | None]]:
    """Every entity occurrence in ``transcript`` with the id of the event whose line holds it,
    in order. Line heads (``[id] author``) are skipped; a ``"mentioned"``-scoped pattern skips
    ``RESULT`` lines; so are the entities whose key is in ``skip``."""
    text, scan, heads = _line_heads(transcript)
    found: list[tuple[Entity, str | None]] = []
    line, last = 0, len(heads) - 1
    entities = patterns.find(text, mentioned=False, scan=scan)
    if skip:
        entities = [e for e in entities if e.key not in skip]
    for entity in entities:  # in order: walk the lines
        while line < last and heads[line + 1][0] <= entity.start:
            line += 1
        _, body, eid, _ = heads[line]
        if entity.start >= body:
            found.append((entity, eid))
    mentioned = [p for p in patterns.ids if p.scope == "mentioned"]
    if mentioned:
        # Scoped patterns run once over the other lines' bodies joined, not line by line.
        ends = [*(h[0] - 1 for h in heads[1:]), len(text)]
        pieces: list[str] = []
        scans: list[str] = []
        firsts: list[int] = []
        shifts: list[tuple[int, str | None]] = []
        joined = 0
        for (_, body, eid, result), end in zip(heads, ends, strict=True):
            if result:
                continue
            pieces.append(text[body:end])
            scans.append(scan[body:end])
            firsts.append(joined)
            shifts.append((body - joined, eid))
            joined += end - body + 1
        bodies = "\n".join(pieces)
        bodies_scan = "\n".join(scans)
        for pattern in mentioned:
            for entity in pattern.entities(bodies, scan=bodies_scan):
                if entity.key in skip:
                    continue
                shift, eid = shifts[bisect_right(firsts, entity.start) - 1]
                kind, name, found_text, key, start = entity
                found.append(
                    (new_entity(Entity, (kind, name, found_text, key, start + shift)), eid)
                )
        found.sort(key=lambda pair: pair[0].start)
    return found


def transcript_entities(
    transcript: Transcript,
    patterns: EntityPatterns,
    occurrences: Iterable[tuple[Entity, str | None]] | None = None,
) -> dict[str, ExpectedEntity]:
    """The entities a record of ``transcript`` must keep, by key, in order of first occurrence
    (from ``occurrences`` when ``entity_occurrences`` already found them)."""
    if occurrences is None:
        occurrences = entity_occurrences(transcript, patterns)
    found: dict[str, tuple[Entity, dict[str, None]]] = {}
    for entity, eid in occurrences:
        seen = found.get(entity.key)
        if seen is None:
            seen = found[entity.key] = (entity, {})
        if eid:
            seen[1][eid] = None
    return {key: ExpectedEntity(e, tuple(ids)) for key, (e, ids) in found.items()}


def missing_entities(
    text: str, expected: Mapping[str, ExpectedEntity], patterns: EntityPatterns
) -> list[ExpectedEntity]:
    """The expected entities that ``text`` (a record's text) does not keep."""
    if not expected:
        return []
    return _not_kept(text, patterns.summary_keys(text), expected)


def missing_from_transcript(
    text: str, transcript: Transcript, patterns: EntityPatterns
) -> list[ExpectedEntity]:
    """``missing_entities(text, transcript_entities(transcript, patterns), patterns)``, with
    less work: the record's keys are read first, and the transcript's occurrences of keys the
    record holds are dropped before they are mapped to events."""
    have = patterns.summary_keys(text)
    occurrences = entity_occurrences(transcript, patterns, skip=have)
    return _not_kept(text, have, transcript_entities(transcript, patterns, occurrences))


def _not_kept(
    text: str, have: Collection[str], expected: Mapping[str, ExpectedEntity]
) -> list[ExpectedEntity]:
    folded: str | None = None
    missing = []
    for x in expected.values():
        entity = x.entity
        if entity.key in have or (
            entity.kind == "date" and any(k in have for k in recall_keys(entity))
        ):
            continue
        if x.entity.kind == "id" and not is_word(x.entity.text):
            # An identifier that is not one word (``case/2041``): kept if it occurs as written.
            folded = text.casefold() if folded is None else folded
            if x.entity.text.lstrip("#").casefold() in folded:
                continue
        missing.append(x)
    return missing
