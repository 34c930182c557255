"""The artifact contract: ``Artifact``, ``ArtifactService`` and the name rules every backend shares.

An artifact is a named, versioned blob scoped to ``(app_name, user_id, session_id)``. A name that
starts with ``user:`` is scoped to the user instead and is visible from all of their sessions.
Every backend passes one conformance suite, :mod:`agentlog.testing.artifacts`.
"""

from __future__ import annotations

from typing import Final, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from agentlog.errors import ArtifactTooLargeError, InvalidArtifactNameError
from agentlog.events import ArtifactRef

__all__ = [
    "DEFAULT_MIME_TYPE",
    "MAX_NAME_LENGTH",
    "USER_PREFIX",
    "Artifact",
    "ArtifactService",
    "checked_data",
    "checked_max_bytes",
    "is_user_scoped",
    "validate_filename",
    "validate_scope",
]

USER_PREFIX: Final = "user:"
"""Names with this prefix belong to the user, across sessions."""

MAX_NAME_LENGTH: Final = 255
"""The longest filename accepted, in characters."""

DEFAULT_MIME_TYPE: Final = "application/octet-stream"
"""The media type of data saved without one."""


class Artifact(BaseModel):
    """One stored version of an artifact. In JSON, ``data`` is base64."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", ser_json_bytes="base64", val_json_bytes="base64"
    )

    name: str = Field(min_length=1, description="The filename, with its ``user:`` prefix if any.")
    version: int = Field(ge=0, description="0 for the first save, then one more per save.")
    data: bytes = Field(description="The content.")
    mime_type: str = Field(min_length=1, description="Media type of the content.")
    created_at: float = Field(description="When this version was saved, seconds since the epoch.")

    @property
    def size(self) -> int:
        """Length of ``data`` in bytes."""
        return len(self.data)

    def to_ref(self) -> ArtifactRef:
        """A pointer to this version, to put in an event's content instead of the bytes."""
        return ArtifactRef(
            name=self.name, version=self.version, mime_type=self.mime_type, size=self.size
        )


@runtime_checkable
class ArtifactService(Protocol):
    """Where artifacts live. Names are checked by :func:`validate_filename` in every backend."""

    async def save_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        data: bytes,
        mime_type: str = DEFAULT_MIME_TYPE,
    ) -> int:
        """Store ``data`` as a new version and return it (0 for the first). Concurrent saves get
        distinct versions. Raises ``InvalidArtifactNameError`` or ``ArtifactTooLargeError``."""
        ...

    async def load_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        version: int | None = None,
    ) -> Artifact:
        """One version (the latest when ``version`` is None). Raises ``ArtifactNotFoundError``."""
        ...

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> list[str]:
        """Sorted names visible from the session: its own and the user's ``user:`` names."""
        ...

    async def list_versions(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> list[int]:
        """The stored versions of one artifact, ascending; empty when there are none."""
        ...

    async def delete_artifact(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> None:
        """Delete every version of one artifact. Raises ``ArtifactNotFoundError`` if none."""
        ...

    async def delete_session_artifacts(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> None:
        """Delete the session's own artifacts (not the user's ``user:`` ones); a no-op if none."""
        ...


def _is_utf8(value: str) -> bool:
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def is_user_scoped(filename: str) -> bool:
    """True when the name belongs to the user rather than one session."""
    return filename.startswith(USER_PREFIX)


def validate_filename(filename: str) -> None:
    """Raise ``InvalidArtifactNameError`` unless the name is safe to store under any backend."""
    if not isinstance(filename, str):
        raise InvalidArtifactNameError(f"artifact name must be a string, not {type(filename)}")
    base = filename.removeprefix(USER_PREFIX)
    if not base:
        raise InvalidArtifactNameError(f"artifact name {filename!r} is empty")
    if len(filename) > MAX_NAME_LENGTH:
        raise InvalidArtifactNameError(
            f"artifact name of {len(filename)} characters is over {MAX_NAME_LENGTH}"
        )
    if "/" in filename or "\\" in filename:
        raise InvalidArtifactNameError(f"artifact name {filename!r} holds a path separator")
    if "\0" in filename or not _is_utf8(filename):
        raise InvalidArtifactNameError(f"artifact name {filename!r} holds NUL or a lone surrogate")
    if base in (".", ".."):
        raise InvalidArtifactNameError(f"artifact name {filename!r} is a relative path")


def validate_scope(app_name: str, user_id: str, session_id: str) -> None:
    """Raise ``InvalidArtifactNameError`` unless each scope id is a non-empty string without NUL."""
    for label, value in (("app_name", app_name), ("user_id", user_id), ("session_id", session_id)):
        if not isinstance(value, str) or not value or "\0" in value or not _is_utf8(value):
            raise InvalidArtifactNameError(f"{label} {value!r} is empty or not a plain string")


def checked_data(data: bytes, mime_type: str, max_bytes: int | None) -> bytes:
    """``data`` as immutable bytes, once it and ``mime_type`` are fit to save.

    Raises ``TypeError`` for data that is not bytes-like, ``ValueError`` for an empty media type
    and ``ArtifactTooLargeError`` for data over ``max_bytes`` (no limit when None).
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"artifact data must be bytes, not {type(data).__name__}")
    if not isinstance(mime_type, str) or not mime_type:
        raise ValueError("mime_type must be a non-empty string")
    data = bytes(data)
    if max_bytes is not None and len(data) > max_bytes:
        raise ArtifactTooLargeError(len(data), max_bytes)
    return data


def checked_max_bytes(max_bytes: int | None) -> int | None:
    """``max_bytes`` once it is None or a non-negative int."""
    if max_bytes is not None and (isinstance(max_bytes, bool) or max_bytes < 0):
        raise ValueError(f"max_bytes must be None or >= 0, not {max_bytes!r}")
    return max_bytes
