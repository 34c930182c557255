"""What the session's writes did, as decisions: ``<verb phrase> <object id>: <what changed>``
(the object a write acted on, or the one its result created), the same call again right after
as one decision, and an operator's answer to a confirmation."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final

from agentlog.summary.record._extract import (
    action_of,
    clip,
    fields_text,
    is_status_key,
    kept_fields,
    prose_of,
    says_done,
    scalar,
    unwrap,
    words_of,
)
from agentlog.summary.record.learned import identifier_shaped, is_id_key
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._prose import without_repeats
from agentlog.summary.summarisers._terse import (
    no_twice_said_amounts,
    not_said_again,
    with_currency,
)
from agentlog.summary.summarisers._things import changed
from agentlog.summary.summarisers._wording import act, arguments, each

__all__ = ["confirmation", "made_id", "write"]

_WORKED: Final = frozenset(
    {"ok", "okay", "success", "succeeded", "successful", "done", "complete", "completed"}
    | {"updated"}
)
"""Statuses that say only that a write worked (English words of success, of no domain)."""


def write(
    draft: Draft,
    name: str,
    values: list[tuple[str, str]],
    payload: Any,
    texts: Collection[str],
    sources: list[str],
    repeated: Collection[str],
) -> None:
    """A write as a decision: what it did to which object (``Changed flight Q7ZK2M: new
    flight number XY131``), then what its result says the record must keep. The same call
    again right after (the next decision: a toggle on then off) is the same decision, citing
    both, each outcome in order ("Toggled airplane mode: ON, then OFF")."""
    action = action_of(name, wrote=True)
    call = (name, tuple(values))
    said = {v for _, v in values}
    prose = prose_of(payload)
    if prose is not None:
        did = without_repeats(draft, prose, repeated, sources, {*texts, *said}, terse=True)
        did = not_said_again(did, name, action.split(" ", 1)[0], values)
        result = [("", did)] if did else []
        # What the prose shows of the arguments is said once, in the prose.
        values = [kv for kv in values if is_id_key(kv[0]) or kv[1] not in did]
    else:
        result = kept_fields(payload, texts, said | draft.said, codes=True)
        verb = action.split(" ", 1)[0].casefold()
        # A status the verb says already ("Cancelled order: status cancelled", "Withdrew
        # claim: status withdrawn"), or that only says it worked ("updated", "ok"), goes: a
        # decision is a write that worked.
        result = [
            kv
            for kv in result
            if not (
                is_status_key(kv[0])
                and (says_done(kv[1], name, verb) or kv[1].casefold() in _WORKED)
            )
        ]
    acted = _acted_on(name, values)
    made = made_id(name, payload, values) if prose is None else None
    if made is not None:
        result = [kv for kv in result if kv[1] != made[1]]
    values = no_twice_said_amounts(values, result, draft.patterns)
    values = with_currency(values, draft.patterns)
    result = with_currency(result, draft.patterns)
    outcomes = [fields_text(result)]
    again = draft.last_write
    if again is not None and again[0] == call and draft.decisions[-1:] == [again[2]]:
        # Nothing was decided since that call's decision: this one takes its place.
        outcomes = [*again[1], *outcomes]
        sources = [*again[2].sources, *sources]
        if any(outcomes):
            # Each outcome in order: an empty one (it only said it worked) is "done".
            said_each = (o.rstrip(".") or "done" for o in outcomes)
            result = [("", ", then ".join(said_each))]
    else:
        again = None
    text = clip(act(action, values, result, made or acted), draft.limit)
    item = draft.item(text, sources)
    draft.last_write = None
    if item is not None:
        if again is not None:
            draft.decisions.pop()
        if item not in draft.decisions:
            draft.decisions.append(item)
            draft.last_write = (call, outcomes, item)
    draft.parts[text] = (action, values, list(result), made or acted)
    first = next((v for k, v in values if is_id_key(k)), None)
    for target in dict.fromkeys(v for v in (first, acted and acted[1]) if v):
        changed(draft, ("thing", target.casefold()))
    at = draft.order.get(sources[0], -1)
    draft.done.append((at, words_of(name).split(" ", 1)[0]))
    targets = dict.fromkeys(x[1] for x in (acted, made) if x) or {"": None}
    draft.wrote.extend((at, v, sources) for v in targets)
    draft.said |= said | each(v for _, v in result)


def confirmation(draft: Draft, args: Any, answer: Any, sources: list[str]) -> None:
    """An operator's answer to a confirmation request, as a sentence about the call it let
    through or stopped, citing that call, the request and the answer."""
    asked = args.get("function_call_id") if isinstance(args, dict) else None
    call_event, name, call_args = draft.calls.get(str(asked), ("", "a tool call", {}))
    confirmed = isinstance(answer, dict) and answer.get("confirmed") is True
    verb = "approved" if confirmed else "declined"
    what = words_of(name) if name in (c[1] for c in draft.calls.values()) else name
    shown = arguments(call_args, (), draft.limit, draft.patterns)
    text = f"An operator {verb} " + act(what, shown)
    draft.add(draft.decisions, text, [s for s in (call_event, *sources) if s])


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


def made_id(name: str, payload: Any, values: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
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
