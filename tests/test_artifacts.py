"""Both artifact backends against the shared conformance suite, plus what only files have."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentlog.artifacts import FileArtifactService, InMemoryArtifactService
from agentlog.artifacts.base import ArtifactService
from agentlog.errors import ArtifactError
from agentlog.testing.artifacts import SCOPE, ArtifactServiceConformance


class TestInMemoryArtifactService(ArtifactServiceConformance):
    async def make_service(self, *, max_bytes: int | None = None) -> ArtifactService:
        return InMemoryArtifactService(max_bytes=max_bytes)


class TestFileArtifactService(ArtifactServiceConformance):
    @pytest.fixture(autouse=True)
    def _tmp(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.count = 0

    async def make_service(self, *, max_bytes: int | None = None) -> ArtifactService:
        self.count += 1
        return FileArtifactService(self.tmp_path / f"root{self.count}", max_bytes=max_bytes)


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _entries(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


async def test_layout_and_sidecar(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path)
    await service.save_artifact(**SCOPE, filename="a b.txt", data=b"x", mime_type="text/plain")
    await service.save_artifact(**SCOPE, filename="user:cv.pdf", data=b"y")
    assert _files(tmp_path) == [
        "conformance/u1/_user/user%3Acv.pdf/0",
        "conformance/u1/_user/user%3Acv.pdf/0.json",
        "conformance/u1/s1/a%20b.txt/0",
        "conformance/u1/s1/a%20b.txt/0.json",
    ]
    sidecar = (tmp_path / "conformance/u1/s1/a%20b.txt/0.json").read_text()
    assert '"mime_type":"text/plain"' in sidecar


async def test_survives_a_new_instance_on_the_same_root(tmp_path: Path) -> None:
    first = FileArtifactService(tmp_path)
    await first.save_artifact(**SCOPE, filename="f", data=b"one", mime_type="text/plain")
    await first.save_artifact(**SCOPE, filename="user:g", data=b"two")
    second = FileArtifactService(str(tmp_path))
    assert await second.list_artifact_keys(**SCOPE) == ["f", "user:g"]
    loaded = await second.load_artifact(**SCOPE, filename="f")
    assert (loaded.data, loaded.mime_type, loaded.version) == (b"one", "text/plain", 0)
    assert await second.save_artifact(**SCOPE, filename="f", data=b"three") == 1


async def test_saves_leave_no_temp_files(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path)
    await asyncio.gather(
        *(service.save_artifact(**SCOPE, filename="f", data=b"x" * 1000) for _ in range(10))
    )
    assert all(not name.rsplit("/", 1)[-1].startswith(".") for name in _files(tmp_path))
    assert len(_files(tmp_path)) == 20


async def test_deletes_leave_nothing_behind(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path)
    await service.save_artifact(**SCOPE, filename="f", data=b"x")
    await service.save_artifact(**SCOPE, filename="user:g", data=b"x")
    await service.delete_artifact(**SCOPE, filename="user:g")
    await service.delete_session_artifacts(**SCOPE)
    assert _entries(tmp_path) == ["conformance", "conformance/u1", "conformance/u1/_user"]


async def test_failed_write_leaves_no_version_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = FileArtifactService(tmp_path)
    await service.save_artifact(**SCOPE, filename="f", data=b"good")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(ArtifactError, match="No space left"):
        await service.save_artifact(**SCOPE, filename="f", data=b"bad")
    monkeypatch.undo()
    assert _files(tmp_path / "conformance/u1/s1/f") == ["0", "0.json"]
    assert (await service.load_artifact(**SCOPE, filename="f")).data == b"good"


async def test_crash_before_the_sidecar_leaves_an_invisible_version(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path)
    await service.save_artifact(**SCOPE, filename="f", data=b"v0")
    directory = tmp_path / "conformance/u1/s1/f"
    # What a crash between claiming version 1 and committing it leaves behind.
    (directory / "1").write_bytes(b"half")
    (directory / ".tmp-abandoned").write_bytes(b"half")
    assert await service.list_versions(**SCOPE, filename="f") == [0]
    assert (await service.load_artifact(**SCOPE, filename="f")).data == b"v0"
    assert await service.save_artifact(**SCOPE, filename="f", data=b"v2") == 2
    assert await service.list_versions(**SCOPE, filename="f") == [0, 2]


async def test_instances_sharing_a_root_get_distinct_versions(tmp_path: Path) -> None:
    # Separate instances hold separate locks, so only the O_EXCL claim keeps versions apart.
    services = [FileArtifactService(tmp_path) for _ in range(4)]
    versions = await asyncio.gather(
        *(
            services[i % 4].save_artifact(**SCOPE, filename="f", data=str(i).encode())
            for i in range(40)
        )
    )
    assert sorted(versions) == list(range(40))
    for i, version in enumerate(versions):
        loaded = await services[0].load_artifact(**SCOPE, filename="f", version=version)
        assert loaded.data == str(i).encode()


_WORKER = textwrap.dedent(
    """
    import asyncio, sys
    from agentlog.artifacts import FileArtifactService

    async def main() -> None:
        service = FileArtifactService(sys.argv[1])
        for i in range(20):
            version = await service.save_artifact(
                app_name="conformance", user_id="u1", session_id="s1", filename="f",
                data=f"{sys.argv[2]}-{i}".encode(),
            )
            print(version)

    asyncio.run(main())
    """
)


@pytest.mark.slow
def test_processes_sharing_a_root_get_distinct_versions(tmp_path: Path) -> None:
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(tmp_path), str(n)], stdout=subprocess.PIPE
        )
        for n in range(4)
    ]
    versions = [int(line) for w in workers for line in w.communicate(timeout=60)[0].split()]
    assert all(w.returncode == 0 for w in workers)
    assert sorted(versions) == list(range(80))


async def test_corrupt_sidecar_is_an_artifact_error(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path)
    await service.save_artifact(**SCOPE, filename="f", data=b"x")
    (tmp_path / "conformance/u1/s1/f/0.json").write_text("{not json")
    with pytest.raises(ArtifactError, match="corrupt"):
        await service.load_artifact(**SCOPE, filename="f")


async def test_unusable_root_is_an_artifact_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    service = FileArtifactService(blocker / "root")
    with pytest.raises(ArtifactError):
        await service.save_artifact(**SCOPE, filename="f", data=b"x")


def test_max_bytes_must_be_non_negative(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        FileArtifactService(tmp_path, max_bytes=-1)
    with pytest.raises(ValueError, match="max_bytes"):
        InMemoryArtifactService(max_bytes=-1)
