"""Words saying a payload's value is not a fact now: what would be, could be, or is pretended.

A tool's answer may hold the very words of a claim and still not say they are so (issue 13,
round 9): ``{"preview": {"refund_approved": true}}`` is what an approval would look like,
``"can_approve_refund": true`` says the act is allowed, not done, ``"approved_if": "..."``
says it holds on a condition, and ``{"dry_run": true, "refund_approved": true}`` is a
rehearsal of the call. This module holds that grammar (English words, and the words of the
languages of :mod:`._languages` where a tool writes them as values); :mod:`._walk` and
:mod:`.evidence` hold the hooks that read a payload by it:

- a **context** word of a key (:data:`CONTEXTS`: ``preview``, ``simulation``, ``sample``,
  ``proposed``, ``forecast``, ``what_if``, ``available_actions``) says the object, the list
  or the phrase under it is not the thing now (a name or a date under it, holding digits, is
  read as any key's), and its flag (``"draft": true``; not ``"available": true``, of
  :data:`_HOLDERS`) says so of the object holding it;
- a **modal** word of a key (:data:`MODAL`: ``can``, ``allowed``, ``permissions``,
  ``auto``, ``if``) says what may be, or on what terms: its value, whatever it is, states no
  act;
- a **setting** (:data:`SETTINGS`) says the whole call was not real: a flag of its words
  (``"dry_run": true``, ``"validate_only": true``, ``"mock": true``), one of its words under
  a key naming the call's mode (:data:`MODE_KEYS`: ``"environment": "sandbox"``), or a live
  flag that says no (``"livemode": false``). Its result is read as a failed call's is;
- a **waiting** flag (:data:`WAITING`: ``"awaiting_confirmation": true``,
  ``confirmation_required``, ``pending_review``) says its object waits on the act it names:
  its states are not so yet, as a draft's are not (round 11);
- a value naming a data type (:data:`TYPE_NAMES`: ``{"refund_approved": "boolean"}``) is a
  schema's, saying what a field may hold, not what it holds;
- a key naming the request and nothing else (:data:`REQUESTS`: ``requested``, ``input``,
  ``params``, ``you_sent``, ``received``) says what it holds is what the call was sent,
  handed back, as a context's is;
- a key saying its object's state ended (:data:`ENDED`: ``superseded_by``, ``reverted_at``)
  undoes the object's states, as a revocation does (:data:`._keys.UNDOING`).

A word of grammar the item cannot write (``can``, ``would``, ``if`` are stop words) makes
what it marks bind nothing; a word it can write (``preview``, ``draft``, ``auto``) makes it
bind only an item that says it too ("the draft refund is approved"), as a comment on a state
does (:func:`._values._tail`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from agentlog.summary.record._payload import _decision_word
from agentlog.summary.record._words import STOP_WORDS

__all__ = [
    "BOUNDS",
    "CONTEXTS",
    "ENDED",
    "MODAL",
    "MODE_KEYS",
    "REQUESTS",
    "SETTINGS",
    "TYPE_NAMES",
    "WAITING",
    "WORDS",
    "mark",
    "marks",
    "not_real",
    "type_name",
]

SETTINGS: Final = frozenset(
    {"dry", "mock", "mocked", "simulate", "simulated", "simulation", "sandbox", "sandboxed"}
    | {"test", "testing", "staging", "validate", "validation", "rehearsal", "demo", "fake"}
    | {"dev", "development", "qa", "uat", "preprod"}
    # The same settings as a tool of another language writes them (folded, no accents).
    | {"prueba", "simulacion", "simulacao", "simulazione", "testmodus", "probelauf", "essai"}
)
"""Words saying a call was not real: a rehearsal (``dry_run``), a check of its input only
(``validate_only``), a simulation or a mock, or a run outside the real system (a sandbox, a
test or staging environment). Not "preview" nor "draft": a draft is a real thing."""
MODE_KEYS: Final = frozenset({"mode", "environment", "env", "context", "execution"})
"""Key words naming the setting a call ran in, whose value may be one of :data:`SETTINGS`
(``"environment": "sandbox"``, ``"mode": "test"``; ``"production"`` and ``"live"`` are real)."""
_LIVE: Final = frozenset({"live", "livemode", "production", "real"})
"""Key words of a flag saying the call ran for real, so that ``false`` says it did not."""
CONTEXTS: Final = frozenset(
    {"preview", "previews", "simulation", "simulations", "simulated", "sample", "samples"}
    | {"example", "examples", "quote", "quotes", "quotation", "proposed", "proposal"}
    | {"proposals", "hypothetical", "forecast", "forecasts", "forecasted", "projection"}
    | {"projected", "mock", "mocked", "draft", "drafts", "template", "templates", "demo"}
    | {"dummy", "placeholder", "estimate", "estimated", "suggested", "suggestion", "scenario"}
    | {"scenarios", "whatif", "dry", "would", "if", "pretend", "sandbox", "schema", "schemas"}
    | {"expected", "predicted", "prediction", "recommended", "recommendation", "intended"}
    | {"available"}
    | {"vorschau", "entwurf", "brouillon", "borrador", "bozza", "rascunho", "apercu"}
    | {"staged", "unsaved", "uncommitted", "pending", "tentative", "unconfirmed", "scheduled"}
    | {"queued", "awaiting", "upcoming", "planned"}
)
"""Words of a key saying that what it holds is an instance of the thing that is not the
thing now: a preview, a simulation, a sample or an example, a quote or a proposal, a
forecast or an estimate, a draft, a what-if (``what_if``, ``would_result_in``), what is on
offer (``available_actions``), a change not yet made (``staged_changes``,
``pending_changes``, ``unsaved``, ``"tentative": true``, ``scheduled_action``, what is
``queued``, ``awaiting`` or ``upcoming``)."""
REQUESTS: Final = frozenset(
    {"request", "requested", "requests", "input", "inputs", "params", "parameters"}
    | {"arguments", "args", "echo", "echoed", "asked"}
)
"""Words of a key saying that what it holds is what the call was sent, handed back
(``"requested": {...}``, ``"input"``, ``"params"``, ``"original_request"``, ``"asked_for"``):
the request, not what the tool made of it, which the result says beside it (``"status":
"rejected"``). Read as a context's, never as a flag's (``"requested": true`` is a state), and
only of a key that names nothing else (:data:`_REQUEST_GRAMMAR`: ``you_sent``, ``received``,
``query``, ``submitted``;
not ``refund_request``, the refund's request, nor ``link_sent_to`` or ``payment_received``,
which say what the tool did). Not "provisional" among the contexts either: a provisional
credit is posted."""
_REQUEST_GRAMMAR: Final = frozenset(
    {"original", "you", "your", "the", "was", "were", "for", "as", "raw", "given", "call"}
    | {"tool", "what", "we", "us", "body", "data", "payload"}
)
"""Words a key naming the request may hold beside :data:`REQUESTS` (``original_request``,
``you_sent``, ``asked_for``, ``request_body``), or alone (``"received": {...}``): any other word
names a thing (round 11)."""
MODAL: Final = frozenset(
    {"can", "could", "may", "might", "should", "shall", "would", "allowed", "allow"}
    | {"allows", "permitted", "permit", "permits", "permission", "permissions", "capability"}
    | {"capabilities", "able", "possible", "auto", "automatic", "automatically"}
    | {"if", "unless", "whether"}
)
"""Words of a key saying what may be done, or on what terms, not what was: a capability
(``can_approve_refund``), a permission (``permissions``, ``unlock_allowed``), a rule that
would act (``auto_approve_refund_below``) or a condition (``approved_if``)."""
ENDED: Final = frozenset(
    {"superseded", "reverted", "invalidated", "annulled", "nullified", "overridden"}
    | {"overruled", "vacated", "rolledback", "expired", "lapsed"}
)
"""Words of a key saying its object's state ended (``superseded_by``, ``reverted_at``),
beside the revocations of :data:`._words.REVERSALS`."""
BOUNDS: Final = frozenset(
    {"max", "maximum", "min", "minimum", "limit", "cap", "ceiling", "floor", "threshold"}
    | {"upto", "allowance", "eligible", "allowable", "remaining", "available"}
)
"""Words of a key saying its figure bounds what may be (``max_refund``, ``refund_limit``),
not what is: a ceiling is not the sum granted (:func:`._misstated.other_amount`)."""
TYPE_NAMES: Final = frozenset(
    {"boolean", "bool", "string", "str", "integer", "int", "number", "float", "double"}
    | {"decimal", "object", "array", "list", "dict", "map", "date", "datetime", "timestamp"}
    | {"enum", "uuid", "text", "varchar", "bigint", "smallint", "json", "null", "any"}
)
"""The names of data types in JSON Schema, Python and SQL: a value that is one only names
what its key may hold (``{"fields": {"refund_approved": "boolean"}}``)."""

_HOLDERS: Final = frozenset(
    {"expected", "predicted", "prediction", "recommended", "recommendation", "intended"}
    | {"schema", "schemas", "would", "if", "whatif", "quote", "quotes", "available"}
    | {"scheduled", "upcoming", "planned"}
    | REQUESTS
)
"""Context words that say so of what their key holds, but as a flag say another thing of
their object (``"recommended": true`` of a product is no draft of it, nor ``"available":
true`` of an item in stock)."""
WAITING: Final = frozenset(
    {"awaiting", "await", "awaits", "waiting", "pending", "required", "requires", "require"}
    | {"needs", "needed", "need", "outstanding"}
)
"""Words of a flag's key saying its object waits on an act (``awaiting_confirmation``,
``confirmation_required``, ``requires_approval``, ``pending_review``): until the act, its
states are not so (round 11)."""
_ACTS_AWAITED: Final = frozenset({"review", "consent", "signoff", "confirm", "approve"})
"""Nouns and verbs of a decision that :func:`._payload._decision_word`'s endings miss: what
a waiting flag may name besides ``confirmation``, ``approval``, ``authorization``."""
_NONE: Final[frozenset[str]] = frozenset()
_TRUE_STRINGS: Final = frozenset({"true", "yes", "y", "on", "1"})
_FLAG_GRAMMAR: Final = frozenset(
    {"is", "run", "mode", "only", "flag", "on", "use", "call", "request", "just", "enabled"}
)
"""Words a flag's key may hold beside its context or setting (``is_test``, ``dry_run``,
``validate_only``, ``test_mode``): any other word names a state (``test_passed``)."""
_ASKING: Final = REQUESTS | {"sent", "received", "query", "submitted"}
"""The words of a key naming the request, alone or beside :data:`_REQUEST_GRAMMAR` only."""
WORDS: Final = CONTEXTS | MODAL | SETTINGS | MODE_KEYS | _LIVE | _ASKING | WAITING
"""Every word by which a key may say its value is not a fact: a key holding none is read as
it always was (:func:`marks` is asked only of the others)."""
_NOT_REAL: Final = SETTINGS | _LIVE


def _on(value: Any) -> bool:
    """Whether a flag's value says yes (``true``, ``"yes"``, ``1``)."""
    if value is True:
        return True
    if isinstance(value, str):
        return value.strip().lower() in _TRUE_STRINGS
    return type(value) is int and value == 1


