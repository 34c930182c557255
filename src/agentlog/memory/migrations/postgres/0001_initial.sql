-- Long-term memory: facts and commitments drawn from checked summaries. The tables have names
-- of their own so that a memory store and a session store can share one schema.
--
-- terms holds the text's search words as the library normalises them (agentlog.memory._terms),
-- space-separated, so every backend matches the same words; the 'simple' configuration then
-- only lower-cases them (no stemming, no stop words).
CREATE TABLE memory_entries (
    pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id TEXT NOT NULL,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    event_ids TEXT[] NOT NULL CHECK (cardinality(event_ids) > 0),
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'commitment')),
    provenance TEXT NOT NULL CHECK (provenance IN ('verified', 'user_claim')),
    text TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    terms TEXT NOT NULL,
    search TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', terms)) STORED,
    CONSTRAINT memory_entries_id_unique UNIQUE (entry_id)
);

CREATE INDEX memory_entries_by_session ON memory_entries (app_name, user_id, session_id);

CREATE INDEX memory_entries_search ON memory_entries USING GIN (search);
