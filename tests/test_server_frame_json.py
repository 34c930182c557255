"""Draft and end frames are written directly (:func:`agentlog.server.frames._turn_message`):
their JSON is the one their models write."""

from __future__ import annotations

import pytest

from agentlog import Content, ErrorCode, Event
from agentlog.events import unchecked
from agentlog.router import RoutedMessage, route, turn_end
from agentlog.server.frames import draft_frame, end_frame, text_draft_frame
from agentlog.server.schemas import StreamFrame

TEXTS = [
    "",
    "Refund A-1001",
    'a "quote", a \\ and a /',
    "line\nbreak\ttab\r\x00\x01\x1f\x7f",
    "é → 日本 \u2028\u2029 \U0001f600",
    "<script>&amp;</script>",
    "".join(map(chr, range(0x80))) + "\x80\xa0\u00ff\ufeff\uffff",
]


def _model_json(message: RoutedMessage) -> str:
    return StreamFrame(messages=[message]).model_dump_json(exclude_none=True)


@pytest.mark.parametrize("text", TEXTS)
def test_a_draft_is_written_as_its_model_writes_it(text: str) -> None:
    partial = unchecked(
        Event,
        invocation_id='inv-"1"',
        author="desk é",
        content=Content.from_text(text),
        partial=True,
    )
    (message,) = route(partial)
    assert draft_frame(partial).data == _model_json(message)
    assert text_draft_frame('inv-"1"', "desk é", text).data == _model_json(message)


def test_an_end_is_written_as_its_model_writes_it() -> None:
    assert end_frame("inv-1", "desk").data == _model_json(turn_end("inv-1", "desk"))
    assert end_frame("inv-1").data == _model_json(turn_end("inv-1"))


def test_a_partial_error_is_still_routed_as_an_error() -> None:
    failed = Event(invocation_id="inv-1", author="desk", partial=True, error_code=ErrorCode.SAFETY)
    assert draft_frame(failed).data == StreamFrame(messages=route(failed)).model_dump_json(
        exclude_none=True
    )
    assert '"kind":"error"' in draft_frame(failed).data
