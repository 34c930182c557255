"""Server-sent events, each serialised once however many clients receive it.

An SSE ``id`` is set only on a frame that stands for a stored event, so ``Last-Event-ID``
always names a stored event. SSE event names: ``event`` (a stored event), ``draft`` (partial
text, keyed by the turn's id), ``error`` (a failure that could not be stored) and ``end`` (the
turn ended: sent once a turn, after its last event, whichever process ran it; see
:mod:`agentlog.server.streaming`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Literal

from sse_starlette import ServerSentEvent

from agentlog.events import ErrorCode, Event
from agentlog.router import RoutedMessage, route, user_message
from agentlog.server.schemas import StreamFrame

__all__ = [
    "SESSION_DELETED",
    "Frame",
    "deleted_frame",
    "draft_frame",
    "end_frame",
    "error_frame",
    "stored_frame",
    "text_draft_frame",
]

FrameKind = Literal["event", "draft", "error", "end"]

_string: Callable[[str], str] = encode_basestring
"""A string as JSON, non-ASCII characters as they are."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One server-sent event, ready to send."""

    kind: FrameKind
    data: str
    """JSON of a :class:`~agentlog.server.schemas.StreamFrame`."""
    event_id: str | None = None
    """The stored event's id; ``None`` for drafts, errors and ends."""
    invocation_id: str = ""
    starts_turn: bool = False
    """The stored event is a user's message: the first event of a turn."""
    between_turns: bool = False
    """The stored event is part of no turn: a compaction (stored after a turn ended), or the
    ``interrupted`` error closing a turn whose process died (stored as the next one starts)."""
    event: Event | None = None
    """The stored event itself, for a reader that wants the value rather than its JSON."""
    wire: bytes = field(init=False, repr=False, compare=False)
    """The frame as sent: the bytes of :meth:`sse`, encoded once for every reader."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "wire", _wire(self))

    def sse(self) -> ServerSentEvent:
        """The frame as sse-starlette sends it."""
        return ServerSentEvent(data=self.data, event=self.kind, id=self.event_id)


def _wire(frame: Frame) -> bytes:
    """``frame.sse().encode()``, without its regular expressions where no field holds a line
    break (a frame's JSON never does: JSON escapes them), which scanned each frame's data
    character by character (2% of a turn's instructions)."""
    kind, data, event_id = frame.kind, frame.data, frame.event_id
    # Each field looked at inline, not by a helper: a turn writes a dozen frames.
    if (
        "\n" in data
        or "\r" in data
        or "\n" in kind
        or "\r" in kind
        or (event_id is not None and ("\n" in event_id or "\r" in event_id))
    ):
        return frame.sse().encode()
    head = "" if event_id is None else f"id: {event_id}\r\n"
    return f"{head}event: {kind}\r\ndata: {data}\r\n\r\n".encode()


def _json(frame: StreamFrame) -> str:
    # Null fields are left out, as in every answer of the API (agentlog.server.no_nulls).
    return frame.model_dump_json(exclude_none=True)


def stored_frame(event: Event) -> Frame:
    """The frame of a stored event: its routed messages and the event itself."""
    data = _json(StreamFrame(event=event, messages=route(event)))
    between = event.actions.compaction is not None or event.error_code == ErrorCode.INTERRUPTED
    starts = event.author == "user"
    return Frame("event", data, event.id, event.invocation_id, starts, between, event)


def draft_frame(event: Event) -> Frame:
    """The frame of a partial event: a draft keyed by the turn's id, with no SSE id."""
    if event.partial and event.error_code is None and not event.error_message:
        return text_draft_frame(event.invocation_id, event.author, event.text())
    data = _json(StreamFrame(messages=route(event)))  # an error: route says which
    return Frame("draft", data, None, event.invocation_id)


def text_draft_frame(invocation_id: str, author: str, text: str) -> Frame:
    """The frame of a draft known by its text only (another process's, as it notified it);
    the same as :func:`draft_frame` of that partial event."""
    return Frame("draft", _turn_message("draft", invocation_id, author, text), None, invocation_id)


def _turn_message(kind: str, invocation_id: str, author: str, text: str) -> str:
    """``_json`` of a frame of one message keyed by the turn, without data, written directly:
    a turn sends a dozen drafts, and building and validating their models cost several times
    what writing them does. Each string is written as pydantic writes it: ``json``'s own
    string encoder escapes the same characters the same way (quote, backslash, and control
    characters, the common ones by letter, the rest as lower-case ``\\u00xx``), and costs a
    small part of a ``to_json`` call."""
    turn = _string(invocation_id)
    return (
        f'{{"messages":[{{"kind":"{kind}","id":{turn},"invocation_id":{turn},'
        f'"author":{_string(author)},"text":{_string(text)},"data":{{}}}}]}}'
    )


def error_frame(invocation_id: str, author: str, code: ErrorCode = ErrorCode.INTERNAL) -> Frame:
    """A failure outside the stored log (the store went away, a bug): a sentence, no id."""
    return _error(invocation_id, author, user_message(code), code.value)


SESSION_DELETED = "session_deleted"
"""The ``error_code`` of the error frame that ends a stream whose session was deleted."""


def deleted_frame(invocation_id: str, author: str) -> Frame:
    """The error that ends a stream whose session was deleted meanwhile: a sentence that says
    so, rather than the generic one."""
    return _error(invocation_id, author, "This session was deleted.", SESSION_DELETED)


def _error(invocation_id: str, author: str, text: str, code: str) -> Frame:
    message = RoutedMessage(
        kind="error",
        id=invocation_id,
        invocation_id=invocation_id,
        author=author,
        text=text,
        data={"error_code": code},
    )
    return Frame("error", _json(StreamFrame(messages=[message])), None, invocation_id)


def end_frame(invocation_id: str, author: str = "") -> Frame:
    """The end of a turn's stream."""
    data = _turn_message("turn_end", invocation_id, author, "")
    return Frame("end", data, None, invocation_id)
