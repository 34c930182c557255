"""Evidence: what each event of a session holds, and how far its word can be trusted.

Every event an item may cite is read as a list of :class:`Unit`\\ s, each a piece of text with a
tier, from the strongest witness down:

- ``evidence``: a tool call or a tool result, an action the log records (a transfer, a code
  run, an artifact, an error: of a code run only what it computed, not the words a model's
  program prints; of an error its code, not a message that may echo the input), or a
  **deterministic agent's decision**: the text of an event by
  a custom ``BaseAgent`` (no model wrote it: no ``model`` and no ``usage``) whose actions carry
  the decision (a state change, an escalation or a transfer), as SPEC 4 asks of such agents.
  An ``LlmAgent``'s events always carry the model that wrote them, so its prose is never one.
  What such a text quotes of the user (a run of four words or more of one of their messages:
  a router forwarding the request) is still the user's words, not the decision's, and so is
  any other word the user wrote that neither the decision's actions nor a tool result says
  (a rewording a few words at a time); a word the user wrote in a string its state change
  stored, at any depth (``{"memo": {"claim": ...}}``, ``"ticket: ..."``), or in a key
  written as a phrase, is not what its actions say. A successful call's string argument that
  only the user's words support and no result says is left out of the call's ``evidence``
  unit (an ``agent`` copy holds it; :attr:`Unit.full` is the whole call, for an item that
  says the agent made that call with it), and so is a ``true`` under a key of only words the
  user wrote before and no result says (``record_fee_waiver(waived=True)`` answered
  ``{"recorded": true}``), with no such telling: naming its key is saying it is so; a
  result's string that only repeats the user's earlier words is an echo, whatever its key, and
  so is one, however short, that repeats its own call's argument under a key sharing no word
  with the argument's (:mod:`._echoes`); a past participle in a tool's name
  (``refund_approved``) is not what its call did, only its other words are, and none is when
  the result hands back only what the call sent (``{"order_id": "A-1001"}``: no outcome of its
  own); an artifact holds its name as an identifier, not as words;
- ``agent``: any other text by an agent: model prose, a callback's canned reply, and a tool
  call the session holds no result of, or only an error (``{"error": ...}``, a status of
  failure, a key of refusal over an object: ``"rejected_input": {...}``): what the agent
  asked for, which nothing established; and a tool result that answers no call the session
  holds (no call of its id and name): someone's word for what a tool said;
- ``user``: anything the user authored.

agentlog's own events are read through, never taken at their word
(:mod:`agentlog.summary.record.carried`):

- a **compaction** event stands for what it cites: for each item of its record, the units of
  the events the item cites (those the session still holds) and the item's own text, as an
  ``agent`` unit (a ``user`` one when everything it cites is the user's, or, with its sources
  gone, when code recorded only user authors for them, or when the user wrote the compaction
  event itself). A plain-text compaction gives the units
  of every event it covers and its text as an ``agent`` unit. So a compactor's sentence is
  never evidence by itself, and a claim it carries stays the user's;
- a **handoff** event (authored ``handoff`` by code: no model or usage, :func:`is_handoff`)
  gives each line of the record it carries with the tier of the label that
  line had: ``verified`` lines are ``evidence`` (that record was checked by these same rules,
  in the session it summarises), agent statements ``agent``, the customer's claims ``user``.

A call's or a result's payload is read as of its event's day (:mod:`._dated`): an approval
dated after it is not yet so. A unit holds what the event holds: the line the transcript
showed of it, or, where the transcript cut a payload short, the whole payload (a record may
have read the event itself, as the extractive summariser does). Units are read lazily
(tokens, amounts, dates and words only when an item asks), since a record cites a few events
of a long session.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache, partial
from typing import Any, Final

from agentlog.approvals import is_human_request
from agentlog.compaction.summarizer import COMPACTOR_AUTHOR
from agentlog.events import Event, FunctionResponse
from agentlog.summary.record._dated import as_of
from agentlog.summary.record._echoes import moved
from agentlog.summary.record._extract import is_lookup
from agentlog.summary.record._keys import NAME_WORDS, key_words
from agentlog.summary.record._payload import established
from agentlog.summary.record._unit import TIER_OF_LABEL, Tier, Unit
from agentlog.summary.record._unreal import not_real
from agentlog.summary.record._values import ID_SHAPE, bare_id
from agentlog.summary.record._words import (
    NEGATED,
    STOP_WORDS,
    content_words,
    forms,
    letter_runs,
    letters_of,
    participle,
    word_set,
)
from agentlog.summary.record.carried import CarriedItem, compaction_items, handoff_items
from agentlog.summary.record.entities import Entity
from agentlog.summary.record.expected import ParsedTranscript
from agentlog.summary.record.learned import holds_token, token_starts
from agentlog.summary.record.marks import HANDOFF_AUTHOR, HANDOFF_SOURCE_KEY
from agentlog.transcript import LineKind, render_payload, transcript_lines

__all__ = ["USER_AUTHOR", "Evidence", "Tier", "Unit", "is_decision", "is_handoff"]

USER_AUTHOR: Final = "user"
"""The author of the user's own events."""

