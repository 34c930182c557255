"""Call ids for imported sessions: ids kept where given, made up where missing, and responses
without an id paired with the oldest unanswered call of the same name (neither the JSON Lines
format nor google-adk's pairs every call with its response by id).

A response that answers no call made before it (none of its id or, without an id, of its
name; or one answered already) is refused (``UnansweredResponseError``): a tool result is
vouched for by the call it answers, and the labeller reads a result as what a tool said. Who
made the call does not matter (the user runs device tools in telecom sessions)."""

from __future__ import annotations

from collections import defaultdict, deque

from agentlog.errors import UnansweredResponseError

__all__ = ["CallIds"]


class CallIds:
    """Call ids: given ones kept, missing ones made up, responses paired by name in order."""

    def __init__(self) -> None:
        self._open: defaultdict[str, deque[str]] = defaultdict(deque)

    def call(self, name: str, call_id: str | None, fallback: str) -> str:
        """The id of a call (``fallback`` when it has none), open until a response answers it."""
        cid = call_id or fallback
        self._open[name].append(cid)
        return cid

    def response(self, name: str, call_id: str | None, fallback: str, event_id: str = "") -> str:
        """The id of the open call a response answers, closing it; ``UnansweredResponseError``
        when it answers none."""
        pending = self._open[name]
        if call_id:
            if call_id not in pending:
                raise UnansweredResponseError(event_id, call_id, name)
            pending.remove(call_id)
            return call_id
        if not pending:
            raise UnansweredResponseError(event_id, fallback, name)
        return pending.popleft()
