"""Stopping a background task: the one way agentlog cancels a task it owns and waits for it."""

from __future__ import annotations

import asyncio

__all__ = ["cancel_and_wait"]


async def cancel_and_wait(task: asyncio.Task[object]) -> None:
    """Cancel ``task`` and wait until it has finished.

    The task's own cancellation is not raised here, but a cancellation of the caller is:
    ``with suppress(CancelledError): await task`` would swallow both, so a caller cancelled
    while waiting (a shutdown's timeout) went on as if the task had stopped.
    """
    task.cancel()
    await asyncio.wait({task})