_ACTION_KINDS: Final = frozenset({"call", "result", "transfer", "code", "artifact", "error"})
_OURS: Final = frozenset({HANDOFF_AUTHOR, COMPACTOR_AUTHOR, USER_AUTHOR})
_MAX_DEPTH: Final = 8
_QUOTED: Final = 4
"""Consecutive words of a user's message from which a decision's text quotes the customer."""
_LETTER_RUNS: Final = re.compile(r"[^\W\d_]+")
_ECHO_WORDS: Final = 4
_LEFT_OUT: Final = object()
"""What :meth:`Evidence._asked_only` leaves out of a call's arguments (a flag the user set)."""
_KEY_SPACES: Final = re.compile(r"[_\-.]+|(?<=[a-z])(?=[A-Z])")
"""Where a key's words part (``fee_waived``, ``feeWaived``): read as the words they are."""
"""Content words from which a payload's string that holds only the user's words is an echo."""
_ECHO: Final = re.compile(rf'"[^"\\ ]*+(?: [^"\\ ]*+){{{_ECHO_WORDS - 1},}}+"')
"""A string of :data:`_ECHO_WORDS` words or more, as rendered JSON spells it (a key's too)."""
_WHOLE: Final = {"max_tool_chars": 1 << 40, "max_text_chars": 1 << 40, "max_array_items": 1 << 40}


def is_decision(event: Event) -> bool:
    """Whether ``event`` is a deterministic agent's decision: text by an agent no model ran
    (no ``model``, no ``usage``), no tool traffic, and actions that carry what was decided. A
    text whose state change stores that text itself (an ``output_key``: a model's reply kept,
    in a dump that dropped the model and usage) carries no decision but the words."""
    if event.author in _OURS or event.model is not None or event.usage is not None:
        return False
    actions = event.actions  # first: few events carry a decision, and it is the cheapest test
    if not (actions.state_delta or actions.escalate or actions.transfer_to_agent):
        return False
    if event.content is None or not (text := event.text().strip()):
        return False
    if not (actions.escalate or actions.transfer_to_agent) and any(
        isinstance(v, str) and v.strip() == text for v in actions.state_delta.values()
    ):
        return False
    return not (event.function_calls() or event.function_responses())


def is_handoff(event: Event) -> bool:
    """Whether ``event`` is a handoff's first event as :func:`start_handoff` writes it: authored
    ``handoff`` and written by code (no model, no usage: an agent a model runs is never one,
    whatever its name), naming the session it hands over from. :class:`Evidence` also asks
    that it open its session, as ``start_handoff`` writes it: a custom agent named ``handoff``
    answers a user's message, after it."""
    return (
        event.author == HANDOFF_AUTHOR
        and event.model is None
        and event.usage is None
        and HANDOFF_SOURCE_KEY in event.actions.state_delta
    )


