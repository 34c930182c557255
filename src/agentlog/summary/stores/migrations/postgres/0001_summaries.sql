-- Background and on-request summaries, one row per session and version (the number of events
-- the summary covered). payload is the StoredSummary as JSON text, so it loads back exactly.
-- The key is what makes a summary job idempotent: a second run of the same (session, version)
-- finds its row (SummaryStore.put_once).
CREATE TABLE agentlog_summaries (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    session_version INTEGER NOT NULL CHECK (session_version >= 0),
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'error')),
    created_at DOUBLE PRECISION NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (app_name, user_id, session_id, session_version)
);
