"""Sliding-window context compaction (SPEC 5).

Give a ``Runner`` an :class:`EventsCompactionConfig`; after a turn's stream has ended, the
runner's :class:`CompactionHook` picks a window (:func:`select_window`), has the summariser
turn it into one compaction event, and stores it. History then starts from the newest summary,
and the runner loads only the events from the newest compaction on.
"""

from agentlog.compaction.config import CompactionValidator, EventsCompactionConfig
from agentlog.compaction.hook import CompactionHook
from agentlog.compaction.summarizer import (
    COMPACTOR_AUTHOR,
    DEFAULT_PROMPT_TEMPLATE,
    BaseEventsSummarizer,
    LlmEventSummarizer,
    compaction_event,
    render_events,
)
from agentlog.compaction.window import (
    CompactionWindow,
    estimate_prompt_tokens,
    first_pending_index,
    select_window,
)

__all__ = [
    "COMPACTOR_AUTHOR",
    "DEFAULT_PROMPT_TEMPLATE",
    "BaseEventsSummarizer",
    "CompactionHook",
    "CompactionValidator",
    "CompactionWindow",
    "EventsCompactionConfig",
    "LlmEventSummarizer",
    "compaction_event",
    "estimate_prompt_tokens",
    "first_pending_index",
    "render_events",
    "select_window",
]
