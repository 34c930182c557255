"""API keys: each maps to a user id; only their SHA-256 digests are kept.

A key is given as ``KEY=USER``; ``sha256:<64 hex digits>=USER`` gives an already hashed key,
so a keys file need not hold secrets. A keys file has one entry a line, ``admin `` in front
for an admin key; blank lines and ``#`` comments are skipped. With no keys at all the server
serves one local user (:data:`LOCAL_USER`, an admin) to loopback clients only.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "LOCAL_USER",
    "Caller",
    "KeyRing",
    "is_loopback",
    "parse_key_spec",
    "read_keys_file",
]

LOCAL_USER: Final = "local"
"""The one user of a server started without keys."""

_LOOPBACK: Final = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})

_USER_ID: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$")
_HASHED: Final = re.compile(r"^sha256:([0-9a-fA-F]{64})$")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is asking: every route is scoped to ``user_id``."""

    user_id: str
    admin: bool = False


def digest(key: str) -> bytes:
    """The stored form of a key (``sha256:<hex>`` is taken as already hashed)."""
    hashed = _HASHED.match(key)
    if hashed:
        return bytes.fromhex(hashed.group(1))
    return hashlib.sha256(key.encode()).digest()


def parse_key_spec(spec: str, *, default_user: str | None = None) -> tuple[str, str]:
    """``KEY=USER`` (or ``KEY`` when ``default_user`` is given) as ``(key, user_id)``.

    Raises ``ValueError`` naming what is wrong, never echoing the key.
    """
    key, sep, user = spec.rpartition("=")
    if not sep or (not user and default_user):
        key, user = spec, default_user or ""
    if not key.strip():
        raise ValueError("an API key is empty")
    if not user:
        raise ValueError("an API key has no user: write KEY=USER")
    if not _USER_ID.match(user):
        raise ValueError(
            f"user id {user!r} must be letters, digits, '_', '.', '@' or '-' (at most 128)"
        )
    return key.strip(), user


def read_keys_file(path: str | Path) -> tuple[dict[str, str], dict[str, str]]:
    """The ``(api_keys, admin_keys)`` a keys file lists, each key to user id."""
    users: dict[str, str] = {}
    admins: dict[str, str] = {}
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        target = users
        if line.startswith("admin "):
            target, line = admins, line.removeprefix("admin ").strip()
        try:
            key, user = parse_key_spec(line)
        except ValueError as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
        target[key] = user
    return users, admins


class KeyRing:
    """The configured keys, hashed; :meth:`identify` compares in constant time."""

    def __init__(
        self, api_keys: Mapping[str, str] | None = None, admin_keys: Mapping[str, str] | None = None
    ) -> None:
        entries: list[tuple[bytes, Caller]] = []
        for keys, admin in ((api_keys or {}, False), (admin_keys or {}, True)):
            for key, user in keys.items():
                parse_key_spec(f"{key}={user}")
                entries.append((digest(key), Caller(user, admin)))
        seen: dict[bytes, Caller] = {}
        for hashed, caller in entries:
            if seen.get(hashed, caller) != caller:
                raise ValueError("one API key is given for two different users or roles")
            seen[hashed] = caller
        self._entries = tuple(seen.items())

    @property
    def local(self) -> bool:
        """True when no key is configured: one local user, loopback clients only."""
        return not self._entries

    @property
    def users(self) -> frozenset[str]:
        """The user ids the keys map to."""
        return frozenset(caller.user_id for _, caller in self._entries)

    def identify(self, key: str) -> Caller | None:
        """The caller a key belongs to, or ``None``."""
        presented = hashlib.sha256(key.encode()).digest()
        found: Caller | None = None
        # Every entry is compared, so the time taken does not say which one matched.
        for hashed, caller in self._entries:
            if hmac.compare_digest(hashed, presented):
                found = caller
        return found


def is_loopback(host: str | None) -> bool:
    """Whether an address (or ``localhost``) is the loopback interface."""
    if host is None:
        return False
    if host in _LOOPBACK:
        return True  # without parsing the address: every request of a keyless server asks
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
