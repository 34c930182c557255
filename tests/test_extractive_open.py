"""What stays open or promised in the extractive record (issue 13, the reader who cannot ask):
what is still owed, a waiting status beside a commitment that waits on a condition, no deadline
the session already outlived, what the customer says at the end they will do, and a finished
act a time after a comma says the outcome of."""

from __future__ import annotations

import calendar
from typing import Any

from agentlog import Content, Event, Part
from agentlog.summary import ExtractiveSummarizer, SummaryRecord
from agentlog.summary.summarisers._pending import owed


def ev(eid: str, author: str, part: Part, at: float = 1.0) -> Event:
    role = "user" if author == "user" or part.function_response else "model"
    return Event(
        id=eid,
        invocation_id="i",
        author=author,
        timestamp=at,
        content=Content(role=role, parts=(part,)),
    )


def record_of(events: list[Event]) -> SummaryRecord:
    result = ExtractiveSummarizer().summarize_now(events)
    assert result.record is not None, result.problems
    return result.record


def exchange(reply: str, response: dict[str, Any], at: float = 1.0) -> list[Event]:
    """A customer's request, one write and the agent's reply, every event at ``at``."""
    return [
        ev("e1", "user", Part(text="Please move the delivery of TRK-5521 to Friday."), at),
        ev(
            "e2", "agent", Part.from_function_call("reschedule", {"tracking": "TRK-5521"}, "c1"), at
        ),
        ev("e3", "reschedule", Part.from_function_response("reschedule", response, "c1"), at),
        ev("e4", "agent", Part(text=reply), at),
    ]


def test_what_is_still_owed_is_an_open_question_not_a_promise() -> None:
    assert owed("The €86,90 is still open")
    assert owed("Invoice INV-LIC-26-0719 for CAD 412.00 is due in 30 days")
    assert owed("The rest of the bill remains outstanding")
    assert not owed("You are owed $400.00, which I've paid to card_2208413")
    assert not owed("We are due to call you on Friday")  # our own future: a promise
    assert not owed("Is the invoice still open?")
    record = record_of(exchange("Done. The €86,90 duty is still open.", {"status": "rescheduled"}))
    assert record.commitments == ()
    assert [q.text for q in record.open_questions] == ["The €86,90 duty is still open (TRK-5521)."]


def test_a_waiting_status_stays_open_beside_a_promise_on_a_condition() -> None:
    response = {"status": "waitlisted", "request_id": "UPG-5518"}
    conditional = record_of(
        exchange("If a seat opens, it costs $290.00 and we'll email you the day before.", response)
    )
    assert [q.text for q in conditional.open_questions] == ["UPG-5518: status waitlisted"]
    assert len(conditional.commitments) == 1
    # A promise with no condition says what the wait comes to: the question goes.
    plain = record_of(exchange("We'll email you about UPG-5518 by 2031-05-02.", response))
    assert plain.open_questions == ()


def _at(day: str) -> float:
    return float(calendar.timegm((int(day[:4]), int(day[5:7]), int(day[8:]), 12, 0, 0)))


def test_a_deadline_the_session_outlived_is_not_open() -> None:
    keyed = {"status": "queued", "request_id": "ESC-3021", "decision_by": "2026-05-26"}
    said = "Sent to the shipper. They have until 2026-05-26 to accept."
    cases = [("Sent to the review team.", keyed), (said, {"status": "sent"})]
    for reply, response in cases:
        for when, still_open in (("2026-06-01", False), ("2026-05-20", True)):
            record = record_of(exchange(reply, response, at=_at(when)))
            texts = [q.text for q in record.open_questions]
            assert any("2026-05-26" in t for t in texts) is still_open, (when, texts)
    # A clock before 2000 dates nothing (the evaluation sets' 1970): the deadlines stay open.
    assert [q.text for q in record_of(exchange(*cases[0])).open_questions] == [
        "ESC-3021: status queued, decision by 2026-05-26"
    ]
    assert [q.text for q in record_of(exchange(*cases[1])).open_questions] == [
        "They have until 2026-05-26 to accept (TRK-5521)."
    ]


def test_what_the_customer_will_do_after_the_last_reply_is_open() -> None:
    events = exchange("Moved to Friday.", {"status": "rescheduled"})
    events.append(ev("e5", "user", Part(text="Great, thanks. I'll call back to book the van.")))
    (question,) = record_of(events).open_questions
    assert question.text == "Customer said: I'll call back to book the van."
    assert question.sources == ("e5",)
    # Waiting is no act, and what the customer said before the agents' last reply was answered.
    waits = exchange("Moved to Friday.", {"status": "rescheduled"})
    waits.append(ev("e5", "user", Part(text="OK, I'll wait for the driver then.")))
    assert record_of(waits).open_questions == ()


def test_a_finished_act_a_time_after_a_comma_dates_is_a_commitment() -> None:
    record = record_of(
        exchange(
            "I've also raised WO#88241 for the safety check, within 7 days.", {"id": "WO#88241"}
        )
    )
    assert [c.text for c in record.commitments] == [
        "I've also raised WO#88241 for the safety check, within 7 days."
    ]
    # Without a deadline after the comma it is the write's decision alone.
    done = record_of(exchange("I've also raised WO#88241, as you asked.", {"id": "WO#88241"}))
    assert done.commitments == ()
