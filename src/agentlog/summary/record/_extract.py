"""Heuristics of the extractive summariser about tools: which tools write, and how a tool
payload becomes one line of text (the conversation's sentences:
:mod:`~agentlog.summary.record._sentences`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any, Final

from agentlog.summary.record._scan import amount_key
from agentlog.summary.record._scope import current
from agentlog.summary.record._words import forms, word_set
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.learned import identifier_shaped, is_id_key

__all__ = [
    "READ_VERBS",
    "action_of",
    "args_text",
    "is_status_key",
    "prose_of",
    "says_done",
    "says_what_it_did",
    "shown_amount",
    "SALIENT_KEYS",
    "WRITE_VERBS",
    "clip",
    "failed",
    "fields_text",
    "holds",
    "kept_fields",
    "is_lookup",
    "is_state_changing",
    "payload_text",
    "scalar",
    "thing_of",
    "unwrap",
    "words_of",
]

WRITE_VERBS: Final = frozenset(
    {
        "activate", "add", "adjust", "adjustment", "apply", "approve", "archive", "assign", "block",
        "book", "cancel", "change", "charge", "close", "confirm", "connect", "correct", "create",
        "credit", "deactivate", "delete", "disable", "disconnect", "downgrade", "edit", "enable",
        "escalate", "exchange", "file", "grant", "insert", "install", "issue", "lock", "make",
        "modify", "move", "open", "pay", "place", "post", "put", "raise", "reboot", "redirect",
        "refuel", "refund", "register", "reject", "remove", "rename", "renew", "replace", "request",
        "reschedule", "reseat", "reset", "restart", "restore", "resume", "return", "revoke", "save",
        "schedule", "send", "set", "submit", "subscribe", "suspend", "switch", "toggle", "transfer",
        "turn", "unblock", "uninstall", "unlock", "unsubscribe", "update", "upgrade", "write",
    }
)  # fmt: skip
"""Words of a tool name that say it changes something."""

READ_VERBS: Final = frozenset(
    {
        "analyse", "analyze", "browse", "calculate", "can", "check", "compare", "count",
        "describe", "detect", "diagnose", "display", "estimate", "explain", "fetch", "find",
        "forecast", "get", "has", "inspect", "is", "list", "locate", "look", "lookup",
        "monitor", "ping", "predict", "preview", "query", "quote", "read", "recommend",
        "retrieve", "run", "search", "show", "simulate", "suggest", "summarise", "summarize",
        "test", "trace", "track", "validate", "verify", "view",
    }
)  # fmt: skip
"""First words of a tool name that say it only reads."""

_NAME_WORD: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
SALIENT_KEYS: Final = frozenset(
    {"error", "message", "name", "reason", "result", "status", "title", "type", "description"}
)
"""Payload keys whose values lead a tool result's fact."""

_LEAF_SKIP: Final = frozenset({None, "", False})
_ERROR_START: Final = re.compile(r"^\s*(?:error|failed|failure)\b", re.IGNORECASE)


def is_lookup(name: str) -> bool:
    """Whether a tool's name says it only reads (``get_order``, ``lookup_order``)."""
    words = _NAME_WORD.findall(name)
    return bool(words) and words[0].lower() in READ_VERBS


def is_state_changing(
    name: str,
    args: Mapping[str, Any] | None = None,
    result: Any = None,
    *,
    delta: bool = False,
) -> bool:
    """Whether a tool call may have changed something, so that it is a decision: read from
    its name, and from its arguments and result when given (the one rule every user applies:
    the summariser, the validator's expected entities, the bench).

    In order: a name whose first word reads (``get_order``, ``check_status``) reads; one whose
    first word writes (``cancel_order``, ``reissue_payment``: ``re`` or ``un`` and a writing
    verb) writes; a call that changed the session's state (``delta``), or whose result says
    its first word was done (``accept_settlement``: ``"status": "accepted"``; ``withdraw``:
    ``withdrawn``; ``release_hold``: ``"released": true``; ``"changed": true``; a prose
    result "Payment voided") writes; a writing verb anywhere (``order_cancel``) writes. With
    the arguments: a name whose first word is a noun an argument's key names
    (``order_status(order_id)``), or whose last word is a read verb or names what is read
    (``user_lookup``, ``subscription_details``) reads; one whose result holds an identifier no
    argument held under a key naming the tool (what it created: ``{"invoice_no": "INV-1"}``)
    or a status saying a change (``"status": "credit_issued"``) writes, as does a verb before
    an object an argument's key names (``waive_fee(fee_id)``); the rest reads. Without the
    arguments those last rules stay silent, so what is a write by name and result alone is
    one with them.
    """
    words = [w.lower() for w in _NAME_WORD.findall(name)]
    if not words or words[0] in READ_VERBS:
        return False
    first = words[0]
    if _writes(first) or delta or _reports_done(first, result):
        return True
    if any(w in WRITE_VERBS for w in words[1:]):
        return True
    if args is None:
        return False
    keyed = {w for k in args for w in words_of(str(k)).split()}
    if first in keyed or words[-1] in _READ_NOUNS or words[-1] in READ_VERBS:
        return False  # ``order_status(order_id)``, ``subscription_details``, ``user_lookup``
    if _made(words, args, result):
        return True
    objects = [w for w in words[1:] if w not in _GRAMMAR and not w.isdigit()]
    return bool(objects) and objects[0] in keyed


