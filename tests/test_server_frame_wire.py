"""A frame's bytes on the wire: sse-starlette's encoding, made without its regular expressions
when no field holds a line break."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sse_starlette import ServerSentEvent

from agentlog import Content, Event
from agentlog.server.frames import Frame, end_frame, stored_frame


class _Counting:
    """A stand-in for sse-starlette's line-break expression that counts its uses."""

    def __init__(self) -> None:
        self.pattern = re.compile(r"\r\n|\r|\n")
        self.uses = 0

    def split(self, text: str) -> list[str]:
        self.uses += 1
        return self.pattern.split(text)

    def sub(self, replacement: str, text: str) -> str:
        self.uses += 1
        return self.pattern.sub(replacement, text)


def _reference(frame: Frame) -> bytes:
    return ServerSentEvent(data=frame.data, event=frame.kind, id=frame.event_id).encode()


def test_a_frame_is_encoded_as_sse_starlette_encodes_it_without_scanning_its_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = Event(
        invocation_id="inv-1", author="user", content=Content.from_text("Refund A-1001\nplease")
    )
    expected = [_reference(stored_frame(stored)), _reference(end_frame("inv-1", "desk"))]
    counting = _Counting()
    monkeypatch.setattr(ServerSentEvent, "_LINE_SEP_EXPR", counting)
    frames = [stored_frame(stored), end_frame("inv-1", "desk")]
    assert [f.wire for f in frames] == expected
    assert frames[0].wire.startswith(f"id: {stored.id}\r\nevent: event\r\ndata: {{".encode())
    assert counting.uses == 0  # JSON holds no raw line break: nothing to split


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "draft", "data": "one\ntwo\r\nthree\rfour"},
        {"kind": "event", "data": '{"a":1}', "event_id": "e-1"},
        {"kind": "error", "data": "", "event_id": None},
    ],
)
def test_any_frame_encodes_as_sse_starlette_does(fields: dict[str, Any]) -> None:
    frame = Frame(**fields)
    assert frame.wire == _reference(frame)
