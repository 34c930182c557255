-- Artifacts: one row per stored version. A user-scoped name ("user:...") is kept under the
-- session id '' (no session has an empty id), so one key covers both scopes.
--
-- artifact_heads holds the next version of each name: a save bumps it with INSERT ... ON
-- CONFLICT DO UPDATE, whose row lock orders concurrent saves (one version each, from any
-- process), and a delete removes it, so a name saved again starts at 0.
CREATE TABLE artifact_heads (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    filename TEXT NOT NULL,
    next_version INTEGER NOT NULL,
    PRIMARY KEY (app_name, user_id, session_id, filename)
);

CREATE TABLE artifacts (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    filename TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 0),
    mime_type TEXT NOT NULL,
    data BYTEA NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (app_name, user_id, session_id, filename, version)
);
