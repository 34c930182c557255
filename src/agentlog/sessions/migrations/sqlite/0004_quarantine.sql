-- Records that `agentlog check --quarantine` moved out of the tables a load reads, so the rest
-- of their session loads. Kept as they were, never deleted by agentlog: `original` is the row's
-- columns as a JSON object (bytes that are not UTF-8 as {"hex": "..."}); `record` is the name
-- the check gave it; `session_create_time` tells which incarnation of a session id it was.
CREATE TABLE quarantine (
    pk INTEGER PRIMARY KEY,
    source_table TEXT NOT NULL,
    record TEXT NOT NULL,
    app_name TEXT NOT NULL,
    user_id TEXT,
    session_id TEXT,
    session_create_time REAL,
    original TEXT NOT NULL,
    reason TEXT NOT NULL,
    quarantined_at REAL NOT NULL
);
