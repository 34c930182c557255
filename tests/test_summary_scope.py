"""One check's readings (record/_scope.py): made once within a check, forgotten after it."""

from __future__ import annotations

from agentlog.summary import ExtractiveSummarizer, transcript_lines, validate_output
from agentlog.summary.example import refund_session_events
from agentlog.summary.record import _scope, _words
from agentlog.summary.record._payload import established


def test_a_check_remembers_a_text_read_twice_and_forgets_it_after() -> None:
    calls: list[str] = []
    real = _words._spaced_now

    def counted(text: str, hedged: bool) -> str:
        calls.append(text)
        return real(text, hedged)

    _words._spaced_now = counted
    try:
        with _scope.one_check() as readings:
            first = _words.letters_of("Refund approved if eligible")
            again = _words.letters_of("Refund approved if eligible")
            with _scope.one_check() as inner:  # nested: the outer one's readings
                assert inner is readings
                _words.letters_of("Refund approved if eligible")
            assert readings.spaced
        assert first == again
        assert calls == ["Refund approved if eligible"]
        assert _scope.current() is None
        _words.letters_of("Refund approved if eligible")  # outside a check: read again
        assert len(calls) == 2
    finally:
        _words._spaced_now = real


def test_readings_are_the_same_inside_and_outside_a_check() -> None:
    payload = '{"refund_approved": false, "note": "customer says pre-approved", "status": "ok"}'
    outside = (established(payload), _words.letters_of(payload), _words.content_words(payload))
    with _scope.one_check():
        inside = (established(payload), _words.letters_of(payload), _words.content_words(payload))
        twice = (established(payload), _words.letters_of(payload), _words.content_words(payload))
    assert outside == inside == twice


def test_validating_and_summarising_leave_no_readings_behind() -> None:
    events = list(refund_session_events())
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None
    assert _scope.current() is None
    _, problems = validate_output(
        result.record.model_dump_json(), events=events, transcript=transcript_lines(events)
    )
    assert problems == []
    assert _scope.current() is None