_OUTCOMES: Final = frozenset(
    {
        "accepted", "applied", "approved", "assigned", "booked", "cancelled", "canceled",
        "completed", "confirmed", "created", "dispatched", "filed", "granted", "initiated",
        "issued", "lodged", "logged", "opened", "placed", "processed", "queued", "raised",
        "registered", "released", "scheduled", "sent", "submitted", "voided", "waived",
    }
)  # fmt: skip
"""Words a prose result says a change with ("Job RSA-88213 accepted by Kennet Recovery")."""
_READ_NOUNS: Final = frozenset(
    {"availability", "balance", "details", "history", "info", "information", "overview",
     "profile", "status", "summary"}
)  # fmt: skip
"""Last words of a tool name that say it reads what it names (``subscription_details``)."""
_NEW_KEYS: Final = frozenset({"id", "ref", "reference", "code", "number", "confirmation"})


def _made(words: list[str], args: Mapping[str, Any], result: Any) -> bool:
    """Whether a result reports something the call made: an identifier no argument held
    under a key that is a bare identifier's (``id``, ``reference``), says ``new``, or names
    a word of the tool's name (``extend_warranty``: ``warranty_id``); or a prose result
    whose first words say a change (``accepted``, ``scheduled``) or the tool's verb done."""
    prose = prose_of(result)
    if prose is not None:
        said = words_of(prose.split(". ", 1)[0]).split()
        return any(w in _OUTCOMES or _done_form(w, words[0]) for w in said)
    found, _ = unwrap(result)
    if not isinstance(found, dict):
        return False
    held = {v.lstrip("#").casefold() for v in map(scalar, args.values()) if v}
    named = {*words, words[0] + "ing", "new"}
    for k, v in found.items():
        key = str(k)
        short = isinstance(v, str) and is_status_key(key) and len(v) <= _STATUS_CHARS
        if short and not _OUTCOMES.isdisjoint(words_of(str(v)).split()):
            return True  # ``"status": "provisional_credit_issued"``
        if not is_id_key(key) or (shown := scalar(v)) is None:
            continue
        if shown.lstrip("#").casefold() in held:
            continue
        key_words = words_of(key).split()
        if set(key_words) <= _NEW_KEYS or not named.isdisjoint(key_words):
            return True
    return False


def _writes(verb: str) -> bool:
    """Whether a name's first word is a writing verb, or ``re``/``un`` and one."""
    if verb in WRITE_VERBS:
        return True
    return verb[:2] in ("re", "un") and verb[2:] in WRITE_VERBS | _RE_VERBS


_RE_VERBS: Final = frozenset({"link", "bind", "pair", "do", "route", "hold", "freeze", "publish"})
"""Verbs that write with ``re`` or ``un`` before them (``unlink``, ``rebind``, ``unfreeze``)."""

_CHANGE_KEYS: Final = frozenset(
    {"changed", "updated", "modified", "created", "saved", "applied", "deleted", "removed"}
)
"""Keys whose true value says the call changed something (``"changed": true``)."""


def _done_form(word: str, verb: str) -> bool:
    """Whether ``word`` says ``verb`` was done (``accepted``, ``withdrawn``, ``shipped``)."""
    if len(verb) < 3 or word == verb or not word.startswith(verb[:3]):
        return False
    if word.endswith("n") and word.startswith(verb) and len(word) <= len(verb) + 2:
        return True  # withdraw: withdrawn
    return word.endswith(("ed", "d")) and word in forms(verb)