class Evidence:
    """The units of every event of one session (see the module docstring).

    Args:
        transcript: the session's rendered transcript, parsed.
        events: the session's events. Without them, tiers come from the transcript alone: no
            text is a decision, and compaction and handoff events are read as agent prose.
    """

    def __init__(self, transcript: ParsedTranscript, events: Iterable[Event] | None = None):
        self.parsed = transcript
        self.events: dict[str, Event] = {e.id: e for e in events or ()}
        self._lines: dict[str, list[tuple[LineKind | None, str, str]]] = {}
        text = transcript.text
        for (_, body, eid, kind, author), end in zip(
            transcript.heads, transcript.ends(), strict=True
        ):
            if eid is not None:
                self._lines.setdefault(eid, []).append((kind, author, text[body:end]))
        self._units: dict[str, list[Unit]] = {}
        self._user_words: set[str] | None = None
        self._holding: dict[str, list[Unit]] = {}
        self._foreign: dict[str, list[Unit]] = {}
        self._folded_ids: set[str] | None = None
        self._user_runs: set[tuple[str, ...]] | None = None
        self._answers: dict[str, FunctionResponse] | None = None
        self._answered_ok: dict[str, bool] = {}
        self._changed: dict[str, frozenset[str]] | None = None
        self._calls: set[tuple[str | None, str]] | None = None
        self._said_by_tools: str | None = None
        self._tool_letters: str | None = None
        self._said_raw = ""
        self._user_text: str | None = None
        self._before: dict[str, int] = {}
        self._first_said: dict[str, int] | None = None
        self._said_lower: list[str] = []
        self._users_only_seen: dict[tuple[str, int], bool] = {}
        self._exchanges: dict[str, tuple[Any, Any]] | None = None
        self._moved: dict[str, frozenset[str]] = {}
        self._nameless: dict[str, bool] = {}
        self._result_links: tuple[list[int], list[str | None]] | None = None
        for event in self.events.values():
            # A compaction's items may cite events the session no longer holds (it was loaded
            # from its newest compaction on): those read as what the compaction says of them.
            if event.actions.compaction is not None:
                items, record = compaction_items(event)
                if record and any(not self.known(s) for i in items for s in i.sources):
                    self.carry(event.id, items, by_user=event.author == USER_AUTHOR)
                    self._foreign.pop(event.id, None)  # the event itself is read through

    def known(self, event_id: str) -> bool:
        """Whether ``event_id`` is an event of the session."""
        return event_id in self.events or event_id in self._lines

    def carry(
        self,
        event_id: str,
        items: Iterable[CarriedItem],
        *,
        record: bool = True,
        by_user: bool = False,
    ) -> None:
        """Read ``event_id``, not an event of the session (the compaction before a window), as
        these items, and the events they cite that the session lacks as what they say of
        them: each as an ``agent`` unit (``user`` when only the user wrote what it cites, or
        the user wrote the compaction itself: ``by_user``)."""
        self._folded_ids = None
        units = self._foreign.setdefault(event_id, [])
        for item in items:
            users = record and bool(item.authors) and all(a == USER_AUTHOR for a in item.authors)
            users = users or by_user
            unit = Unit("user" if users else "agent", item.text)
            units.append(unit)
            for source in item.sources:
                if not self.known(source):
                    self._foreign.setdefault(source, []).append(unit)

    def names_event(self, token: str) -> bool:
        """Whether ``token`` (case folded) is the id of an event a record may cite."""
        if self._folded_ids is None:
            ids = {*self.events, *self._lines, *self._foreign}
            self._folded_ids = {i.casefold() for i in ids}
        return token in self._folded_ids

    def cites(self, event_id: str) -> bool:
        """Whether a record may cite ``event_id``: an event of the session, or one carried."""
        return self.known(event_id) or event_id in self._foreign

    def author(self, event_id: str) -> str:
        """The author of an event of the session (``""`` if unknown)."""
        event = self.events.get(event_id)
        if event is not None:
            return event.author
        lines = self._lines.get(event_id)
        return lines[0][1] if lines else ""

    def units(self, event_id: str) -> list[Unit]:
        """What ``event_id`` holds, agentlog's own events read through."""
        return self._resolve(event_id, frozenset(), 0)

    def cited(self, sources: Iterable[str]) -> list[Unit]:
        """The units of every event among ``sources`` that the session holds or carries."""
        units: list[Unit] = []
        cache = self._units
        for source in sources:
            known = cache.get(source)
            if known is not None:
                units += known
            elif self.known(source):
                units += self.units(source)
            elif source in self._foreign:
                units += self._foreign[source]
        return units

    def holding(self, entity: Entity, tiers: Collection[Tier]) -> list[Unit]:
        """The units of these tiers, anywhere in the session, that hold ``entity`` if it is an
        identifier (amounts and dates say too little of what they are about to stand for it)."""
        if entity.kind != "id":
            return []
        units = self._holding.get(entity.key)
        if units is None:
            units = self._holding[entity.key] = self._find(entity)
        return [u for u in units if u.tier in tiers]

    def _find(self, entity: Entity) -> list[Unit]:
        heads, lowered = self.parsed.heads, self.parsed.lowered()
        ids = dict.fromkeys(
            heads[self.parsed.line_at(i)][2] for i in token_starts(lowered, entity.key[3:])
        )
        return [u for eid in ids if eid is not None for u in self.units(eid) if u.holds(entity)]

    def user_words(self) -> set[str]:
        """Every word the user wrote in the session, and every word of the claims agentlog's
        own events carry for them."""
        if self._user_words is None:
            said = [
                body
                for lines in self._lines.values()
                for _, author, body in lines
                if author == USER_AUTHOR
            ]
            for event in self.events.values():
                if event.actions.compaction is not None or is_handoff(event):
                    said += [u.text for u in self.units(event.id) if u.tier == "user"]
            # A word the user hedged is still a word they wrote ("could you waive the fee").
            self._user_words = word_set("\n".join(said), hedged=False)
        return self._user_words

    def _resolve(self, event_id: str, visiting: Collection[str], depth: int) -> list[Unit]:
        cached = self._units.get(event_id)
        if cached is not None:
            return cached
        if event_id in visiting or depth > _MAX_DEPTH:
            return []
        event = self.events.get(event_id)
        inner = {*visiting, event_id}
        if event is not None and event.actions.compaction is not None:
            units = self._compaction(event, inner, depth)
        elif event is not None and is_handoff(event) and event_id == next(iter(self.events)):
            units = [
                Unit(TIER_OF_LABEL[i.label or "agent_statement"], i.text)
                for i in handoff_items(event.text())
            ]
        else:
            units = self._plain(event_id, event)
        self._units[event_id] = units
        return units

    def _plain(self, event_id: str, event: Event | None) -> list[Unit]:
        lines = self._lines.get(event_id, [])
        if event is None:
            return [Unit(_tier(kind, author, False), body) for kind, author, body in lines]
        decision = is_decision(event)
        calls_of = event.function_calls()
        results_of = event.function_responses()
        calls = iter([c.id for c in calls_of])
        responses = iter([r.id for r in results_of])
        whole: list[str] = []

        def rendered(index: int) -> Callable[[], str]:
            def read() -> str:  # what the event holds, not what the transcript showed of it
                if not whole:
                    whole.extend(ln.body for ln in transcript_lines([event], **_WHOLE))
                return whole[index] if index < len(whole) else lines[index][2]

            return read

        units = []
        for index, (kind, author, body) in enumerate(lines):
            link = next(calls, None) if kind == "call" else None
            if kind == "result":
                link = next(responses, None)
            expand = rendered(index) if _cut(body) else None
            own = None
            tier = _tier(kind, author, decision)
            if decision and kind == "text":
                own = self._unquoted(body, event)
            elif kind == "call" and link is not None and not self._answered(link):
                tier = "agent"  # a call that failed or was never answered: what the agent asked
            elif kind == "result" and tier == "evidence" and not self._called(link, results_of):
                tier = "agent"  # answers no call of the session: someone's word for a tool's
            elif kind == "code":
                own = ""  # what a model's program prints is the model's words
            elif kind == "error":
                own = body.split(":", 1)[0]  # the code is the log's; a message may echo input
            elif kind == "artifact":
                own = "artifact"  # the log records that one was saved; its name is anyone's
            elif kind == "transfer" and tier == "evidence" and not _agent_name(event):
                tier = "agent"  # an agent is named by an identifier; a sentence is someone's
            payload = None
            # Read as of the event's day: an approval dated after it is not yet so.
            when = event.timestamp
            if kind == "call" and link is not None:
                payload = next(
                    ((c.name, as_of(c.args, when)) for c in calls_of if c.id == link), None
                )
            elif kind == "result" and link is not None:
                changed = self._changed_later().get(link, _NO_KEYS)
                failed = not self._answered(link)
                payload = next(
                    (
                        (r.name, as_of(r.response, when, changed, failed))
                        for r in results_of
                        if r.id == link
                    ),
                    None,
                )
                if payload is not None and not self._answered(link):
                    # A failure does not say the act its tool is named for: only what it holds.
                    name, payload = payload[0], ("", payload[1])
                    if own is None and body.startswith(name + " "):
                        own = established(body[len(name) + 1 :])
            echo: Callable[[str], str] | None = None
            if tier == "evidence" and payload is not None and kind == "result":
                echo = partial(self._unechoed, event_id=event_id, link=link)
            if tier == "evidence" and payload is not None:
                # A result that hands back only what its call sent reports no outcome: the
                # tool's name is then no act that it did, for the call as for the result.
                said = link is None or not self._only_echoes(link)
                echo = _as_act(payload[0], echo, said)
            if kind == "call" and tier == "evidence" and payload is not None:
                asked = self._asked_only(payload, event_id)
                if asked is not None:
                    # What the agent asked with the user's words, that no result confirms:
                    # the call went through, but it vouches only for the rest, unless an
                    # item says that the agent made this call with them.
                    entire = Unit(tier, body, link, expand, own, payload)  # as the agent wrote
                    # Read as the call is (free text and values that say no left out).
                    units.append(Unit("agent", body, None, expand, established(body)))
                    unit = Unit(tier, asked[0], link, None, own, None, echo)
                    # A flag the user's words set has no such telling: naming its key is
                    # saying it is so (record_fee_waiver(waived=True): "fee waived").
                    unit.full = None if asked[2] else (asked[1], entire)
                    units.append(unit)
                    continue
            if kind == "call" and link is not None and self._answers_another(link):
                link = None  # its result is another thing's: the call lends it no identifier
            units.append(Unit(tier, body, link, expand, own, payload, echo))
        return units

    def _tools_said(self) -> tuple[str, Callable[[], str]]:
        """Every tool result of the session as one text in lower case, and what reads its
        letters (:func:`letters_of`, once): what the tools said, to confirm a value a call
        passed on or a word a decision repeats."""
        if self._said_by_tools is None:
            said = "\n".join(
                body
                for lines in self._lines.values()
                for kind, author, body in lines
                if kind == "result" and author != USER_AUTHOR
            )
            self._said_by_tools = said.lower()
            self._said_raw = said
        raw = self._said_raw

        def letters() -> str:
            if self._tool_letters is None:
                self._tool_letters = letters_of(raw)
            return self._tool_letters

        return self._said_by_tools, letters

    def _users_text(self) -> str:
        """Every message of the user, in lower case."""
        if self._user_text is None:
            self._first_words()
            self._user_text = "\n".join(self._said_lower)
        return self._user_text

    def _users_only(self, value: str, event_id: str) -> bool:
        """Whether ``value`` (a string the call ``event_id`` passed) is the user's words and
        no tool result of the session says it: every content word of it one the user wrote
        before, or, without words (an id, a code), the user's text holding it, and no result
        holding it."""
        if not self._may_be_users(value):
            return False
        key = (value, self._before.get(event_id, -1))
        known = self._users_only_seen.get(key)
        if known is None:
            known = self._users_only_seen[key] = self._read_users_only(value, event_id)
        return known

    def _read_users_only(self, value: str, event_id: str) -> bool:
        words: Collection[str] = () if _id_like(value) else content_words(value)
        if words:
            said = self._said_before(event_id)
            if not all(any(map(said, forms(w))) for w in words):
                return False  # a word of the agent's or a tool's own
            if len(words) >= _ECHO_WORDS:
                return True  # a result that says it too only echoes it (:meth:`_unechoed`)
            return not self._tool_says(value.strip().lower())
        token = value.strip().lower()
        if len(token) < 3 or token not in self._users_text():
            return False
        return not holds_token(self._tools_said()[0], token)

    def _may_be_users(self, value: str) -> bool:
        """Whether the user's messages hold the first words of ``value`` as written (cheap:
        most values a call or a result holds are not the user's, and are not read further)."""
        first = self._first_words()
        return all(w in first for w in _LETTER_RUNS.findall(value.lower(), 0, 60)[:3])

    def _asked_only(
        self, payload: tuple[str, Any], event_id: str
    ) -> tuple[str, list[frozenset[str]], bool] | None:
        """The line of a call without the argument values only the user's words support
        (:meth:`_users_only`; a ``true`` under a key of only words the user wrote before and
        no tool result says, ``"waived": true``, left out), the words an item must name to
        say the agent made the call with them (each of its name's, and one of each such word
        value's key), and whether it left out such a flag; ``None`` when it has none. An
        identifier a read answered keeps: the answer is about what it names
        (``lookup_order("A-1001")`` -> ``{"status": "late"}``), whereas a write that took a
        code the customer made up vouches for nothing of it."""
        name, args = payload
        named = [frozenset({w}) for w in content_words(name)]
        # Only a name that says it reads (``get_``, ``lookup_``, ...): a tool of unknown verb
        # taking a code the customer made up may be one that records it.
        read = is_lookup(name)
        flags: list[str] = []

        def kept(value: Any, key: str, depth: int = 0) -> Any:
            if value is True and key and self._users_only(_KEY_SPACES.sub(" ", key), event_id):
                flags.append(key)
                return _LEFT_OUT
            if isinstance(value, str):
                if read and _id_like(value):
                    return value
                if value.strip() and self._users_only(value, event_id):
                    if not _id_like(value):  # words need their key named; an id shows itself
                        named.append(frozenset(content_words(key)))
                    return ""
                return value
            if depth > _MAX_DEPTH:
                return value
            if isinstance(value, dict):
                inner = {k: kept(v, str(k), depth + 1) for k, v in value.items()}
                return {k: v for k, v in inner.items() if v is not _LEFT_OUT}
            if isinstance(value, list | tuple):
                return [kept(v, key, depth + 1) for v in value]
            return value

        before = len(named)
        trimmed = kept(args, "")
        if len(named) == before and trimmed == args:
            return None
        line = f"{name} {render_payload(trimmed, 1 << 40, 1 << 40)}"
        return line, [n for n in named if n], bool(flags)

    def _said_before(self, event_id: str) -> Callable[[str], bool]:
        """Whether the user wrote a word (folded) in a message before ``event_id`` (in any
        message, when the session does not hold it): what a call or a tool could have been
        handed."""
        first, before = self._first_words(), self._before.get(event_id, 1 << 62)
        return lambda word: first.get(word, before) < before

    def _first_words(self) -> dict[str, int]:
        """Each word the user wrote, as written in lower case, and the first of their messages
        holding it; found once for the whole session, with how many messages each event
        follows (``_before``) and the messages in lower case (``_said_lower``)."""
        if self._first_said is not None:
            return self._first_said
        before: dict[str, int] = {}
        said: list[str] = []
        for eid, lines in self._lines.items():  # in the transcript's order
            before[eid] = len(said)
            said += [body.lower() for _, author, body in lines if author == USER_AUTHOR]
        # From the last message back: an earlier message's count replaces a later one's (one
        # update in C per message, not a call per word).
        first: dict[str, int] = {}
        for count in range(len(said) - 1, -1, -1):
            first.update(dict.fromkeys(letter_runs(said[count]), count))
        self._before, self._said_lower, self._first_said = before, said, first
        return first

    def _tool_says(self, value: str) -> bool:
        """Whether a tool result of the session says ``value`` (lower case), other than by
        repeating its own call's argument under another name (:func:`._echoes.moved`): a
        tool filing the caller's text as its ``state`` does not say it."""
        said = self._tools_said()[0]
        at = said.find(value)
        if at < 0:
            return False  # most values: one search
        if self._result_links is None:
            # Where each result's line starts in ``said`` (joined as :meth:`_tools_said`
            # joins them), and the call it answers.
            starts, links, offset = [], [], 0
            for eid, lines in self._lines.items():
                if not any(line[0] == "result" for line in lines):
                    continue
                event = self.events.get(eid)
                ids = iter([r.id for r in event.function_responses()] if event else [])
                for kind, author, body in lines:
                    link = next(ids, None) if kind == "result" else None
                    if kind == "result" and author != USER_AUTHOR:
                        starts.append(offset)
                        links.append(link)
                        offset += len(body) + 1
            self._result_links = (starts, links)
        starts, links = self._result_links
        quoted = _quoted(value)
        while at >= 0:  # each result line holding it, once
            index = bisect_right(starts, at) - 1
            end = starts[index + 1] - 1 if index + 1 < len(starts) else len(said)
            body = said[starts[index] : end]
            if value not in self._moved_of(links[index]) or value in body.replace(quoted, '""'):
                return True
            at = said.find(value, end)
        return False

    def _only_echoes(self, link: str) -> bool:
        """Whether the result of the call ``link`` holds nothing but what the call sent
        (``{"order_id": "A-1001"}`` for ``{"order_id": "A-1001"}``): no outcome of its own."""
        exchange = self._exchange(link)
        if exchange is None:
            return False
        args, response = exchange
        return (
            isinstance(response, dict)
            and bool(response)
            and isinstance(args, dict)
            and all(k in args and args[k] == v for k, v in response.items())
        )

    def _answers_another(self, link: str) -> bool:
        """Whether the result of the call ``link`` names, under a top key of the call's
        arguments, another identifier than the call gave there (``lookup_order(order_id=
        "A-1001")`` answered ``{"order_id": "A-01001", ...}``, ``get_customer(user_id=
        "ana_lima_4410")`` answered ``{"user_id": "bob_7781", ...}``): the result is about
        that other thing, so the call's identifier is not said with what the result says
        (case and a leading ``#`` aside: ``#W1`` is ``W1``)."""
        exchange = self._exchange(link)
        if exchange is None:
            return False
        args, response = exchange
        if not isinstance(args, dict) or not isinstance(response, dict):
            return False
        for key, asked in args.items():
            answered = response.get(key)
            if (
                isinstance(asked, str)
                and isinstance(answered, str)
                and _id_like(asked)
                and bare_id(answered) != bare_id(asked)
            ):
                return True
        return False

    def _exchange(self, link: str) -> tuple[Any, Any] | None:
        """The arguments of the call ``link`` and its result's payload, if the session holds
        both (indexed once)."""
        if self._exchanges is None:
            args: dict[str, Any] = {}
            self._exchanges = {}
            for event in self.events.values():
                for part in event.content.parts if event.content is not None else ():
                    if (call := part.function_call) is not None and call.id is not None:
                        args[call.id] = call.args
                    result = part.function_response
                    if result is not None and result.id is not None and result.id in args:
                        self._exchanges[result.id] = (args[result.id], result.response)
        return self._exchanges.get(link)

    def names_nothing(self, link: str | None) -> bool:
        """Whether the call ``link`` and its result name no thing: no string of either is
        shaped as an identifier (:data:`._values.ID_SHAPE`) and no key of either says its
        value is a name (:data:`._keys.NAME_WORDS`): ``get_offer({"segment": "gold"})``
        answered ``{"credit_limit": 5000, "raised": true}`` is a policy's or a campaign's
        figure, of no thing an item names (round 11). ``False`` for a call the session does
        not hold with its result."""
        if link is None:
            return False
        found = self._nameless.get(link)
        if found is None:
            exchange = self._exchange(link)
            found = exchange is not None and not any(map(_names_a_thing, exchange))
            self._nameless[link] = found
        return found

    def _moved_of(self, link: str | None) -> frozenset[str]:
        """What the result of the call ``link`` repeats of the call's arguments under another
        name (:func:`._echoes.moved`), read once per exchange (not walked when no tool result
        of the session holds one of the call's strings)."""
        if link is None:
            return frozenset()
        found = self._moved.get(link)
        if found is None:
            exchange = self._exchange(link)
            found = frozenset()
            if exchange is not None and _repeats_any(exchange[0], self._tools_said()[0]):
                found = moved(*exchange, skip=_id_like)
            self._moved[link] = found
        return found

    def _unechoed(self, text: str, event_id: str, link: str | None = None) -> str:
        """``text`` (a payload, as :func:`established` leaves it) without the strings of
        :data:`_ECHO_WORDS` content words or more that are all words the user wrote: a tool
        that hands back the customer's text (a ticket's query, an input echoed) under any
        key repeats their words, it does not establish them; nor, however short, what it
        repeats of its own call's argument under another name, when only the user's words
        support it (``"q": "refund approved"`` handed back as ``"state"``)."""
        for value in self._moved_of(link):
            if not _id_like(value) and self._users_only(value, event_id):
                text = re.sub(re.escape(_quoted(value)), '""', text, flags=re.IGNORECASE)
        if text.count(" ") - 2 * text.count('": ') < _ECHO_WORDS - 1:
            return text  # too few spaces for any such string
        said = self._said_before(event_id)

        def blank(match: re.Match[str]) -> str:
            if not self._may_be_users(match[0]):
                return match[0]
            words = content_words(match[0])
            if len(words) < _ECHO_WORDS:
                return match[0]
            if all(any(map(said, forms(w))) for w in words):
                return '""'
            return match[0]

        return _ECHO.sub(blank, text)

    def _called(self, call_id: str | None, results: Sequence[FunctionResponse]) -> bool:
        """Whether the session holds a call of this id (and the result's name) for the result
        ``call_id`` to answer: a result is vouched for by the call it answers, whoever made it
        (the user runs device tools in telecom sessions)."""
        name = next((r.name for r in results if r.id == call_id), None)
        return call_id is not None and (call_id, name) in self._traffic()[0]

    def _answered(self, call_id: str) -> bool:
        """Whether the session holds a result of the call ``call_id`` that is not an error,
        and not the user's own answer to a call other than agentlog's requests to a person
        (a confirmation, a credential): a customer saying a refund went through is not the
        refund tool answering."""
        known = self._answered_ok.get(call_id)
        if known is None:
            # Judged only when asked: a record cites a few of a long session's results.
            result = self._traffic()[1].get(call_id)
            known = self._answered_ok[call_id] = result is not None and not _failed(result)
        return known

    def _traffic(self) -> tuple[set[tuple[str | None, str]], dict[str, FunctionResponse]]:
        """The session's calls (:meth:`_called`) and the answer that counts of each call
        (:meth:`_answered`: the last not the user's own), read in one pass over every event's
        parts: both are asked of most tool lines a record cites."""
        if self._calls is not None and self._answers is not None:
            return self._calls, self._answers
        calls: set[tuple[str | None, str]] = set()
        answers: dict[str, FunctionResponse] = {}
        for event in self.events.values():
            if event.content is None:
                continue
            users = event.author == USER_AUTHOR
            for part in event.content.parts:
                if (call := part.function_call) is not None:
                    calls.add((call.id, call.name))
                result = part.function_response
                if result is None or result.id is None:
                    continue
                if not users or is_human_request(result.name):
                    answers[result.id] = result
        self._calls, self._answers = calls, answers
        return calls, answers

    def _changed_later(self) -> dict[str, frozenset[str]]:
        """For each result (by its call's id), the top keys that a later answer to the same
        call (one tool, equal arguments, not a failure) holds another value under: the later
        answer is what holds now (``"refund": "approved"``, then ``"refund": "revoked"``)."""
        if self._changed is not None:
            return self._changed
        asked: dict[str, tuple[str, str]] = {}
        calls: dict[tuple[str, str], list[tuple[int, str, dict[str, Any]]]] = {}
        place = 0  # each answer's, in the session's order
        for event in self.events.values():
            if event.content is None:
                continue
            for part in event.content.parts:
                if (call := part.function_call) is not None and call.id is not None:
                    asked[call.id] = (call.name, _canonical(call.args))
                result = part.function_response
                if result is None or result.id is None or result.id not in asked:
                    continue
                if isinstance(result.response, dict):
                    place += 1
                    answer = (place, result.id, result.response)
                    calls.setdefault(asked[result.id], []).append(answer)
        # A call answered once has no later answer: only the others' answers are judged for
        # failures, and their series read in the order of each one's first answer that counts.
        answers: list[list[tuple[int, str, dict[str, Any]]]] = []
        for group in calls.values():
            if len(group) > 1:
                kept = [answer for answer in group if not _reports_failure(answer[2])]
                if len(kept) > 1:
                    answers.append(kept)
        answers.sort(key=lambda kept: kept[0][0])
        changed: dict[str, frozenset[str]] = {}
        for kept in answers:
            series = [(call_id, response) for _, call_id, response in kept]
            for n, (call_id, response) in enumerate(series[:-1]):
                keys = {
                    key
                    for _, later in series[n + 1 :]
                    for key, value in response.items()
                    if key in later and later[key] != value
                }
                if keys:
                    changed[call_id] = frozenset(keys)
        self._changed = changed
        return changed

    def _unquoted(self, text: str, event: Event) -> str:
        """``text`` without the runs of :data:`_QUOTED` words or more that a message of the
        user holds, and without each other word the user wrote that neither what the
        decision did (its state change, its transfer) nor any tool result says: code that
        writes a decision may quote the customer, or reword them a few words at a time, and
        those are still the customer's words."""
        if self._user_runs is None:
            self._user_runs = set()
            for lines in self._lines.values():
                for _, author, body in lines:
                    if author == USER_AUTHOR:
                        said = letters_of(body).split()
                        self._user_runs.update(_runs(said))
        words = letters_of(text).split()
        quoted: set[int] = set()
        for at, run in enumerate(_runs(words)):
            if run in self._user_runs:
                quoted.update(range(at, at + _QUOTED))
        user = self.user_words()
        actions = event.actions
        did = letters_of(f"{self._decided(actions.state_delta)} {actions.transfer_to_agent or ''}")
        tools = self._tools_said()[1]()
        kept = []
        for i, word in enumerate(words):
            bare = word.removeprefix(NEGATED)  # read again as an item's are: negated once
            if i in quoted:
                continue
            if bare not in STOP_WORDS and not forms(bare).isdisjoint(user):
                spelt = forms(bare)
                if not any(f" {f} " in did or f" {f} " in tools for f in spelt):
                    continue  # the user's word, which nothing the decision did says
            kept.append(bare)
        return " ".join(kept)

    def _decided(self, delta: dict[str, Any]) -> str:
        """What a decision's state change says it decided: its keys and values, but no word
        the user wrote in a string it stored, at any depth, nor in a key written as a phrase (a
        router keeping the message, whole, nested or behind a word of its own, stores the
        customer's words; it does not decide them)."""
        user = self.user_words()

        def own(text: str) -> str:
            return " ".join(w for w in content_words(text) if forms(w).isdisjoint(user))

        def kept(value: Any, depth: int) -> Any:
            if isinstance(value, str):
                return own(value)
            if depth > _MAX_DEPTH:
                return None
            if isinstance(value, dict):
                return {
                    own(k) if " " in str(k) else str(k): kept(v, depth + 1)
                    for k, v in value.items()
                }
            if isinstance(value, list | tuple):
                return [kept(v, depth + 1) for v in value]
            return value

        return render_payload(kept(delta, 0), 1 << 40, 1 << 40)

    def _compaction(self, event: Event, visiting: Collection[str], depth: int) -> list[Unit]:
        items, is_record = compaction_items(event)
        units: list[Unit] = []
        for item in items:
            below = [
                u
                for s in item.sources
                if s != event.id and self.known(s)
                for u in self._resolve(s, visiting, depth + 1)
            ]
            if below:
                users_only = all(u.tier == "user" for u in below)
            else:  # its sources are gone: what code recorded of their authors decides
                users_only = is_record and bool(item.authors)
                users_only = users_only and all(a == USER_AUTHOR for a in item.authors)
            units += below
            # A compaction the user wrote is the user's word, whatever it cites.
            users_only = users_only or event.author == USER_AUTHOR
            units.append(Unit("user" if users_only else "agent", item.text))
        return units


