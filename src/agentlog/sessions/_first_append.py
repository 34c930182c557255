"""The append of ``acquire_lease_and_append``, planned before the store knows the session.

A turn's first event (the user's message) does not depend on the session's history, only on
the version it lands at, so every check and the JSON of the event are done here, once, before
the store's transaction; inside it, the store only places the plan at the version it finds.
"""

from __future__ import annotations

import dataclasses
import math

from agentlog._frozen import FrozenDict
from agentlog.errors import InvalidEventError
from agentlog.events import Event
from agentlog.sessions._plan import AppendPlan, plan_append
from agentlog.sessions.base import stored_session

__all__ = ["at_version", "plan_first"]


def plan_first(event: Event, *, app_name: str, user_id: str, session_id: str) -> AppendPlan:
    """``event`` checked and encoded as it will be stored, its version still to be placed."""
    unknown = stored_session(
        id=session_id,
        app_name=app_name,
        user_id=user_id,
        state=FrozenDict(),
        events=(),
        version=0,
        # Nothing before it: the timestamp stays the event's (checked against the stored
        # session's in ``at_version``).
        last_update_time=-math.inf,
    )
    plan = plan_append(unknown, event)
    if plan is None:
        raise InvalidEventError("a partial event is never stored: it cannot open a turn")
    return plan


def at_version(plan: AppendPlan, version: int, last_update_time: float) -> AppendPlan | None:
    """``plan`` placed at a stored session's ``version``; ``None`` when its timestamp is not
    after the session's last (the store keeps timestamps strictly increasing, and moving it
    would change the event's JSON: the caller appends it the usual way instead)."""
    if plan.event.timestamp <= last_update_time:
        return None
    return dataclasses.replace(plan, expected_version=version)