def says_done(value: str, name: str, past: str) -> bool:
    """Whether a write's status value says what its action does (``past``, the action's
    verb: ``cancelled``), or the tool's first word done (``withdraw_claim``: ``withdrawn``)."""
    folded = value.casefold()
    words = _NAME_WORD.findall(name)
    return folded == past or (bool(words) and _done_form(folded, words[0].lower()))


def _reports_done(verb: str, result: Any) -> bool:
    """Whether a result says its tool's first word was done: a short status, a key whose
    value is true, or a prose result's word (``voided``), or a change flag."""
    if result is None:
        return False
    found, _ = unwrap(result)
    prose = prose_of(result)
    if prose is not None:
        return any(_done_form(w, verb) for w in words_of(prose).split()[:12])
    if not isinstance(found, dict):
        return False
    for k, v in found.items():
        key = str(k).lower()
        if v is True and (key in _CHANGE_KEYS or _done_form(key, verb)):
            return True
        short = isinstance(v, str) and is_status_key(key) and len(v) <= _STATUS_CHARS
        if short and any(_done_form(w, verb) for w in words_of(str(v)).split()):
            return True
    return False


def clip(text: str, limit: int) -> str:
    """``text`` cut at a word to about ``limit`` characters, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", limit // 2, limit)
    return text[: cut if cut > 0 else limit].rstrip(" ,;") + " …"


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, str(k))
    elif isinstance(value, list):
        if value and all(not isinstance(v, dict | list) for v in value):
            yield key, ", ".join(str(v) for v in value)
        else:
            for v in value:
                yield from _leaves(v, key)
    elif value not in _LEAF_SKIP:
        yield key, value


def payload_text(
    payload: Any, limit: int, entities: Collection[str] = (), patterns: EntityPatterns | None = None
) -> str:
    """A payload's leaves as ``key value; ...``: those holding an entity or a telling key
    (status, name, an amount, ...) first and whole, then the others while ``limit`` allows."""
    if isinstance(payload, dict) and len(payload) == 1:
        (only,) = payload.values()
        if not isinstance(only, dict | list):
            return clip(" ".join(str(only).split()), max(limit, 2 * len(str(only))))
    first: list[str] = []
    rest: list[str] = []
    for key, value in _leaves(payload):
        shown = " ".join(str(value).split())
        part = f"{key} {shown}" if key else shown
        telling = key in SALIENT_KEYS or (patterns is not None and patterns.is_money_key(key))
        if telling or shown in entities or any(e in shown for e in entities if len(e) > 3):
            first.append(part)
        else:
            rest.append(part)
    text = "; ".join(dict.fromkeys(first))
    for part in dict.fromkeys(rest):
        if len(text) + len(part) + 2 > limit:
            return text + " …" if text else clip(part, limit)
        text = f"{text}; {part}" if text else part
    return text


def failed(payload: Any) -> bool:
    """Whether a tool result reports an error."""
    if not isinstance(payload, dict):
        return False
    if payload.get("error"):
        return True
    result = payload.get("result")
    return isinstance(result, str) and bool(_ERROR_START.match(result))


# --- the things a tool result is about ---------------------------------------------------------

_THING_NOISE: Final = frozenset(
    {"by", "data", "detail", "details", "for", "info", "information", "of", "record", "the"}
)


def words_of(key: str) -> str:
    """A JSON key or tool name as words (``new_flight_number``: ``new flight number``); read
    once per check (:mod:`._scope`): a summary reads the same few keys thousands of times."""
    readings = current()
    if readings is None:
        return " ".join(w.lower() for w in _NAME_WORD.findall(key)) or key
    words = readings.key_words.get(key)
    if words is None:
        words = readings.key_words[key] = (
            " ".join(w.lower() for w in _NAME_WORD.findall(key)) or key
        )
    return words


def thing_of(key: str, tool: str) -> str:
    """What an identifier names, read from its key (``booking_code``: ``booking``) or, for a
    bare ``id``, from the tool's name (``get_booking``: ``booking``)."""
    words = [w.lower() for w in _NAME_WORD.findall(key)][:-1]
    if not words:
        words = [w.lower() for w in _NAME_WORD.findall(tool)]
        words = words[1:] if words and words[0] in READ_VERBS else words
    named = [w for w in words if w not in _THING_NOISE]
    return " ".join(named) or "record"


