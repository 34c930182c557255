"""What the session's lookups read, as facts: one per thing (an order, a booking: its identifier
and what the record must keep of it), a second read of it merged into the first; a search as how
many it found and the results the conversation named. Once every result is read, a lookup that
found a thing's identifier is folded into that thing's fact, and a lookup whose answer another
tool's says all of is left to that one."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from agentlog.summary.record._extract import (
    action_of,
    args_text,
    clip,
    fields_text,
    holds,
    is_status_key,
    kept_fields,
    payload_text,
    prose_of,
    says_what_it_did,
    scalar,
    thing_of,
    unwrap,
)
from agentlog.summary.record.learned import is_id_key
from agentlog.summary.record.schema import SummaryItem
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._prose import without_repeats
from agentlog.summary.summarisers._terse import not_said_again, says_no_more
from agentlog.summary.summarisers._wording import each, said_in

__all__ = ["changed", "found_things", "once_each", "read"]

_ANSWER_CHARS: Final = 100
"""A lookup's answer with nothing the record must keep is cut to about this many."""


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


def read(
    draft: Draft,
    name: str,
    args: Any,
    values: list[tuple[str, str]],
    payload: Any,
    texts: Collection[str],
    sources: list[str],
    repeated: Collection[str],
) -> None:
    """A lookup as a fact about the thing it read: one item per thing (its identifier and
    what the record must keep of it), a second read of the same thing merged into it, citing
    both."""
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
        fields = kept_fields(found, texts, {shown} | draft.said, parts=True)
    elif listed is not None:
        _listing(draft, head, listed, texts, sources, said_in(args))
        return
    else:
        title = head
        key = (name, repr(sorted(args.items())) if isinstance(args, dict) else "")
        skip = draft.said | said_in(args)
        prose = prose_of(found)
        if prose is not None:
            said = without_repeats(draft, prose, repeated, sources, texts)
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
            fields = [("", payload_text(found, _ANSWER_CHARS, texts, draft.patterns))]
        fields = [kv for kv in fields if kv[1]]
    at = draft.things.get(key)
    if at is not None:
        before_fields, before_sources = at
        merged = dict(before_fields)
        merged.update(fields)  # the later read says what is true now
        fields, sources = list(merged.items()), [*before_sources, *sources]
    shown = fields_text(fields)
    text = clip(f"{title}: {shown}" if title else shown, draft.limit) if fields else title
    item = draft.item(text, sources)
    if item is None:
        return
    if title:
        draft.read_parts[item.text] = (title, fields)
    if key[0] != "thing" and values:
        draft.asked_about[item.text] = (name, key[1], shown)
    if at is not None:
        draft.facts[draft.thing_at[key]] = item
    else:
        draft.thing_at[key] = len(draft.facts)
        draft.facts.append(item)
    draft.things[key] = (fields, list(item.sources))
    draft.thing_title[key] = title
    if key[0] != "thing" and len(fields) == 1 and " " not in fields[0][1]:
        asked = args_text(values)  # "Found user id by email ana@x.org: ana_lima_4410"
        draft.answers[fields[0][1].casefold()] = (draft.thing_at[key], asked, item.sources)
    draft.said |= each(v for _, v in fields)
    if key[0] == "thing":
        draft.said.add(key_shown)


def _listing(
    draft: Draft,
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
        fields = kept_fields(entry, texts, {shown} | asked | draft.said)
        fields = [kv for kv in fields if not is_status_key(kv[0])]
        # An entry is used when the conversation names it: its own identifier, or, for an
        # entry with none, one of its values (not one it shares with every other entry).
        if shown and shown in draft.said:
            continue  # a second entry of the same thing
        if shown and holds(shown, texts):
            used.append(shown + (f" ({fields_text(fields)})" if fields else ""))
        elif not shown and fields:
            used.append(fields_text(fields))
        else:
            continue
        draft.said |= {shown, *(v for _, v in fields)}
    count = len(found)
    text = f"{head}: {count} result{'s' if count != 1 else ''}"
    if used:
        text += "; " + ", ".join(used)  # no word of ours: the tools say every one
    else:
        draft.unnamed.add(text)
    draft.add(draft.facts, clip(text, draft.limit), sources)


def changed(draft: Draft, key: tuple[str, str]) -> None:
    """A thing read, then written: its fact's status was true when read, not now (the
    write's decision says what it is), so it goes."""
    at = draft.things.get(key)
    if at is None or not any(is_status_key(k) for k, _ in at[0]):
        return
    fields = [kv for kv in at[0] if not is_status_key(kv[0])]
    title = draft.thing_title[key]
    text = clip(f"{title}: {fields_text(fields)}", draft.limit) if fields else title
    item = draft.item(text, at[1])
    if item is not None:
        draft.facts[draft.thing_at[key]] = item
        draft.things[key] = (fields, at[1])


def found_things(draft: Draft) -> list[SummaryItem]:
    """The facts, a lookup that found a thing's identifier folded into the fact of the thing
    it found (``User ana_lima_4410 (ana@x.org): ...``, citing the lookup too)."""
    facts: list[SummaryItem | None] = list(draft.facts)
    for answer, (at, asked, sources) in draft.answers.items():
        key = ("thing", answer)
        if key not in draft.things or draft.thing_at[key] <= at:
            continue
        fields, cited = draft.things[key]
        fields = [kv for kv in fields if kv[1] not in asked]  # said in the title
        title = draft.thing_title[key] + (f" ({asked})" if asked else "")
        text = clip(f"{title}: {fields_text(fields)}", draft.limit) if fields else title
        item = draft.item(text, [*sources, *cited])
        if item is not None:
            facts[draft.thing_at[key]], facts[at] = item, None
    return [f for f in facts if f is not None]


def once_each(draft: Draft, facts: list[SummaryItem]) -> list[SummaryItem]:
    """``facts`` with a lookup's answer that another tool's, asked the same, says all of
    (:func:`says_no_more`: "App 'messaging' has permission for: storage, phone." beside
    "Permissions Granted: storage, phone" for ``messaging``) left to that one, which cites
    both."""
    out = list(facts)
    for item in facts:
        asked = draft.asked_about.get(item.text)
        if asked is None:
            continue
        for i, other in enumerate(out):
            there = draft.asked_about.get(other.text)
            if (
                other is item
                or there is None
                or there[:2] == asked[:2]
                or there[1] != asked[1]
                or not says_no_more(asked[2], there[2])
            ):
                continue
            cited = {*other.sources, *item.sources}
            sources = tuple(sorted(cited, key=lambda s: draft.order.get(s, -1)))
            out[i] = other.model_copy(update={"sources": sources})
            draft.asked_about[out[i].text] = there
            out.remove(item)
            break
    return out
