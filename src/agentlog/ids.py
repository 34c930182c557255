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
_last_prefix = ""


_PAIRS: tuple[str, ...] = tuple(a + b for a in _ALPHABET for b in _ALPHABET)
"""Every 10-bit value as its two characters: an id is 13 look-ups, not 26 steps of a loop
(ids are made for every event, drafts included)."""
_HALF = (1 << 40) - 1


def _time_chars(ms: int) -> str:
    """The 10 characters of a millisecond time (48 bits, two zero bits above them)."""
    p = _PAIRS
    return (
        p[ms >> 40] + p[(ms >> 30) & 1023] + p[(ms >> 20) & 1023] + p[(ms >> 10) & 1023]
        + p[ms & 1023]
    )  # fmt: skip


def _random_chars(value: int) -> str:
    """The 16 characters of an 80-bit value, read as two 40-bit halves: shifts of a machine
    word, not of a 130-bit integer (each of which makes a new one)."""
    p = _PAIRS
    high, low = value >> 40, value & _HALF
    return (
        f"{p[high >> 30]}{p[(high >> 20) & 1023]}{p[(high >> 10) & 1023]}{p[high & 1023]}"
        f"{p[low >> 30]}{p[(low >> 20) & 1023]}{p[(low >> 10) & 1023]}{p[low & 1023]}"
    )


def new_event_id() -> str:
    """A 26-character ULID, strictly greater than every id this process made before."""
    global _last_ms, _last_random, _last_prefix
    now_ms = time.time_ns() // 1_000_000
    with _lock:
        if now_ms > _last_ms:
            _last_ms = now_ms
            # The top bit stays clear so a burst in one millisecond cannot overflow.
            _last_random = int.from_bytes(os.urandom(10), "big") >> 1
            _last_prefix = _time_chars(now_ms)
        elif _last_random < _RANDOM_MAX:
            _last_random += 1
        else:
            _last_ms += 1
            _last_random = 0
            _last_prefix = _time_chars(_last_ms)
        # The time's characters are made once a millisecond: ids come in bursts.
        prefix, random = _last_prefix, _last_random
    return prefix + _random_chars(random)


def new_invocation_id() -> str:
    """An id for one turn: ``inv-`` and a ULID, so invocations sort like their events."""
    return "inv-" + new_event_id()


def new_session_id() -> str:
    """A random session id (UUID4, hex)."""
    return uuid.uuid4().hex
