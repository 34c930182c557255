"""``FileArtifactService``: artifacts as files under one root directory.

Layout: ``root/<app>/<user>/<session or _user>/<filename>/<version>`` with a JSON sidecar
``<version>.json`` holding the name, media type and save time. Each path segment is
percent-encoded (a leading ``.``, ``_`` or ``~`` too, so no segment is hidden or clashes with
``_user``); a segment too long for the filesystem is replaced by ``~`` and its SHA-256.

A version becomes visible when its sidecar appears, and the sidecar is moved into place last, so
a reader never sees half a version. Several processes may share a root: each claims its version
number by creating the version file with ``O_EXCL`` and moves on to the next number if taken.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Final, ParamSpec, TypeVar
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, ValidationError

from agentlog.artifacts.base import (
    DEFAULT_MIME_TYPE,
    Artifact,
    checked_data,
    checked_max_bytes,
    is_user_scoped,
    validate_filename,
    validate_scope,
)
from agentlog.errors import ArtifactError, ArtifactNotFoundError

__all__ = ["FileArtifactService"]

P = ParamSpec("P")
T = TypeVar("T")

_USER_DIR: Final = "_user"
_MAX_SEGMENT: Final = 128  # well under NAME_MAX everywhere, eCryptfs's 143 included


class _Sidecar(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    mime_type: str
    created_at: float


def _segment(value: str) -> str:
    encoded = quote(value, safe="")
    if len(encoded) > _MAX_SEGMENT:
        return "~" + hashlib.sha256(value.encode()).hexdigest()
    if encoded[0] in "._~":
        encoded = f"%{ord(encoded[0]):02X}{encoded[1:]}"
    return encoded


def _numbered(directory: Path) -> tuple[list[int], set[str]]:
    """Version numbers with a file in ``directory`` (claimed or committed), and all entries."""
    try:
        entries = set(os.listdir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return [], set()
    numbers = [int(e) for e in entries if e.isascii() and e.isdigit() and str(int(e)) == e]
    return sorted(numbers), entries


def _committed(directory: Path) -> list[int]:
    numbers, entries = _numbered(directory)
    return [n for n in numbers if f"{n}.json" in entries]


def _fsync_dir(path: Path) -> None:
    if os.name != "posix":  # Windows cannot open a directory to fsync it
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _make_dirs(path: Path) -> None:
    """``mkdir -p`` that fsyncs each parent, so a saved version's directory survives power loss."""
    missing: list[Path] = []
    while not path.is_dir():
        missing.append(path)
        path = path.parent
    for directory in reversed(missing):
        with suppress(FileExistsError):
            directory.mkdir()
        _fsync_dir(directory.parent)


