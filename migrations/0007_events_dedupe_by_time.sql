-- 0007_events_dedupe_by_time: the dedupe index orders time-ordered event ids by time (issue 16).
--
-- Events are deduplicated on (app, install, client event id). Until now the index was exactly that, so the new
-- events of one group commit landed one insertion point per install: fine for the SDK's batches (one install's
-- events), but a batch that mixes 100 installs (a relay forwarding many devices) dirtied one index page per event,
-- and every dirty page is a 4 KiB WAL frame written and fsynced at the commit. At 50,000 events/s that was the
-- whole writer (docs/storage.md, "Dedupe index").
--
-- The index is now on (app_id, dedupe key), where the key is the same pair in one of two orders:
--   * 'v' || id || ' ' || install  when the id is a UUIDv7 (RFC 9562: 36 characters, version digit 7), as the
--     SDK generates them: its first 48 bits are the creation time in ms, so every install's new events sort
--     together at the end of the index and a commit dirties a few pages, however many installs it mixes;
--   * 'i' || install || ' ' || id  for any other id: the previous order, so per-install counters and random ids
--     keep one insertion point per install.
-- Ids and install ids are visible ASCII (never a space), the branch depends on the id alone and the tags differ:
-- the key is a one-to-one function of (install, id), so uniqueness is exactly the old constraint's.
--
-- The UNIQUE constraint of 0001 is part of the table, so the table is rebuilt (same columns, same rowids).
-- Nothing references events; events references apps, which stays.
CREATE TABLE events_rebuilt (
    id INTEGER PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    install_id TEXT NOT NULL,
    client_event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    feature TEXT NOT NULL,
    experiment TEXT,
    variant TEXT,
    occurred_at INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    detail TEXT CHECK (detail IS NULL OR json_valid(detail))
) STRICT;

INSERT INTO events_rebuilt (
    id, app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at, detail
)
SELECT id, app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at, detail
FROM events ORDER BY id;

DROP TABLE events;
ALTER TABLE events_rebuilt RENAME TO events;

-- EventIngestor inserts with ON CONFLICT DO NOTHING: this is the table's only uniqueness constraint besides the rowid.
CREATE UNIQUE INDEX events_dedupe ON events (
    app_id,
    (CASE
        WHEN length(client_event_id) = 36 AND substr(client_event_id, 15, 1) = '7'
            AND substr(client_event_id, 9, 1) = '-' AND substr(client_event_id, 24, 1) = '-'
        THEN 'v' || client_event_id || ' ' || install_id
        ELSE 'i' || install_id || ' ' || client_event_id
    END)
);
