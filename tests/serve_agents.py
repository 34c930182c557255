"""Agents the multi-process tests serve with ``agentlog serve --agent serve_agents:NAME``."""

from __future__ import annotations

from agentlog.server.desk import RefundDeskModel, refund_desk

slow_desk = refund_desk(RefundDeskModel(delay_s=0.15))
"""The refund desk, its model pausing before each streamed chunk: a greeting takes seconds."""

brisk_desk = refund_desk(RefundDeskModel(delay_s=0.01))
"""The refund desk, slow enough that two turns sent at once overlap."""
