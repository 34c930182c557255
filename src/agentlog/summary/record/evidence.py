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
  (a rewording a few words at a time). A successful call's string argument that only the
  user's words support and no result says is left out of the call's ``evidence`` unit (an
  ``agent`` copy holds it; :attr:`Unit.full` is the whole call, for an item that says the
  agent made that call with it); a result's string that only repeats the user's earlier words
  is an echo, whatever its key; an artifact holds its name as an identifier, not as words;
- ``agent``: any other text by an agent: model prose, a callback's canned reply, and a tool
  call the session holds no result of, or only an error (``{"error": ...}``): what the agent
  asked for, which nothing established;
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

A unit holds what the event holds: the line the transcript showed of it, or, where the
transcript cut a payload short, the whole payload (a record may have read the event itself,
as the extractive summariser does). Units are read lazily (tokens, amounts, dates and words
only when an item asks), since a record cites a few events of a long session.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import partial
from typing import Any, Final, Literal

from agentlog.compaction.summarizer import COMPACTOR_AUTHOR
from agentlog.events import Event
from agentlog.summary.record._extract import is_lookup
from agentlog.summary.record._scan import amount_key, date_entities
from agentlog.summary.record._words import (
    NEGATED,
    STOP_WORDS,
    content_words,
    forms,
    letters_of,
    word_set,
)
from agentlog.summary.record.carried import CarriedItem, compaction_items, handoff_items
from agentlog.summary.record.entities import Entity, _numbers, _utf8_tokens, recall_keys
from agentlog.summary.record.expected import ParsedTranscript
from agentlog.summary.record.learned import holds_token, token_starts
from agentlog.summary.record.marks import HANDOFF_AUTHOR
from agentlog.summary.record.schema import Provenance
from agentlog.transcript import LineKind, render_payload, transcript_lines

__all__ = ["USER_AUTHOR", "Evidence", "Tier", "Unit", "is_decision", "is_handoff"]

USER_AUTHOR: Final = "user"
"""The author of the user's own events."""

Tier = Literal["evidence", "agent", "user"]
"""How far a unit's word goes: tool traffic and decisions, an agent's prose, the user's."""

TIER_OF_LABEL: Final[dict[Provenance, Tier]] = {
    "verified": "evidence",
    "agent_statement": "agent",
    "user_claim": "user",
}

_ACTION_KINDS: Final = frozenset({"call", "result", "transfer", "code", "artifact", "error"})
_NOT_DIGITS: Final = re.compile(r"\D+")
_ONE_TOKEN: Final = re.compile(r"[\w#-]+")
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
)
"""Words that, ending a key's name, say its value is free text (``subject``, ``customer_note``,
``customerNote``, a memory entry's ``text``): whoever typed it, a tool only stores it, however
short. Not "reason": a cancellation's or a return's reason is what the action recorded, mostly
one of a few values ("no longer needed", "damaged_in_transit"), and a record repeats it."""
_FREE_VALUE: Final = re.compile(r'"(?:[^"\\]|\\.)*+"|\[(?:"(?:[^"\\]|\\.)*+"(?:, )?)*+\]')
"""A string, or a list of strings, as rendered JSON spells them."""
_FREE_KEY: Final = re.compile(
    '": ["\\[](?:' + "|".join(f'(?<={k}": .)' for k in _TEXT_KEYS) + ")", re.IGNORECASE
)
"""Where a free-text field's value starts: the ``": "`` comes first, so the engine jumps
from one value to the next, and a look-behind for each key's end tells a free-text field."""
_SEARCHES: Final = 8
"""Identifier searches in one unit before it is tokenised instead."""
_OURS: Final = frozenset({HANDOFF_AUTHOR, COMPACTOR_AUTHOR, USER_AUTHOR})
_MAX_DEPTH: Final = 8
_QUOTED: Final = 4
"""Consecutive words of a user's message from which a decision's text quotes the customer."""
_CONTAINERS: Final = (dict, list, tuple)
_Apart = tuple["Unit | None", list[list[str]]]
"""What :meth:`Unit.apart` reads of a payload for some identifiers: the rest of it, and the
records of each group about none of them."""
_LETTER_RUNS: Final = re.compile(r"[^\W\d_]+")
_ECHO_WORDS: Final = 4
"""Content words from which a payload's string that holds only the user's words is an echo."""
_ECHO: Final = re.compile(rf'"[^"\\ ]*+(?: [^"\\ ]*+){{{_ECHO_WORDS - 1},}}+"')
"""A string of :data:`_ECHO_WORDS` words or more, as rendered JSON spells it (a key's too)."""
_WHOLE: Final = {"max_tool_chars": 1 << 40, "max_text_chars": 1 << 40, "max_array_items": 1 << 40}