def _worded(value: str) -> bool:
    """Whether a context's string value is what it holds, in words or as JSON
    (``"recommended_action": "approve refund"``), not a name, a date or an address that
    holds digits (``"quote_id": "Q-77"``, ``"estimated_delivery": "2026-09-25"``): those
    are read as any key's."""
    return value[:1] in "{[" or (bool(value) and not any(c.isdigit() for c in value))


def type_name(value: str) -> bool:
    """Whether a string value is the name of a data type (:data:`TYPE_NAMES`)."""
    return len(value) <= 9 and value.strip().lower() in TYPE_NAMES


def marks(runs: frozenset[str], value: Any) -> tuple[frozenset[str], bool] | None:
    """Whether a key (``runs``: its letter runs, lower case) and its value say something is
    not a fact: the words saying so, and whether it is the value (``True``: a modal key,
    whatever its value, ``"can_approve_refund": true``; a context holding an object or a
    list, ``"preview": {...}``) or the object holding the key (``False``: a flag,
    ``"draft": true``, ``"dry_run": true``, ``"mode": "test"``, ``"livemode": false``)."""
    modal = runs & MODAL
    if modal:
        return modal, True
    context = runs & CONTEXTS
    if not runs.isdisjoint(_ASKING) and not runs - _ASKING - _REQUEST_GRAMMAR:
        context = context | (runs & _ASKING)  # "requested": {...}, "you_sent": the request
    if context and (
        isinstance(value, dict | list | tuple) or (isinstance(value, str) and _worded(value))
    ):
        return context, True
    flagged = (context - _HOLDERS) | (runs & SETTINGS)
    if flagged and _on(value) and not runs - CONTEXTS - SETTINGS - _FLAG_GRAMMAR:
        return flagged, False  # "dry_run": true; not "test_passed": true, a state
    if _on(value) and (waited := _waits(runs)):
        return waited, False  # "awaiting_confirmation": true: not so until confirmed
    if isinstance(value, str) and not runs.isdisjoint(MODE_KEYS):
        said = SETTINGS.intersection(value.lower().replace("-", " ").replace("_", " ").split())
        return (frozenset(said), False) if said else None
    if value is False and not runs.isdisjoint(_LIVE):
        return runs & _LIVE, False  # "livemode": false
    return None


