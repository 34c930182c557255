"""``SummaryMetrics``: the numbers to watch in production, kept by each summariser.

First-attempt pass rate (a drop after a model or prompt change is the earliest warning), the
fallback rate (summaries not delivered), entity recall and cost per summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentlog.summary.record.result import SummaryResult

__all__ = ["SummaryMetrics"]


@dataclass
class SummaryMetrics:
    """Running totals over every summary a summariser attempted."""

    attempted: int = 0
    """Summaries attempted."""
    first_attempt_passed: int = 0
    """Delivered on the first attempt."""
    passed_on_retry: int = 0
    """Delivered after the one retry."""
    failed: int = 0
    """Not delivered (the caller fell back to the transcript)."""
    model_calls: int = 0
    """Attempts made in all."""
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    """Total cost at the configured prices."""
    _recall: list[float] = field(default_factory=lambda: [0.0, 0.0], repr=False)
    _first_recall: list[float] = field(default_factory=lambda: [0.0, 0.0], repr=False)

    def record(self, result: SummaryResult) -> None:
        """Count one finished summary."""
        self.attempted += 1
        self.model_calls += result.attempts
        if result.record is None:
            self.failed += 1
        elif result.attempts <= 1:
            self.first_attempt_passed += 1
        else:
            self.passed_on_retry += 1
        self.input_tokens += result.input_tokens
        self.output_tokens += result.output_tokens
        self.cost += result.cost
        for acc, value in (
            (self._recall, result.entity_recall),
            (self._first_recall, result.first_entity_recall),
        ):
            if value is not None:
                acc[0] += value
                acc[1] += 1

    @property
    def delivered(self) -> int:
        """Summaries delivered, on either attempt."""
        return self.first_attempt_passed + self.passed_on_retry

    @property
    def first_attempt_pass_rate(self) -> float:
        """Share of summaries whose first attempt passed (0.0 before any)."""
        return self.first_attempt_passed / self.attempted if self.attempted else 0.0

    @property
    def fallback_rate(self) -> float:
        """Share of summaries not delivered."""
        return self.failed / self.attempted if self.attempted else 0.0

    @property
    def mean_entity_recall(self) -> float | None:
        """Mean recall of each summary's last parsed attempt; None before any parsed."""
        total, count = self._recall
        return total / count if count else None

    @property
    def mean_first_attempt_recall(self) -> float | None:
        """Mean recall of first attempts that parsed: the model's own recall, before feedback."""
        total, count = self._first_recall
        return total / count if count else None

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    @property
    def mean_tokens(self) -> float:
        """Tokens per summary attempted."""
        return self.total_tokens / self.attempted if self.attempted else 0.0

    @property
    def mean_cost(self) -> float:
        """Cost per summary attempted."""
        return self.cost / self.attempted if self.attempted else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Every count and rate, for printing or JSON."""
        return {
            "attempted": self.attempted,
            "delivered": self.delivered,
            "first_attempt_passed": self.first_attempt_passed,
            "passed_on_retry": self.passed_on_retry,
            "failed": self.failed,
            "first_attempt_pass_rate": self.first_attempt_pass_rate,
            "fallback_rate": self.fallback_rate,
            "mean_entity_recall": self.mean_entity_recall,
            "mean_first_attempt_recall": self.mean_first_attempt_recall,
            "model_calls": self.model_calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.total_tokens,
            "mean_tokens": self.mean_tokens,
            "cost": self.cost,
            "mean_cost": self.mean_cost,
        }