_OUTCOME_KEYS: Final = frozenset({"ok", "success", "succeeded", "successful", "done", "completed"})
_FAILED_KEYS: Final = frozenset(
    {"failed", "failure", "timeout", "timed_out", "timedout", "aborted", "crashed", "errored"}
)
"""Top keys of a flag saying that the call did not go through (``"timed_out": true``): what
the result holds beside it is what was asked, or partial."""
_STATUS_KEYS: Final = frozenset({"status", "status_code", "http_status", "result"})
_FAILURE_START: Final = re.compile(r"\s*(?:error|errored|fail(?:ed|ure)?)\b", re.IGNORECASE)
_REFUSAL_WORDS: Final = frozenset(
    {"rejected", "refused", "denied", "declined", "invalid", "failed", "failure", "rejection"}
    | {"refusal", "denial", "unprocessable", "disallowed"}
)
"""Words of a top key saying that what its object holds was refused (``rejected_input``,
``invalid_fields``): English words of refusal, never a domain's."""


_NO_KEYS: Final[frozenset[str]] = frozenset()


def _canonical(args: Any) -> str:
    """A call's arguments as one text, equal for equal arguments in any key order."""
    return json.dumps(args, sort_keys=True, default=str)


def _failed(result: FunctionResponse) -> bool:
    """Whether a result says its call did not go through: it reports a failure, made nothing,
    or was a dry run or a sandbox's (not so either)."""
    response = result.response
    return _reports_failure(response) or _nothing_made(result.name, response) or not_real(response)


