"""What a record must keep: the entities of a rendered transcript, and which of them a text
has lost.

Entities are looked for in the rendered transcript, the text the summariser was given, so a
record is never asked for something a truncated payload hid from it.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from agentlog.approvals import REQUEST_CONFIRMATION, REQUEST_CREDENTIAL
from agentlog.summary.record._extract import is_state_changing
from agentlog.summary.record._scan import ascii_copy, new_entity
from agentlog.summary.record.entities import Entity, EntityPatterns, is_word, recall_keys
from agentlog.summary.record.learned import LearnedIds, is_id_key, learn_ids, token_spans
from agentlog.transcript import _KEYWORDS, LineKind, TranscriptLine, parse_line

__all__ = [
    "ExpectedEntity",
    "LineHead",
    "ParsedTranscript",
    "Transcript",
    "entity_occurrences",
    "missing_entities",
    "missing_from_transcript",
    "touched",
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
    each line's head, where each line starts and ends, and, on first use, the lower-cased
    ASCII copy and the identifiers its tool traffic names.

    Every check of a record reads these; made once here, none of them splits, renders or
    lower-cases the transcript again.
    """

    __slots__ = ("_ends", "_learned", "_lowered", "heads", "scan", "starts", "text")

    def __init__(self, transcript: Transcript) -> None:
        self.text, self.scan, self.heads = _line_heads(transcript)
        self.starts: list[int] = [h[0] for h in self.heads]
        """Where each line starts: ``line_at`` bisects it in C."""
        self._ends: list[int] | None = None
        self._lowered: str | None = None
        self._learned: LearnedIds | None = None

    @classmethod
    def of(cls, transcript: Transcript | ParsedTranscript) -> ParsedTranscript:
        """``transcript`` parsed, unless it is already."""
        return transcript if isinstance(transcript, ParsedTranscript) else cls(transcript)

    def ends(self) -> list[int]:
        """Where each line ends (its newline, or the end of the text); one list, shared by
        every caller: do not change it."""
        if self._ends is None:
            # An empty transcript has no lines, so no ends.
            ends = [start - 1 for start in self.starts[1:]]
            self._ends = [*ends, len(self.text)] if self.heads else []
        return self._ends

    def lowered(self) -> str:
        """The ASCII copy, lower-cased (same positions): where identifiers are looked for."""
        if self._lowered is None:
            self._lowered = self.scan.lower()
        return self._lowered

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
                if kind in _TOOL_KINDS and scan.startswith(_MACHINERY, body):
                    # A request to a person names the waiting call by its call id: agentlog's
                    # bookkeeping, not an identifier of the domain a record must keep.
                    continue
                if kind == "call":
                    calls.append(scan[body:end])
                elif kind == "result":
                    results.append(scan[body:end])
                elif kind is not None and kind != "transfer":
                    # A transfer line is agentlog's rendering of a routing action, not words
                    # anyone wrote: the agent it names is the app's, not the domain's.
                    messages.append(scan[body:end])
            self._learned = learn_ids("\n".join(calls), "\n".join(results), "\n".join(messages))
        return self._learned

    def line_at(self, position: int) -> int:
        """The index of the line holding ``position``."""
        return bisect_right(self.starts, position) - 1


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
    add, head = rendered.append, heads.append
    for tl in transcript:
        eid, author, kind, body = tl
        # ``tl.render()`` inlined: a call per line costs as much as the line.
        keyword = _KEYWORDS.get(kind)
        line = (
            f"[{eid}] {author}: {body}" if keyword is None else f"[{eid}] {author} {keyword} {body}"
        )
        add(line)
        end = offset + len(line)
        head((offset, end - len(body), eid, kind, author))
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
    entities = patterns.find(text, mentioned=False, scan=scan, settle=True)
    # An amount or a date read where a learned identifier is (``GBP 5000`` passed to a call)
    # is that, kept by a record or not: their spans, for the identifier to give way.
    values: dict[int, int] = {}
    if patterns.learn:
        for e in entities:
            if e.kind in _READ_AS_VALUES:
                end = e.start + len(e.text)
                if values.get(e.start, -1) < end:
                    values[e.start] = end
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
        firsts: list[int] = []
        shifts: list[tuple[int, str | None]] = []
        joined = 0
        for (_, body, eid, kind, _), end in zip(heads, parsed.ends(), strict=True):
            if kind == "result":
                continue
            pieces.append(text[body:end])
            firsts.append(joined)
            shifts.append((body - joined, eid))
            joined += end - body + 1
        bodies = "\n".join(pieces)
        # The ASCII copy maps each character on its own: copying the joined bodies gives
        # what joining the copy's slices gives.
        bodies_scan = ascii_copy(bodies)
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
        have = {e.key for e, _ in found}
        found.extend(_learned_occurrences(parsed, patterns, have, skip, values))
    if mentioned or patterns.learn:
        # Ties (two entities at one place: a learned id and a pattern's) by key, so the order,
        # and the problems that follow it, are the same in every process.
        found.sort(key=lambda pair: (pair[0].start, pair[0].key))
    return found


