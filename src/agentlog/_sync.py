"""Running agentlog's async core from synchronous code: a script, a notebook cell, a test.

Every synchronous call of the process runs on one event loop, kept on a daemon thread, for
two reasons. What a store opens belongs to the loop it was opened on (a PostgreSQL pool, the
runner's per-session locks), so a second call on a fresh loop (``asyncio.run`` each time) would
find the first call's pool unusable. And a notebook cell already runs inside a loop, where
``asyncio.run`` refuses to start; waiting on another thread's loop works from anywhere.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _bridge_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="agentlog-sync", daemon=True).start()
            _loop = loop
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the shared loop and return its result (or raise its exception).

    Raises ``RuntimeError`` when called from a coroutine already running on that loop (a
    callback of a synchronous call), which would wait on itself; await the coroutine there.
    """
    loop = _bridge_loop()
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        coro.close()
        raise RuntimeError(
            "a synchronous agentlog call from inside one would wait on itself: await the "
            "async method instead"
        )
    future = asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return future.result()
    except BaseException:
        future.cancel()  # Ctrl-C in the caller stops the work, not only the wait
        raise
