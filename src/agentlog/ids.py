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


def _encode(value: int) -> str:
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


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
