"""The conformance suite every ``SummaryStore`` passes.

Subclass :class:`SummaryStoreConformance` in a test module and implement ``make_store``; pytest
collects every test below for that backend.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TypedDict

import pytest

from agentlog.errors import StoreUnavailableError
from agentlog.summary.record.schema import SummaryItem, SummaryRecord
from agentlog.summary.stores.base import StoredSummary, SummaryStatus, SummaryStore

__all__ = ["SummaryStoreConformance", "summary"]

APP = "conformance"


def summary(
    version: int,
    status: SummaryStatus = "ok",
    *,
    session_id: str = "s1",
    user_id: str = "u1",
    app_name: str = APP,
    created_at: float | None = None,
    error: str | None = None,
) -> StoredSummary:
    """A stored summary of ``session_id`` at ``version`` (a record when ``status`` is 'ok')."""
    record = SummaryRecord(
        goal=f"goal at {version}",
        facts=(SummaryItem(text="Order A-1 shipped.", sources=("e1", "e2")),),
    )
    return StoredSummary(
        app_name=app_name,
        user_id=user_id,
        session_id=session_id,
        session_version=version,
        status=status,
        record=record if status == "ok" else None,
        error=error if error is not None else (None if status != "error" else "boom"),
        created_at=float(version) if created_at is None else created_at,
    )


class _Where(TypedDict):
    app_name: str
    user_id: str
    session_id: str


def _where(s: StoredSummary) -> _Where:
    return _Where(app_name=s.app_name, user_id=s.user_id, session_id=s.session_id)


class SummaryStoreConformance:
    """The summary-store contract, as tests. Subclasses implement ``make_store``."""

    async def make_store(self) -> SummaryStore:
        """A new, empty store."""
        raise NotImplementedError

    @pytest.fixture
    async def store(self) -> AsyncIterator[SummaryStore]:
        made = await self.make_store()
        yield made
        await made.close()

    async def test_is_a_summary_store(self, store: SummaryStore) -> None:
        assert isinstance(store, SummaryStore)
        assert await store.get(**_where(summary(1))) is None
        assert await store.list(app_name=APP) == []
        assert await store.latest_versions(app_name=APP) == {}

    async def test_round_trip_of_every_field(self, store: SummaryStore) -> None:
        for row in (summary(3), summary(4, "failed"), summary(5, "error", error="Bad: ü\0")):
            await store.put(row)
            assert await store.get(**_where(row)) == row

    async def test_newest_and_newest_delivered(self, store: SummaryStore) -> None:
        await store.put(summary(8))
        await store.put(summary(10, "failed"))
        newest = await store.get(**_where(summary(1)))
        assert newest is not None
        assert (newest.session_version, newest.status) == (10, "failed")
        assert await store.get(**_where(summary(1)), ok_only=True) == summary(8)

    async def test_put_replaces_the_same_version(self, store: SummaryStore) -> None:
        await store.put(summary(2, "failed"))
        await store.put(summary(2, created_at=99.0))
        assert await store.get(**_where(summary(2))) == summary(2, created_at=99.0)

    async def test_put_once_never_replaces_a_delivered_record(self, store: SummaryStore) -> None:
        assert await store.put_once(summary(4, "error"))
        assert await store.put_once(summary(4, "failed"))  # not delivered: replaced
        assert await store.put_once(summary(4))
        assert not await store.put_once(summary(4, created_at=50.0))
        assert not await store.put_once(summary(4, "error"))
        assert await store.get(**_where(summary(4))) == summary(4)
        assert await store.put_once(summary(5, "failed"))  # another version: its own row

    async def test_concurrent_put_once_stores_one(self, store: SummaryStore) -> None:
        rows = [summary(7, created_at=float(n)) for n in range(12)]
        stored = await asyncio.gather(*(store.put_once(row) for row in rows))
        assert stored.count(True) == 1
        assert await store.get(**_where(rows[0])) == rows[stored.index(True)]

    async def test_latest_versions_per_session(self, store: SummaryStore) -> None:
        await store.put(summary(3))
        await store.put(summary(9, "error"))
        await store.put(summary(2, session_id="s2"))
        await store.put(summary(5, user_id="u2", session_id="s1"))
        await store.put(summary(6, app_name="other"))
        assert await store.latest_versions(app_name=APP) == {
            ("u1", "s1"): 9,
            ("u1", "s2"): 2,
            ("u2", "s1"): 5,
        }
        assert await store.latest_versions(app_name=APP, user_id="u2") == {("u2", "s1"): 5}

    async def test_list_newest_per_session_oldest_first(self, store: SummaryStore) -> None:
        await store.put(summary(8, created_at=8.0))
        await store.put(summary(10, "failed", created_at=10.0))
        await store.put(summary(3, session_id="s2", user_id="bo", created_at=3.0))
        await store.put(summary(1, app_name="other"))
        listed = await store.list(app_name=APP)
        assert [(s.session_id, s.session_version) for s in listed] == [("s2", 3), ("s1", 10)]
        assert [s.session_id for s in await store.list(app_name=APP, user_id="bo")] == ["s2"]

    async def test_delete_one_session(self, store: SummaryStore) -> None:
        await store.put(summary(1))
        await store.put(summary(2))
        await store.put(summary(1, session_id="s2"))
        await store.delete(**_where(summary(1)))
        assert await store.get(**_where(summary(1))) is None
        assert await store.latest_versions(app_name=APP) == {("u1", "s2"): 1}
        await store.delete(**_where(summary(1)))  # nothing left: a no-op

    async def test_a_closed_store_refuses(self, store: SummaryStore) -> None:
        await store.close()
        with pytest.raises(StoreUnavailableError):
            await store.put(summary(1))
        with pytest.raises(StoreUnavailableError):
            await store.latest_versions(app_name=APP)
