"""The PostgreSQL append's statement tests only what applies to the session appended to."""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg")

from agentlog._frozen import FrozenDict
from agentlog.events import Event
from agentlog.sessions._plan import plan_append
from agentlog.sessions.base import stored_session
from agentlog.sessions.postgres import _append_statement


def _statement(create_time: float | None, lease_token: int | None) -> str:
    session = stored_session(
        id="s1",
        app_name="app",
        user_id="u1",
        state=FrozenDict(),
        events=(),
        version=3,
        last_update_time=10.0,
        create_time=create_time,
        lease_token=lease_token,
    )
    event = Event(invocation_id="inv-1", author="user", timestamp=11.0)
    plan = plan_append(session, event)
    assert plan is not None
    query, _ = _append_statement(session, plan, sender="store-1")
    return query


def test_no_lease_checks_that_no_other_holds_a_live_one() -> None:
    query = _statement(5.0, None)
    assert "lease_owner IS NULL OR lease_expires <" in query
    assert "%(lease)s" not in query
    assert "create_time = %(created)s::float8" in query
    assert "%(created)s::float8 IS NULL" not in query


def test_a_lease_checks_its_token_and_nothing_else() -> None:
    query = _statement(5.0, 7)
    assert "lease_token = %(lease)s::bigint" in query
    assert "lease_owner" not in query.split(" e AS (")[0]


def test_an_unknown_creation_time_is_not_checked() -> None:
    assert "%(created)s" not in _statement(None, None)
    assert "%(created)s" not in _statement(None, 7)
