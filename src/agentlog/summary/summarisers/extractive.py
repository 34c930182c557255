"""``ExtractiveSummarizer``: a deterministic, model-free summariser with the same checked output.

It reads the same rendered transcript a model would, and builds:

- ``goal``: the customer's request from their first message, at most 100 characters;
- ``facts``: one per thing a tool read (``Order A-1001: status shipped, ...``: its identifier,
  the fields the record must keep and one status; a second read merged into it), a search as
  its argument values, how many it found and the results the conversation named, a failed
  call, and a labelled part that several tools' prose results repeat as one fact of its last
  value, each citing the call and the result;
- ``decisions``: each state-changing tool call that succeeded (a name with a write verb,
  ``cancel_``, ``modify_``, ``refund_``, ..., or a result event that changed state) as
  ``<verb phrase> <object id>: <what changed>``, an operator's answer to a confirmation, and
  each handoff to another agent (``Handed to <agent>``);
- ``commitments``: the clauses of the agents' sentences that say what will happen
  (:mod:`._pending`: "HR will reply within 5 working days (HRC:2026:118)"), each with the
  identifier it concerns when it writes none; not a finished action (its decision says it),
  nor a promise to act now that a later action kept ("I'll refund the second one");
- ``open_questions``: the customer's questions after the agent's last reply, calls still
  without a result, outcomes a result or an agent says are awaited ("ESC-30218: decision by
  May 26, 2026", a waiting status, "They have until 2026-05-25 to accept") unless a
  commitment says as much, and a final error. A result's field a later commitment tells the
  customer again is said once, in the commitment.

Then every entity of the transcript that no item keeps is attached to an item citing the event
it came from (the sentence around it, for a message), so the record passes the same validator
as a model's. It is the offline default and the evaluation's baseline, not a reader's ideal.

It copies text, so it never copies instruction-like text
(:mod:`~agentlog.summary.record.instructions`): the strings of tool payloads are cleaned of such
sentences before they are read, and every item's text is cleaned again before it is added (an item
left empty is not added). An entity that only occurred inside such a sentence is still kept, as
"<author> mentioned <entity>"."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Final

from agentlog.approvals import REQUEST_CONFIRMATION
from agentlog.events import Event
from agentlog.summary.record._extract import (
    action_of,
    args_text,
    clip,
    failed,
    fields_text,
    holds,
    is_state_changing,
    is_status_key,
    kept_fields,
    payload_text,
    prose_of,
    says_done,
    says_what_it_did,
    scalar,
    thing_of,
    unwrap,
    words_of,
)
from agentlog.summary.record._scan import date_entities
from agentlog.summary.record._scope import one_check
from agentlog.summary.record._sentences import (
    Said,
    goal_parts,
    has_deadline,
    names_something,
    part_holding,
    sentences,
)
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.instructions import InstructionPatterns
from agentlog.summary.record.learned import identifier_shaped, is_id_key
from agentlog.summary.record.provenance import USER_AUTHOR
from agentlog.summary.record.result import SummaryInput, SummaryResult, events_of
from agentlog.summary.record.schema import SummaryItem, SummaryRecord
from agentlog.summary.record.validate import (
    ExpectedEntity,
    ParsedTranscript,
    check_and_label,
    entity_occurrences,
    missing_entities,
    transcript_entities,
)
from agentlog.summary.summarisers._pending import (
    awaits,
    clauses,
    commits,
    concerns,
    covers,
    first_person_now,
    ids_in,
    pending_status,
    same_day,
    told_again,
    upper_first,
    whole_in,
    with_ids,
)
from agentlog.summary.summarisers._terse import (
    key_sentences,
    named_numbers,
    no_free_text,
    no_twice_said_amounts,
    not_said_again,
    says_no_more,
    with_currency,
)
from agentlog.summary.summarisers.metrics import SummaryMetrics
from agentlog.transcript import TranscriptLine, transcript_lines

__all__ = ["ExtractiveSummarizer", "is_state_changing"]

_COVERED: Final = re.compile(r"^of \d+ events? \([^)]*\): ")
"""How a compaction line opens: the events it covers, which its citation already names."""
_GOAL_CHARS: Final = 100
"""The goal is cut to about this many characters (entities lost by the cut are kept by an
item)."""
_TRANSFER_TOOL: Final = "transfer_to_agent"
"""The transfer tool's name (``TransferToAgentTool.NAME``; the agents package is a layer up)."""


def _same(value: Any) -> Any:
    return value


_LABEL: Final = re.compile(r"(?<![^\s.])([A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}): ")
"""A labelled part of a prose result (``Status Bar: ...``), up to the next label."""
_DOING: Final = re.compile(
    r"(?:^|, (?:and|then|so) )(?:(?:ok(?:ay)?|sure|great|right|first)[,!]? )?(?:i|we)"
    r"(?:['\u2019]ll| will) (?:(?:now|also|first|go ahead and|just) )?([a-z]+)\b",
    re.IGNORECASE,
)
"""A promise to do something now: "I'll refund ...", "reply yes, and I'll process it", its
verb."""
_ANY_ACTION: Final = frozenset({"proceed", "process", "handle", "do", "complete", "take"})
"""Verbs of a promise to act now that name no action: any later write keeps it ("Reply yes and
I'll process this immediately")."""
_HANDOVER: Final = ("transfer", "pass", "hand", "connect", "put", "route")
"""The verbs of a promise that a handover keeps ("I'll pass you to our returns team")."""
_ARG_CHARS: Final = 60
"""An argument's free text is cut to about this many characters (the call shows it all)."""
_ANSWER_CHARS: Final = 100
"""A lookup's answer with nothing the record must keep is cut to about this many."""
_WORKED: Final = frozenset(
    {"ok", "okay", "success", "succeeded", "successful", "done", "complete", "completed"}
    | {"updated"}
)
"""Statuses that say only that a write worked (English words of success, of no domain)."""


_ERROR_WORD: Final = re.compile(r"^\s*error\b\W*", re.IGNORECASE)
"""How an error message opens ("Error: User not found"), which "failed" says."""


_QUANTITY: Final = re.compile(r'": "(\d[\d.,]{0,8} (?:[^\W\d_]{1,6}|%))"')
"""A JSON string of a number, a space and its unit: ``2.5 mg``, ``40.5 kg``, ``8 hours``,
``6.9 %`` (not ``619 Broadway``, nor a product's option such as ``8GB``, which reads as one
word). It starts with the literal that opens a value, which the engine jumps to."""


