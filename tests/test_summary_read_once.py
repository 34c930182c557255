"""What one check reads once (record/_scope.py, issue 13's validator speed): a payload two
events hold alike is read as leaves once, and the labels are those of reading each apart."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog import Content, Event, Part
from agentlog.summary import SummaryItem, SummaryRecord, transcript_lines, validate_output
from agentlog.summary.record import _scope, _unit, _walk, leaves

T0 = 1_790_000_000.0


def event(n: int, author: str, part: Part, **fields: Any) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    return Event(
        id=f"e{n:02d}",
        invocation_id=f"i{n}",
        author=author,
        timestamp=T0 + n,
        content=Content(role=role, parts=(part,)),
        **fields,
    )


def read_twice() -> list[Event]:
    """A session that looks the same order up twice: two results with one payload."""
    order = {"order_id": "A-1001", "status": "shipped", "carrier": "dhl"}
    return [
        event(1, "user", Part(text="Where is my order A-1001?")),
        event(
            2, "desk", Part.from_function_call("lookup", {"order_id": "A-1001"}, "c1"), model="m"
        ),
        event(3, "desk", Part.from_function_response("lookup", order, "c1")),
        event(
            4, "desk", Part.from_function_call("lookup", {"order_id": "A-1001"}, "c2"), model="m"
        ),
        event(5, "desk", Part.from_function_response("lookup", dict(order), "c2")),
    ]


RECORD = SummaryRecord(
    goal="",
    facts=(SummaryItem(text="Order A-1001 shipped by DHL", sources=("e03", "e05")),),
)


def validated(events: list[Event]) -> tuple[SummaryRecord | None, list[Any]]:
    return validate_output(RECORD, events=events, transcript=transcript_lines(events))


def test_a_payload_two_events_hold_is_read_once_per_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[str] = []
    real = _walk.read_payload

    def counted(tool: str, payload: Any) -> leaves.Payload:
        read.append(tool)
        return real(tool, payload)

    monkeypatch.setattr(_unit, "read_payload", counted)
    record, problems = validated(read_twice())
    assert problems == []
    assert record is not None
    assert record.facts[0].provenance == "verified"
    assert read == ["lookup"]
    validated(read_twice())  # a second check reads it again: nothing is kept between checks
    assert read == ["lookup", "lookup"]


def test_labels_are_those_of_reading_each_payload_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = validated(read_twice())
    monkeypatch.setattr(_unit, "_leaves_of", lambda source, line: _walk.read_payload(*source))
    assert validated(read_twice()) == shared


class Said:
    """A value that is no string, which the renderer writes as one (``str``)."""

    def __str__(self) -> str:
        return "approved"


def test_a_value_rendered_as_a_string_is_not_read_as_that_string() -> None:
    line = 'review {"refund": "approved"}'
    said = Said()  # one instance: a payload keeps its source, and Said compares by identity
    with _scope.one_check():
        as_text = _unit._leaves_of(("review", {"refund": "approved"}), line)
        as_other = _unit._leaves_of(("review", {"refund": said}), line)
    assert as_text == _walk.read_payload("review", {"refund": "approved"})
    assert as_other == _walk.read_payload("review", {"refund": said})
    assert as_text != as_other