_READ_AS_VALUES: Final = frozenset({"money", "date"})


def _learned_occurrences(
    parsed: ParsedTranscript,
    patterns: EntityPatterns,
    have: Collection[str],
    skip: Collection[str],
    values: Mapping[int, int] | None = None,
) -> Iterator[tuple[Entity, str | None]]:
    """The occurrences of learned identifiers that no pattern found and ``skip`` leaves,
    without an identifier that an amount or a date starting where it does (``values``: where
    each ends, by where it starts) covers at any of its occurrences: ``GBP 5000`` is an
    amount however a call passed it."""
    learned = parsed.learned()
    wanted = [k for k in learned.keys() if k not in have and k not in skip]  # noqa: SIM118
    if not wanted:
        return
    found = learned.resolve(wanted)
    known = _pattern_matched(patterns, list(found.values()))
    lowered = parsed.lowered()
    heads = parsed.heads
    for key, shown in found.items():
        if shown in known:
            # A domain pattern knows this kind of id: it found it (under its own key, a
            # phone's digits say), or its scope says where it counts.
            continue
        # An identifier written in groups (``XQ 9033``) is found in any grouping, or none.
        spans = list(token_spans(lowered, key[3:], spaced=" " in shown))
        if values and any(values.get(start, -1) >= end for start, end in spans):
            continue
        for start, end in spans:
            line = parsed.line_at(start)
            _, body, eid, _, _ = heads[line]
            if start >= body:
                text = parsed.text[start:end]
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


def transcript_entities(
    transcript: Transcript | ParsedTranscript,
    patterns: EntityPatterns,
    occurrences: Iterable[tuple[Entity, str | None]] | None = None,
) -> dict[str, ExpectedEntity]:
    """The entities a record of ``transcript`` must keep, by key, in order of first occurrence
    (from ``occurrences`` when ``entity_occurrences`` already found them): those the
    conversation touched (:func:`touched`), each with every event it occurs in."""
    parsed = ParsedTranscript.of(transcript)
    if occurrences is None:
        occurrences = entity_occurrences(parsed, patterns)
    counts = touched(parsed)
    heads = parsed.heads
    found: dict[str, tuple[Entity, dict[str, None], list[int]]] = {}
    kept: set[str] = set()
    line, last = 0, len(heads) - 1
    for entity, eid in occurrences:
        seen = found.get(entity.key)
        if seen is None:
            seen = found[entity.key] = (entity, {}, [])
        if entity.key not in kept:
            # Off a tool result it counts at once; a result's occurrence is judged (its
            # payload parsed) only if no other occurrence counts.
            start = entity.start
            if heads[line][0] > start:
                line = parsed.line_at(start)  # out of order: look it up
            while line < last and heads[line + 1][0] <= start:
                line += 1
            if heads[line][3] != "result":
                kept.add(entity.key)
            else:
                seen[2].append(start)
        if eid:
            seen[1][eid] = None
    for key, (_, _, pending) in found.items():
        if key not in kept and any(counts(start) for start in pending):
            kept.add(key)
    return {key: ExpectedEntity(e, tuple(ids)) for key, (e, ids, _) in found.items() if key in kept}


_TOKEN_AT: Final = re.compile(r"[A-Za-z0-9_.@/-]*")
"""The characters of a token in a result (``scan`` is ASCII: ``isalnum`` is these letters),
``/`` among them: an object's own ``14/05/2026`` or ``CLM/2026/004431`` is one leaf."""

_KEY_BEFORE: Final = re.compile(r'"([^"\\\n]{1,64})": "?#?$')
"""The JSON key whose value starts where the text ends (``"order_id": "#``)."""


