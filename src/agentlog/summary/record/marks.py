"""How a handoff's text marks what each line rests on, and the names a handoff event carries.

:mod:`agentlog.summary.uses.handoff` writes these marks and :mod:`agentlog.summary.record.carried`
reads them back, so both sides share one spelling.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "AGENT_MARK",
    "CLAIM_ASKS_MARK",
    "CLAIM_MARK",
    "EVIDENCE_HEADER",
    "GOAL_AGENT",
    "GOAL_CLAIM",
    "HANDOFF_AUTHOR",
    "HANDOFF_SOURCE_KEY",
    "HANDOFF_TARGET_KEY",
]

# How a line says what it rests on.
CLAIM_MARK: Final = "(the customer says, not verified) "
CLAIM_ASKS_MARK: Final = "(the customer asks, not verified) "
AGENT_MARK: Final = "(an agent said, not verified) "
GOAL_CLAIM: Final = "Goal (the customer's words, not verified): "
GOAL_AGENT: Final = "Goal (an agent's words, not verified): "
EVIDENCE_HEADER: Final = "unmarked lines were checked against tool results"

HANDOFF_AUTHOR: Final = "handoff"
"""Author of a handoff session's first event."""
HANDOFF_SOURCE_KEY: Final = "handoff:source_session_id"
"""Session state key holding the id of the session the record summarises."""
HANDOFF_TARGET_KEY: Final = "handoff:target_agent"
"""Session state key holding the name of the agent the conversation is handed to."""
