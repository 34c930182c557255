"""Every summary store against the shared conformance suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentlog.summary import InMemorySummaryStore, SqliteSummaryStore, SummaryStore
from agentlog.testing.summaries import SummaryStoreConformance


class TestInMemorySummaryStore(SummaryStoreConformance):
    async def make_store(self) -> SummaryStore:
        return InMemorySummaryStore()


class TestSqliteSummaryStore(SummaryStoreConformance):
    @pytest.fixture(autouse=True)
    def _tmp(self, tmp_path: Path) -> None:
        self.path = tmp_path / "summaries.db"

    async def make_store(self) -> SummaryStore:
        return SqliteSummaryStore(self.path)


@pytest.mark.postgres
class TestPostgresSummaryStore(SummaryStoreConformance):
    @pytest.fixture(autouse=True)
    def _schema(self, postgres_dsn: str, postgres_schema: str) -> None:
        self.dsn, self.schema = postgres_dsn, postgres_schema

    async def make_store(self) -> SummaryStore:
        from agentlog.summary.stores.postgres import PostgresSummaryStore

        return PostgresSummaryStore(self.dsn, schema=self.schema)


@pytest.mark.postgres
async def test_postgres_summaries_survive_a_new_store(
    postgres_dsn: str, postgres_schema: str
) -> None:
    from agentlog.summary.stores.postgres import PostgresSummaryStore
    from agentlog.testing.summaries import summary

    async with PostgresSummaryStore(postgres_dsn, schema=postgres_schema) as first:
        await first.put(summary(3))
    async with PostgresSummaryStore(postgres_dsn, schema=postgres_schema) as second:
        assert await second.get(app_name="conformance", user_id="u1", session_id="s1") == summary(3)