def is_decision(event: Event) -> bool:
    """Whether ``event`` is a deterministic agent's decision: text by an agent no model ran
    (no ``model``, no ``usage``), no tool traffic, and actions that carry what was decided."""
    if event.author in _OURS or event.model is not None or event.usage is not None:
        return False
    actions = event.actions  # first: few events carry a decision, and it is the cheapest test
    if not (actions.state_delta or actions.escalate or actions.transfer_to_agent):
        return False
    if event.content is None or not event.text().strip():
        return False
    return not (event.function_calls() or event.function_responses())


def is_handoff(event: Event) -> bool:
    """Whether ``event`` is a handoff's first event as :func:`start_handoff` writes it: authored
    ``handoff`` and written by code (no model, no usage: an agent a model runs is never one,
    whatever its name)."""
    return event.author == HANDOFF_AUTHOR and event.model is None and event.usage is None


class Unit:
    """A piece of what an event holds, with its tier. Its keys and words are read on first use,
    the way a record's are (:meth:`EntityPatterns.summary_keys`): any token as an identifier,
    any number as an amount, dates with and without their year.

    A unit the transcript showed cut short holds the line as shown and reads the whole payload
    only when asked for something the shown part lacks (``whole``): identifiers come first in
    a payload, and most cited events are checked without encoding it again.
    """

    __slots__ = ("_amounts", "_apart", "_asked", "_dates", "_digits", "_echo", "_folded",
                 "_groups", "_in_groups", "_letters", "_lists", "_own", "_payload", "_scoped",
                 "_source", "_tokens", "_whole", "_words", "full", "link", "text",
                 "tier")  # fmt: skip

    def __init__(
        self,
        tier: Tier,
        text: str,
        link: str | None = None,
        whole: Callable[[], str] | None = None,
        own: str | None = None,
        payload: tuple[str, Any] | None = None,
        echo: Callable[[str], str] | None = None,
    ) -> None:
        self.tier: Tier = tier
        self._own = own
        self._echo = echo
        """What leaves out of a payload the strings that only repeat the user's words."""
        self.full: tuple[list[frozenset[str]], Unit] | None = None
        """Of a call without the values only the user's words support: the whole call, for an
        item that says the agent made that call with them (one word of each set named)."""
        self._payload = payload
        self._source = payload
        self._groups: dict[int, list[str]] | None = None
        self._apart: dict[tuple[str, ...], _Apart] | None = None
        self._in_groups: set[str] | None = None
        """A tool's name and payload: where it lists several records (a list of objects), an
        item about one of them reads only that one (:meth:`unsaid_about`)."""
        self._scoped: dict[tuple[str, ...], Unit] | None = None
        self._lists: dict[int, list[str]] = {}
        """What of ``text`` is the event's own words, when not all of it is (a decision that
        quotes the customer)."""
        self.text = text
        self.link = link
        """The function call id of a tool call or result: a call and its result share it."""
        self._whole = whole
        self._asked = 0
        self._tokens: set[str] | None = None
        self._folded: str | None = None
        self._amounts: set[str] | None = None
        self._dates: set[str] | None = None
        self._digits: str | None = None
        self._words: set[str] | None = None
        self._letters: str | None = None

    def __repr__(self) -> str:
        return f"Unit({self.tier!r}, {self.text[:40]!r})"

    def expand(self) -> bool:
        """Read the whole payload of a unit shown cut short; whether there was more to read."""
        if self._whole is None:
            return False
        self.text = self._whole()
        self._whole = None
        self._folded = self._amounts = self._dates = self._digits = self._words = None
        self._tokens = self._letters = None
        return True

    def holds(self, entity: Entity) -> bool:
        """Whether this unit holds ``entity``, in any form that compares equal."""
        tokens = self._tokens
        if tokens is not None and entity.kind == "id":  # the usual case, quickly
            token = entity.key[3:]
            if token in tokens or "#" + token in tokens:
                return True
        return self._holds(entity) or (self.expand() and self._holds(entity))

    def _holds(self, entity: Entity) -> bool:
        kind, key = entity.kind, entity.key
        if kind == "id":
            token = key[3:]
            if self._tokens is not None:
                return token in self._tokens or "#" + token in self._tokens
            if self._folded is None:
                text = self.text
                self._folded = text.lower() if text.isascii() else text.casefold()
            self._asked += 1
            if self._asked > _SEARCHES and _ONE_TOKEN.fullmatch(token) is not None:
                # Asked about many identifiers (an item listing a payload's ids): one pass.
                self._tokens = _utf8_tokens(self._folded.encode("utf-8", "surrogatepass"))
                return token in self._tokens or "#" + token in self._tokens
            # A search and a look at both ends beat tokenising the whole unit: a record asks
            # about a few identifiers of most events it cites.
            return holds_token(self._folded, token)
        if kind == "money":
            if self._amounts is None:
                numbers = _numbers(self.text.encode("utf-8", "surrogatepass"))
                self._amounts = {k for k in map(amount_key, numbers) if k is not None}
            return key in self._amounts
        if kind == "date":
            if self._dates is None:
                self._dates = set()
                for date in date_entities(self.text):
                    self._dates.update((date.key, "date-md:" + date.key[-5:]))
            return any(k in self._dates for k in (key, *recall_keys(entity)))
        if self._digits is None:  # a phone number: its last ten digits
            self._digits = _NOT_DIGITS.sub("", self.text)
        return key.removeprefix("digits:") in self._digits

    def words(self) -> set[str]:
        """Every word of the unit, folded (of the part shown, until :meth:`expand`); of a tool
        payload, the words of its keys and short values only (see :func:`_established`)."""
        if self._words is None:
            self._words = set(self._spaced().split())
        return self._words

    def unsaid(self, words: list[str]) -> list[str]:
        """The ``words`` that :meth:`words` holds in none of their :func:`forms`.

        Most words of an item are in the events it cites as written, so they are looked for
        in the unit's letters (:func:`letters_of`) first, and the set of its words is made
        only when one is not there as written.
        """
        held = self._words
        if held is None:
            spaced = self._spaced()
            words = [w for w in words if f" {w} " not in spaced]
            if not words:
                return words
            held = self.words()
        return [w for w in words if forms(w).isdisjoint(held)]

    def unsaid_about(self, words: list[str], entities: Sequence[Entity]) -> list[str]:
        """:meth:`unsaid` of what the unit says about ``entities``: of a payload that lists
        several records, the records holding none of them are left out (``"refund_approved":
        true`` of order A-2002 is not said of order A-1001, listed beside it)."""
        missing = self.unsaid(words)
        if self._payload is None or len(missing) == len(words):
            return missing  # nothing said that a record beside might have said instead
        # Identifiers tell which record an item is about; amounts and dates say too little.
        entities = [e for e in entities if e.kind == "id"]
        if not entities:
            return missing
        if self._scoped is None:
            self._scoped = {}
            # Rendered JSON spells a list of objects "[{": without one there is none to read.
            if self._groups is None:
                self._groups = (
                    _record_lists(self._payload[1], _two_lists(self.text))
                    if _may_group(self.text)
                    else {}
                )
            lists = self._groups
            if not lists:
                self._payload = None
                return missing
            self._lists = lists
        key = tuple(sorted(e.key for e in entities))
        scoped = self._scoped.get(key)
        if scoped is None:
            tokens = [e.key[3:] for e in entities]
            # Which records of which lists hold the item's identifiers, from the texts read
            # once per unit: the payload is then copied only to drop those that do not.
            drop: dict[int, list[bool]] = {}
            for node, records in self._lists.items():
                held = [any(holds_token(r, t) for t in tokens) for r in records]
                if any(held) and not all(held):  # a record beside the item's: read without it
                    drop[node] = held
            scoped = self
            if drop:
                name, value = self._payload
                text = f"{name} {render_payload(_about(value, drop), 1 << 40, 1 << 40)}"
                scoped = Unit(self.tier, text)
            self._scoped[key] = scoped
        return missing if scoped is self else scoped.unsaid(words)

    def may_group(self) -> bool:
        """Whether the unit's payload may hold a group of records (:meth:`apart`)."""
        return self._source is not None and _may_group(self.text)

    def apart(self, words: list[str], entities: Sequence[Entity]) -> list[str]:
        """Of ``words`` (none of which another cited unit says), those this unit does not say
        when each group of records about none of the item's identifiers (a list of
        decisions, a map of lists) lends its words from one record only: what a payload
        says of one record ("fee waiver": "denied") is not said with the word of another
        ("refund": "approved")."""
        if not words or self._source is None or not _may_group(self.text):
            return self.unsaid(words)
        tokens = tuple(sorted(e.key[3:] for e in entities if e.kind == "id"))
        if self._groups is None:
            self._groups = _record_lists(self._source[1], _two_lists(self.text))
        if not self.groups_say(words):
            return self.unsaid(words)  # no record of a group says any: the rest does, or none
        if self._apart is None:
            self._apart = {}
        read = self._apart.get(tokens)
        if read is None:
            alone = [
                records
                for records in self._groups.values()
                if not any(holds_token(r, t) for r in records for t in tokens)
            ]
            rest: Unit | None = None
            if alone:
                name, value = self._source
                drop = {
                    node: [False] * len(records)
                    for node, records in self._groups.items()
                    if records in alone
                }
                payload = render_payload(_about(value, drop), 1 << 40, 1 << 40)
                rest = Unit(self.tier, f"{name} {payload}")
            read = self._apart[tokens] = (rest, alone)
        rest, groups = read
        if rest is None:
            return self.unsaid(words)
        missing = rest.unsaid(words)
        for records in groups:  # read only when the rest leaves words unsaid: seldom
            if missing:
                missing = min((Unit(self.tier, r).unsaid(missing) for r in records), key=len)
        return missing

    def groups_say(self, words: Iterable[str]) -> bool:
        """Whether a record of a group of the payload holds one of ``words`` (cheap: the words
        of every record, read once)."""
        if self._source is None or not _may_group(self.text):
            return False
        if self._groups is None:
            self._groups = _record_lists(self._source[1], _two_lists(self.text))
        grouped = self._grouped_words()
        return any(w in grouped for word in words for w in forms(word))

    def _grouped_words(self) -> set[str]:
        """Every word the records of the payload's groups hold (read once per unit)."""
        if self._in_groups is None:
            records = "\n".join(r for rs in (self._groups or {}).values() for r in rs)
            self._in_groups = set(letters_of(records).split())
        return self._in_groups

    def _spaced(self) -> str:
        if self._letters is None:
            # A hedge matters to what would be verified: an agent's or the user's words are
            # read as before, and faster.
            self._letters = letters_of(self._said(), hedged=self.tier == "evidence")
        return self._letters

    def _said(self) -> str:
        if self._own is not None:
            return self._own
        text = self.text
        if self.tier == "evidence" and '": ' in text:
            text = _established(text)
            if self._echo is not None:
                text = self._echo(text)
        return text


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
        self._answers: dict[str, bool] | None = None
        self._said_by_tools: str | None = None
        self._tool_letters: str | None = None
        self._said_raw = ""
        self._user_text: str | None = None
        self._before: dict[str, int] = {}
        self._first_said: dict[str, int] | None = None
        self._users_only_seen: dict[tuple[str, int], bool] = {}
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
        elif event is not None and is_handoff(event):
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
            elif kind == "code":
                own = ""  # what a model's program prints is the model's words
            elif kind == "error":
                own = body.split(":", 1)[0]  # the code is the log's; a message may echo input
            elif kind == "artifact":
                own = "artifact"  # the log records that one was saved; its name is anyone's
            payload = None
            if kind == "call" and link is not None:
                payload = next(((c.name, c.args) for c in calls_of if c.id == link), None)
            elif kind == "result" and link is not None:
                payload = next(((r.name, r.response) for r in results_of if r.id == link), None)
            echo = None
            if tier == "evidence" and payload is not None and kind == "result":
                echo = partial(self._unechoed, event_id=event_id)
            if kind == "call" and tier == "evidence" and payload is not None:
                asked = self._asked_only(payload, event_id)
                if asked is not None:
                    # What the agent asked with the user's words, that no result confirms:
                    # the call went through, but it vouches only for the rest, unless an
                    # item says that the agent made this call with them.
                    entire = Unit(tier, body, link, expand, own, payload)  # as the agent wrote
                    # Read as the call is (free text and values that say no left out).
                    units.append(Unit("agent", body, None, expand, _established(body)))
                    unit = Unit(tier, asked[0], link, None, own, None, echo)
                    unit.full = (asked[1], entire)
                    units.append(unit)
                    continue
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
            self._user_text = "\n".join(
                body.lower()
                for lines in self._lines.values()
                for _, author, body in lines
                if author == USER_AUTHOR
            )
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
            return value.strip().lower() not in self._tools_said()[0]
        token = value.strip().lower()
        if len(token) < 3 or token not in self._users_text():
            return False
        return not holds_token(self._tools_said()[0], token)

    def _may_be_users(self, value: str) -> bool:
        """Whether the user's messages hold the first words of ``value`` as written (cheap:
        most values a call or a result holds are not the user's, and are not read further)."""
        self._said_before("")  # builds the first message of each word the user wrote
        first = self._first_said or {}
        return all(w in first for w in _LETTER_RUNS.findall(value.lower(), 0, 60)[:3])

    def _asked_only(
        self, payload: tuple[str, Any], event_id: str
    ) -> tuple[str, list[frozenset[str]]] | None:
        """The line of a call without the argument values only the user's words support
        (:meth:`_users_only`), and the words an item must name to say the agent made the
        call with them (each of its name's, and one of each such word value's key); ``None``
        when it has none. An identifier a read answered keeps: the answer is about what it
        names (``lookup_order("A-1001")`` -> ``{"status": "late"}``), whereas a write that
        took a code the customer made up vouches for nothing of it."""
        name, args = payload
        named = [frozenset({w}) for w in content_words(name)]
        # Only a name that says it reads (``get_``, ``lookup_``, ...): a tool of unknown verb
        # taking a code the customer made up may be one that records it.
        read = is_lookup(name)

        def kept(value: Any, key: str, depth: int = 0) -> Any:
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
                return {k: kept(v, str(k), depth + 1) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [kept(v, key, depth + 1) for v in value]
            return value

        before = len(named)
        trimmed = kept(args, "")
        if len(named) == before and trimmed == args:
            return None
        return f"{name} {render_payload(trimmed, 1 << 40, 1 << 40)}", [n for n in named if n]

    def _said_before(self, event_id: str) -> Callable[[str], bool]:
        """Whether the user wrote a word (folded) in a message before ``event_id`` (in any
        message, when the session does not hold it): what a call or a tool could have been
        handed. Each word's first message is found once for the whole session."""
        if self._first_said is None:
            self._first_said, self._before = {}, {}
            count = 0
            for eid, lines in self._lines.items():  # in the transcript's order
                self._before[eid] = count
                for _, author, body in lines:
                    if author == USER_AUTHOR:  # its words as written, in lower case
                        for word in _LETTER_RUNS.findall(body.lower()):
                            self._first_said.setdefault(word, count)
                        count += 1
        first, before = self._first_said, self._before.get(event_id, 1 << 62)
        return lambda word: first.get(word, before) < before

    def _unechoed(self, text: str, event_id: str) -> str:
        """``text`` (a payload, as :func:`_established` leaves it) without the strings of
        :data:`_ECHO_WORDS` content words or more that are all words the user wrote: a tool
        that hands back the customer's text (a ticket's query, an input echoed) under any
        key repeats their words, it does not establish them."""
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

    def _answered(self, call_id: str) -> bool:
        """Whether the session holds a result of the call ``call_id`` that is not an error."""
        if self._answers is None:
            self._answers = {
                r.id: not (isinstance(r.response, dict) and "error" in r.response)
                for e in self.events.values()
                for r in e.function_responses()
                if r.id is not None
            }
        return self._answers.get(call_id, False)

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
        did = render_payload(dict(actions.state_delta), 1 << 40, 1 << 40)
        did = letters_of(f"{did} {actions.transfer_to_agent or ''}")
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


def _id_like(value: str) -> bool:
    """Whether a string is an identifier, a code or an address rather than words: one token
    holding a digit, an ``_`` or an ``@``."""
    token = value.strip()
    return " " not in token and any(c.isdigit() or c in "_@" for c in token)


def _runs(words: list[str]) -> Iterable[tuple[str, ...]]:
    """Every run of :data:`_QUOTED` consecutive ``words``."""
    return zip(*(words[i:] for i in range(_QUOTED)), strict=False)


def _may_group(text: str) -> bool:
    """Whether a rendered payload may hold a group of records (:func:`_record_lists`): a list
    of objects, or two lists of strings (numbers are amounts, not records of a group)."""
    return "[{" in text or _two_lists(text)


def _two_lists(text: str) -> bool:
    """Whether a rendered payload holds two lists of strings (a map of lists may be a group)."""
    first = text.find('": ["')
    return first >= 0 and text.find('": ["', first + 1) >= 0


def _scalars(value: Any) -> bool:
    """Whether ``value`` is a list of scalars, none empty (``["R-1", "R-3"]``)."""
    # The first value tells: a list mixes scalars and objects rarely, and never in a group.
    return (
        isinstance(value, list | tuple) and bool(value) and isinstance(value[0], str | int | float)
    )


def _record_lists(value: Any, maps: bool = True) -> dict[int, list[str]]:
    """Each group of two records or more in ``value``, at any depth, by its ``id``, as its
    records' rendered text in lower case: a list of objects (orders, decisions), or an object
    whose keys list values (``{"approved": ["R-1"], "denied": ["R-2"]}``: each key and its
    list is a record)."""
    found: dict[int, list[str]] = {}
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            listed = [(k, v) for k, v in node.items() if _scalars(v)] if maps else []
            if len(listed) >= 2:
                found[id(node)] = [
                    render_payload({k: v}, 1 << 40, 1 << 40).lower()[1:-1] for k, v in listed
                ]
            stack.extend(v for v in node.values() if isinstance(v, _CONTAINERS))
        elif isinstance(node, list | tuple):
            records = [v for v in node if isinstance(v, dict)]
            if len(records) >= 2:
                found[id(node)] = _record_texts(node, records)
            stack.extend(v for v in node if isinstance(v, _CONTAINERS))
    return found


def _record_texts(node: list[Any] | tuple[Any, ...], records: list[Any]) -> list[str]:
    """The rendered text, in lower case, of each of ``records`` (the objects of ``node``): one
    encoding of the list cut between its objects when that gives one piece each (no object
    nests another list of objects), else one encoding per object."""
    if len(records) == len(node):
        pieces = render_payload(node, 1 << 40, 1 << 40).lower()[1:-1].split("}, {")
        if len(pieces) == len(records):
            return pieces
    return [render_payload(v, 1 << 40, 1 << 40).lower() for v in records]


def _about(value: Any, drop: dict[int, list[bool]]) -> Any:
    """``value`` (a container) with, in each list of records that ``drop`` names by its
    ``id``, only the records it marks as holding the item's identifiers."""
    held = drop.get(id(value))
    if isinstance(value, dict):
        if held is not None:  # one mark per key that lists values, in order
            marks = iter(held)
            value = {k: v for k, v in value.items() if not _scalars(v) or next(marks)}
        return {k: _about(v, drop) if isinstance(v, _CONTAINERS) else v for k, v in value.items()}
    if held is not None:
        marks = iter(held)  # one mark per object of the list, in order
        value = [v for v in value if not isinstance(v, dict) or next(marks)]
    return [_about(v, drop) if isinstance(v, _CONTAINERS) else v for v in value]


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
    payload = _PLAIN_NO.sub(" ", payload)
    if _DENIES_FOLDED.search(payload.lower()) is not None:  # case-blind, twice as fast
        payload = _without_no_values(payload)
    if _FREE_KEY.search(payload) is not None:
        payload = _without_free_fields(payload, payload.lower())
    if ": false" in payload or ": null" in payload:  # not after a quoted key: not JSON
        payload = _without_not_so(payload)
    # Rendered JSON puts one space after each ":" and each ",": spaces beyond those are inside
    # values, and too few of them for one value of free text means there is none (most
    # payloads), which two counts in C tell without a scan in Python.
    if payload.count(" ") - 2 * payload.count('": ') < _FREE_WORDS - 1:
        return payload
    return _FREE_TEXT.sub('": ""', payload)


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
