-- Sessions, their events, and state in three scopes.
CREATE TABLE sessions (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    create_time DOUBLE PRECISION NOT NULL,
    last_update_time DOUBLE PRECISION NOT NULL,
    UNIQUE (app_name, user_id, session_id)
);

-- seq is the session's version once the event is stored: (session_pk, seq) unique means two
-- writers can never both store an event at the same version.
CREATE TABLE events (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_pk BIGINT NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    invocation_id TEXT NOT NULL,
    author TEXT NOT NULL,
    timestamp DOUBLE PRECISION NOT NULL,
    format_version INTEGER NOT NULL,
    payload JSONB NOT NULL,
    UNIQUE (session_pk, seq),
    UNIQUE (session_pk, event_id)
);

CREATE INDEX events_by_time ON events (session_pk, timestamp);

CREATE TABLE session_state (
    session_pk BIGINT NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value JSONB NOT NULL,
    PRIMARY KEY (session_pk, key)
);

CREATE TABLE app_state (
    app_name TEXT NOT NULL,
    key TEXT NOT NULL,
    value JSONB NOT NULL,
    PRIMARY KEY (app_name, key)
);

CREATE TABLE user_state (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value JSONB NOT NULL,
    PRIMARY KEY (app_name, user_id, key)
);
