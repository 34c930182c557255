"""The conformance suite every ``MemoryService`` passes.

Subclass :class:`MemoryServiceConformance` in a test module and implement ``make_service``;
pytest collects every test below for that backend.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from agentlog.errors import InvalidMemoryEntryError, StoreUnavailableError
from agentlog.memory.base import MemoryEntry, MemoryService

__all__ = ["BAD_ENTRIES", "MemoryServiceConformance", "entry"]

APP = "conformance"


def entry(
    text: str,
    *,
    user_id: str = "u1",
    session_id: str = "s1",
    app_name: str = APP,
    **fields: Any,
) -> dict[str, Any]:
    """The fields of a valid entry (a fact, verified, citing ``e1``), with overrides."""
    return {
        "app_name": app_name,
        "user_id": user_id,
        "session_id": session_id,
        "event_ids": ["e1"],
        "kind": "fact",
        "text": text,
        "provenance": "verified",
        **fields,
    }


BAD_ENTRIES: dict[str, dict[str, Any]] = {
    "no event ids": entry("x", event_ids=[]),
    "empty event id": entry("x", event_ids=[""]),
    "empty text": entry(""),
    "blank text": entry(" \n\t"),
    "bad kind": entry("x", kind="opinion"),
    "bad provenance": entry("x", provenance="trusted"),
    "no user": entry("x", user_id=""),
    "no session": entry("x", session_id=""),
    "unknown field": entry("x", colour="red"),
    "nul in text": entry("a\x00b"),
    "lone surrogate": entry("a\ud800b"),
    "infinite time": entry("x", created_at=float("inf")),
    "empty id": entry("x", id=""),
    "event ids not a list": entry("x", event_ids="e1"),
}
"""Entries every backend must refuse, by what is wrong with them."""

REFUND = "Refund of $12.50 for order A-1001 was issued"
SHIPPED = "Order B-2040 shipped on 28 September"
PROMISE = "We promised the refund would arrive within five working days"
EMAIL = "The customer prefers email over phone calls"


class MemoryServiceConformance:
    """The memory contract of SPEC 6, as tests. Subclasses implement ``make_service``."""

    async def make_service(self) -> MemoryService:
        """A new, empty store."""
        raise NotImplementedError

    async def dispose_service(self, service: MemoryService) -> None:
        """Release a store made by ``make_service`` (default: close it)."""
        await service.close()

    @pytest.fixture
    async def store(self) -> AsyncIterator[MemoryService]:
        service = await self.make_service()
        try:
            yield service
        finally:
            await self.dispose_service(service)

    @staticmethod
    async def _seed(store: MemoryService, user_id: str = "u1", app_name: str = APP) -> None:
        await store.add(
            [
                entry(REFUND, user_id=user_id, app_name=app_name, event_ids=["e2", "e3"]),
                entry(SHIPPED, user_id=user_id, app_name=app_name),
                entry(
                    PROMISE, user_id=user_id, app_name=app_name, session_id="s2", kind="commitment"
                ),
                entry(
                    EMAIL,
                    user_id=user_id,
                    app_name=app_name,
                    session_id="s2",
                    provenance="user_claim",
                ),
            ]
        )

    @staticmethod
    async def _texts(store: MemoryService, query: str, user_id: str = "u1", **kw: Any) -> list[str]:
        hits = await store.search(
            app_name=kw.pop("app_name", APP), user_id=user_id, query=query, **kw
        )
        return [hit.entry.text for hit in hits]

    # --- adding and listing -------------------------------------------------------------------

    async def test_is_a_memory_service(self, store: MemoryService) -> None:
        assert isinstance(store, MemoryService)

    async def test_every_provenance_label_is_kept(self, store: MemoryService) -> None:
        labels = ("verified", "agent_statement", "user_claim")
        added = await store.add(
            [entry(f"Label {label} for order A-1001", provenance=label) for label in labels]
        )
        listed = await store.list(app_name=APP, user_id="u1")
        assert sorted(e.provenance for e in listed) == sorted(labels)
        assert sorted(listed, key=lambda e: e.text) == sorted(added, key=lambda e: e.text)

    async def test_add_and_list_round_trip(self, store: MemoryService) -> None:
        given = MemoryEntry.commitment(
            PROMISE,
            app_name=APP,
            user_id="u1",
            session_id="s1",
            event_ids=["e7", "e9"],
            provenance="verified",
        )
        added = await store.add([given, entry(REFUND, created_at=1_700_000_000.25)])
        assert all(e.id for e in added)
        assert added[0] == given.model_copy(update={"id": added[0].id})
        listed = await store.list(app_name=APP, user_id="u1")
        assert listed == [added[1], added[0]]  # oldest first
        assert all(isinstance(e, MemoryEntry) for e in listed)
        assert listed[1].event_ids == ("e7", "e9")
        assert listed[0].created_at == 1_700_000_000.25
        (hit,) = await store.search(app_name=APP, user_id="u1", query="A-1001")
        assert hit.entry == added[1]
        with pytest.raises(ValueError, match="frozen"):
            listed[0].text = "changed"  # type: ignore[misc]

    async def test_ids_are_assigned_unique_or_kept(self, store: MemoryService) -> None:
        added = await store.add([entry("one"), entry("two"), entry("three", id="my-id")])
        assert len({e.id for e in added}) == 3
        assert added[2].id == "my-id"

    async def test_adding_nothing_is_fine(self, store: MemoryService) -> None:
        assert await store.add([]) == []
        assert await store.add(iter([])) == []

    async def test_list_by_session_and_empty(self, store: MemoryService) -> None:
        await self._seed(store)
        listed = await store.list(app_name=APP, user_id="u1", session_id="s2")
        assert [e.text for e in listed] == [PROMISE, EMAIL]
        assert await store.list(app_name=APP, user_id="nobody") == []
        assert await store.list(app_name=APP, user_id="u1", session_id="nope") == []

    async def test_concurrent_adds_all_land(self, store: MemoryService) -> None:
        batches = [[entry(f"note {b}-{i}") for i in range(10)] for b in range(10)]
        await asyncio.gather(*(store.add(batch) for batch in batches))
        listed = await store.list(app_name=APP, user_id="u1")
        assert len(listed) == 100
        assert len({e.id for e in listed}) == 100

    # --- invalid entries -----------------------------------------------------------------------

    @pytest.mark.parametrize("name", sorted(BAD_ENTRIES))
    async def test_invalid_entry_rejected_and_nothing_stored(
        self, store: MemoryService, name: str
    ) -> None:
        with pytest.raises(InvalidMemoryEntryError):
            await store.add([entry("a valid neighbour"), BAD_ENTRIES[name]])
        assert await store.list(app_name=APP, user_id="u1") == []
        assert await store.list(app_name=APP, user_id="") == []

    async def test_unvalidated_model_is_checked_again(self, store: MemoryService) -> None:
        sneaky = MemoryEntry.model_construct(**{**entry("x"), "event_ids": ()})
        with pytest.raises(InvalidMemoryEntryError, match="event_ids"):
            await store.add([sneaky])
        assert await store.list(app_name=APP, user_id="u1") == []

    async def test_duplicate_ids_rejected_and_nothing_stored(self, store: MemoryService) -> None:
        with pytest.raises(InvalidMemoryEntryError):
            await store.add([entry("a", id="dup"), entry("b", id="dup")])
        (kept,) = await store.add([entry("kept", id="dup")])
        with pytest.raises(InvalidMemoryEntryError):
            await store.add([entry("new"), entry("again", id="dup", user_id="u2")])
        assert await store.list(app_name=APP, user_id="u1") == [kept]
        assert await store.list(app_name=APP, user_id="u2") == []

    # --- search -----------------------------------------------------------------------------

    async def test_search_ranks_relevant_entries_first(self, store: MemoryService) -> None:
        await self._seed(store)
        assert await self._texts(store, "refund for A-1001") == [REFUND, PROMISE]
        assert await self._texts(store, "What did we PROMISE about working days?") == [PROMISE]
        assert set(await self._texts(store, "order")) == {REFUND, SHIPPED}
        assert await self._texts(store, "b2040") == [SHIPPED]
        hits = await store.search(app_name=APP, user_id="u1", query="refund email order")
        scores = [hit.score for hit in hits]
        assert len(hits) == 4
        assert scores == sorted(scores, reverse=True)
        assert all(score > 0 for score in scores)

    async def test_search_without_words_or_matches_finds_nothing(
        self, store: MemoryService
    ) -> None:
        await self._seed(store)
        assert await self._texts(store, "") == []
        assert await self._texts(store, " ?!- ") == []
        assert await self._texts(store, "zebra") == []

    async def test_search_limit(self, store: MemoryService) -> None:
        await store.add([entry(f"parcel number {i}") for i in range(15)])
        assert len(await self._texts(store, "parcel")) == 10
        assert len(await self._texts(store, "parcel", limit=3)) == 3
        for bad in (0, -1):
            with pytest.raises(ValueError, match="limit"):
                await store.search(app_name=APP, user_id="u1", query="parcel", limit=bad)

    async def test_search_never_crosses_users_or_apps(self, store: MemoryService) -> None:
        await self._seed(store, user_id="u1")
        await self._seed(store, user_id="u2")
        await self._seed(store, user_id="u1", app_name="other-app")
        await store.add([entry("Secret order Z-9999", user_id="u2")])
        hits = await store.search(app_name=APP, user_id="u1", query="refund order email Z-9999")
        assert len(hits) == 4
        assert {(h.entry.app_name, h.entry.user_id) for h in hits} == {(APP, "u1")}
        assert await self._texts(store, "secret Z-9999") == []
        assert await self._texts(store, "secret", user_id="u2") == ["Secret order Z-9999"]
        assert await self._texts(store, "refund", app_name="nope") == []

    async def test_unicode_text(self, store: MemoryService) -> None:
        texts = [
            "Zoë paid 12,50 € for the Café crème in Kraków 🍰",
            "Клиент ПРОСИТ возврат за заказ A-1001",
            "東京 の 注文 は 発送済み",
            "שלום, the order ships Tuesday",
            "cafe\u0301 written with a combining accent",
        ]
        added = await store.add([entry(text) for text in texts])
        assert [e.text for e in await store.list(app_name=APP, user_id="u1")] == texts
        assert [e.text for e in added] == texts
        assert await self._texts(store, "Просит") == [texts[1]]
        assert await self._texts(store, "東京") == [texts[2]]
        assert await self._texts(store, "KRAKOW") == [texts[0]]
        assert await self._texts(store, "שלום") == [texts[3]]
        assert set(await self._texts(store, "café")) == {texts[0], texts[4]}

    async def test_many_entries_search_stays_correct(self, store: MemoryService) -> None:
        notes = [entry(f"Routine note {i}: parcel Z-{i:05d} is in transit") for i in range(2000)]
        notes.insert(1234, entry("The customer's dog is named Biscuit", session_id="s9"))
        await store.add(notes)
        await store.add([entry(f"Biscuit tin {i}", user_id="u2") for i in range(300)])
        assert await self._texts(store, "biscuit") == ["The customer's dog is named Biscuit"]
        texts = await self._texts(store, "parcel Z-01777")
        assert texts[0] == "Routine note 1777: parcel Z-01777 is in transit"
        assert len(texts) == 10
        assert len(await store.list(app_name=APP, user_id="u1")) == 2001

    # --- deleting ----------------------------------------------------------------------------

    async def test_delete_session_leaves_other_sessions_intact(self, store: MemoryService) -> None:
        await self._seed(store, user_id="u1")
        await self._seed(store, user_id="u2")  # the same session ids, another user
        await self._seed(store, user_id="u1", app_name="other-app")
        before_u2 = await store.list(app_name=APP, user_id="u2")
        before_other = await store.list(app_name="other-app", user_id="u1")
        s2 = await store.list(app_name=APP, user_id="u1", session_id="s2")

        assert await store.delete_session(app_name=APP, user_id="u1", session_id="s1") == 2

        assert await store.list(app_name=APP, user_id="u1", session_id="s1") == []
        assert await store.list(app_name=APP, user_id="u1") == s2
        assert await store.list(app_name=APP, user_id="u2") == before_u2
        assert await store.list(app_name="other-app", user_id="u1") == before_other
        assert await self._texts(store, "refund A-1001") == [PROMISE]
        assert await self._texts(store, "refund A-1001", user_id="u2") == [REFUND, PROMISE]
        assert await store.delete_session(app_name=APP, user_id="u1", session_id="s1") == 0

    async def test_delete_user_removes_all_of_theirs_and_nothing_else(
        self, store: MemoryService
    ) -> None:
        await self._seed(store, user_id="u1")
        await self._seed(store, user_id="u2")
        await self._seed(store, user_id="u1", app_name="other-app")
        before_u2 = await store.list(app_name=APP, user_id="u2")
        before_other = await store.list(app_name="other-app", user_id="u1")

        assert await store.delete_user(app_name=APP, user_id="u1") == 4

        assert await store.list(app_name=APP, user_id="u1") == []
        assert await self._texts(store, "refund order email") == []
        assert await store.list(app_name=APP, user_id="u2") == before_u2
        assert await store.list(app_name="other-app", user_id="u1") == before_other
        assert await store.delete_user(app_name=APP, user_id="u1") == 0
        (again,) = await store.add([entry(REFUND)])
        assert await store.list(app_name=APP, user_id="u1") == [again]

    # --- closing ----------------------------------------------------------------------------

    async def test_closed_store_is_unavailable(self) -> None:
        store = await self.make_service()
        await store.add([entry(REFUND)])
        await store.close()
        await store.close()  # twice is fine
        calls = [
            store.add([entry("late")]),
            store.search(app_name=APP, user_id="u1", query="refund"),
            store.search(app_name=APP, user_id="u1", query=""),
            store.list(app_name=APP, user_id="u1"),
            store.delete_session(app_name=APP, user_id="u1", session_id="s1"),
            store.delete_user(app_name=APP, user_id="u1"),
        ]
        for call in calls:
            with pytest.raises(StoreUnavailableError):
                await call
        await self.dispose_service(store)