def _reports_failure(response: Any) -> bool:
    """Whether a result says, by its top-level structure, that its call did not go through: an
    ``error``/``errors`` key holding anything, an outcome flag that says no (``"ok": false``,
    ``"success": false``) or a failure's flag that says yes (``"timed_out": true``), or a
    status that is an HTTP error code or an error word (``"status": 403``, ``"status":
    "failed"``), or a key of refusal holding an object
    (``"rejected_input": {"refund": "approved"}``: what the call asked, refused). A call so
    answered established nothing."""
    if not isinstance(response, dict):
        return False
    for key, value in response.items():
        name = str(key).strip().lower()
        if isinstance(value, dict) and value and _refusal(str(key)):
            return True
        if name in ("error", "errors") and value not in (None, False, "", [], {}):
            return True
        if name in _OUTCOME_KEYS and (value is False or value in ("false", "no", 0)):
            return True
        if name in _FAILED_KEYS and (value is True or value in ("true", "yes", 1)):
            return True
        if name in _STATUS_KEYS:
            if isinstance(value, int) and not isinstance(value, bool) and 400 <= value <= 599:
                return True
            if isinstance(value, str) and _FAILURE_START.match(value) is not None:
                return True
    return False


_NAME_RUN: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _quoted(value: str) -> str:
    """``value`` as the transcript's JSON writes a string (quoted, not ASCII-escaped)."""
    return json.dumps(value, ensure_ascii=False)


