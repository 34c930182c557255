-- Sessions, their events, and state in three scopes.
--
-- Payloads and state values are JSON, not JSONB: JSON keeps the text exactly as written (key
-- order included, so an event reads back as it was stored), and JSONB rejects the escape
-- \u0000, which model and tool output can contain.
CREATE TABLE sessions (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    create_time DOUBLE PRECISION NOT NULL,
    last_update_time DOUBLE PRECISION NOT NULL,
    CONSTRAINT sessions_key UNIQUE (app_name, user_id, session_id)
);

-- seq is the session's version once the event is stored: (session_pk, seq) unique means two
-- writers can never both store an event at the same version. The store tells the two unique
-- constraints apart by name.
CREATE TABLE events (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_pk BIGINT NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    invocation_id TEXT NOT NULL,
    author TEXT NOT NULL,
    timestamp DOUBLE PRECISION NOT NULL,
    format_version INTEGER NOT NULL,
    payload JSON NOT NULL,
    CONSTRAINT events_seq_unique UNIQUE (session_pk, seq),
    CONSTRAINT events_event_id_unique UNIQUE (session_pk, event_id)
);

CREATE INDEX events_by_time ON events (session_pk, timestamp);

CREATE TABLE session_state (
    session_pk BIGINT NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value JSON NOT NULL,
    PRIMARY KEY (session_pk, key)
);

CREATE TABLE app_state (
    app_name TEXT NOT NULL,
    key TEXT NOT NULL,
    value JSON NOT NULL,
    PRIMARY KEY (app_name, key)
);

CREATE TABLE user_state (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value JSON NOT NULL,
    PRIMARY KEY (app_name, user_id, key)
);
