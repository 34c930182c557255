-- A third provenance label, agent_statement: what an agent said that no tool or decision
-- backs (issue 13), stored as user_claim until now. SQLite cannot change a CHECK constraint,
-- so the table is built again and its rows copied with their pk, which the full-text index
-- keys on. Dropping the old table drops the FTS5 triggers with it: the store puts them back
-- after its migrations whenever memory_fts exists (SqliteMemoryService), as a build without
-- FTS5 has neither.
CREATE TABLE memory_entries_v3 (
    pk INTEGER PRIMARY KEY,
    entry_id TEXT NOT NULL UNIQUE,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    event_ids TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'commitment')),
    provenance TEXT NOT NULL CHECK (provenance IN ('verified', 'agent_statement', 'user_claim')),
    text TEXT NOT NULL,
    created_at REAL NOT NULL,
    terms TEXT NOT NULL
);

INSERT INTO memory_entries_v3 (pk, entry_id, app_name, user_id, session_id, event_ids, kind, provenance, text, created_at, terms) SELECT pk, entry_id, app_name, user_id, session_id, event_ids, kind, provenance, text, created_at, terms FROM memory_entries;

DROP TABLE memory_entries;

ALTER TABLE memory_entries_v3 RENAME TO memory_entries;

CREATE INDEX memory_entries_by_session ON memory_entries (app_name, user_id, session_id);
