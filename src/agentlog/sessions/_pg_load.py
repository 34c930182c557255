"""A PostgreSQL session load as one statement: the session row, its three state scopes and its
events, as one result whose rows are tagged with what they are.

One statement is one snapshot under ``READ COMMITTED`` and its own transaction in autocommit,
so a load needs neither ``BEGIN``/``COMMIT`` nor a statement per table: one statement where a
pipeline sent seven (each paid for by the driver and the server). Every row has the same
columns: ``(tag, text a, number a, text b, float a, float b, number b)``:

- tag 0, the session row: ``version`` (number a), ``last_update_time``, ``create_time``
  (floats), ``pk`` (number b);
- tags 1, 2, 3, a key of app, user and session state: ``key`` (text a), ``value`` (text b);
- tag 4, an event: ``event_id`` (text a), ``format_version`` (number a), ``payload`` (text b),
  ``seq`` (number b).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Final, LiteralString

from agentlog.sessions.base import GetSessionConfig

__all__ = [
    "CREATED_SELECT",
    "LOAD_AFTER",
    "LOAD_ALL",
    "Loaded",
    "created_rows",
    "key_params",
    "load_query",
    "split_load",
]

Row = tuple[Any, ...]
Loaded = tuple[list[Row], list[Row], list[Row], list[Row], list[Row]]
"""The session rows, app, user and session state rows, and event rows, as the store reads
them: ``(version, last_update_time, create_time, pk)``, ``(key, value)`` and
``(event_id, format_version, payload)``."""

_KEY: Final = "app_name = %s AND user_id = %s AND session_id = %s"
_PK: Final = "(SELECT pk FROM sessions WHERE " + _KEY + ")"
_HEAD: Final = (
    "SELECT 0, NULL::text, version, NULL::text, last_update_time, create_time, pk"
    " FROM sessions WHERE " + _KEY + " UNION ALL SELECT 1, key, NULL, value::text, NULL, NULL,"
    " NULL FROM app_state WHERE app_name = %s"
    " UNION ALL SELECT 2, key, NULL, value::text, NULL, NULL, NULL FROM user_state"
    " WHERE app_name = %s AND user_id = %s"
    " UNION ALL SELECT 3, key, NULL, value::text, NULL, NULL, NULL FROM session_state"
    " WHERE session_pk = " + _PK + " UNION ALL "
)
_EVENT_COLUMNS: Final = "SELECT 4, event_id, format_version, payload::text, NULL, NULL, seq"
_EVENTS_OF: Final = _EVENT_COLUMNS + " FROM events WHERE session_pk = " + _PK

LOAD_ALL: Final = _HEAD + _EVENTS_OF
"""The whole session; parameters :func:`key_params`."""
LOAD_AFTER: Final = LOAD_ALL + " AND seq > %s"
"""The session with the events after a version; parameters :func:`key_params` and it."""


def key_params(app_name: str, user_id: str, sid: str) -> list[Any]:
    """The parameters of :data:`LOAD_ALL`."""
    return [app_name, user_id, sid, app_name, app_name, user_id, *(app_name, user_id, sid) * 2]


def load_query(
    app_name: str, user_id: str, sid: str, config: GetSessionConfig | None
) -> tuple[LiteralString, list[Any]]:
    """The load of the session with the events ``config`` asks for."""
    params = key_params(app_name, user_id, sid)
    if config is None:
        return LOAD_ALL, params
    where: LiteralString = ""
    if config.from_latest_compaction:
        # Timestamps are never negative, so -1 lets every event through when no compaction
        # is stored.
        where += (
            " AND timestamp > coalesce((SELECT max(compaction_end) FROM events"
            " WHERE session_pk = " + _PK + " AND compaction_end IS NOT NULL), -1)"
        )
        params += (app_name, user_id, sid)
    if config.after_timestamp is not None:
        where += " AND timestamp >= %s"
        params.append(config.after_timestamp)
    if config.num_recent_events is None:
        return LOAD_ALL + where, params
    params.append(config.num_recent_events)
    # Parenthesised: the limit is the events branch's alone; split_load orders the events.
    return _HEAD + "(" + _EVENTS_OF + where + " ORDER BY seq DESC LIMIT %s)", params


_SEQ: Final = itemgetter(6)


def split_load(rows: list[Row]) -> Loaded:
    """The rows of a load statement, by what they are (see :data:`Loaded`)."""
    parts: tuple[list[Row], ...] = ([], [], [], [], [])
    for row in rows:
        parts[row[0]].append(row)
    heads, apps, users, states, events = parts
    # A statement's branches come back in order, but nothing promises the order of rows
    # within one; sorting rows already in order is one comparison each.
    events.sort(key=_SEQ)
    return (
        [(row[2], row[4], row[5], row[6]) for row in heads],
        [(row[1], row[3]) for row in apps],
        [(row[1], row[3]) for row in users],
        [(row[1], row[3]) for row in states],
        [(row[1], row[2], row[3]) for row in events],
    )


CREATED_SELECT: Final = (
    " SELECT 0, NULL::text, pk, NULL::text FROM s"
    " UNION ALL SELECT 1, key, NULL, value::text FROM app_state WHERE app_name = %(app)s"
    " UNION ALL SELECT 2, key, NULL, value::text FROM user_state"
    " WHERE app_name = %(app)s AND user_id = %(user)s"
)
"""What a session's creation returns: its primary key (tag 0) and the app and user state
found, as the rows of :func:`split_load` (the state its own statement wrote not among them:
a statement does not see its own writes)."""


def created_rows(rows: list[Row]) -> tuple[int | None, list[Row], list[Row]]:
    """The primary key ``CREATED_SELECT`` returned (``None``: nothing was created), and the
    app and user state rows found."""
    pk: int | None = None
    apps: list[Row] = []
    users: list[Row] = []
    for row in rows:
        tag = row[0]
        if tag == 0:
            pk = row[2]
        elif tag == 1:
            apps.append((row[1], row[3]))
        else:
            users.append((row[1], row[3]))
    return pk, apps, users
