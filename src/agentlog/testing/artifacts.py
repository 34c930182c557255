"""The conformance suite every ``ArtifactService`` passes.

Subclass :class:`ArtifactServiceConformance` in a test module and implement ``make_service``;
pytest collects every test below for that backend.
"""

from __future__ import annotations

import asyncio
from typing import TypedDict

import pytest
from pydantic import ValidationError

from agentlog.artifacts.base import Artifact, ArtifactService
from agentlog.errors import ArtifactNotFoundError, ArtifactTooLargeError, InvalidArtifactNameError
from agentlog.events import ArtifactRef

__all__ = ["BAD_NAMES", "ODD_NAMES", "ArtifactServiceConformance", "Scope", "scope"]

APP = "conformance"


class Scope(TypedDict):
    """The keyword arguments naming one session's artifacts."""

    app_name: str
    user_id: str
    session_id: str


def scope(session_id: str = "s1", *, app_name: str = APP, user_id: str = "u1") -> Scope:
    """A scope in the conformance app."""
    return Scope(app_name=app_name, user_id=user_id, session_id=session_id)


SCOPE: Scope = scope()

BAD_NAMES = [
    "",
    "user:",
    "a/b",
    "a\\b",
    "..",
    ".",
    "user:..",
    "a\0b",
    "a\ud800b",
    "x" * 256,
    "/etc/passwd",
]
"""Names every backend rejects with ``InvalidArtifactNameError``."""

ODD_NAMES = [
    "report 1.pdf",
    "ünïcødé ✓.txt",
    "_user",
    ".hidden",
    "~tilde",
    "%41",
    "a:b",
    "CON",
    "a..b",
    "x" * 255,
    "é" * 255,
    "user:" + "ø" * 250,
]
"""Awkward but valid names that must round-trip exactly."""