def _relayed(lines: Sequence[TranscriptLine]) -> dict[str, set[str]]:
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


def _each(values: Iterable[str]) -> set[str]:
    """Shown values, and each of a joined list's (``IPX4, IPX7``): each is said."""
    return {part for v in values for part in (v, *v.split(", "))}


_AWAITED: Final = frozenset({"due", "deadline", "by"})
"""The last word of a result's key naming when an outcome is to come (``decision_by``)."""


def _listed(found: Any) -> list[dict[str, Any]] | None:
    """A result's listing: a list of objects, or an object's one list of objects beside
    scalars only (``{"total": 64, "results": [...]}``)."""
    if isinstance(found, list) and found and all(isinstance(x, dict) for x in found):
        return found
    if isinstance(found, dict):
        lists = [v for v in found.values() if isinstance(v, dict | list)]
        if len(lists) == 1 and _listed(lists[0]) is not None and isinstance(lists[0], list):
            return lists[0]
    return None


class _Builder:
    """One session's items, in the order they are found."""

    def __init__(
        self,
        events: Sequence[Event],
        lines: Sequence[TranscriptLine],
        limit: int,
        patterns: EntityPatterns,
        entities: dict[str, set[str]],
        instructions: InstructionPatterns | None,
    ):
        self.events = {e.id: e for e in events}
        self.patterns = patterns
        self.instructions = instructions  # None: copy text as it is (nothing to clean)
        self.entities = entities  # event id: texts of the entities its lines hold
        self.lines = lines
        self.limit = limit
        self.facts: list[SummaryItem] = []
        self.decisions: list[SummaryItem] = []
        self.commitments: list[SummaryItem] = []
        self.open_questions: list[SummaryItem] = []
        self.promised: list[tuple[list[str], str]] = []  # the agents' promises: sources, text
        self.awaiting: set[str] = set()  # the open questions that are outcomes awaited
        self.deadlines: set[str] = set()  # of those, the ones an agent's clause says
        self.waits_on: dict[str, str] = {}  # a result's awaited question: what waits
        # A tool and a thing it read no longer waiting: where (a later status ends the wait).
        self.settled: dict[tuple[str, str], int] = {}
        self.asked_by: dict[str, str] = {}  # a result's awaited question: the tool's name
        # Each write's position, what it acted on and its events.
        self.wrote: list[tuple[int, str, list[str]]] = []
        # Each read's fact, by its text: its title and fields.
        self.read_parts: dict[str, tuple[str, list[tuple[str, str]]]] = {}
        # Each read's fact of a lookup that asked something, by its text: its tool, its
        # arguments and what it answered.
        self.asked_about: dict[str, tuple[str, str, str]] = {}
        # Each write's decision, by its text: its action, arguments, result and target.
        self.parts: dict[
            str, tuple[str, list[tuple[str, str]], list[tuple[str, str]], tuple[str, str] | None]
        ] = {}
        self.calls: dict[str, tuple[str, str, Any]] = {}  # call id: event id, name, args
        # The last write's tool and arguments, each outcome so far of that call repeated, and
        # its decision.
        self.last_write: (
            tuple[tuple[str, tuple[tuple[str, str], ...]], list[str], SummaryItem] | None
        ) = None
        # The things read so far: their key fields and cited events, and where their fact is.
        self.things: dict[tuple[str, str], tuple[list[tuple[str, str]], list[str]]] = {}
        self.thing_at: dict[tuple[str, str], int] = {}
        self.thing_title: dict[tuple[str, str], str] = {}
        # Lookups that answered one identifier: the answer, where its fact is, what was asked.
        self.answers: dict[str, tuple[int, str, tuple[str, ...]]] = {}
        self.said: set[str] = set()  # values an item already shows: a record says each once
        self.unnamed: set[str] = set()  # searches none of whose results the session named
        # A repeated labelled part of prose results: its latest value and the events citing it.
        self.last_shown: dict[str, tuple[str, list[str]]] = {}
        self.order = {e.id: i for i, e in enumerate(events)}
        # What the agents did, where: (event position, verb), for promises kept at once.
        self.done: list[tuple[int, str]] = [
            (self.order.get(ln.event_id, -1), v)
            for ln in lines
            if ln.kind == "transfer"
            for v in _HANDOVER
        ]
        for event in events:
            for call in event.function_calls():
                self.calls[call.id] = (event.id, call.name, call.args)

    def item(self, text: str, sources: Iterable[str]) -> SummaryItem | None:
        """An item of ``text`` citing ``sources`` once each, its instruction-like sentences
        dropped; ``None`` when nothing is left of it."""
        if self.instructions is not None:
            text = self.instructions.drop(text)
            if not text:
                return None
        return SummaryItem(text=text, sources=tuple(dict.fromkeys(sources)))

    def shown(self) -> str:
        """What the facts and decisions found so far say, one a line."""
        return "\n".join(i.text for i in (*self.facts, *self.decisions))

    def add(self, items: list[SummaryItem], text: str, sources: Iterable[str]) -> None:
        item = self.item(text, sources)
        if item is not None and item not in items:
            items.append(item)

    def tool_results(self) -> None:
        answered: set[str] = set()
        repeated = self.repeated_labels()
        for event in self.events.values():
            for response in event.function_responses():
                answered.add(response.id)
                call_event, name, args = self.calls.get(response.id, ("", response.name, {}))
                sources = [s for s in (call_event, event.id) if s]
                if name == REQUEST_CONFIRMATION:
                    self.confirmation(args, response.response, sources)
                    continue
                if name == _TRANSFER_TOOL:
                    if not event.actions.transfer_to_agent:  # else the transfer line says it
                        target = next(iter(self.said_in(args)), "another agent")
                        self.add(self.decisions, f"Handed to {target}", sources)
                        self.done.extend((self.order[event.id], v) for v in _HANDOVER)
                    continue
                texts = self.entities.get(event.id, set())
                clean = self.instructions.clean if self.instructions else _same
                args, payload = clean(args), clean(response.response)
                asked = self.entities.get(call_event, set())
                values = self.arguments(args, asked)
                wrote = False
                if failed(payload):
                    error = payload.get("error") if isinstance(payload, dict) else None
                    why = str(error) if isinstance(error, str) else ""
                    why = why or payload_text(payload, self.limit // 2, texts, self.patterns)
                    why = _ERROR_WORD.sub("", why, count=1)
                    shown = args_text(named_numbers(name, values, asked | texts))
                    head = upper_first(" ".join(filter(None, (words_of(name), shown))))
                    self.add(self.facts, clip(f"{head} failed: {why}", self.limit), sources)
                elif is_state_changing(
                    name,
                    args if isinstance(args, Mapping) else {},
                    payload,
                    delta=bool(event.actions.state_delta),
                ):
                    whole = [v for _, v in self.arguments(args, asked, cut=False)]
                    values = no_free_text(values, asked | texts, self.shown(), whole)
                    self.write(name, values, payload, texts, sources, repeated)
                    wrote = True
                else:
                    values = named_numbers(name, values, asked | texts)
                    self.read(name, args, values, payload, texts, sources, repeated)
                if not failed(payload):
                    self.awaited(name, args, payload, sources, wrote=wrote)
        for label, (value, sources) in self.last_shown.items():
            self.add(self.facts, clip(f"{label}, last shown: {value}", self.limit), sources)
        for call_id, (event_id, name, args) in self.calls.items():
            if call_id not in answered:
                text = upper_first(self.act(words_of(name), self.arguments(args, ())))
                text += "; no result yet"
                self.add(self.open_questions, text, [event_id])

    def awaited(
        self, name: str, args: Any, payload: Any, sources: list[str], *, wrote: bool = False
    ) -> None:
        """An outcome a result says is still to come, as an open question: a top-level key
        whose last word is ``due``, ``deadline`` or ``by`` holding a date (``decision_by``,
        ``merchant_response_due``), with what the result or its call identifies and its
        status: "ESC-30218: status queued, decision by May 26, 2026"; or a status that says it
        waits (:func:`pending_status`): "LR.2026.0931: status pending_manager"."""
        if not isinstance(payload, Mapping):
            return
        waits = [
            f"{words_of(key)} {value}"
            for key, value in payload.items()
            if isinstance(key, str)
            and isinstance(value, str)
            and words_of(key).rsplit(" ", 1)[-1] in _AWAITED
            and next(date_entities(value), None) is not None
        ]
        status = payload.get("status")
        waiting = isinstance(status, str) and pending_status(status)
        settles = (
            not wrote and not waits and not waiting and isinstance(status, str) and bool(status)
        )
        if not waits and not waiting and not settles:
            return
        # A status alone waits on what the call made (``create_leave_request``'s request).
        made = None if waits else _made_id(name, payload, self.arguments(args, ()))
        named = [] if made is None else [made[1]]
        held = (payload, args if isinstance(args, Mapping) else {})
        named += [
            str(v)
            for fields in held
            for k, v in fields.items()
            if isinstance(k, str) and isinstance(v, str) and is_id_key(k) and identifier_shaped(v)
        ]
        if settles:
            # The same lookup's status that no longer waits ("approved" after
            # "pending_manager"): what it names waits no more from here (:meth:`record` drops
            # its earlier question). Another tool's status ("sent_to_insurer") or a write's
            # (another work order "open") says what it did, not that the wait is over.
            at = max((self.order.get(s, -1) for s in sources), default=-1)
            for thing in named:
                self.settled[name, thing] = max(at, self.settled.get((name, thing), -1))
            return
        if waiting and not named:
            # What waits, when no key says it identifies: the result's or the call's value
            # shaped like an identifier ("waiver_request": "WVR-2026-0088").
            # A note holding one is not its name: its identifier is.
            named = [i for f in held for v in f.values() if isinstance(v, str) for i in ids_in(v)]
        # A status the write's decision or the read's fact shows is said once, there; one that
        # says it waits is what the question is.
        shown = isinstance(status, str) and status in self.said and not waiting
        parts = [f"status {status}"] if isinstance(status, str) and status and not shown else []
        head = f"{named[0]}: " if named else ""
        text = clip(head + ", ".join(parts + waits), self.limit)
        self.awaiting.add(text)
        question = self.item(text, sources)
        if question is None:
            return
        for at, asked in enumerate(self.open_questions):
            if asked.text == question.text:  # the same thing read again, still waiting
                sources = [*asked.sources, *question.sources]
                self.open_questions[at] = asked.model_copy(
                    update={"sources": tuple(dict.fromkeys(sources))}
                )
                return
        self.open_questions.append(question)
        if named:
            self.waits_on[question.text] = named[0]
            self.asked_by[question.text] = name

    def repeated_labels(self) -> set[str]:
        """The labels (``Status Bar:``) that the prose results of more than one tool show: a
        device's state repeated after every action is one fact, not a part of each."""
        tools: dict[str, set[str]] = {}
        for event in self.events.values():
            for response in event.function_responses():
                prose = prose_of(response.response)
                if prose is not None:
                    for m in _LABEL.finditer(prose):
                        tools.setdefault(m[1], set()).add(response.name)
        return {label for label, names in tools.items() if len(names) > 1}

    def prose(
        self,
        text: str,
        repeated: Collection[str],
        sources: list[str],
        entities: Collection[str],
        *,
        terse: bool = False,
    ) -> str:
        """A prose result without its repeated labelled parts, each kept as the latest value
        of its label (:meth:`repeated_labels`); with ``terse`` (a write's), only its sentences
        naming one of ``entities`` (:func:`key_sentences`)."""
        if repeated:
            marks = list(_LABEL.finditer(text))
            kept: list[str] = [text[: marks[0].start()] if marks else text]
            for i, m in enumerate(marks):
                end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
                part = text[m.start() : end]
                if m[1] in repeated:
                    self.last_shown.pop(m[1], None)  # kept in order of last showing
                    self.last_shown[m[1]] = (part[m.end() - m.start() :].strip(), sources)
                else:
                    kept.append(part)
            text = " ".join(" ".join(kept).split())
        if text and terse:
            text = key_sentences(text, entities)
        return clip(text, self.limit // 2)

    @staticmethod
    def said_in(args: Any) -> set[str]:
        """The values a call's arguments show."""
        if not isinstance(args, dict):
            return set()
        return {v for v in map(scalar, args.values()) if v}

    def arguments(
        self, args: Any, entities: Collection[str], *, cut: bool = True
    ) -> list[tuple[str, str]]:
        """A call's arguments as ``(key, value)`` (nested ones as their telling leaves, free
        text cut short unless not ``cut``)."""
        if not isinstance(args, dict):
            return [("", payload_text(args, self.limit // 2, entities))] if args else []
        parts: list[tuple[str, str]] = []
        for key, value in args.items():
            shown = scalar(value)
            if shown is None and value not in (None, "", False):
                shown = payload_text(value, self.limit // 3, entities, self.patterns)
            if shown and shown != "True":
                parts.append((str(key), clip(shown, _ARG_CHARS) if cut else shown))
        return parts

    def write(
        self,
        name: str,
        values: list[tuple[str, str]],
        payload: Any,
        texts: Collection[str],
        sources: list[str],
        repeated: Collection[str],
    ) -> None:
        """A write as a decision: what it did to which object (``Changed flight Q7ZK2M: new
        flight number XY131``), then what its result says the record must keep. The same call
        again right after (the next decision: a toggle on then off) is the same decision,
        citing both, each outcome in order ("Toggled airplane mode: ON, then OFF")."""
        action = action_of(name, wrote=True)
        call = (name, tuple(values))
        said = {v for _, v in values}
        prose = prose_of(payload)
        if prose is not None:
            did = self.prose(prose, repeated, sources, {*texts, *said}, terse=True)
            did = not_said_again(did, name, action.split(" ", 1)[0], values)
            result = [("", did)] if did else []
            # What the prose shows of the arguments is said once, in the prose.
            values = [kv for kv in values if is_id_key(kv[0]) or kv[1] not in did]
        else:
            result = kept_fields(payload, texts, said | self.said, codes=True)
            verb = action.split(" ", 1)[0].casefold()
            # A status the verb says already ("Cancelled order: status cancelled", "Withdrew
            # claim: status withdrawn"), or that only says it worked ("updated", "ok"), goes:
            # a decision is a write that worked.
            result = [
                kv
                for kv in result
                if not (
                    is_status_key(kv[0])
                    and (says_done(kv[1], name, verb) or kv[1].casefold() in _WORKED)
                )
            ]
        acted = _acted_on(name, values)
        made = _made_id(name, payload, values) if prose is None else None
        if made is not None:
            result = [kv for kv in result if kv[1] != made[1]]
        values = no_twice_said_amounts(values, result, self.patterns)
        values = with_currency(values, self.patterns)
        result = with_currency(result, self.patterns)
        outcomes = [fields_text(result)]
        again = self.last_write
        if again is not None and again[0] == call and self.decisions[-1:] == [again[2]]:
            # Nothing was decided since that call's decision: this one takes its place.
            outcomes = [*again[1], *outcomes]
            sources = [*again[2].sources, *sources]
            if any(outcomes):
                # Each outcome in order: an empty one (it only said it worked) is "done".
                said_each = (o.rstrip(".") or "done" for o in outcomes)
                result = [("", ", then ".join(said_each))]
        else:
            again = None
        text = clip(self.act(action, values, result, made or acted), self.limit)
        item = self.item(text, sources)
        self.last_write = None
        if item is not None:
            if again is not None:
                self.decisions.pop()
            if item not in self.decisions:
                self.decisions.append(item)
                self.last_write = (call, outcomes, item)
        self.parts[text] = (action, values, list(result), made or acted)
        first = next((v for k, v in values if is_id_key(k)), None)
        for target in dict.fromkeys(v for v in (first, acted and acted[1]) if v):
            self.changed(("thing", target.casefold()))
        at = self.order.get(sources[0], -1)
        self.done.append((at, words_of(name).split(" ", 1)[0]))
        targets = dict.fromkeys(x[1] for x in (acted, made) if x) or {"": None}
        self.wrote.extend((at, v, sources) for v in targets)
        self.said |= said | _each(v for _, v in result)

    def changed(self, key: tuple[str, str]) -> None:
        """A thing read, then written: its fact's status was true when read, not now (the
        write's decision says what it is), so it goes."""
        at = self.things.get(key)
        if at is None or not any(is_status_key(k) for k, _ in at[0]):
            return
        fields = [kv for kv in at[0] if not is_status_key(kv[0])]
        title = self.thing_title[key]
        text = clip(f"{title}: {fields_text(fields)}", self.limit) if fields else title
        item = self.item(text, at[1])
        if item is not None:
            self.facts[self.thing_at[key]] = item
            self.things[key] = (fields, at[1])

    @staticmethod
    def act(
        action: str,
        values: list[tuple[str, str]],
        result: Sequence[tuple[str, str]] = (),
        target: tuple[str, str] | None = None,
    ) -> str:
        """``<action> <object id>: <other arguments, what the result says>`` (the object:
        ``target``, or the first argument under an identifier's key)."""
        if target is None:
            target = next(((k, v) for k, v in values if is_id_key(k)), None)
        rest = [kv for kv in values if kv != target]
        head = f"{action} {target[1]}" if target else action
        changes = fields_text([*rest, *result])
        return head + (f": {changes}" if changes else "")

    def read(
        self,
        name: str,
        args: Any,
        values: list[tuple[str, str]],
        payload: Any,
        texts: Collection[str],
        sources: list[str],
        repeated: Collection[str],
    ) -> None:
        """A lookup as a fact about the thing it read: one item per thing (its identifier and
        what the record must keep of it), a second read of the same thing merged into it,
        citing both."""
        found, _ = unwrap(payload)
        listed = _listed(found)
        key: tuple[str, str]
        fields: list[tuple[str, str]]
        key_shown = ""
        head = " ".join(filter(None, (action_of(name), args_text(values))))
        if isinstance(found, dict) and (
            ids := [(str(k), v) for k, v in found.items() if is_id_key(str(k)) and scalar(v)]
        ):
            id_key, value = ids[0]
            shown = str(scalar(value))
            thing = thing_of(id_key, name)
            title = f"{thing[:1].upper()}{thing[1:]} {shown}"
            key, key_shown = ("thing", shown.casefold()), shown
            fields = kept_fields(found, texts, {shown} | self.said, parts=True)
        elif listed is not None:
            self.listing(head, listed, texts, sources, self.said_in(args))
            return
        else:
            title = head
            key = (name, repr(sorted(args.items())) if isinstance(args, dict) else "")
            skip = self.said | self.said_in(args)
            prose = prose_of(found)
            if prose is not None:
                said = self.prose(prose, repeated, sources, texts)
                if not said:
                    return  # all of it is a repeated part, which its own fact keeps
                if says_what_it_did(said, name) and not args:
                    title = ""  # "Wi-Fi is turned OFF." needs no "Checked wifi status"
                else:  # "Checked wifi calling status: ON", not "...: Wi-Fi Calling is ..."
                    verb = title.split(" ", 1)[0]
                    said = not_said_again(said, name, verb, values, echoes=False) or said
                fields = [("", said)]
            else:
                fields = kept_fields(found, texts, skip) if isinstance(found, dict) else []
            if not any(v for _, v in fields):
                fields = [("", payload_text(found, _ANSWER_CHARS, texts, self.patterns))]
            fields = [kv for kv in fields if kv[1]]
        at = self.things.get(key)
        if at is not None:
            before_fields, before_sources = at
            merged = dict(before_fields)
            merged.update(fields)  # the later read says what is true now
            fields, sources = list(merged.items()), [*before_sources, *sources]
        shown = fields_text(fields)
        text = clip(f"{title}: {shown}" if title else shown, self.limit) if fields else title
        item = self.item(text, sources)
        if item is None:
            return
        if title:
            self.read_parts[item.text] = (title, fields)
        if key[0] != "thing" and values:
            self.asked_about[item.text] = (name, key[1], shown)
        if at is not None:
            self.facts[self.thing_at[key]] = item
        else:
            self.thing_at[key] = len(self.facts)
            self.facts.append(item)
        self.things[key] = (fields, list(item.sources))
        self.thing_title[key] = title
        if key[0] != "thing" and len(fields) == 1 and " " not in fields[0][1]:
            asked = args_text(values)  # "Found user id by email ana@x.org: ana_lima_4410"
            self.answers[fields[0][1].casefold()] = (self.thing_at[key], asked, item.sources)
        self.said |= _each(v for _, v in fields)
        if key[0] == "thing":
            self.said.add(key_shown)

    def listing(
        self,
        head: str,
        found: list[Any],
        texts: Collection[str],
        sources: list[str],
        asked: set[str],
    ) -> None:
        """A search's results: how many, and those the conversation went on to use."""
        used: list[str] = []
        for entry in found:
            ids = [str(scalar(v)) for k, v in entry.items() if is_id_key(str(k)) and scalar(v)]
            shown = ids[0] if ids else ""
            fields = kept_fields(entry, texts, {shown} | asked | self.said)
            fields = [kv for kv in fields if not is_status_key(kv[0])]
            # An entry is used when the conversation names it: its own identifier, or, for an
            # entry with none, one of its values (not one it shares with every other entry).
            if shown and shown in self.said:
                continue  # a second entry of the same thing
            if shown and holds(shown, texts):
                used.append(shown + (f" ({fields_text(fields)})" if fields else ""))
            elif not shown and fields:
                used.append(fields_text(fields))
            else:
                continue
            self.said |= {shown, *(v for _, v in fields)}
        count = len(found)
        text = f"{head}: {count} result{'s' if count != 1 else ''}"
        if used:
            text += "; " + ", ".join(used)  # no word of ours: the tools say every one
        else:
            self.unnamed.add(text)
        self.add(self.facts, clip(text, self.limit), sources)

    def confirmation(self, args: Any, answer: Any, sources: list[str]) -> None:
        """An operator's answer to a confirmation request, as a sentence about the call it
        let through or stopped, citing that call, the request and the answer."""
        asked = args.get("function_call_id") if isinstance(args, dict) else None
        call_event, name, call_args = self.calls.get(str(asked), ("", "a tool call", {}))
        confirmed = isinstance(answer, dict) and answer.get("confirmed") is True
        verb = "approved" if confirmed else "declined"
        what = words_of(name) if name in (c[1] for c in self.calls.values()) else name
        text = f"An operator {verb} " + self.act(what, self.arguments(call_args, ()))
        self.add(self.decisions, text, [s for s in (call_event, *sources) if s])

    def conversation(self) -> None:
        last_reply = last_user = -1  # the last text line of the agents, of the user
        for i, ln in enumerate(self.lines):
            if ln.kind == "text":
                if ln.author == USER_AUTHOR:
                    last_user = i
                else:
                    last_reply = i
        # Where each line's next message is (the end of the session after the last one).
        nexts: list[int] = []
        upcoming = len(self.order)
        for ln in reversed(self.lines):
            nexts.append(upcoming)
            if ln.kind == "text":
                upcoming = self.order.get(ln.event_id, upcoming)
        nexts.reverse()
        previous = -1  # where the last message was
        for i, line in enumerate(self.lines):
            if line.kind == "text" and line.author != USER_AUTHOR:
                self.promises(line, previous, nexts[i])
                previous = self.order.get(line.event_id, previous)
                if i == last_reply and i > last_user >= 0:
                    self.unanswered(line)
                continue
            if line.kind == "text":
                previous = self.order.get(line.event_id, previous)
            if line.kind == "text" and i > last_reply:
                for sentence in sentences(line.body):
                    if sentence.endswith("?"):
                        self.add(self.open_questions, clip(sentence, self.limit), [line.event_id])
            elif line.kind == "transfer":
                calls = [
                    self.calls[r.id][0]
                    for r in self.events[line.event_id].function_responses()
                    if r.name == _TRANSFER_TOOL and r.id in self.calls
                ] if line.event_id in self.events else []  # fmt: skip
                target = line.body.removeprefix("to ")
                self.add(self.decisions, f"Handed to {target}", [*calls, line.event_id])
            elif line.kind == "summary":
                said = _COVERED.sub("", line.body, count=1)  # the span is the citation's job
                self.add(self.facts, f"Earlier conversation, compacted: {said}", [line.event_id])
            elif line.kind in ("code", "artifact"):
                self.add(self.facts, f"{line.author} {line.kind}: {line.body}", [line.event_id])
        if self.lines and self.lines[-1].kind == "error":
            last = self.lines[-1]
            self.add(
                self.open_questions, f"the session ended on an error: {last.body}", [last.event_id]
            )

    def unanswered(self, line: TranscriptLine) -> None:
        """The questions of the agent's last message, which the user never answered."""
        said = sentences(line.body)
        for i, sentence in enumerate(said):
            if not sentence.endswith("?"):
                continue
            before = said[i - 1] if i > 0 else ""
            if "?" not in before and names_something(before):
                # A question mostly asks about what was just offered ("Would you like both?").
                sentence = f"{before} {sentence}"
            text = f"{line.author} asked: {sentence}"
            self.add(self.open_questions, clip(text, self.limit), [line.event_id])

    def promises(self, line: TranscriptLine, since: int, until: int) -> None:
        """The agent's commitments in one message, clause by clause (:mod:`._pending`), each
        with the identifiers it concerns when it writes none; and the outcomes it says are
        awaited from someone else, as open questions. ``since`` and ``until`` are where the
        messages before and after it are: a promise to act with no time ahead that a write
        before the next keeps is its decision, and a clause that names nothing concerns what
        the last write since the one before acted on."""
        at = self.order.get(line.event_id, -1)
        acted = [(t, cited) for where, t, cited in self.wrote if since < where < at and t]
        wrote = self.acted(since, at)
        asks = "?" in line.body  # a message that asks the customer proposes what it says
        earlier: list[str] = []  # the message's sentences and clauses so far
        promised: list[str] = []  # the message's promises so far
        for sentence in sentences(line.body):
            parts = clauses(sentence)
            kept: list[str] = []
            context = list(earlier)
            last = -1  # the last clause kept
            for i, clause in enumerate(parts):
                text = clause.text
                rest = [c.text for c in parts[i + 1 :]]
                if awaits(text):
                    ids, cited = self.concerned(text, earlier, rest, acted)
                    text = clip(with_ids(upper_first(text), ids), self.limit)
                    self.add(self.open_questions, text, [line.event_id, *cited])
                    self.awaiting.add(text)
                    self.deadlines.add(text)
                elif (
                    # A clause "and" joins to a commitment shares its time ("ships by 27
                    # March, and the email includes a label").
                    commits(clause, acted=wrote, proposal=asks)
                    or (
                        last == i - 1 >= 0
                        and clause.joined
                        and commits(clause, acted=True, joined=True)
                    )
                ) and not (
                    self.kept_at_once(text, at)
                    or (first_person_now(text) and self.acted(at, until))
                ):
                    kept.append(text)
                    last = i
                elif not kept:
                    context.append(text)
                earlier.append(text)
            if kept:
                text = upper_first("; ".join(kept))  # a clause cut from its sentence opens one
                after = [c.text for c in parts[last + 1 :]]
                ids, cited = self.concerned(text, context, after, acted)
                # An id an earlier promise of the message says is that promise's ("Case
                # CASE-40917 ... will email you. I'll pass you to our returns team").
                ids = [i for i in ids if not any(i in t for t in promised)]
                text = with_ids(text, ids)
                self.promised.append(([line.event_id, *cited], text))
                promised.append(text)

    @staticmethod
    def concerned(
        text: str,
        earlier: Sequence[str],
        after: Sequence[str],
        acted: Sequence[tuple[str, list[str]]],
    ) -> tuple[list[str], list[str]]:
        """The identifiers a clause that names none concerns (:func:`concerns`), and the
        events to cite for them: none for its message's, the write's for what the write
        before the message acted on."""
        if ids_in(text):
            return [], []
        ids = concerns(earlier, after)
        if ids or not acted:
            return ids, []
        return [acted[-1][0]], acted[-1][1]

    def acted(self, after: int, before: int) -> bool:
        """Whether the agents wrote something between these two event positions."""
        return any(after < where < before for where, _, _ in self.wrote)

    def new_commitments(self) -> list[SummaryItem]:
        """The commitments, each promise once: of two that say the same, the later (said after
        what was done) is kept, and a promise a fact or a decision says already goes."""
        said = Said(i.text for i in (*self.facts, *self.decisions, *self.open_questions))
        later: list[str] = []  # the promises kept so far, from the last
        kept: list[tuple[list[str], str]] = []
        for sources, text in reversed(self.promised):
            if said.holds(text) or any(said.repeats(text, other) for other in later):
                continue
            later.append(text)
            kept.append((sources, text))
        items: list[SummaryItem] = []
        for sources, text in reversed(kept):
            self.add(items, clip(text, self.limit), sources)
        return items

    def later(self, item: SummaryItem, commitments: Sequence[SummaryItem]) -> str:
        """What the commitments said after ``item``'s events, one a line."""
        made = max(self.order.get(s, -1) for s in item.sources)
        return "\n".join(
            c.text for c in commitments if max(self.order.get(s, -1) for s in c.sources) > made
        )

    def told_fact(self, fact: SummaryItem, commitments: Sequence[SummaryItem]) -> SummaryItem:
        """``fact`` without the fields a later commitment tells the customer again
        (:func:`told_again`): a time window the promise says again (the record says each
        once); its identifiers and sums stay, verified here."""
        parts = self.read_parts.get(fact.text)
        said = self.later(fact, commitments) if parts is not None else ""
        if parts is None or not said:
            return fact
        title, fields = parts
        kept = [kv for kv in fields if not told_again(*kv, said)]
        if kept == fields:
            return fact
        text = clip(f"{title}: {fields_text(kept)}", self.limit) if kept else title
        item = self.item(text, fact.sources)
        return fact if item is None else item

    def told(self, decision: SummaryItem, commitments: Sequence[SummaryItem]) -> SummaryItem:
        """``decision`` without the times and free values of its result that a later
        commitment tells the customer (:func:`told_again`): "Rescheduled appointment
        APPT-19J-0930: work order WO#88190, slot_7c1e9a" when "The electrician now comes on
        Friday 19 June, 13:00 to 17:00" follows. Its arguments stay (what the call asked),
        and so do identifiers and amounts."""
        parts = self.parts.get(decision.text)
        if parts is None:
            return decision
        said = self.later(decision, commitments)
        if not said:
            return decision
        action, values, result, target = parts
        kept = [kv for kv in result if not told_again(*kv, said)]
        if kept == result:
            return decision
        result = kept
        item = self.item(
            clip(self.act(action, values, result, target), self.limit), decision.sources
        )
        return decision if item is None else item

    def kept_at_once(self, sentence: str, at: int) -> bool:
        """Whether a promise to do something now ("I'll refund the second one") is one a
        later action of the session kept: its decision says it."""
        m = _DOING.search(sentence)
        if m is None or has_deadline(sentence):
            return False
        doing = m[1].lower()
        return any(
            where > at and (verb == doing or doing in _ANY_ACTION) for where, verb in self.done
        )

    def found_things(self) -> list[SummaryItem]:
        """The facts, a lookup that found a thing's identifier folded into the fact of the
        thing it found (``User ana_lima_4410 (ana@x.org): ...``, citing the lookup too)."""
        facts: list[SummaryItem | None] = list(self.facts)
        for answer, (at, asked, sources) in self.answers.items():
            key = ("thing", answer)
            if key not in self.things or self.thing_at[key] <= at:
                continue
            fields, cited = self.things[key]
            fields = [kv for kv in fields if kv[1] not in asked]  # said in the title
            title = self.thing_title[key] + (f" ({asked})" if asked else "")
            text = clip(f"{title}: {fields_text(fields)}", self.limit) if fields else title
            item = self.item(text, [*sources, *cited])
            if item is not None:
                facts[self.thing_at[key]], facts[at] = item, None
        return [f for f in facts if f is not None]

    def once_each(self, facts: list[SummaryItem]) -> list[SummaryItem]:
        """``facts`` with a lookup's answer that another tool's, asked the same, says all of
        (:func:`says_no_more`: "App 'messaging' has permission for: storage, phone." beside
        "Permissions Granted: storage, phone" for ``messaging``) left to that one, which cites
        both."""
        out = list(facts)
        for item in facts:
            asked = self.asked_about.get(item.text)
            if asked is None:
                continue
            for i, other in enumerate(out):
                there = self.asked_about.get(other.text)
                if (
                    other is item
                    or there is None
                    or there[:2] == asked[:2]
                    or there[1] != asked[1]
                    or not says_no_more(asked[2], there[2])
                ):
                    continue
                cited = {*other.sources, *item.sources}
                sources = tuple(sorted(cited, key=lambda s: self.order.get(s, -1)))
                out[i] = other.model_copy(update={"sources": sources})
                self.asked_about[out[i].text] = there
                out.remove(item)
                break
        return out

    def record(self, goal: str) -> SummaryRecord:
        commitments = self.new_commitments()
        # An awaited outcome a commitment already says ("You'll have a decision by May 26
        # (ESC-30218)" for "ESC-30218: status queued, decision by May 26") goes.
        questions = [
            q
            for q in self.open_questions
            if q.text not in self.awaiting or not any(covers(c.text, q.text) for c in commitments)
        ]
        # Someone else's deadline a result's awaited outcome says on the same day ("They have
        # until 2026-05-25 to accept" for "DBC-7741-ZH: shipper deadline 2026-05-25") is said
        # once, by the result.
        results = [q.text for q in questions if q.text in self.awaiting - self.deadlines]
        questions = [
            q
            for q in questions
            if q.text not in self.deadlines or not any(same_day(r, q.text) for r in results)
        ]
        # A thing read (or written) again, still waiting, is one question of what it waits on
        # now ("#W1: status pending (item modified)" after "#W1: status pending"), citing both.
        merged: list[SummaryItem] = []
        at: dict[str, int] = {}  # what waits: where its question is
        for q in questions:
            thing = self.waits_on.get(q.text)
            settled = self.settled.get((self.asked_by.get(q.text, ""), thing or ""), -1)
            if thing is not None and settled > max(self.order.get(s, -1) for s in q.sources):
                continue  # read again later, no longer waiting: nothing is open
            if thing is not None and thing in at:
                before = merged[at[thing]]
                sources = tuple(dict.fromkeys([*before.sources, *q.sources]))
                merged[at[thing]] = q.model_copy(update={"sources": sources})
                continue
            if thing is not None:
                at[thing] = len(merged)
            merged.append(q)
        questions = merged
        return SummaryRecord(
            goal=goal,
            facts=tuple(
                self.told_fact(f, commitments) for f in self.once_each(self.found_things())
            ),
            decisions=tuple(self.told(d, commitments) for d in self.decisions),
            commitments=tuple(commitments),
            open_questions=tuple(questions),
        )

    def drop_held(
        self,
        record: SummaryRecord,
        expected: dict[str, ExpectedEntity],
        patterns: EntityPatterns,
        goal: str,
    ) -> SummaryRecord:
        """``record`` without the searches none of whose results the session named whose
        entities (the arguments) other items keep: "Listed invoices kestrel-ops: 60 results"
        says nothing the record does not. ``goal`` is the goal's text that counts as keeping an
        entity."""
        facts = list(record.facts)
        for item in record.facts:
            if item.text not in self.unnamed:
                continue
            absent = {x.entity.key for x in missing_entities(item.text, expected, patterns)}
            held = {k: x for k, x in expected.items() if k not in absent}
            rest = [goal, *(i.text for _, i in record.items() if i is not item)]
            if not held or not missing_entities("\n".join(rest), held, patterns):
                facts.remove(item)
        return record.model_copy(update={"facts": tuple(facts)})

    def keep_entities(
        self, record: SummaryRecord, expected: dict[str, ExpectedEntity], patterns: EntityPatterns
    ) -> SummaryRecord:
        """Attach every entity no item keeps to an item citing the event it was first seen in."""
        missing: dict[str, list[ExpectedEntity]] = {}
        for x in missing_entities(record.text(), expected, patterns):
            if x.event_ids:
                missing.setdefault(x.event_ids[0], []).append(x)
        if not missing:
            return record
        bodies: dict[str, list[TranscriptLine]] = {}
        for line in self.lines:
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
                            and (
                                self.instructions is None or not self.instructions.search(sentence)
                            )
                        ):
                            held = [x.entity.text for x in entities if x.entity.text in sentence]
                            chosen.append(part_holding(sentence, held))
            # A sentence chosen for its entities is kept whole unless it is very long.
            text = " ".join(clip(s, max(self.limit, 600)) for s in chosen)
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
            self.add(facts, text, [event_id])
        return record.model_copy(update={"facts": tuple(facts), "decisions": tuple(decisions)})


class ExtractiveSummarizer:
    """Checked summaries without a model; see the module docstring.

    Args:
        patterns: entity patterns of the domain (``EntityPatterns.default()`` if omitted).
        max_tool_chars: the transcript's limit on a tool payload, as for ``SummaryService``.
        max_text_chars: the transcript's limit on a text, as for ``SummaryService``.
        max_item_chars: an item's text is cut to about this many characters (entities lost
            by the cut are attached again).
        instruction_patterns: the instruction-like text never copied into a record (and
            checked by the validator); ``InstructionPatterns.default()`` if omitted.
    """

    def __init__(
        self,
        *,
        patterns: EntityPatterns | None = None,
        max_tool_chars: int = 2_000,
        max_text_chars: int = 4_000,
        max_item_chars: int = 300,
        instruction_patterns: InstructionPatterns | None = None,
    ) -> None:
        self.patterns = patterns or EntityPatterns.default()
        self.instruction_patterns = instruction_patterns or InstructionPatterns.default()
        self.max_tool_chars = max_tool_chars
        self.max_text_chars = max_text_chars
        self.max_item_chars = max_item_chars
        self.metrics = SummaryMetrics()
        """Totals over every summary this summariser attempted."""

    def summarize_now(self, session: SummaryInput) -> SummaryResult:
        """Summarise and validate ``session``, synchronously (it never waits on anything)."""
        with one_check():  # the validator reads again what the summary read: once for both
            return self._summarize(session)

    def _summarize(self, session: SummaryInput) -> SummaryResult:
        events, session_id = events_of(session)
        lines = transcript_lines(
            events, max_tool_chars=self.max_tool_chars, max_text_chars=self.max_text_chars
        )
        parsed = ParsedTranscript(lines)
        transcript = parsed.text
        occurrences = entity_occurrences(parsed, self.patterns)
        expected = transcript_entities(parsed, self.patterns, occurrences)
        by_event: dict[str, set[str]] = {}
        for entity, event_id in occurrences:
            # Only what a record must keep leads an item: the rest of a dump is left out.
            if event_id is not None and entity.key in expected:
                by_event.setdefault(event_id, set()).add(entity.text)
        for event_id, values in _relayed(lines).items():
            by_event.setdefault(event_id, set()).update(values)
        first_user = next(
            (ln for ln in lines if ln.kind == "text" and ln.author == USER_AUTHOR), None
        )

        def build(instructions: InstructionPatterns | None) -> SummaryRecord:
            builder = _Builder(
                events, lines, self.max_item_chars, self.patterns, by_event, instructions
            )
            builder.tool_results()
            builder.conversation()
            limit = min(_GOAL_CHARS, self.max_item_chars)
            asked, also = goal_parts(first_user.body, limit) if first_user else ("", "")
            if instructions is not None:
                asked, also = instructions.drop(asked), instructions.drop(also)
            record = builder.record(asked + also)
            if asked + also and first_user is not None:
                record = record.model_copy(update={"goal_sources": (first_user.event_id,)})
            # The bracketed identifiers keep what the cut left out; they hold nothing a search's
            # fact says for the tool, so they never stand in for it.
            record = builder.drop_held(record, expected, self.patterns, asked)
            return builder.keep_entities(record, expected, self.patterns)

        # Cleaning costs a regex scan per copied string, so it runs only when it has work: when
        # the transcript, or the record copied without it, holds instruction-like text.
        record = build(None)
        find = self.instruction_patterns.search
        if find(record.text()) is not None or find(transcript) is not None:
            record = build(self.instruction_patterns)
        labelled, problems = check_and_label(
            record,
            transcript=parsed,
            events=events,
            patterns=self.patterns,
            expected=expected,
            instruction_patterns=self.instruction_patterns,
        )
        dropped = sum(p.kind == "dropped_entity" for p in problems)
        recall = (len(expected) - dropped) / len(expected) if expected else 1.0
        result = SummaryResult(
            session_id=session_id,
            summarizer="extractive",
            record=None if problems else labelled,
            attempts=1,
            problems=(tuple(problems),),
            outputs=(record.model_dump_json(),),
            entity_recall=recall,
            first_entity_recall=recall,
            transcript=transcript if problems else None,
        )
        self.metrics.record(result)
        return result

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        """``summarize_now``, for callers that take any ``Summarizer``."""
        return self.summarize_now(session)


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


def _nouns(name: str) -> tuple[str, set[str]]:
    """A tool name's verb and the words of what it acts on (``book_flight``: ``book``,
    ``{"flight"}``)."""
    words = words_of(name).split()
    return (words[0] if words else ""), {w for w in words[1:] if not w.isdigit()}


def _acted_on(name: str, values: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The argument a write acts on: the identifier whose key names the tool's own noun
    (``refund_booking``: ``booking_code``; not a ``new_...`` one, the change), else the first
    identifier."""
    ids = [(k, v) for k, v in values if is_id_key(k)]
    _, nouns = _nouns(name)
    for k, v in ids:
        words = words_of(k).split()
        if words[:1] != ["new"] and not nouns.isdisjoint(words):
            return k, v
    return ids[0] if ids else None


def _made_id(name: str, payload: Any, values: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The identifier a write's result created: at its top level, under a key naming the
    tool's noun or its verb's ``-ing`` (``book_flight``: ``booking_code``; ``extend_warranty``:
    ``warranty_id``; not ``refund_booking``'s ``refund_id``, which the booking had), a value
    no argument held, under a key no argument has (an ``order_id`` the call passed names the
    same order, however written); or a key that is the tool's noun, its value shaped like an
    identifier."""
    found, _ = unwrap(payload)
    if not isinstance(found, dict):
        return None
    held = {v.lstrip("#").casefold() for _, v in values}
    passed = {k for k, _ in values}
    verb, nouns = _nouns(name)
    named = nouns | {verb + "ing", verb.removesuffix("e") + "ing"}
    for k, v in found.items():
        shown = scalar(v)
        if shown is None or shown.lstrip("#").casefold() in held or str(k) in passed:
            continue
        words = words_of(str(k)).split()
        if is_id_key(str(k)) and not named.isdisjoint(words):
            return str(k), shown
        if set(words) <= nouns and identifier_shaped(shown):
            return str(k), shown  # ``open_ticket``: ``"ticket": "INC0049921"``
    return None