def unwrap(payload: Any) -> tuple[Any, str]:
    """A result without its one-key wrappers (``{"booking": {...}}``), and the last key left."""
    key = ""
    while isinstance(payload, dict) and len(payload) == 1:
        ((k, inner),) = payload.items()
        if not isinstance(inner, dict | list):
            break
        key, payload = str(k), inner
    return payload, key


def scalar(value: Any) -> str | None:
    """A leaf value as one line of text; a list of leaves joined; ``None`` for the others."""
    if isinstance(value, list) and value and all(not isinstance(v, dict | list) for v in value):
        return ", ".join(" ".join(str(v).split()) for v in value)
    if isinstance(value, dict | list) or value in _LEAF_SKIP:
        return None
    return " ".join(str(value).split())


def holds(shown: str, entities: Collection[str]) -> bool:
    """Whether a shown value holds one of ``entities`` (texts of entities a record keeps)."""
    return shown in entities or any(e in shown for e in entities if len(e) > 3)


_STATUS_CHARS: Final = 30
"""A status longer than this is prose, not a status: it is not shown for its key alone."""


def _scalars(value: Any, key: str = "") -> list[tuple[str, str]]:
    """Every leaf of a payload as ``(key, text)``, a list's leaves one by one, in order."""
    # Appended to one list: a generator per container passed each leaf up through every
    # level above it.
    leaves: list[tuple[str, str]] = []
    _add_scalars(value, key, leaves)
    return leaves


