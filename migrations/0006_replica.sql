-- 0006_replica: what a read replica keeps of its own (docs/scaling.md, "Read replicas").

-- The outbox: client events a replica accepted (validated exactly as on the primary) and has not yet seen the
-- primary acknowledge. Written by the same group commit as `events` (synchronous=FULL), so a 202 from a replica
-- means the batch is on its disk. The forwarder sends the oldest rows to the primary and deletes them only after
-- the primary's 202; a replica killed in between sends them again, and the primary's (app_id, install_id,
-- client_event_id) key stores each event once. No foreign key to apps: an event outlives a sync that drops its app
-- (the primary then answers 404 and the forwarder drops it, counted).
CREATE TABLE replica_outbox (
    id INTEGER PRIMARY KEY,
    app_id TEXT NOT NULL,
    install_id TEXT NOT NULL,
    client_event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    feature TEXT NOT NULL,
    experiment TEXT,
    variant TEXT,
    occurred_at INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (app_id, install_id, client_event_id)
) STRICT;

-- The replica's sync state: the primary it follows, the change feed's entity tag, the last successful sync (unix
-- ms). A stored last sync makes /readyz ready at start with the primary down (it serves its stored copy).
CREATE TABLE replica_state (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT, WITHOUT ROWID;
