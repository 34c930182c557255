-- Sessions, their events, and state in three scopes.
CREATE TABLE sessions (
    pk INTEGER PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    create_time REAL NOT NULL,
    last_update_time REAL NOT NULL,
    UNIQUE (app_name, user_id, session_id)
);

-- seq is the session's version once the event is stored: (session_pk, seq) unique means two
-- writers can never both store an event at the same version.
CREATE TABLE events (
    pk INTEGER PRIMARY KEY,
    session_pk INTEGER NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    invocation_id TEXT NOT NULL,
    author TEXT NOT NULL,
    timestamp REAL NOT NULL,
    format_version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (session_pk, seq),
    UNIQUE (session_pk, event_id)
);

CREATE INDEX events_by_time ON events (session_pk, timestamp);

CREATE TABLE session_state (
    session_pk INTEGER NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (session_pk, key)
) WITHOUT ROWID;

CREATE TABLE app_state (
    app_name TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (app_name, key)
) WITHOUT ROWID;

CREATE TABLE user_state (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (app_name, user_id, key)
) WITHOUT ROWID;
