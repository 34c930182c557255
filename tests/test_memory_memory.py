"""The in-memory memory store against the shared conformance suite, and the entry model."""

from __future__ import annotations

import pytest

from agentlog.errors import AgentlogError, InvalidMemoryEntryError
from agentlog.memory import InMemoryMemoryService, MemoryEntry, MemoryHit, MemoryService
from agentlog.testing.memory import MemoryServiceConformance, entry


class TestInMemoryMemoryService(MemoryServiceConformance):
    async def make_service(self) -> MemoryService:
        return InMemoryMemoryService()


def test_constructors_take_plain_fields() -> None:
    fact = MemoryEntry.fact(
        "A-1001 shipped late",
        app_name="refunds",
        user_id="ana",
        session_id="s1",
        event_ids=iter(["e2", "e3"]),
        provenance="verified",
    )
    promise = MemoryEntry.commitment(
        "Refund within five working days",
        app_name="refunds",
        user_id="ana",
        session_id="s1",
        event_ids=["e6"],
        provenance="user_claim",
    )
    assert (fact.kind, fact.event_ids, fact.id) == ("fact", ("e2", "e3"), None)
    assert (promise.kind, promise.provenance) == ("commitment", "user_claim")


@pytest.mark.parametrize(
    ("text", "event_ids", "reason"),
    [("x", [], "event_ids"), ("  ", ["e1"], "blank"), ("x", [""], "event_ids")],
)
def test_constructors_raise_the_typed_error(text: str, event_ids: list[str], reason: str) -> None:
    with pytest.raises(InvalidMemoryEntryError, match=reason) as caught:
        MemoryEntry.fact(
            text,
            app_name="a",
            user_id="u",
            session_id="s",
            event_ids=event_ids,
            provenance="verified",
        )
    assert isinstance(caught.value, AgentlogError)
    assert isinstance(caught.value, ValueError)


def test_models_are_frozen_and_strict() -> None:
    for model in (MemoryEntry, MemoryHit):
        assert model.model_config.get("frozen") is True
        assert model.model_config.get("extra") == "forbid"


def test_provenance_has_no_default() -> None:
    fields = {k: v for k, v in entry("x").items() if k != "provenance"}
    with pytest.raises(ValueError, match="provenance"):
        MemoryEntry.model_validate(fields)
