"""Artifacts over HTTP: the runner's artifact service, read by the session's owner only; and
where ``agentlog serve`` keeps artifacts for each kind of database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from agentlog import SqliteSessionService
from agentlog.artifacts import FileArtifactService, InMemoryArtifactService
from agentlog.cli.stores import build_artifacts
from agentlog.runner import Runner
from agentlog.server import create_app
from agentlog.server.desk import RefundDeskModel, refund_desk
from server_support import ANA_KEY, BEN_KEY, KEYS, auth


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteSessionService]:
    service = SqliteSessionService(tmp_path / "server.db")
    yield service
    await service.close()


def client(app: object, key: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=auth(key))


async def test_an_artifact_is_served_to_its_owner_only(
    store: SqliteSessionService, tmp_path: Path
) -> None:
    artifacts = FileArtifactService(tmp_path / "artifacts")
    runner = Runner(
        agent=refund_desk(RefundDeskModel()), session_service=store, artifact_service=artifacts
    )
    app = create_app(runner, api_keys=KEYS, stall_check_interval_s=None)
    async with client(app, ANA_KEY) as ana, client(app, BEN_KEY) as ben:
        sid = (await ana.post("/sessions", json={})).json()["id"]
        where = {"app_name": runner.app_name, "user_id": "ana", "session_id": sid}
        await artifacts.save_artifact(
            **where, filename="label.txt", data=b"v0", mime_type="text/plain"
        )
        await artifacts.save_artifact(
            **where, filename="label.txt", data=b"<b>v1</b>", mime_type="text/html"
        )
        await artifacts.save_artifact(**where, filename="user:cv.pdf", data=b"%PDF")
        latest = await ana.get(f"/sessions/{sid}/artifacts/label.txt")
        assert latest.status_code == 200
        assert (latest.content, latest.headers["x-artifact-version"]) == (b"<b>v1</b>", "1")
        assert latest.headers["content-type"].startswith("text/html")
        # Never rendered as a page of this origin.
        assert latest.headers["content-security-policy"] == "sandbox"
        assert latest.headers["content-disposition"].startswith("attachment")
        first = await ana.get(f"/sessions/{sid}/artifacts/label.txt", params={"version": 0})
        assert (first.content, first.headers["x-artifact-version"]) == (b"v0", "0")
        assert (await ana.get(f"/sessions/{sid}/artifacts/user:cv.pdf")).content == b"%PDF"
        listed = await ana.get(f"/sessions/{sid}/artifacts")
        assert listed.json() == {"names": ["label.txt", "user:cv.pdf"]}
        for missing in ("label.txt?version=7", "nope.txt"):
            assert (await ana.get(f"/sessions/{sid}/artifacts/{missing}")).status_code == 404
        # Another user: the session is not theirs, whatever the name.
        for path in ("label.txt", "user:cv.pdf", "label.txt?version=0"):
            assert (await ben.get(f"/sessions/{sid}/artifacts/{path}")).status_code == 404
        assert (await ben.get(f"/sessions/{sid}/artifacts")).status_code == 404
        # Nor through a session of their own, nor one that does not exist.
        theirs = (await ben.post("/sessions", json={})).json()["id"]
        assert (await ben.get(f"/sessions/{theirs}/artifacts/user:cv.pdf")).status_code == 404
        assert (await ana.get("/sessions/no-such/artifacts/user:cv.pdf")).status_code == 404
        assert (await ana.get(f"/sessions/{sid}/artifacts/%2E%2E")).status_code == 422
        # Deleting the session deletes its own artifacts; the user's stay.
        assert (await ana.delete(f"/sessions/{sid}")).status_code == 204
        assert await artifacts.list_artifact_keys(**where) == ["user:cv.pdf"]


async def test_without_a_key_there_is_no_artifact(store: SqliteSessionService) -> None:
    runner = Runner(agent=refund_desk(RefundDeskModel()), session_service=store)
    app = create_app(runner, api_keys=KEYS, stall_check_interval_s=None)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as anonymous:
        assert (await anonymous.get("/sessions/s/artifacts/a")).status_code == 401


def test_serve_keeps_artifacts_beside_the_database(tmp_path: Path) -> None:
    db = tmp_path / "app.db"
    service = build_artifacts(str(db))
    assert isinstance(service, FileArtifactService)
    assert service.root == tmp_path / "app.db-artifacts"
    assert isinstance(build_artifacts(":memory:"), InMemoryArtifactService)


@pytest.mark.postgres
def test_serve_keeps_artifacts_in_postgresql(postgres_dsn: str) -> None:
    from agentlog.artifacts.postgres import PostgresArtifactService

    assert isinstance(build_artifacts(postgres_dsn), PostgresArtifactService)