def _waits(runs: frozenset[str]) -> frozenset[str]:
    """The words of a flag's key saying its object waits on an act (:data:`WAITING`), when
    its other words name only that act, a decision (``confirmation``, ``approval``,
    ``review``): ``"signature_required": true`` of a delivery says what it needs, not that it
    is not yet; ``has_pending_refund`` is said of another thing than its object."""
    if runs.isdisjoint(WAITING):
        return _NONE
    rest = runs - WAITING - _FLAG_GRAMMAR
    if any(w not in _ACTS_AWAITED and not _decision_word(w) for w in rest):
        return _NONE
    return runs - _FLAG_GRAMMAR


@lru_cache(maxsize=4096)
def _runs(key: str) -> frozenset[str]:
    """A key's letter runs in lower case, camel case split (``dryRun``: dry, run)."""
    return frozenset(_LETTER_RUN.findall(_CAMEL.sub(" ", key).lower()))


_LETTER_RUN: Final = re.compile(r"[^\W\d_]+")
_CAMEL: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")


def not_real(response: Any) -> bool:
    """Whether a result says at its top that its call was not real (a setting: a rehearsal,
    a validation only, a simulation, a mock, a sandbox or a test environment, or a live flag
    saying no): what it holds is what the call would do, as a failed call's is."""
    if not isinstance(response, Mapping):
        return False
    for key, value in response.items():
        runs = _runs(str(key))
        if runs.isdisjoint(_NOT_REAL) and runs.isdisjoint(MODE_KEYS):
            continue  # most keys: no word of a setting
        said = marks(runs, value)
        if said is not None and not said[1] and not said[0].isdisjoint(_NOT_REAL):
            return True
    return False


def mark(found: list[Any], start: int, words: frozenset[str]) -> None:
    """Mark each leaf (:class:`.leaves.Leaf`) stating words in ``found[start:]`` as not a
    fact by ``words``: void when one of them is grammar an item cannot write (``can``,
    ``if``), else binding only an item that writes them too (its tail)."""
    void = not words.isdisjoint(STOP_WORDS)
    for at in range(start, len(found)):
        leaf = found[at]
        if leaf.states:
            found[at] = leaf._replace(void=True) if void else leaf._replace(tail=leaf.tail | words)
