"""The evaluation's matcher finds a clock time however a record or a payload writes it."""

from __future__ import annotations

import pytest

from agentlog.summary.evaluation._match import mentions


@pytest.mark.parametrize(
    ("haystack", "needle", "expected"),
    [
        ('{"slot": "2026-06-12T14:30:00-05:00"}', "14:30", True),
        ("booked for 2026-06-12T14:30Z", "14:30", True),
        ("the appointment is at 09:15", "9:15", True),
        ("the appointment is at 9:15", "09:15", True),
        ("pickup 2:30 pm", "14:30", True),
        ("pickup at 14:30:00", "2:30 PM", True),
        ("departs 09:15 am", "9:15", True),
        ('{"slot": "2026-06-12T14:31:00-05:00"}', "14:30", False),
        ("the appointment is at 19:15", "9:15", False),
        ("pickup 2:30 am", "14:30", False),
        ("ratio 114:30", "14:30", False),
    ],
)
def test_a_time_is_found_inside_a_timestamp_and_without_its_leading_zero(
    haystack: str, needle: str, expected: bool
) -> None:
    assert mentions(haystack, needle) is expected
