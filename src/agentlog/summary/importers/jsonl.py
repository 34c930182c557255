"""The JSON Lines session format of the development sessions (``../shared/eval/README.md``), as
agentlog events: one session a line, ``{"session_id", "source", "events": [...], "meta": {...}}``,
each event with ``id``, ``author`` and exactly one of ``text``, ``function_call`` ``{name, args}``
or ``function_response`` ``{name, response}``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from agentlog.events import (
    Content,
    Event,
    FunctionCall,
    FunctionResponse,
    Part,
)
from agentlog.summary.importers._origin import check_author, check_unique
from agentlog.summary.importers.calls import CallIds

__all__ = [
    "ImportedSession",
    "iter_jsonl_sessions",
    "load_jsonl_sessions",
    "session_from_jsonl",
]


class ImportedSession(NamedTuple):
    """One imported session: its id, its events, and whatever else the file said about it."""

    session_id: str
    events: tuple[Event, ...]
    meta: dict[str, Any]


def session_from_jsonl(
    record: Mapping[str, Any], *, base_timestamp: float = 0.0
) -> ImportedSession:
    """One session of the JSON Lines format. Events are stamped ``base_timestamp`` + 1 s each;
    an invocation starts at each user text message.

    Raises ``UnansweredResponseError`` for a function response that answers no call before it,
    ``ReservedAuthorError`` for an event authored as agentlog's own records (``handoff``, the
    compactor) and ``DuplicateEventError`` for an event id given twice: each would let the
    file vouch for words no tool said."""
    calls = CallIds()
    events: list[Event] = []
    invocation = ""
    for index, raw in enumerate(record.get("events", ())):
        eid = str(raw["id"])
        author = check_author(eid, str(raw["author"]))
        role = "user" if author == "user" else "model"
        if "text" in raw:
            part = Part(text=str(raw["text"]))
            if author == "user" or not invocation:
                invocation = f"inv-{eid}"
        elif "function_call" in raw:
            fc = raw["function_call"]
            cid = calls.call(fc["name"], fc.get("id"), f"call-{eid}")
            part = Part(
                function_call=FunctionCall(id=cid, name=fc["name"], args=fc.get("args") or {})
            )
        elif "function_response" in raw:
            fr = raw["function_response"]
            cid = calls.response(fr["name"], fr.get("id"), f"call-{eid}", eid)
            response = fr.get("response")
            body = response if isinstance(response, dict) else {"result": response}
            part = Part(function_response=FunctionResponse(id=cid, name=fr["name"], response=body))
            role = "user"
        else:
            raise ValueError(f"event {eid!r} has none of text, function_call, function_response")
        events.append(
            Event(
                id=eid,
                invocation_id=invocation or f"inv-{eid}",
                author=author,
                timestamp=base_timestamp + index,
                content=Content(role=role, parts=(part,)),
            )
        )
    check_unique(str(record["session_id"]), (e.id for e in events))
    meta = dict(record.get("meta") or {})
    if "source" in record:
        meta.setdefault("source", record["source"])
    return ImportedSession(str(record["session_id"]), tuple(events), meta)


def iter_jsonl_sessions(
    source: str | os.PathLike[str] | Iterable[str],
) -> Iterator[ImportedSession]:
    """Sessions from a JSON Lines file (a path) or from its lines, one at a time."""
    if isinstance(source, str | os.PathLike):
        with Path(source).open(encoding="utf-8") as lines:
            yield from iter_jsonl_sessions(list(lines))
        return
    for number, line in enumerate(source, start=1):
        if line.strip():
            try:
                yield session_from_jsonl(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"line {number}: not a session ({exc})") from exc


def load_jsonl_sessions(source: str | os.PathLike[str] | Iterable[str]) -> list[ImportedSession]:
    """Every session of a JSON Lines file (a path) or of its lines."""
    return list(iter_jsonl_sessions(source))
