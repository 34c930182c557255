"""State: the fold of stored events' ``state_delta``s, routed by key prefix to four scopes.

========  ==============================  ======
prefix    scope                           stored
========  ==============================  ======
``app:``  every user and session of app   yes
``user:`` one user, across their sessions yes
(none)    this session                    yes
``temp:`` the current invocation only     never
========  ==============================  ======
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from agentlog._frozen import FrozenDict
from agentlog.events import REMOVED, CheckedDelta, Event

__all__ = [
    "APP_PREFIX",
    "TEMP_PREFIX",
    "USER_PREFIX",
    "Scope",
    "ScopedDelta",
    "apply_delta",
    "fold",
    "merged_view",
    "scope_of",
    "split_delta",
    "strip_temp",
]

APP_PREFIX: Final = "app:"
USER_PREFIX: Final = "user:"
TEMP_PREFIX: Final = "temp:"

Scope = Literal["app", "user", "session", "temp"]


def scope_of(key: str) -> Scope:
    """The scope a state key belongs to, by its prefix."""
    if key.startswith(APP_PREFIX):
        return "app"
    if key.startswith(USER_PREFIX):
        return "user"
    if key.startswith(TEMP_PREFIX):
        return "temp"
    return "session"


@dataclass(slots=True)
class ScopedDelta:
    """A delta split by scope. App and user keys lose their prefix; values may be ``REMOVED``.

    Read-only by convention (its dicts are plain ones anyway): not ``frozen``, whose
    ``__init__`` cost five times a plain one's, and every append makes one."""

    app: dict[str, Any] = field(default_factory=dict)
    user: dict[str, Any] = field(default_factory=dict)
    session: dict[str, Any] = field(default_factory=dict)
    temp: dict[str, Any] = field(default_factory=dict)

    def stored_is_empty(self) -> bool:
        """True when nothing in the delta reaches storage."""
        return not (self.app or self.user or self.session)


def split_delta(delta: Mapping[str, Any]) -> ScopedDelta:
    """Route each key of ``delta`` to its scope."""
    out = ScopedDelta()
    for key, value in delta.items():
        scope = scope_of(key)
        if scope == "app":
            out.app[key[len(APP_PREFIX) :]] = value
        elif scope == "user":
            out.user[key[len(USER_PREFIX) :]] = value
        elif scope == "temp":
            out.temp[key] = value
        else:
            out.session[key] = value
    return out


def apply_delta(state: Mapping[str, Any], delta: Mapping[str, Any]) -> dict[str, Any]:
    """A new mapping: ``state`` with ``delta`` applied (``REMOVED`` deletes)."""
    out = dict(state)
    for key, value in delta.items():
        if value is REMOVED:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def fold(
    deltas: Iterable[Mapping[str, Any]], initial: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The state that a sequence of deltas produces, ``temp:`` keys left out."""
    state: dict[str, Any] = dict(initial or {})
    for delta in deltas:
        for key, value in delta.items():
            if key.startswith(TEMP_PREFIX):
                continue
            if value is REMOVED:
                state.pop(key, None)
            else:
                state[key] = value
    return state


def merged_view(
    app: Mapping[str, Any], user: Mapping[str, Any], session: Mapping[str, Any]
) -> FrozenDict[str, Any]:
    """The read-only state a session shows: all three stored scopes, with their prefixes."""
    view: dict[str, Any] = {APP_PREFIX + k: v for k, v in app.items()}
    view.update((USER_PREFIX + k, v) for k, v in user.items())
    view.update(session)
    return FrozenDict(view)


def strip_temp(event: Event) -> Event:
    """The event as it is stored: without ``temp:`` keys in its delta."""
    delta = event.actions.state_delta
    if not any(key.startswith(TEMP_PREFIX) for key in delta):
        return event
    # What is kept of a checked delta is checked too.
    frozen = CheckedDelta if delta.__class__ is CheckedDelta else FrozenDict
    kept = frozen({k: v for k, v in delta.items() if not k.startswith(TEMP_PREFIX)})
    actions = event.actions.model_copy(update={"state_delta": kept})
    return event.model_copy(update={"actions": actions})