def _add_scalars(value: Any, key: str, into: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _add_scalars(v, str(k), into)
    elif isinstance(value, list):
        for v in value:
            _add_scalars(v, key, into)
    elif value not in _LEAF_SKIP and value is not True:
        into.append((key, " ".join(str(value).split())))


def _code(value: str) -> bool:
    """Whether a value is one token of letters and digits (``22A``, ``EMD-0457712``)."""
    return (
        " " not in value
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
        and len(value) <= _STATUS_CHARS
    )


_CLOCK: Final = r"(?:[01]?\d|2[0-3])(?::[0-5]\d)?(?: ?[ap]\.?m\.?)?"
_TIME_SPAN: Final = re.compile(
    rf"{_CLOCK}(?: ?(?:-|\u2013|\u2014|to|until) ?{_CLOCK})?", re.IGNORECASE
)


def _time_span(value: str) -> bool:
    """Whether a value is a clock time or a window of two (``14:00``, ``13:00 to 17:00``,
    ``08:00\u201312:00``, ``1-5pm``): when a booked thing happens, which a write's decision
    keeps with its date."""
    return (
        len(value) <= _STATUS_CHARS
        and (":" in value or "m" in value.casefold())
        and _TIME_SPAN.fullmatch(value) is not None
    )


def kept_fields(
    payload: Any,
    entities: Collection[str],
    skip: Collection[str] = (),
    *,
    codes: bool = False,
    parts: bool = False,
) -> list[tuple[str, str]]:
    """What a record shows of a payload: at most one short status-like field of its top
    level; with ``codes`` (what a write did), its top-level codes (``new seat 22A``); with
    ``parts`` (one object read), the identifiers of the first entries of its top-level lists
    (an order's lines); then the leaves, at any depth, that hold an entity the record must
    keep (values under one key joined), each value once; values in ``skip`` (said already)
    left out. The rest of the payload is the cited result's to show."""
    status: tuple[str, str] | None = None
    top: list[tuple[str, str]] = []
    seen: set[str] = set(skip)
    if isinstance(payload, dict):
        for k, v in payload.items():
            shown = scalar(v)
            if shown is None:
                if parts and isinstance(v, list):
                    ids = list(dict.fromkeys(i for i in map(_part_id, v) if i and i not in seen))
                    more = len(ids) > _PARTS
                    ids = ids[:_PARTS]
                    if ids:
                        top.append((str(k), ", ".join(ids) + (" …" if more else "")))
                        seen.update(ids)
            elif status is None and is_status_key(str(k)) and len(shown) <= _STATUS_CHARS:
                if shown not in seen:
                    status = (str(k), shown)
                    seen.add(shown)
            elif codes and shown not in seen and (_code(shown) or _time_span(shown)):
                top.append((str(k), shown))
                seen.add(shown)
    by_key: dict[str, list[str]] = {}
    # :func:`holds`, its filter made once; shortest first, so that a leaf is searched only
    # for the entities that fit in it (most leaves are shorter than most entities).
    long = sorted((e for e in entities if len(e) > 3), key=len)
    sizes = [len(e) for e in long]
    for key, shown in _scalars(payload):
        if shown not in seen and (
            shown in entities
            or any(e in shown for e in islice(long, bisect_right(sizes, len(shown))))
        ):
            seen.add(shown)
            by_key.setdefault(key, []).append(clip(shown, _FIELD_CHARS))
    fields = [*top, *((k, ", ".join(vs)) for k, vs in by_key.items())]
    return [status, *fields] if status is not None else fields


_PARTS: Final = 5
"""An object's list shows the identifiers of its first entries, this many."""


def _part_id(entry: Any) -> str | None:
    """An entry's identifier: its first value under a key naming one, or shaped like one."""
    if not isinstance(entry, dict):
        return None
    for k, v in entry.items():
        shown = scalar(v)
        if shown is not None and (
            is_id_key(str(k)) or (isinstance(v, str) and identifier_shaped(v))
        ):
            return shown
    return None


_BARE_KEYS: Final = frozenset({"", "result", "message", "description"})
"""Keys whose name says nothing a reader needs: their values are shown alone."""
_FIELD_CHARS: Final = 120
"""A telling field's value (a message, a description) is cut to about this many characters."""


def fields_text(fields: Iterable[tuple[str, str]]) -> str:
    """``key value, ...`` with keys as words (a result's or message's value alone; an
    identifier's key without its ``id``), amounts of float maths at cents."""
    pairs = _addresses(list(fields))
    keys = {w for k, _ in pairs if not is_status_key(k) for w in words_of(k).split()}
    parts = []
    for k, v in pairs:
        if is_status_key(k) and set(v.casefold().split()) <= keys:
            continue  # "shipped" beside "shipped on 2026-09-28" says it twice
        named = field_name(k, v)
        parts.append(f"{named} {shown_amount(v)}" if named else shown_amount(v))
    return ", ".join(parts)


_ADDRESS_PARTS: Final = frozenset(
    {"address", "street", "city", "town", "state", "province", "region", "county", "zip",
     "postcode", "postal", "country"}
)  # fmt: skip
"""First words of the keys of an address's parts (``address1``, ``city``, ``zip``)."""


def _addresses(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``pairs`` with each run of an address's parts as one ``address`` field (``address 44
    Larch Court, Apt 3B, Duluth, MN, 55802``)."""
    out: list[tuple[str, str]] = []
    run: list[tuple[str, str]] = []
    for k, v in [*pairs, ("", "")]:
        words = words_of(k).split()
        if words and words[0] in _ADDRESS_PARTS:
            run.append((k, v))
            continue
        out.extend([("address", ", ".join(v for _, v in run))] if len(run) > 1 else run)
        run = []
        if k or v:
            out.append((k, v))
    return out


_WHEN_WORD: Final = re.compile(r"(?:^| )(?:date|dates|at|on|time|datetime|day)$")
"""The last word of a key naming a time, which a date shows it is (``shipped on 2026-09-28``
reads ``shipped 2026-09-28``)."""
_DATE_VALUE: Final = re.compile(r"^\d{4}-\d\d-\d\d")


def field_name(key: str, value: str) -> str:
    """How a field's key reads before its value: as words, without what the value shows
    itself (a status's key, an identifier's ``id``, a date's ``date`` or ``on``, a word the
    value repeats: ``voucher voucher_61877``); empty when nothing is left."""
    if key in _BARE_KEYS or is_status_key(key):
        return ""
    named = _ID_WORD.sub("", words_of(key))
    if _DATE_VALUE.match(value):
        named = _WHEN_WORD.sub("", named)
    if named and set(named.split()) & set(words_of(value).split()):
        return ""
    if _WORDED_ID.match(value):
        return ""  # credit_card_8554680 says what it is
    return named


_WORDED_ID: Final = re.compile(r"^(?=[a-z]*[a-z]{3})[a-z]+(?:_[a-z]+)*_\d{3,}(?:, |$)")
"""An identifier spelled as words and a number (``credit_card_8554680``, ``voucher_61877``):
it reads without its key."""


_ID_WORD: Final = re.compile(r"(?:^| )(?:id|ids|number|numbers|code|codes)$")
"""The last word of a key naming an identifier, which its value shows it is (``refund id
R-7781`` reads ``refund R-7781``)."""


_FLOAT_TAIL: Final = re.compile(r"\d+\.\d{6,}")
"""A number with the decimals of float maths (``13.750000000000028``), not a measure's
three (``2.675``)."""


def shown_amount(value: str) -> str:
    """``value`` with each number of float maths at cents (``13.75``), rounded as the
    validator's amount keys are, so the record and the transcript's value share a key."""
    if "." not in value:
        return value

    def cents(m: re.Match[str]) -> str:
        key = amount_key(m[0])
        return key.removeprefix("money:") if key is not None else m[0]

    return _FLOAT_TAIL.sub(cents, value)


_STATUS_WORDS: Final = frozenset({"status", "state"})


def is_status_key(key: str) -> bool:
    """Whether a payload key names a status (``status``, ``order_status``, ``state``)."""
    words = words_of(key).split()
    return bool(words) and words[-1] in _STATUS_WORDS


_PAST: Final = {
    "admit": "admitted", "buy": "bought", "cancel": "cancelled", "commit": "committed",
    "drop": "dropped", "find": "found", "freeze": "froze", "get": "looked up", "give": "gave",
    "hold": "held", "lookup": "looked up", "make": "made", "pay": "paid", "plan": "planned",
    "put": "put", "read": "read", "refer": "referred", "reset": "reset", "run": "ran",
    "sell": "sold", "send": "sent", "set": "set", "ship": "shipped", "stop": "stopped",
    "submit": "submitted", "take": "took", "transfer": "transferred", "unfreeze": "unfroze",
    "withdraw": "withdrew", "write": "wrote",
}  # fmt: skip
_NOT_PAST: Final = frozenset({"can", "has", "is"})


def _past(verb: str) -> str:
    if verb in _PAST:
        return _PAST[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return verb[:-1] + "ied"
    return verb + "ed"


def action_of(name: str, *, wrote: bool = False) -> str:
    """A tool's name as what it did, capitalised (``change_flight``: ``Changed flight``;
    ``get_order_details``: ``Looked up order details``); a name whose first word is no verb
    we know reads as its words, but for a write (``wrote``) with no writing verb after it:
    its first word is the verb (``withdraw_claim``: ``Withdrew claim``; ``price_adjustment``
    stays)."""
    words = words_of(name).split()
    verb = bool(words) and (words[0] in WRITE_VERBS or words[0] in READ_VERBS or _writes(words[0]))
    if wrote and words and not verb:
        verb = words[0].isalpha() and not any(w in WRITE_VERBS for w in words[1:])
    if verb and words[0] not in _NOT_PAST:
        words[0] = _past(words[0])
    text = " ".join(words)
    return text[:1].upper() + text[1:]


_FROM_KEYS: Final = frozenset({"from", "origin", "source", "departure"})
_TO_KEYS: Final = frozenset({"to", "destination", "target", "arrival"})


def args_text(values: Iterable[tuple[str, str]]) -> str:
    """A call's argument values, keys left out (``LIS→OPO 2026-05-14``): a route's two ends
    (keys ``from`` and ``to``, ``origin`` and ``destination``, ...) joined by an arrow."""
    pairs = list(values)
    parts: list[str] = []
    i = 0
    while i < len(pairs):
        key, value = pairs[i]
        first = words_of(key).split()[:1]
        after = words_of(pairs[i + 1][0]).split()[:1] if i + 1 < len(pairs) else []
        if first and after and first[0] in _FROM_KEYS and after[0] in _TO_KEYS:
            parts.append(f"{value}→{pairs[i + 1][1]}")
            i += 2
            continue
        parts.append(shown_amount(value))
        i += 1
    return " ".join(parts)


_GRAMMAR: Final = frozenset({"by", "for", "of", "the", "to", "a", "an", "on", "in"})


def says_what_it_did(prose: str, name: str) -> bool:
    """Whether a tool's prose result names what the tool acts on (``toggle_airplane_mode``:
    "Airplane Mode is now OFF"), so that it reads without the tool's name."""
    words = words_of(name).split()
    if words and (words[0] in READ_VERBS or words[0] in WRITE_VERBS):
        words = words[1:]
    said = word_set(prose)
    named = [w for w in words if w not in _GRAMMAR and not w.isdigit()]
    return bool(named) and all(not forms(w).isdisjoint(said) for w in named)


def prose_of(payload: Any) -> str | None:
    """A result that is prose (a string, or a dict of one string): its text on one line."""
    if isinstance(payload, dict) and len(payload) == 1:
        (payload,) = payload.values()
    if isinstance(payload, str) and " " in payload.strip():
        return " ".join(payload.split())
    return None
