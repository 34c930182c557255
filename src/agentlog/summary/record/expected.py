"""What a record must keep: the entities of a rendered transcript, and which of them a text
has lost.

Entities are looked for in the rendered transcript, the text the summariser was given, so a
record is never asked for something a truncated payload hid from it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from agentlog.approvals import REQUEST_CONFIRMATION, REQUEST_CREDENTIAL
from agentlog.summary.record._scan import ascii_copy, new_entity
from agentlog.summary.record.entities import Entity, EntityPatterns, is_word, recall_keys
from agentlog.summary.record.learned import LearnedIds, learn_ids
from agentlog.transcript import LineKind, TranscriptLine, parse_line

__all__ = [
    "ExpectedEntity",
    "LineHead",
    "ParsedTranscript",
    "Transcript",
    "entity_occurrences",
    "missing_entities",
    "missing_from_transcript",
    "token_starts",
    "transcript_entities",
]

_MACHINERY: Final = (REQUEST_CONFIRMATION + " ", REQUEST_CREDENTIAL + " ")
"""How the transcript starts the call and result lines of agentlog's requests to a person."""


@dataclass(frozen=True, slots=True)
class ExpectedEntity:
    """An entity the transcript holds: its first occurrence and the events it occurs in."""

    entity: Entity
    event_ids: tuple[str, ...]


Transcript = str | Sequence[TranscriptLine]
"""A rendered transcript: its text, or the lines ``transcript_lines`` made (faster: nothing
has to be parsed back)."""

LineHead = tuple[int, int, str | None, LineKind | None, str]
"""Per rendered line: where it starts, where its body starts, its event id, its kind (``None``
for a line that is not one of the renderer's) and its author (``""`` if none)."""

_TOOL_KINDS: Final = frozenset({"call", "result"})


class ParsedTranscript:
    """A transcript read once for every check: its text, an ASCII copy of it (same positions),
    each line's head, and, on first use, the identifiers its tool traffic names."""

    __slots__ = ("_learned", "heads", "scan", "text")

    def __init__(self, transcript: Transcript) -> None:
        self.text, self.scan, self.heads = _line_heads(transcript)
        self._learned: LearnedIds | None = None

    @classmethod
    def of(cls, transcript: Transcript | ParsedTranscript) -> ParsedTranscript:
        """``transcript`` parsed, unless it is already."""
        return transcript if isinstance(transcript, ParsedTranscript) else cls(transcript)

    def ends(self) -> list[int]:
        """Where each line ends (its newline, or the end of the text)."""
        if not self.heads:
            return []  # an empty transcript: no lines, so no ends
        return [*(h[0] - 1 for h in self.heads[1:]), len(self.text)]

    def bodies(self, kinds: Collection[str], *, scan: bool = True) -> str:
        """The bodies of the lines of these kinds, joined by newlines (from the ASCII copy
        unless ``scan`` is false)."""
        source = self.scan if scan else self.text
        return "\n".join(
            source[body:end]
            for (_, body, _, kind, _), end in zip(self.heads, self.ends(), strict=True)
            if kind in kinds
        )

    def learned(self) -> LearnedIds:
        """The identifiers its tool traffic names (:mod:`agentlog.summary.record.learned`)."""
        if self._learned is None:
            calls: list[str] = []
            results: list[str] = []
            messages: list[str] = []
            scan = self.scan
            for (_, body, _, kind, _), end in zip(self.heads, self.ends(), strict=True):
                if kind in ("call", "result") and scan.startswith(_MACHINERY, body):
                    # A request to a person names the waiting call by its call id: agentlog's
                    # bookkeeping, not an identifier of the domain a record must keep.
                    continue
                if kind == "call":
                    calls.append(scan[body:end])
                elif kind == "result":
                    results.append(scan[body:end])
                elif kind is not None:
                    messages.append(scan[body:end])
            self._learned = learn_ids("\n".join(calls), "\n".join(results), "\n".join(messages))
        return self._learned

    def line_at(self, position: int) -> int:
        """The index of the line holding ``position``."""
        return bisect_right(self.heads, position, key=_START) - 1


def _start(head: LineHead) -> int:
    return head[0]


_START: Final = _start