def touched(parsed: ParsedTranscript) -> Callable[[int], bool]:
    """Whether the entity occurring at a position of ``parsed`` is one the conversation
    touched, so a record must keep it.

    A tool result is often a dump (a search's every option, a user's every order); a record
    that had to repeat each of its identifiers could never be short, and a reader needs only
    what the conversation used. An occurrence counts when it is:

    - on any line but a tool result: a message of the customer or an agent, a tool call's
      arguments, a transfer, a compaction;
    - in a write's result (a tool whose name says it changes something), outside its lists:
      what the change did, not the listings it repeats;
    - in a read's result, when the result is one object (it has an identifier at its top
      level: the booking, the order, the user read): that identifier, and the object's own
      fields, outside its lists and its dicts keyed by identifiers, where a list of one entry
      is the object's part (a booking's one flight), not a listing; or the only value of a
      one-value result
      (``{"result": "sara_doe_496"}``).

    So the identifiers of a listing that nothing else names are not required (a search's
    options, a user's other orders, a product's variants); the same identifier named by a
    call, a message or a write is. A result cut short by the transcript's limit, which does
    not parse, counts at its top level only.
    """
    heads = parsed.heads
    scan = parsed.scan
    ends = parsed.ends()
    lines: dict[int, tuple[int, str | None]] = {}  # line: where its JSON starts, what counts
    shapes: dict[str, tuple[int, str | None]] = {}  # a result's body: the same, from its start

    def counts(start: int) -> bool:
        at = parsed.line_at(start)
        _, body, _, kind, _ = heads[at]
        if kind != "result":
            return True
        shape = lines.get(at)
        if shape is None:
            # A payload read again (the same order twice) is judged once.
            text = scan[body : ends[at]]
            same = shapes.get(text)
            if same is None:
                same = shapes[text] = _result_shape(text, 0, len(text))
            shape = lines[at] = (same[0] + body if same[0] >= 0 else -1, same[1])
        json_at, held = shape
        if json_at < 0 or start < json_at:
            return held is not None  # a result in words: a write's says what it did
        if held is not None:
            return _is_at(held, scan, start, ends[at])
        before = scan[json_at:start]  # it did not parse: the top level of an object read
        depth = before.count("{") + before.count("[") - before.count("}") - before.count("]")
        key = _KEY_BEFORE.search(before, max(0, len(before) - 72))
        return depth == 1 and key is not None and is_id_key(key[1])

    return counts


def _is_at(held: str, scan: str, start: int, end: int) -> bool:
    """Whether the token at ``start`` is one of ``held``'s lines."""
    found = _TOKEN_AT.match(scan, start, end)  # in C, not a loop per character
    token = scan[start : found.end() if found is not None else start].rstrip(".")
    return f"\n{token}\n" in held or f"\n#{token}\n" in held


def _result_shape(scan: str, body: int, end: int) -> tuple[int, str | None]:
    """Where a result line's JSON starts, and the leaves that count (one a line, between
    newlines), ``None`` when none does or it does not parse."""
    space = scan.find(" ", body, end)
    name = scan[body : space if space >= 0 else end]
    if space < 0 or not scan.startswith("{", space + 1):
        said = scan[space + 1 : end] if space >= 0 else None
        return -1, "\n" if is_state_changing(name, result=said) else None
    json_at = space + 1
    try:
        payload = json.loads(scan[json_at:end])
    except ValueError:
        return json_at, None
    write = is_state_changing(name, result=payload)
    if not isinstance(payload, dict):
        return json_at, None
    if not write and len(payload) == 1:
        (only,) = payload.values()
        if not isinstance(only, dict | list):
            return json_at, f"\n{only}\n"  # a one-value answer
    if not write and not any(
        is_id_key(str(k)) and not isinstance(v, dict | list) for k, v in payload.items()
    ):
        return json_at, None  # not one object: a listing, a status, a quote
    leaves: list[str] = []
    _own_leaves(payload, leaves)
    return json_at, "\n" + "\n".join(leaves) + "\n"


def _keyed_by_ids(value: dict[Any, Any]) -> bool:
    """Whether a dict is a listing in disguise: its entries objects, its keys identifiers
    (``{"1234567890": {...}, "2345678901": {...}}``, ``{"credit_card_7731904": {...}}``)."""
    return all(type(v) is dict and any(c.isdigit() for c in str(k)) for k, v in value.items())


def _own_leaves(value: Any, into: list[str]) -> None:
    """The leaves of an object outside its lists and the dicts keyed by identifiers (a list
    of one entry is a part of it), in any order."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is dict:
            if len(v) < 2 or not _keyed_by_ids(v):
                stack.extend(v.values())
        elif type(v) is list:
            if len(v) == 1:
                stack.append(v[0])
        elif type(v) is str:
            into.append(v)
        elif v is not None and v is not True and v is not False:
            into.append(str(v))


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
        if (x.entity.kind == "id" and not is_word(x.entity.text)) or entity.kind == "date":
            # An identifier that is not one word (``case/2041``), or a date the transcript's
            # others settled (``06/01/2026``, which a record alone reads both ways): kept if it
            # occurs as written.
            folded = text.casefold() if folded is None else folded
            if x.entity.text.lstrip("#").casefold() in folded:
                continue
        missing.append(x)
    return missing
