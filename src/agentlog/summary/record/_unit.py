"""A unit of evidence: a piece of what an event holds, with its tier, read lazily (see
:mod:`agentlog.summary.record.evidence`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Literal

from agentlog.summary.record._groups import about, may_group, record_lists, two_lists
from agentlog.summary.record._payload import established
from agentlog.summary.record._scan import GROUPED_MIN, amount_key, date_entities
from agentlog.summary.record._scope import current
from agentlog.summary.record._walk import read_payload
from agentlog.summary.record._words import forms, letters_of
from agentlog.summary.record.entities import Entity, _numbers, _utf8_tokens, recall_keys
from agentlog.summary.record.learned import JOINERS, holds_token
from agentlog.summary.record.leaves import Payload
from agentlog.summary.record.schema import Provenance
from agentlog.transcript import render_payload

__all__ = ["TIER_OF_LABEL", "Tier", "Unit"]

Tier = Literal["evidence", "agent", "user"]
"""How far a unit's word goes: tool traffic and decisions, an agent's prose, the user's."""

TIER_OF_LABEL: Final[dict[Provenance, Tier]] = {
    "verified": "evidence",
    "agent_statement": "agent",
    "user_claim": "user",
}

_NOT_DIGITS: Final = re.compile(r"\D+")
_ONE_TOKEN: Final = re.compile(r"[\w#-]+")
_SEARCHES: Final = 8
"""Identifier searches in one unit before it is tokenised instead."""
_SPREAD: Final = re.compile(r"\d [^\W_]|[^\W_] \d")
"""A digit and a letter or digit with one space between: a text that may write an identifier
in groups (``de89 3704``)."""
_JOINED: Final = re.compile(rf"[\w#-]+(?=[{re.escape(JOINERS)}][^\W_])")
"""A token written joined to more of one (``a-1001/b``, and ``84`` of ``84.00``): the token set
holds it, though the text may not (:meth:`Unit._in_tokens`)."""
_Apart = tuple["Unit | None", list[list[str]]]
"""What :meth:`Unit.apart` reads of a payload for some identifiers: the rest of it, and the
records of each group about none of them."""