def _write_temp(directory: Path, data: bytes) -> Path:
    fd, name = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        with suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def _claim(directory: Path) -> int:
    numbers, _ = _numbered(directory)
    version = numbers[-1] + 1 if numbers else 0
    while True:
        try:
            fd = os.open(directory / str(version), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            version += 1
            continue
        os.close(fd)
        return version


def _read_sidecar(path: Path) -> _Sidecar:
    raw = path.read_bytes()  # outside the try: a missing file is not a corrupt one
    try:
        return _Sidecar.model_validate_json(raw)
    except ValidationError as exc:
        raise ArtifactError(f"corrupt artifact sidecar {path}: {exc}") from exc


def _remove_tree(path: Path) -> bool:
    """Remove a directory atomically for readers; False if it was not there."""
    trash = path.with_name(f".trash-{uuid.uuid4().hex}")
    try:
        path.rename(trash)
    except FileNotFoundError:
        return False
    # A save in another process may still be writing into it; leftovers are hidden and harmless.
    shutil.rmtree(trash, ignore_errors=True)
    return True


class FileArtifactService:
    """Artifacts as files under ``root``; safe for several tasks, threads and processes.

    ``max_bytes`` caps the size of one version (no cap when None). Blocking file work runs in a
    worker thread, and ``OSError`` is reported as ``ArtifactError``.
    """

    def __init__(self, root: str | os.PathLike[str], max_bytes: int | None = None) -> None:
        self.root = Path(root)
        self.max_bytes = checked_max_bytes(max_bytes)
        self._lock = threading.Lock()

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except OSError as exc:
            raise ArtifactError(f"artifact store at {self.root}: {exc}") from exc

    def _scope(self, app_name: str, user_id: str, session_id: str) -> Path:
        validate_scope(app_name, user_id, session_id)
        return self.root / _segment(app_name) / _segment(user_id) / _segment(session_id)

    def _dir(self, app_name: str, user_id: str, session_id: str, filename: str) -> Path:
        scope = self._scope(app_name, user_id, session_id)
        validate_filename(filename)
        if is_user_scoped(filename):
            scope = scope.with_name(_USER_DIR)
        return scope / _segment(filename)

    # --- the contract ------------------------------------------------------------------------

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
        directory = self._dir(app_name, user_id, session_id, filename)
        data = checked_data(data, mime_type, self.max_bytes)
        sidecar = _Sidecar(name=filename, mime_type=mime_type, created_at=time.time())
        return await self._run(self._save, directory, data, sidecar.model_dump_json().encode())

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
        directory = self._dir(app_name, user_id, session_id, filename)
        return await self._run(self._load, directory, filename, version)

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> list[str]:
        """Sorted names visible from the session, ``user:`` names included."""
        scope = self._scope(app_name, user_id, session_id)
        return await self._run(self._keys, (scope, scope.with_name(_USER_DIR)))

    async def list_versions(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> list[int]:
        """The stored versions, ascending."""
        directory = self._dir(app_name, user_id, session_id, filename)
        return await self._run(_committed, directory)

    async def delete_artifact(
        self, *, app_name: str, user_id: str, session_id: str, filename: str
    ) -> None:
        """Delete every version of one artifact."""
        directory = self._dir(app_name, user_id, session_id, filename)
        if not await self._run(self._delete, directory):
            raise ArtifactNotFoundError(filename)

    async def delete_session_artifacts(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> None:
        """Delete the session's own artifacts; the user's ``user:`` ones stay."""
        scope = self._scope(app_name, user_id, session_id)
        await self._run(self._delete, scope, require_versions=False)

    # --- blocking work, run in a thread ------------------------------------------------------

    def _save(self, directory: Path, data: bytes, sidecar: bytes) -> int:
        # The lock only spares this process's threads the O_EXCL retries; correctness across
        # processes comes from the exclusive claim.
        with self._lock:
            for _ in range(2):
                # Another process deleted the artifact directory mid-save: start again.
                with suppress(FileNotFoundError):
                    return self._save_once(directory, data, sidecar)
            return self._save_once(directory, data, sidecar)

    def _save_once(self, directory: Path, data: bytes, sidecar: bytes) -> int:
        _make_dirs(directory)
        temps: list[Path] = []
        try:
            temps.append(data_tmp := _write_temp(directory, data))
            temps.append(sidecar_tmp := _write_temp(directory, sidecar))
            version = _claim(directory)
            os.replace(data_tmp, directory / str(version))
            temps.remove(data_tmp)
            # The data must be durably in place before the sidecar that makes it visible.
            _fsync_dir(directory)
            os.replace(sidecar_tmp, directory / f"{version}.json")
            temps.remove(sidecar_tmp)
            _fsync_dir(directory)
            return version
        finally:
            # A failed save leaves at most its claim, so version numbers never go back.
            for tmp in temps:
                with suppress(OSError):
                    tmp.unlink()

    def _load(self, directory: Path, filename: str, version: int | None) -> Artifact:
        versions = _committed(directory)
        if not versions:
            raise ArtifactNotFoundError(filename)
        chosen = versions[-1] if version is None else version
        if chosen not in versions:
            raise ArtifactNotFoundError(filename, version)
        try:
            sidecar = _read_sidecar(directory / f"{chosen}.json")
            data = (directory / str(chosen)).read_bytes()
        except FileNotFoundError:  # deleted since it was listed
            raise ArtifactNotFoundError(filename, version) from None
        return Artifact(
            name=filename,
            version=chosen,
            data=data,
            mime_type=sidecar.mime_type,
            created_at=sidecar.created_at,
        )

    def _keys(self, scopes: tuple[Path, ...]) -> list[str]:
        names: set[str] = set()
        for scope in scopes:
            try:
                children = os.listdir(scope)
            except (FileNotFoundError, NotADirectoryError):
                continue
            for child in children:
                versions = [] if child.startswith(".") else _committed(scope / child)
                if versions:
                    with suppress(FileNotFoundError):
                        names.add(_read_sidecar(scope / child / f"{versions[-1]}.json").name)
        return sorted(names)

    def _delete(self, directory: Path, *, require_versions: bool = True) -> bool:
        with self._lock:
            if require_versions and not _committed(directory):
                return False
            return _remove_tree(directory)
