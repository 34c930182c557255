"""``EventsCompactionConfig`` rejects settings that cannot work when it is made."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from agentlog.compaction import EventsCompactionConfig
from agentlog.errors import AgentlogError, InvalidConfigError
from compaction_helpers import FakeSummarizer


def make(*args: Any, **kwargs: Any) -> EventsCompactionConfig:
    return EventsCompactionConfig(*args, **kwargs)


def test_valid_settings() -> None:
    summarizer = FakeSummarizer()
    config = make(3, 1, summarizer)
    assert (config.compaction_interval, config.overlap_size) == (3, 1)
    assert config.summarizer is summarizer
    assert not config.has_token_trigger
    both = make(5, 0, summarizer, token_threshold=8_000, event_retention_size=0)
    assert both.has_token_trigger
    assert make(1, 0, summarizer, summarizer_timeout=0.5).summarizer_timeout == 0.5


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((0, 1), {}, "compaction_interval must be at least 1"),
        ((-2, 1), {}, "compaction_interval must be at least 1"),
        ((3, -1), {}, "overlap_size must be at least 0"),
        ((2.5, 1), {}, "compaction_interval must be a whole number"),
        ((True, 1), {}, "compaction_interval must be a whole number"),
        ((3, 1), {"token_threshold": 100}, "set together"),
        ((3, 1), {"event_retention_size": 2}, "set together"),
        ((3, 1), {"token_threshold": 0, "event_retention_size": 2}, "token_threshold"),
        ((3, 1), {"token_threshold": 10, "event_retention_size": -1}, "event_retention_size"),
        ((3, 1), {"summarizer_timeout": 0}, "summarizer_timeout"),
        ((3, 1), {"summarizer_timeout": float("inf")}, "summarizer_timeout"),
    ],
)
def test_invalid_settings_are_rejected_when_made(
    args: tuple[Any, ...], kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(InvalidConfigError, match=match) as caught:
        make(*args, FakeSummarizer(), **kwargs)
    assert isinstance(caught.value, AgentlogError)
    assert isinstance(caught.value, ValueError)


def test_a_summarizer_without_summarize_events_is_rejected() -> None:
    with pytest.raises(InvalidConfigError, match="summarize_events"):
        make(3, 1, object())
    with pytest.raises(InvalidConfigError, match="validator"):
        make(3, 1, FakeSummarizer(), validator="not callable")


def test_the_config_is_frozen() -> None:
    config = make(3, 1, FakeSummarizer())
    with pytest.raises(AttributeError):
        config.compaction_interval = 4  # type: ignore[misc]


def test_the_public_names_of_agentlog_compaction() -> None:
    import agentlog.compaction as compaction

    assert compaction.__all__ == sorted(compaction.__all__, key=lambda n: (not n.isupper(), n))
    assert set(compaction.__all__) >= {
        "BaseEventsSummarizer",
        "CompactionValidator",
        "EventsCompactionConfig",
        "LlmEventSummarizer",
        "select_window",
    }
    for name in compaction.__all__:
        obj = getattr(compaction, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__doc__, f"{name} has no docstring"
