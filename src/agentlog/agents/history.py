"""The history a model call sees, built from stored events.

Rules: drafts, errors and human-in-the-loop requests are left out; a function call goes in only
with its response and a response only with its call (so a call whose turn failed or was
abandoned never reaches a provider that rejects unanswered calls); other agents' turns are
retold as user-side context, so a model never mistakes another agent's words for its own.
"""

from __future__ import annotations

import json
import math
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from agentlog._frozen import thaw
from agentlog.approvals import REQUEST_CONFIRMATION, REQUEST_CREDENTIAL, is_human_request
from agentlog.events import Content, Event, Part

__all__ = [
    "HistoryCache",
    "REQUEST_CONFIRMATION",
    "REQUEST_CREDENTIAL",
    "build_contents",
    "current_turn",
    "is_human_request",
    "latest_compaction",
]


def latest_compaction(events: Sequence[Event]) -> Event | None:
    """The newest compaction event: the one whose span ends last (the later one on a tie).

    The greatest end, not the last stored, so a late compaction that reaches less far (written
    by a slower process) never brings back events a newer one already covers; the stores'
    ``GetSessionConfig.from_latest_compaction`` picks the same one.
    """
    found: Event | None = None
    end = -math.inf
    for event in events:
        compaction = event.actions.compaction
        if compaction is not None and compaction.end_timestamp >= end:
            found, end = event, compaction.end_timestamp
    return found


def current_turn(events: Sequence[Event]) -> Sequence[Event]:
    """The events from the latest user text message on."""
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if event.author == "user" and event.text():
            return events[i:]
    return events


def _summary_content(summary: Content) -> Content:
    text = "".join(p.text or "" for p in summary.parts)
    return Content(role="user", parts=(Part(text=f"[Summary of earlier conversation]\n{text}"),))


def build_contents(events: Sequence[Event], agent_name: str) -> list[Content]:
    """The contents for ``agent_name``'s next model call.

    With a compaction among ``events``, the newest one's summary comes first and stands in
    for every event up to its end; later events follow as they are.
    """
    newest = latest_compaction(events)
    compaction = newest.actions.compaction if newest is not None else None
    contents: list[Content] = []
    kept: Sequence[Event] = events
    if compaction is not None:
        contents.append(_summary_content(compaction.summary))
        covered = set(compaction.event_ids)
        kept = [
            e
            for e in events
            if e.actions.compaction is None
            and e.id not in covered
            and e.timestamp > compaction.end_timestamp
        ]
    calls, responses = _call_ids(kept)
    _convert(kept, agent_name, calls & responses, contents)
    return contents


class HistoryCache:
    """``build_contents`` for sessions that grow by appends, in time that follows the new
    events rather than the whole history.

    It keeps, per key (one session), the events it last built from and what it built. When
    the next events begin with those same events (the same objects, as an in-memory store
    and a turn's appends leave them), only the new ones are converted, unless they change
    what the earlier ones give: a compaction, or the answer to a call (or the call of a
    response) left unpaired so far. Otherwise it builds from scratch. The result always
    equals ``build_contents``.

    It holds the last event weakly: once nothing else holds it (a store that decodes events
    afresh for every load, at the end of the turn), what was built for it is let go, so the
    cache never keeps a history alive that its store does not. At most ``max_sessions``
    entries are kept.
    """

    def __init__(self, max_sessions: int = 64) -> None:
        self._max_sessions = max(1, max_sessions)
        self._entries: OrderedDict[Hashable, _Built] = OrderedDict()
        self._lock = threading.Lock()

    def build(self, key: Hashable, events: Sequence[Event], agent_name: str) -> list[Content]:
        """``build_contents(events, agent_name)``, reusing what was built for ``key``."""
        events = tuple(events)
        with self._lock:
            built = self._entries.pop(key, None)
            if built is None or built.agent_name != agent_name or not built.extend(events):
                if not events or latest_compaction(events) is not None:
                    return build_contents(events, agent_name)
                built = _Built.of(events, agent_name)
            self._entries[key] = built
            while len(self._entries) > self._max_sessions:
                self._entries.popitem(last=False)
            return list(built.contents)


