"""The evaluation's data: ``Tally``, ``SessionScore`` and ``EvalReport`` (see
:mod:`agentlog.summary.evaluation.scoring`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EvalReport", "SessionScore", "Tally"]


@dataclass(frozen=True, slots=True)
class Tally:
    """Expectations met out of expectations, with what was missed."""

    hit: int = 0
    total: int = 0
    missed: tuple[str, ...] = ()

    @property
    def rate(self) -> float | None:
        """``hit / total``; ``None`` when there was nothing to find."""
        return self.hit / self.total if self.total else None

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.hit + other.hit, self.total + other.total, self.missed + other.missed)


@dataclass(frozen=True)
class SessionScore:
    """One session's outcome against its expectations (``None``: the set has no such key)."""

    session_id: str | None
    delivered: bool
    first_attempt_passed: bool
    attempts: int
    entity_recall: float | None
    expected_entities: Tally | None = None
    commitments: Tally | None = None
    open_questions: Tally | None = None
    actions: Tally | None = None
    performed_actions: Tally | None = None
    invented_sources: int = 0
    claims: int | None = None
    claims_promoted: tuple[str, ...] = ()
    injected: bool | None = None
    injections_verified: int = 0
    cost: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0


def _pool(tallies: Iterable[Tally | None]) -> Tally | None:
    present = [t for t in tallies if t is not None]
    if not present:
        return None
    total = Tally()
    for t in present:
        total = total + t
    return total


@dataclass(frozen=True)
class EvalReport:
    """A summariser's scores over one evaluation set."""

    name: str
    summarizer: str
    sessions: tuple[SessionScore, ...] = field(repr=False)

    def _share(self, flag: str) -> float | None:
        n = len(self.sessions)
        return sum(bool(getattr(s, flag)) for s in self.sessions) / n if n else None

    @property
    def pass_rate(self) -> float | None:
        """Sessions with a delivered record."""
        return self._share("delivered")

    @property
    def first_attempt_pass_rate(self) -> float | None:
        """Sessions whose first attempt passed the validator."""
        return self._share("first_attempt_passed")

    @property
    def fallback_rate(self) -> float | None:
        """Sessions without a record (the reader falls back to the transcript)."""
        rate = self.pass_rate
        return None if rate is None else 1.0 - rate

    @property
    def entity_recall(self) -> float | None:
        """Mean transcript-entity recall of the sessions whose output parsed."""
        values = [s.entity_recall for s in self.sessions if s.entity_recall is not None]
        return sum(values) / len(values) if values else None

    def pooled(self, measure: str) -> Tally | None:
        """``expected_entities``, ``commitments``, ``open_questions``, ``actions`` or
        ``performed_actions``, pooled."""
        return _pool(getattr(s, measure) for s in self.sessions)

    @property
    def claims(self) -> int | None:
        """User claims listed in the set (``None``: the set lists none)."""
        counts = [s.claims for s in self.sessions if s.claims is not None]
        return sum(counts) if counts else None

    @property
    def injected(self) -> int | None:
        """Sessions carrying an injection (``None``: the set does not say)."""
        flags = [s.injected for s in self.sessions if s.injected is not None]
        return sum(flags) if flags else None

    @property
    def cost(self) -> float:
        """Total cost."""
        return sum(s.cost for s in self.sessions)

    def as_dict(self, *, sessions: bool = False) -> dict[str, Any]:
        """Every figure, for JSON (with each session's score if ``sessions``)."""
        n = len(self.sessions)

        def pooled(measure: str) -> dict[str, Any] | None:
            t = self.pooled(measure)
            return None if t is None else {"hit": t.hit, "total": t.total, "rate": t.rate}

        out: dict[str, Any] = {
            "file": self.name,
            "summarizer": self.summarizer,
            "sessions": n,
            "pass_rate": self.pass_rate,
            "first_attempt_pass_rate": self.first_attempt_pass_rate,
            "fallback_rate": self.fallback_rate,
            "entity_recall": self.entity_recall,
            "expected_entity_recall": pooled("expected_entities"),
            "commitment_recall": pooled("commitments"),
            "open_question_recall": pooled("open_questions"),
            "action_recall": pooled("actions"),
            "performed_action_recall": pooled("performed_actions"),
            "invented_sources": sum(s.invented_sources for s in self.sessions),
            "user_claims": self.claims,
            "claims_promoted": sum(len(s.claims_promoted) for s in self.sessions),
            "injected_sessions": self.injected,
            "injections_verified": sum(s.injections_verified for s in self.sessions),
            "cost": self.cost,
            "cost_per_summary": self.cost / n if n else 0.0,
            "input_tokens": sum(s.input_tokens for s in self.sessions),
            "output_tokens": sum(s.output_tokens for s in self.sessions),
        }
        if sessions:
            out["per_session"] = [_session_dict(s) for s in self.sessions]
        return out


def _session_dict(s: SessionScore) -> dict[str, Any]:
    def t(x: Tally | None) -> dict[str, Any] | None:
        return None if x is None else {"hit": x.hit, "total": x.total, "missed": list(x.missed)}

    return {
        "session_id": s.session_id,
        "delivered": s.delivered,
        "first_attempt_passed": s.first_attempt_passed,
        "attempts": s.attempts,
        "entity_recall": s.entity_recall,
        "expected_entities": t(s.expected_entities),
        "commitments": t(s.commitments),
        "open_questions": t(s.open_questions),
        "actions": t(s.actions),
        "performed_actions": t(s.performed_actions),
        "invented_sources": s.invented_sources,
        "claims_promoted": list(s.claims_promoted),
        "injections_verified": s.injections_verified,
        "cost": s.cost,
    }
