-- Long-term memory: facts and commitments drawn from checked summaries. The tables have names
-- of their own so that a memory store and a session store can share one file.
--
-- terms holds the text's search words as the library normalises them (agentlog.memory._terms),
-- space-separated with a space at each end, so every backend matches the same words.
CREATE TABLE memory_entries (
    pk INTEGER PRIMARY KEY,
    entry_id TEXT NOT NULL UNIQUE,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    event_ids TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'commitment')),
    provenance TEXT NOT NULL CHECK (provenance IN ('verified', 'user_claim')),
    text TEXT NOT NULL,
    created_at REAL NOT NULL,
    terms TEXT NOT NULL
);

CREATE INDEX memory_entries_by_session ON memory_entries (app_name, user_id, session_id);
