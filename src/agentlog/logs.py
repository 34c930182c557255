"""Logging that ties every line to the log: invocation id, author and event id.

agentlog's modules log through :func:`get_logger`, whose records carry the current invocation,
author and event (set by the runner as it stores each event) both as record attributes
(``invocation_id``, ``author``, ``event_id``, for structured handlers) and in the message
itself, so any formatter shows them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import Any

__all__ = ["configure_logging", "get_logger", "log_context"]

_invocation: ContextVar[str] = ContextVar("agentlog_invocation", default="-")
_author: ContextVar[str] = ContextVar("agentlog_author", default="-")
_event: ContextVar[str] = ContextVar("agentlog_event", default="-")


class _ContextAdapter(logging.LoggerAdapter[logging.Logger]):
    def process(
        self, msg: Any, kwargs: MutableMapping[str, Any]
    ) -> tuple[Any, MutableMapping[str, Any]]:
        fields = {
            "invocation_id": _invocation.get(),
            "author": _author.get(),
            "event_id": _event.get(),
        }
        kwargs["extra"] = {**fields, **(kwargs.get("extra") or {})}
        prefix = (
            f"[inv={fields['invocation_id']} author={fields['author']} event={fields['event_id']}]"
        )
        return f"{prefix} {msg}", kwargs


def get_logger(name: str) -> logging.LoggerAdapter[logging.Logger]:
    """A logger whose lines carry the current invocation, author and event."""
    return _ContextAdapter(logging.getLogger(name), {})


def set_event(event_id: str, author: str) -> None:
    """Mark the event just stored (and its author) as the one later lines belong to."""
    _event.set(event_id)
    _author.set(author)


@contextmanager
def log_context(invocation_id: str, author: str = "-", event_id: str = "-") -> Iterator[None]:
    """Lines logged inside carry these ids."""
    tokens = (_invocation.set(invocation_id), _author.set(author), _event.set(event_id))
    try:
        yield
    finally:
        # ValueError: exited in another context. A consumer stopped reading a run's stream and
        # the event loop's finalizer closed the generator in a task of its own, whose context
        # ends with it, so there is nothing to restore.
        for var, token in ((_event, tokens[2]), (_author, tokens[1]), (_invocation, tokens[0])):
            with suppress(ValueError):
                var.reset(token)


def configure_logging(level: int | str = logging.INFO) -> None:
    """A plain stderr handler for the ``agentlog`` loggers (for the CLI and scripts)."""
    logger = logging.getLogger("agentlog")
    if not any(getattr(h, "_agentlog", False) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        handler._agentlog = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.setLevel(level)