def _repeats_any(args: Any, line: str) -> bool:
    """Whether ``line`` (lower case) may hold a string argument of ``args`` that is not an
    identifier (a cheap test before :func:`._echoes.moved`; nested arguments are walked)."""
    if not isinstance(args, dict):
        return True  # read in full
    return any(
        isinstance(v, str) and not _id_like(v) and v.strip().lower() in line for v in args.values()
    ) or any(isinstance(v, dict | list | tuple) for v in args.values())


def _names_a_thing(node: Any, depth: int = 0) -> bool:
    """Whether a payload holds, at any depth, a string shaped as an identifier or a value
    under a key saying it is a name (``order_id``, ``code``): whether it names a thing."""
    if isinstance(node, str):
        return ID_SHAPE.fullmatch(node.strip()) is not None
    if depth > _NAMING_DEPTH:
        return True  # too deep to read: as if it named one, so nothing is taken from it
    if isinstance(node, dict):
        return any(
            (v is not None and v is not False and not key_words(str(k)).isdisjoint(NAME_WORDS))
            or _names_a_thing(v, depth + 1)
            for k, v in node.items()
        )
    if isinstance(node, list | tuple):
        return any(_names_a_thing(v, depth + 1) for v in node)
    return False


_NAMING_DEPTH: Final = 8