class Unit:
    """A piece of what an event holds, with its tier. Its keys and words are read on first use,
    the way a record's are (:meth:`EntityPatterns.summary_keys`): any token as an identifier,
    any number as an amount, dates with and without their year.

    A unit the transcript showed cut short holds the line as shown and reads the whole payload
    only when asked for something the shown part lacks (``whole``): identifiers come first in
    a payload, and most cited events are checked without encoding it again.
    """

    __slots__ = ("_amounts", "_apart", "_asked", "_dates", "_digits", "_echo", "_folded",
                 "_groups", "_in_groups", "_joined", "_leaves", "_letters", "_listing", "_lists",
                 "_own", "_payload", "_scoped", "_source", "_spread", "_tokens", "_whole", "_words",
                 "full", "link",
                 "text", "tier")  # fmt: skip

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
        """How a payload's line reads (:meth:`words`): without the strings that only repeat
        the user's words, and without the past participles of its tool's name."""
        self.full: tuple[list[frozenset[str]], Unit] | None = None
        """Of a call without the values only the user's words support: the whole call, for an
        item that says the agent made that call with them (one word of each set named)."""
        self._payload = payload
        self._source = payload
        self._leaves: Payload | None = None
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
        self._spread = False
        self._joined: frozenset[str] = frozenset()
        self._folded: str | None = None
        self._amounts: set[str] | None = None
        self._dates: set[str] | None = None
        self._digits: str | None = None
        self._words: set[str] | None = None
        self._letters: str | None = None
        self._listing: tuple[bool, bool] | None = None

    def __repr__(self) -> str:
        return f"Unit({self.tier!r}, {self.text[:40]!r})"

    def leaves(self) -> Payload | None:
        """The unit's tool payload read as leaves (:mod:`.leaves`), ``None`` without one."""
        if self._leaves is None and self._source is not None:
            self._leaves = _leaves_of(self._source, None if self._whole is not None else self.text)
        return self._leaves

    def expand(self) -> bool:
        """Read the whole payload of a unit shown cut short; whether there was more to read."""
        if self._whole is None:
            return False
        self.text = self._whole()
        self._whole = None
        self._folded = self._amounts = self._dates = self._digits = self._words = None
        self._tokens = self._letters = self._listing = None
        return True

    def holds(self, entity: Entity) -> bool:
        """Whether this unit holds ``entity``, in any form that compares equal."""
        tokens = self._tokens
        if tokens is not None and entity.kind == "id":  # the usual case, quickly
            token = entity.key[3:]
            if (token in tokens or "#" + token in tokens) and token not in self._joined:
                return True
        return self._holds(entity) or (self.expand() and self._holds(entity))

    def _holds(self, entity: Entity) -> bool:
        kind, key = entity.kind, entity.key
        if kind == "id":
            token = key[3:]
            if self._tokens is not None:
                return self._in_tokens(token)
            if self._folded is None:
                text = self.text
                self._folded = text.lower() if text.isascii() else text.casefold()
            self._asked += 1
            if self._asked > _SEARCHES and _ONE_TOKEN.fullmatch(token) is not None:
                # Asked about many identifiers (an item listing a payload's ids): one pass.
                self._tokens = _utf8_tokens(self._folded.encode("utf-8", "surrogatepass"))
                # Whether it writes anything in groups (a digit beside a space and a letter or
                # digit), once: only then may a long identifier be in it apart.
                self._spread = _SPREAD.search(self._folded) is not None
                self._joined = frozenset(_JOINED.findall(self._folded))
                return self._in_tokens(token)
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

    def _in_tokens(self, token: str) -> bool:
        """:meth:`_holds` of an identifier by the token set: a token the text also writes
        joined to more (:data:`_JOINED`) is searched for, as the set cannot tell whether it
        is ever written alone (:func:`.learned.extended`), and so is an identifier written
        joined (``a-1001/b``), which the set holds in pieces."""
        tokens = self._tokens
        assert tokens is not None
        assert self._folded is not None
        if token in self._joined or _ONE_TOKEN.fullmatch(token) is None:
            return holds_token(self._folded, token)
        return token in tokens or "#" + token in tokens or self._grouped(token)

    def _grouped(self, token: str) -> bool:
        """Whether the unit writes ``token`` in groups (``DE89 3704 0044 ...``), which its
        token set cannot tell: the answer :func:`holds_token` gives before the set is made,
        however many identifiers were asked about first."""
        if not self._spread or len(token) < GROUPED_MIN or self._folded is None:
            return False
        return any(c.isdigit() for c in token) and holds_token(self._folded, token)

    def words(self) -> set[str]:
        """Every word of the unit, folded (of the part shown, until :meth:`expand`); of a tool
        payload, the words of its keys and short values only (see :func:`established`)."""
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
                grouped, maps = self._grouping()
                self._groups = record_lists(self._payload[1], maps) if grouped else {}
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
                text = f"{name} {render_payload(about(value, drop), 1 << 40, 1 << 40)}"
                scoped = Unit(self.tier, text)
            self._scoped[key] = scoped
        return missing if scoped is self else scoped.unsaid(words)

    def may_group(self) -> bool:
        """Whether the unit's payload may hold a group of records (:meth:`apart`)."""
        return self._source is not None and self._grouping()[0]

    def _grouping(self) -> tuple[bool, bool]:
        """:func:`may_group` and :func:`two_lists` of the text, searched once per text: an item
        asks of every unit it cites, and a payload's text is long."""
        if self._listing is None:
            self._listing = (may_group(self.text), two_lists(self.text))
        return self._listing

    def apart(self, words: list[str], entities: Sequence[Entity]) -> list[str]:
        """Of ``words`` (none of which another cited unit says), those this unit does not say
        when each group of records about none of the item's identifiers (a list of
        decisions, a map of lists) lends its words from one record only: what a payload
        says of one record ("fee waiver": "denied") is not said with the word of another
        ("refund": "approved")."""
        if not words or self._source is None or not self._grouping()[0]:
            return self.unsaid(words)
        tokens = tuple(sorted(e.key[3:] for e in entities if e.kind == "id"))
        if self._groups is None:
            self._groups = record_lists(self._source[1], self._grouping()[1])
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
                payload = render_payload(about(value, drop), 1 << 40, 1 << 40)
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
        if self._source is None or not self._grouping()[0]:
            return False
        if self._groups is None:
            self._groups = record_lists(self._source[1], self._grouping()[1])
        grouped = self._grouped_words()
        return any(not forms(word).isdisjoint(grouped) for word in words)

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
            text = established(text)
            if self._echo is not None:
                text = self._echo(text)
        return text


def _leaves_of(source: tuple[str, Any], line: str | None) -> Payload:
    """:func:`read_payload` of ``source``, read once per check (:mod:`._scope`) for a payload
    whose ``line`` (the tool's name and the payload, whole) is ASCII: two events with one line
    and equal payloads (a session that reads the same order twice) hold one reading. The
    line tells ``1`` from ``1.0`` and ``true``, which compare equal; equality tells a string
    from a value the renderer wrote as one. A line cut short is read on its own."""
    readings = current()
    if readings is None or line is None or not line.isascii():
        return read_payload(*source)
    key = (source[0], line)
    seen = readings.payloads.get(key)
    if seen is not None and seen[0] == source[1]:
        return seen[1]
    found = read_payload(*source)
    readings.payloads[key] = (source[1], found)
    return found
