"""``render_events``, ``compaction_event`` and ``LlmEventSummarizer`` over a ``ScriptedLlm``."""

from __future__ import annotations

import pytest

from agentlog import Content, ErrorCode, Part, Usage
from agentlog.compaction import (
    COMPACTOR_AUTHOR,
    DEFAULT_PROMPT_TEMPLATE,
    BaseEventsSummarizer,
    LlmEventSummarizer,
    compaction_event,
    render_events,
)
from agentlog.errors import InvalidConfigError, ModelError
from agentlog.models.base import LlmResponse
from agentlog.models.scripted import ScriptedLlm
from agentlog.transcript import transcript_lines
from compaction_helpers import call, confirmation_turn, ev, response, text, turn


def test_one_line_an_event_part_with_tool_calls_and_results_on_their_own() -> None:
    events = turn(1)
    rendered = render_events(events).splitlines()
    ids = [e.id for e in events]
    assert rendered == [
        f"[{ids[0]}] user: question 1",
        f'[{ids[1]}] desk CALLS lookup {{"n": 1}}',
        f'[{ids[2]}] desk RESULT lookup {{"found": 1}}',
        f"[{ids[3]}] desk: answer 1",
    ]


def test_the_window_is_the_transcript_its_validator_checks() -> None:
    # One renderer for compaction and summaries: the model reads what the validator checks.
    events = [
        *turn(1),
        ev("inv-2", "desk", call("search", "c9", q="x" * 300)),
        ev(
            "inv-2",
            "desk",
            response("search", "c9", hits=[f"id-{n:04d} " + "y" * 40 for n in range(90)]),
        ),
    ]
    for limit in (60, 2_000):
        shown = render_events(events, max_payload_chars=limit).splitlines()
        checked = [ln.render() for ln in transcript_lines(events, max_tool_chars=limit)]
        assert shown == checked


def test_the_previous_summary_comes_first() -> None:
    earlier = turn(1)
    previous = compaction_event(earlier, "Ana asked about order A-1182.")
    later = turn(2)
    lines = render_events([previous, *later]).splitlines()
    assert lines[:3] == [
        "Summary of the conversation before the events below:",
        "Ana asked about order A-1182.",
        "",
    ]
    assert lines[3] == f"[{later[0].id}] user: question 2"
    assert len(lines) == 3 + len(later)


def test_long_payloads_keep_their_head_and_say_what_was_cut() -> None:
    big = "A" * 50 + "B" * 100
    events = [
        ev("inv-1", "user", text(big + "\nsecond line")),
        ev("inv-1", "desk", call("search", "c1", q="x" * 300)),
        ev("inv-1", "desk", response("search", "c1", hits=["y" * 40] * 20)),
        ev("inv-1", "desk", error_code=ErrorCode.MAX_TOKENS, error_message="cut short"),
    ]
    lines = render_events(events, max_payload_chars=60).splitlines()
    assert lines[0] == f"[{events[0].id}] user: {big} ⏎ second line"  # text has its own limit
    assert "...[truncated " in lines[1]
    assert lines[1].startswith(f"[{events[1].id}] desk CALLS search ")
    assert "...[truncated " in lines[2] or " more (" in lines[2]
    assert lines[3] == f"[{events[3].id}] desk ERROR max_tokens: cut short"


def test_confirmation_requests_render_as_calls() -> None:
    events = confirmation_turn(1)
    rendered = render_events(events)
    assert "CALLS agentlog_request_confirmation " in rendered
    assert '"function_call_id": "r1"' in rendered


def test_compaction_event_covers_the_non_compaction_events() -> None:
    first = turn(1)
    previous = compaction_event(first, "A")
    window = turn(2)
    event = compaction_event([previous, *window], "B", usage=Usage(input_tokens=5))
    compaction = event.actions.compaction
    assert compaction is not None
    assert compaction.event_ids == tuple(e.id for e in window)
    assert compaction.start_timestamp == window[0].timestamp
    assert compaction.end_timestamp == window[-1].timestamp
    assert compaction.summary == Content.from_text("B", role="model")
    assert event.author == COMPACTOR_AUTHOR
    assert event.invocation_id.startswith("inv-")
    assert event.usage == Usage(input_tokens=5)
    with pytest.raises(ValueError, match="at least one"):
        compaction_event([previous], "nothing")


async def test_llm_summarizer_prompts_with_the_rendered_window_and_returns_the_event() -> None:
    earlier = turn(1)
    previous = compaction_event(earlier, "Summary A")
    window = turn(2)
    with ScriptedLlm([ScriptedLlm.text("  Summary B  ")], model="cheap") as llm:
        summarizer = LlmEventSummarizer(llm)
        assert isinstance(summarizer, BaseEventsSummarizer)
        event = await summarizer.summarize_events([previous, *window])
    assert event is not None
    assert event.actions.compaction is not None
    assert event.actions.compaction.summary.parts == (Part(text="Summary B"),)
    assert event.actions.compaction.event_ids == tuple(e.id for e in window)
    assert event.model == "cheap"
    assert event.usage is not None
    (request,) = llm.requests
    assert request.config.temperature == 0
    (content,) = request.contents
    prompt = content.parts[0].text
    assert prompt is not None
    expected = DEFAULT_PROMPT_TEMPLATE.replace(
        "{conversation_history}", render_events([previous, *window])
    )
    assert prompt == expected
    assert prompt.index("Summary A") < prompt.index("question 2")


async def test_a_custom_template_is_filled_and_other_braces_are_left_alone() -> None:
    with ScriptedLlm([ScriptedLlm.text("ok")]) as llm:
        summarizer = LlmEventSummarizer(
            llm, prompt_template='JSON {"a": 1}\n{conversation_history}'
        )
        await summarizer.summarize_events(turn(1))
    prompt = llm.requests[0].contents[0].parts[0].text
    assert prompt is not None
    assert prompt.startswith('JSON {"a": 1}\n[')
    with pytest.raises(InvalidConfigError, match="conversation_history"):
        LlmEventSummarizer(llm, prompt_template="no placeholder")


@pytest.mark.parametrize(
    "reply",
    [
        ScriptedLlm.text("   "),
        ScriptedLlm.error(ErrorCode.SAFETY),
        LlmResponse(content=None),
    ],
)
async def test_llm_summarizer_returns_none_without_a_usable_answer(reply: LlmResponse) -> None:
    with ScriptedLlm([reply]) as llm:
        assert await LlmEventSummarizer(llm).summarize_events(turn(1)) is None


async def test_llm_summarizer_skips_an_empty_window_and_lets_model_errors_through() -> None:
    with ScriptedLlm([]) as llm:
        summarizer = LlmEventSummarizer(llm)
        assert await summarizer.summarize_events([]) is None
        assert await summarizer.summarize_events([compaction_event(turn(1), "A")]) is None
    failing = ScriptedLlm([ModelError(ErrorCode.RATE_LIMITED, "slow down")])
    with pytest.raises(ModelError):
        await LlmEventSummarizer(failing).summarize_events(turn(2))