class ArtifactServiceConformance:
    """The artifact contract, as tests. Subclasses implement ``make_service``."""

    async def make_service(self, *, max_bytes: int | None = None) -> ArtifactService:
        """A new, empty service that refuses versions over ``max_bytes``."""
        raise NotImplementedError

    @pytest.fixture
    async def service(self) -> ArtifactService:
        return await self.make_service()

    # --- saving and loading ---------------------------------------------------------------------

    async def test_versions_start_at_zero_and_count_up(self, service: ArtifactService) -> None:
        for expected in range(3):
            data = f"v{expected}".encode()
            assert await service.save_artifact(**SCOPE, filename="a.txt", data=data) == expected
        assert await service.list_versions(**SCOPE, filename="a.txt") == [0, 1, 2]

    async def test_load_latest_and_a_given_version(self, service: ArtifactService) -> None:
        await service.save_artifact(**SCOPE, filename="r.pdf", data=b"old", mime_type="text/plain")
        await service.save_artifact(
            **SCOPE, filename="r.pdf", data=b"newer", mime_type="application/pdf"
        )
        latest = await service.load_artifact(**SCOPE, filename="r.pdf")
        assert (latest.name, latest.version, latest.data) == ("r.pdf", 1, b"newer")
        assert (latest.mime_type, latest.size) == ("application/pdf", 5)
        first = await service.load_artifact(**SCOPE, filename="r.pdf", version=0)
        assert (first.version, first.data, first.mime_type) == (0, b"old", "text/plain")
        assert first.created_at <= latest.created_at

    async def test_defaults_and_binary_round_trip(self, service: ArtifactService) -> None:
        data = bytes(range(256)) * 4
        await service.save_artifact(**SCOPE, filename="blob", data=data)
        await service.save_artifact(**SCOPE, filename="empty", data=b"")
        loaded = await service.load_artifact(**SCOPE, filename="blob")
        assert loaded.data == data
        assert loaded.mime_type == "application/octet-stream"
        assert (await service.load_artifact(**SCOPE, filename="empty")).data == b""

    async def test_bytes_like_accepted_text_refused(self, service: ArtifactService) -> None:
        await service.save_artifact(**SCOPE, filename="b", data=bytearray(b"ab"))  # type: ignore[arg-type]
        assert (await service.load_artifact(**SCOPE, filename="b")).data == b"ab"
        with pytest.raises(TypeError):
            await service.save_artifact(**SCOPE, filename="b", data="text")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="mime_type"):
            await service.save_artifact(**SCOPE, filename="b", data=b"x", mime_type="")
        assert await service.list_versions(**SCOPE, filename="b") == [0]

    async def test_loaded_artifact_is_frozen(self, service: ArtifactService) -> None:
        await service.save_artifact(**SCOPE, filename="f", data=b"\xffa\0", mime_type="text/plain")
        loaded = await service.load_artifact(**SCOPE, filename="f")
        assert isinstance(loaded, Artifact)
        with pytest.raises(ValidationError, match="frozen"):
            loaded.data = b"changed"  # type: ignore[misc]
        assert loaded.to_ref() == ArtifactRef(name="f", version=0, mime_type="text/plain", size=3)
        assert Artifact.model_validate_json(loaded.model_dump_json()) == loaded

    async def test_missing_artifact_or_version(self, service: ArtifactService) -> None:
        with pytest.raises(ArtifactNotFoundError):
            await service.load_artifact(**SCOPE, filename="nope")
        assert await service.list_versions(**SCOPE, filename="nope") == []
        await service.save_artifact(**SCOPE, filename="one", data=b"1")
        for version in (1, -1, 99):
            with pytest.raises(ArtifactNotFoundError) as info:
                await service.load_artifact(**SCOPE, filename="one", version=version)
            assert isinstance(info.value, LookupError)

    async def test_too_large_is_refused_and_nothing_stored(self) -> None:
        service = await self.make_service(max_bytes=4)
        assert await service.save_artifact(**SCOPE, filename="f", data=b"1234") == 0
        with pytest.raises(ArtifactTooLargeError) as info:
            await service.save_artifact(**SCOPE, filename="f", data=b"12345")
        assert (info.value.size, info.value.max_bytes) == (5, 4)
        assert await service.list_versions(**SCOPE, filename="f") == [0]

    async def test_concurrent_saves_get_distinct_versions(self, service: ArtifactService) -> None:
        payloads = [f"payload {i}".encode() for i in range(25)]
        versions = await asyncio.gather(
            *(service.save_artifact(**SCOPE, filename="c", data=p) for p in payloads)
        )
        assert sorted(versions) == list(range(25))
        for version, payload in zip(versions, payloads, strict=True):
            loaded = await service.load_artifact(**SCOPE, filename="c", version=version)
            assert loaded.data == payload

    # --- names and scopes -----------------------------------------------------------------------

    @pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
    async def test_bad_names_rejected(self, service: ArtifactService, name: str) -> None:
        with pytest.raises(InvalidArtifactNameError):
            await service.save_artifact(**SCOPE, filename=name, data=b"x")
        with pytest.raises(InvalidArtifactNameError):
            await service.load_artifact(**SCOPE, filename=name)
        with pytest.raises(InvalidArtifactNameError):
            await service.list_versions(**SCOPE, filename=name)
        with pytest.raises(InvalidArtifactNameError):
            await service.delete_artifact(**SCOPE, filename=name)
        assert await service.list_artifact_keys(**SCOPE) == []

    @pytest.mark.parametrize(
        "wrong",
        [scope(bad) for bad in ("", "a\0b", "\udfff")]
        + [scope(app_name="")]
        + [scope(user_id="a\0b")],
        ids=repr,
    )
    async def test_bad_scope_ids_rejected(self, service: ArtifactService, wrong: Scope) -> None:
        with pytest.raises(InvalidArtifactNameError):
            await service.save_artifact(**wrong, filename="f", data=b"x")
        with pytest.raises(InvalidArtifactNameError):
            await service.list_artifact_keys(**wrong)
        with pytest.raises(InvalidArtifactNameError):
            await service.delete_session_artifacts(**wrong)

    async def test_odd_names_round_trip(self, service: ArtifactService) -> None:
        for name in ODD_NAMES:
            await service.save_artifact(**SCOPE, filename=name, data=name.encode())
        assert await service.list_artifact_keys(**SCOPE) == sorted(ODD_NAMES)
        for name in ODD_NAMES:
            assert (await service.load_artifact(**SCOPE, filename=name)).data == name.encode()

    async def test_odd_scope_ids_are_kept_apart(self, service: ArtifactService) -> None:
        ids = ["..", ".", "_user", "a/b", "a%2Fb", "~x", "ü" * 100]
        for n, value in enumerate(ids):
            odd = scope(value, app_name=value, user_id=value)
            await service.save_artifact(**odd, filename=f"f{n}", data=b"x")
        for n, value in enumerate(ids):
            odd = scope(value, app_name=value, user_id=value)
            assert await service.list_artifact_keys(**odd) == [f"f{n}"]

    async def test_keys_sorted_with_user_scoped_names(self, service: ArtifactService) -> None:
        for name in ("b.txt", "user:profile.png", "a.txt", "b.txt"):
            await service.save_artifact(**SCOPE, filename=name, data=b"x")
        assert await service.list_artifact_keys(**SCOPE) == ["a.txt", "b.txt", "user:profile.png"]
        other = scope("s2")
        assert await service.list_artifact_keys(**other) == ["user:profile.png"]
        assert (await service.load_artifact(**other, filename="user:profile.png")).version == 0
        with pytest.raises(ArtifactNotFoundError):
            await service.load_artifact(**other, filename="a.txt")

    async def test_user_scope_is_shared_across_sessions(self, service: ArtifactService) -> None:
        await service.save_artifact(**SCOPE, filename="user:cv", data=b"1")
        other = scope("s2")
        assert await service.save_artifact(**other, filename="user:cv", data=b"2") == 1
        assert await service.list_versions(**SCOPE, filename="user:cv") == [0, 1]

    async def test_a_session_named_like_the_user_scope_is_separate(
        self, service: ArtifactService
    ) -> None:
        await service.save_artifact(**scope("_user"), filename="s", data=b"x")
        await service.save_artifact(**SCOPE, filename="user:u", data=b"x")
        assert await service.list_artifact_keys(**SCOPE) == ["user:u"]
        assert await service.list_artifact_keys(**scope("_user")) == [
            "s",
            "user:u",
        ]

    async def test_scoped_by_app_and_user(self, service: ArtifactService) -> None:
        await service.save_artifact(**SCOPE, filename="f", data=b"x")
        await service.save_artifact(**SCOPE, filename="user:g", data=b"x")
        for elsewhere in (scope(user_id="u2"), scope(app_name="other")):
            assert await service.list_artifact_keys(**elsewhere) == []
            with pytest.raises(ArtifactNotFoundError):
                await service.load_artifact(**elsewhere, filename="user:g")

    # --- deleting -------------------------------------------------------------------------------

    async def test_delete_removes_every_version(self, service: ArtifactService) -> None:
        for _ in range(3):
            await service.save_artifact(**SCOPE, filename="d", data=b"x")
        await service.save_artifact(**SCOPE, filename="keep", data=b"x")
        await service.delete_artifact(**SCOPE, filename="d")
        assert await service.list_versions(**SCOPE, filename="d") == []
        assert await service.list_artifact_keys(**SCOPE) == ["keep"]
        with pytest.raises(ArtifactNotFoundError):
            await service.load_artifact(**SCOPE, filename="d", version=0)
        with pytest.raises(ArtifactNotFoundError):
            await service.delete_artifact(**SCOPE, filename="d")
        assert await service.save_artifact(**SCOPE, filename="d", data=b"again") == 0

    async def test_delete_user_scoped_from_any_session(self, service: ArtifactService) -> None:
        await service.save_artifact(**SCOPE, filename="user:x", data=b"x")
        await service.delete_artifact(**scope("s2"), filename="user:x")
        assert await service.list_artifact_keys(**SCOPE) == []

    async def test_delete_session_artifacts(self, service: ArtifactService) -> None:
        other = scope("s2")
        await service.save_artifact(**SCOPE, filename="mine", data=b"x")
        await service.save_artifact(**SCOPE, filename="user:shared", data=b"x")
        await service.save_artifact(**other, filename="theirs", data=b"x")
        await service.delete_session_artifacts(**SCOPE)
        assert await service.list_artifact_keys(**SCOPE) == ["user:shared"]
        assert await service.list_artifact_keys(**other) == ["theirs", "user:shared"]
        await service.delete_session_artifacts(**SCOPE)  # nothing left: a no-op
        await service.delete_session_artifacts(app_name=APP, user_id="nobody", session_id="none")