def _line_heads(transcript: Transcript) -> tuple[str, str, list[LineHead]]:
    """The text, its ASCII copy and each line's head (see :data:`LineHead`)."""
    heads: list[LineHead] = []
    offset = 0
    if isinstance(transcript, str):
        for line in transcript.split("\n"):
            parsed = parse_line(line)
            if parsed is None:
                heads.append((offset, offset, None, None, ""))
            else:
                heads.append((offset, offset + parsed[3], parsed[0], parsed[2], parsed[1]))
            offset += len(line) + 1
        return transcript, ascii_copy(transcript), heads
    rendered: list[str] = []
    for tl in transcript:
        line = tl.render()
        rendered.append(line)
        end = offset + len(line)
        heads.append((offset, end - len(tl.body), tl.event_id, tl.kind, tl.author))
        offset = end + 1
    text = "\n".join(rendered)
    # Copied line by line, most lines are ASCII already and cost nothing.
    scan = text if text.isascii() else "\n".join(map(ascii_copy, rendered))
    return text, scan, heads


def entity_occurrences(
    transcript: Transcript | ParsedTranscript,
    patterns: EntityPatterns,
    skip: Collection[str] = frozenset(),
) -> list[tuple[Entity, str | None]]:
    """Every entity occurrence in ``transcript`` with the id of the event whose line holds it,
    in order. Line heads (``[id] author``) are skipped; a ``"mentioned"``-scoped pattern skips
    ``RESULT`` lines; so are the entities whose key is in ``skip``. With ``patterns.learn``,
    the identifiers the tool traffic names are entities too (:mod:`.learned`)."""
    parsed = ParsedTranscript.of(transcript)
    text, scan, heads = parsed.text, parsed.scan, parsed.heads
    found: list[tuple[Entity, str | None]] = []
    line, last = 0, len(heads) - 1
    entities = patterns.find(text, mentioned=False, scan=scan)
    if skip:
        entities = [e for e in entities if e.key not in skip]
    for entity in entities:  # in order: walk the lines
        while line < last and heads[line + 1][0] <= entity.start:
            line += 1
        _, body, eid, _, _ = heads[line]
        if entity.start >= body:
            found.append((entity, eid))
    mentioned = [p for p in patterns.ids if p.scope == "mentioned"]
    if mentioned:
        # Scoped patterns run once over the other lines' bodies joined, not line by line.
        pieces: list[str] = []
        scans: list[str] = []
        firsts: list[int] = []
        shifts: list[tuple[int, str | None]] = []
        joined = 0
        for (_, body, eid, kind, _), end in zip(heads, parsed.ends(), strict=True):
            if kind == "result":
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
                what, name, found_text, key, start = entity
                found.append(
                    (new_entity(Entity, (what, name, found_text, key, start + shift)), eid)
                )
    if patterns.learn:
        found.extend(_learned_occurrences(parsed, patterns, {e.key for e, _ in found}, skip))
    if mentioned or patterns.learn:
        found.sort(key=lambda pair: pair[0].start)
    return found


def _learned_occurrences(
    parsed: ParsedTranscript,
    patterns: EntityPatterns,
    have: Collection[str],
    skip: Collection[str],
) -> Iterator[tuple[Entity, str | None]]:
    """The occurrences of learned identifiers that no pattern found and ``skip`` leaves."""
    learned = parsed.learned()
    wanted = [k for k in learned.keys() if k not in have and k not in skip]  # noqa: SIM118
    if not wanted:
        return
    found = learned.resolve(wanted)
    known = _pattern_matched(patterns, list(found.values()))
    lowered = parsed.scan.lower()
    heads = parsed.heads
    for key, shown in found.items():
        if shown in known:
            # A domain pattern knows this kind of id: it found it (under its own key, a
            # phone's digits say), or its scope says where it counts.
            continue
        token = key[3:]
        for start in token_starts(lowered, token):
            line = parsed.line_at(start)
            _, body, eid, _, _ = heads[line]
            if start >= body:
                text = parsed.text[start : start + len(token)]
                yield new_entity(Entity, ("id", "learned_id", text, key, start)), eid


def _pattern_matched(patterns: EntityPatterns, values: Sequence[str]) -> set[str]:
    """The values some domain pattern matches whole: one scan per pattern of them all."""
    if not values or not patterns.ids:
        return set()
    joined = "\n".join(values)
    starts = {0: 0}
    offset = 0
    for i, value in enumerate(values):
        starts[offset] = i
        offset += len(value) + 1
    matched: set[str] = set()
    for pattern in patterns.ids:
        for begin, end in pattern.spans(joined):
            at = starts.get(begin)
            if at is not None and end - begin == len(values[at]):
                matched.add(values[at])
    return matched


def token_starts(text: str, token: str) -> Iterator[int]:
    """Where ``token`` occurs in ``text`` as a whole token (a ``#`` before it allowed)."""
    start = text.find(token)
    while start >= 0:
        end = start + len(token)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            yield start
        start = text.find(token, end)


def transcript_entities(
    transcript: Transcript | ParsedTranscript,
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
    text: str, transcript: Transcript | ParsedTranscript, patterns: EntityPatterns
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
