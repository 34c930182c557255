-- Full-text search over memory_entries.terms, ranked by bm25.
--
-- Optional: when this SQLite build has no FTS5 the store skips this migration without recording
-- it, and search scans terms instead. It fills the index from the rows already stored, so a
-- later build with FTS5 catches up. Entries are never updated, so inserts and deletes are the
-- only changes the triggers follow; each trigger sits on one line because migrations are split
-- at a semicolon that ends a line.
CREATE VIRTUAL TABLE memory_fts USING fts5 (
    terms,
    content = 'memory_entries',
    content_rowid = 'pk',
    tokenize = 'unicode61 remove_diacritics 0'
);

INSERT INTO memory_fts (memory_fts) VALUES ('rebuild');

CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory_entries BEGIN INSERT INTO memory_fts (rowid, terms) VALUES (new.pk, new.terms); END;

CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory_entries BEGIN INSERT INTO memory_fts (memory_fts, rowid, terms) VALUES ('delete', old.pk, old.terms); END;
