"""Call ids for imported sessions: ids kept where given, made up where missing, and responses
without an id paired with the oldest unanswered call of the same name (neither the JSON Lines
format nor google-adk's pairs every call with its response by id)."""

from __future__ import annotations

from collections import defaultdict, deque

__all__ = ["CallIds"]


class CallIds:
    """Call ids: given ones kept, missing ones made up, responses paired by name in order."""

    def __init__(self) -> None:
        self._open: defaultdict[str, deque[str]] = defaultdict(deque)

    def call(self, name: str, call_id: str | None, fallback: str) -> str:
        cid = call_id or fallback
        self._open[name].append(cid)
        return cid

    def response(self, name: str, call_id: str | None, fallback: str) -> str:
        pending = self._open[name]
        if call_id:
            if call_id in pending:
                pending.remove(call_id)
            return call_id
        return pending.popleft() if pending else fallback