@lru_cache(maxsize=4096)
def _refusal(key: str) -> bool:
    """Whether a key's words (``rejected_input``, ``invalidFields``) say refusal."""
    return any(w.lower() in _REFUSAL_WORDS for w in _NAME_RUN.findall(key))


def _nothing_made(tool: str, response: Any) -> bool:
    """Whether a result holds nothing (``null``) under a top key naming what its tool acts on
    (``approve_refund`` answered ``{"refund": null}``): the act made no such thing."""
    if not isinstance(response, dict) or not any(v is None for v in response.values()):
        return False
    words = {w.lower() for w in _NAME_RUN.findall(tool)}
    return any(
        value is None and str(key).strip().lower() in words for key, value in response.items()
    )


def _as_act(
    name: str, then: Callable[[str], str] | None, said: bool = True
) -> Callable[[str], str] | None:
    """How a call's or a result's line reads when its tool's name holds past participles
    (``refund_approved``, ``manager_approved_full_refund``, ``return_delivered_order_items``),
    then by ``then``: with those words left out of the name. A name says what its tool does;
    a participle in it is a state the agent presumed when it chose the tool (an order that is
    delivered), or a claim spelt as a name, never what the call did: the payload, or another
    event, must say it."""
    act = _act_name(name) if said else ""
    if act == name:
        return then

    def read(text: str) -> str:
        if text.startswith(name):
            text = act + text[len(name) :]
        return text if then is None else then(text)

    return read


