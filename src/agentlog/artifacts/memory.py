"""``InMemoryArtifactService``: artifacts in a dict, for tests and throwaway sessions."""

from __future__ import annotations

import threading
import time

from agentlog.artifacts.base import (
    DEFAULT_MIME_TYPE,
    Artifact,
    checked_data,
    checked_max_bytes,
    is_user_scoped,
    validate_filename,
    validate_scope,
)
from agentlog.errors import ArtifactNotFoundError

__all__ = ["InMemoryArtifactService"]

# (app_name, user_id, session_id or None for user-scoped names, filename)
_Key = tuple[str, str, str | None, str]


def _key(app_name: str, user_id: str, session_id: str, filename: str) -> _Key:
    validate_scope(app_name, user_id, session_id)
    validate_filename(filename)
    return (app_name, user_id, None if is_user_scoped(filename) else session_id, filename)


class InMemoryArtifactService:
    """Artifacts in a dict, guarded by a lock so threads and tasks may share it."""

    def __init__(self, max_bytes: int | None = None) -> None:
        self.max_bytes = checked_max_bytes(max_bytes)
        self._lock = threading.Lock()
        self._versions: dict[_Key, list[Artifact]] = {}

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
        """Store ``data`` as a new version and return it."""
        key = _key(app_name, user_id, session_id, filename)
        data = checked_data(data, mime_type, self.max_bytes)
        with self._lock:
            versions = self._versions.setdefault(key, [])
            artifact = Artifact(
                name=filename,
                version=len(versions),
                data=data,
                mime_type=mime_type,
                created_at=time.time(),
            )
            versions.append(artifact)
            return artifact.version

    async def load_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        version: int | None = None,
    ) -> Artifact:
        """One version, the latest by default."""
        key = _key(app_name, user_id, session_id, filename)
        with self._lock:
            versions = self._versions.get(key)
            if not versions:
                raise ArtifactNotFoundError(filename)
            if version is None:
                return versions[-1]
            if not 0 <= version < len(versions):
                raise ArtifactNotFoundError(filename, version)
            return versions[version]

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> list[str]:
        """Sorted names visible from the session, ``user:`` names included."""
        validate_scope(app_name, user_id, session_id)
        with self._lock:
            return sorted(
                name
                for (app, user, session, name) in self._versions
                if app == app_name and user == user_id and session in (session_id, None)
            )

    async def list_versions(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> list[int]:
        """The stored versions, ascending."""
        key = _key(app_name, user_id, session_id, filename)
        with self._lock:
            return list(range(len(self._versions.get(key, ()))))

    async def delete_artifact(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> None:
        """Delete every version of one artifact."""
        key = _key(app_name, user_id, session_id, filename)
        with self._lock:
            if self._versions.pop(key, None) is None:
                raise ArtifactNotFoundError(filename)

    async def delete_session_artifacts(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> None:
        """Delete the session's own artifacts; the user's ``user:`` ones stay."""
        validate_scope(app_name, user_id, session_id)
        with self._lock:
            for key in [k for k in self._versions if k[:3] == (app_name, user_id, session_id)]:
                del self._versions[key]
