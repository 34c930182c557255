-- Loading from the newest compaction on: a compaction event's end_timestamp in a column of its
-- own (NULL on every other event), indexed only where set, so the newest end is one index probe
-- and the events after it one range of events_by_time.
ALTER TABLE events ADD COLUMN compaction_end DOUBLE PRECISION;

-- Backfill the compactions already stored (the column is JSON, so every payload parses).
UPDATE events
SET compaction_end = (payload -> 'actions' -> 'compaction' ->> 'end_timestamp')::double precision
WHERE payload::text LIKE '%"compaction"%'
    AND json_typeof(payload -> 'actions' -> 'compaction') = 'object';

CREATE INDEX events_by_compaction_end ON events (session_pk, compaction_end)
WHERE compaction_end IS NOT NULL;
