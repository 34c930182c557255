-- Loading from the newest compaction on: a compaction event's end_timestamp in a column of its
-- own (NULL on every other event), indexed only where set, so the newest end is one index probe
-- and the events after it one range of events_by_time.
ALTER TABLE events ADD COLUMN compaction_end REAL;

-- Backfill the compactions already stored. LIKE first, so only candidate payloads are parsed;
-- json_valid guards a corrupt row, which keeps failing on read as before instead of failing the
-- migration.
UPDATE events
SET compaction_end = CASE
    WHEN json_valid(payload) THEN json_extract(payload, '$.actions.compaction.end_timestamp')
END
WHERE payload LIKE '%"compaction"%';

CREATE INDEX events_by_compaction_end ON events (session_pk, compaction_end)
WHERE compaction_end IS NOT NULL;
