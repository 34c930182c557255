"""``PostgresArtifactService`` against the shared artifact conformance suite, and what only a
shared database adds: versions stay distinct across services (processes) on one schema."""

from __future__ import annotations

import asyncio

import pytest

from agentlog.artifacts.base import ArtifactService
from agentlog.testing.artifacts import SCOPE, ArtifactServiceConformance

pytestmark = pytest.mark.postgres


class TestPostgresArtifactService(ArtifactServiceConformance):
    @pytest.fixture(autouse=True)
    def _schema(self, postgres_dsn: str, postgres_schema: str) -> None:
        self.dsn, self.schema = postgres_dsn, postgres_schema

    async def make_service(self, *, max_bytes: int | None = None) -> ArtifactService:
        from agentlog.artifacts.postgres import PostgresArtifactService

        return PostgresArtifactService(self.dsn, schema=self.schema, max_bytes=max_bytes)


async def test_services_sharing_a_schema_get_distinct_versions(
    postgres_dsn: str, postgres_schema: str
) -> None:
    from agentlog.artifacts.postgres import PostgresArtifactService

    services = [PostgresArtifactService(postgres_dsn, schema=postgres_schema) for _ in range(3)]
    try:
        versions = await asyncio.gather(
            *(
                services[i % 3].save_artifact(**SCOPE, filename="f", data=str(i).encode())
                for i in range(30)
            )
        )
        assert sorted(versions) == list(range(30))
        for i, version in enumerate(versions):
            loaded = await services[1].load_artifact(**SCOPE, filename="f", version=version)
            assert loaded.data == str(i).encode()
    finally:
        for service in services:
            await service.close()


async def test_a_version_past_the_column_is_not_found(
    postgres_dsn: str, postgres_schema: str
) -> None:
    from agentlog.artifacts.postgres import PostgresArtifactService
    from agentlog.errors import ArtifactNotFoundError

    async with PostgresArtifactService(postgres_dsn, schema=postgres_schema) as service:
        await service.save_artifact(**SCOPE, filename="f", data=b"x")
        with pytest.raises(ArtifactNotFoundError):
            await service.load_artifact(**SCOPE, filename="f", version=2**40)