@dataclass(slots=True, weakref_slot=True)
class _Built:
    """What ``build_contents`` made of some events (which hold no compaction): the events
    but the last, the last one weakly, and the contents."""

    agent_name: str
    head: tuple[Event, ...]
    last: Callable[[], Event | None]
    contents: list[Content]
    calls: set[str]
    responses: set[str]

    @classmethod
    def of(cls, events: tuple[Event, ...], agent_name: str) -> _Built:
        calls, responses = _call_ids(events)
        contents: list[Content] = []
        _convert(events, agent_name, calls & responses, contents)
        built = cls(agent_name, (), _dead, contents, calls, responses)
        built._hold(events)
        return built

    def _hold(self, events: tuple[Event, ...]) -> None:
        self.head = events[:-1]
        mine = weakref.ref(self)

        def let_go(_: object) -> None:
            built = mine()
            if built is not None:
                built.head, built.last, built.contents = (), _dead, []
                built.calls, built.responses = set(), set()

        try:
            self.last = weakref.ref(events[-1], let_go)
        except TypeError:  # an event type without weak references: keep nothing
            self.head, self.contents = (), []

    def extend(self, events: tuple[Event, ...]) -> bool:
        """Take ``events`` if they are these events and more that leave these as built."""
        last = self.last()
        n = len(self.head) + 1
        if last is None or len(events) < n or events[n - 1] is not last:
            return False
        # Identical items compare without calling Event.__eq__.
        if events[: n - 1] != self.head:
            return False
        tail = events[n:]
        if any(e.actions.compaction is not None for e in tail):
            return False
        calls, responses = _call_ids(tail)
        for call_id in responses:
            if call_id in self.calls and call_id not in self.responses:
                return False  # answers a call built without its answer
        for call_id in calls:
            if call_id in self.responses and call_id not in self.calls:
                return False  # the call of a response built without it
        self.calls |= calls
        self.responses |= responses
        paired = {i for i in calls | responses if i in self.calls and i in self.responses}
        _convert(tail, self.agent_name, paired, self.contents)
        if tail:
            self._hold(events)
        return True


def _dead() -> None:
    return None


def _call_ids(events: Sequence[Event]) -> tuple[set[str], set[str]]:
    """The ids of the function calls and of the function responses in ``events``."""
    calls: set[str] = set()
    responses: set[str] = set()
    for event in events:
        if event.content is None:
            continue
        for part in event.content.parts:
            if part.function_call is not None:
                calls.add(part.function_call.id)
            elif part.function_response is not None:
                responses.add(part.function_response.id)
    return calls, responses


def _convert(
    events: Sequence[Event], agent_name: str, paired: set[str], contents: list[Content]
) -> None:
    """Append to ``contents`` what each of ``events`` gives the model (compactions, drafts
    and errors give nothing; ``paired`` holds the ids whose call and response are both in)."""
    for event in events:
        content = event.content
        if (
            content is None
            or event.partial
            or event.error_code is not None
            or event.actions.compaction is not None
        ):
            continue
        parts = [p for p in content.parts if _keep(p, paired)]
        if not parts:
            continue
        if event.author == "user":
            role: Literal["user", "model"] = "user"
        elif event.author == agent_name:
            role = "user" if any(p.function_response is not None for p in parts) else "model"
        else:
            contents.append(_as_context(event.author, parts))
            continue
        if role == content.role and len(parts) == len(content.parts):
            # Every part kept, in the role it was stored with: the stored content itself
            # (immutable; building an equal one costs a validation).
            contents.append(content)
        else:
            contents.append(Content(role=role, parts=tuple(parts)))


def _keep(part: Part, paired: set[str]) -> bool:
    if part.function_call is not None:
        return not is_human_request(part.function_call.name) and part.function_call.id in paired
    if part.function_response is not None:
        return (
            not is_human_request(part.function_response.name)
            and part.function_response.id in paired
        )
    # A file's reference (an upload, say) travels too: adapters send it as a line naming the
    # artifact, which a tool can then load.
    return (part.text is not None and part.text != "") or part.artifact_ref is not None


def _as_context(author: str, parts: Sequence[Part]) -> Content:
    lines = ["For context:"]
    for part in parts:
        if part.text is not None:
            lines.append(f"[{author}] said: {part.text}")
        elif part.function_call is not None:
            args = json.dumps(thaw(part.function_call.args), ensure_ascii=False)
            lines.append(f"[{author}] called tool `{part.function_call.name}` with {args}")
        elif part.function_response is not None:
            body = json.dumps(thaw(part.function_response.response), ensure_ascii=False)
            lines.append(f"[{author}] `{part.function_response.name}` returned {body}")
        elif part.artifact_ref is not None:
            ref = part.artifact_ref
            lines.append(f"[{author}] shared artifact {ref.name!r} (version {ref.version})")
    return Content(role="user", parts=(Part(text="\n".join(lines)),))