@lru_cache(maxsize=4096)
def _act_name(name: str) -> str:
    """``name`` without its past participles (joined by ``_``), or ``name`` itself."""
    runs = _NAME_RUN.findall(name)
    if not any(participle(r.lower()) for r in runs):
        return name
    return "_".join(r for r in runs if not participle(r.lower()))


def _agent_name(event: Event) -> bool:
    """Whether the agent ``event`` transfers to is named as agents are (an identifier, as
    ``BaseAgent`` requires), not with words an import or a caller wrote there."""
    target = event.actions.transfer_to_agent
    return target is not None and target.isidentifier()


def _id_like(value: str) -> bool:
    """Whether a string is an identifier, a code or an address rather than words: one token
    holding a digit, an ``_`` or an ``@``."""
    token = value.strip()
    return " " not in token and any(c.isdigit() or c in "_@" for c in token)


def _runs(words: list[str]) -> Iterable[tuple[str, ...]]:
    """Every run of :data:`_QUOTED` consecutive ``words``."""
    return zip(*(words[i:] for i in range(_QUOTED)), strict=False)


def _cut(body: str) -> bool:
    """Whether the renderer shortened this line (see :mod:`agentlog.transcript`)."""
    return "...[truncated " in body or " more (" in body


def _tier(kind: LineKind | None, author: str, decision: bool) -> Tier:
    if author == USER_AUTHOR:
        return "user"
    if kind in _ACTION_KINDS:
        return "evidence"
    if kind == "text" and decision:
        return "evidence"
    return "agent"
