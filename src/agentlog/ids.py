"""Identifiers that sort in creation order.

Event ids are ULIDs (48-bit millisecond time, 80-bit random, Crockford base32), made monotonic
within a process: two ids made in the same millisecond differ by one in their random part, so
ids made one after another always sort one after another.
"""

from __future__ import annotations

import os
import threading
import time
import uuid

__all__ = ["new_event_id", "new_invocation_id", "new_session_id"]

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_RANDOM_BITS = 80
_RANDOM_MAX = (1 << _RANDOM_BITS) - 1

_lock = threading.Lock()
_last_ms = 0
_last_random = 0


_PAIRS: tuple[str, ...] = tuple(a + b for a in _ALPHABET for b in _ALPHABET)
"""Every 10-bit value as its two characters: an id is 13 look-ups, not 26 steps of a loop
(ids are made for every event, drafts included)."""


def _encode(value: int) -> str:
    """``value`` (under 2**130) as 26 characters of Crockford base32, most significant first."""
    p = _PAIRS
    return (
        p[value >> 120]
        + p[(value >> 110) & 1023]
        + p[(value >> 100) & 1023]
        + p[(value >> 90) & 1023]
        + p[(value >> 80) & 1023]
        + p[(value >> 70) & 1023]
        + p[(value >> 60) & 1023]
        + p[(value >> 50) & 1023]
        + p[(value >> 40) & 1023]
        + p[(value >> 30) & 1023]
        + p[(value >> 20) & 1023]
        + p[(value >> 10) & 1023]
        + p[value & 1023]
    )


def new_event_id() -> str:
    """A 26-character ULID, strictly greater than every id this process made before."""
    global _last_ms, _last_random
    now_ms = time.time_ns() // 1_000_000
    with _lock:
        if now_ms > _last_ms:
            _last_ms = now_ms
            # The top bit stays clear so a burst in one millisecond cannot overflow.
            _last_random = int.from_bytes(os.urandom(10), "big") >> 1
        elif _last_random < _RANDOM_MAX:
            _last_random += 1
        else:
            _last_ms += 1
            _last_random = 0
        value = (_last_ms << _RANDOM_BITS) | _last_random
    return _encode(value)


def new_invocation_id() -> str:
    """An id for one turn: ``inv-`` and a ULID, so invocations sort like their events."""
    return "inv-" + new_event_id()


def new_session_id() -> str:
    """A random session id (UUID4, hex)."""
    return uuid.uuid4().hex
