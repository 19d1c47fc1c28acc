-- 0001_initial: the product's tables.
-- Applied by the Migrator inside one BEGIN IMMEDIATE transaction with its ledger row, so this file must not
-- contain BEGIN/COMMIT. Never edit it once released: add 0002_… instead (the checksum is verified at start).
-- Times are INTEGER milliseconds since the Unix epoch, UTC. Tables are STRICT (SQLite ≥ 3.37).

-- One row per app (bundle). live_revision points at the revision clients are served; NULL until the first one.
CREATE TABLE apps (
    id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
    name TEXT NOT NULL,
    live_revision INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- Deferred so an app and its first revision can be inserted in either order in one transaction.
    FOREIGN KEY (id, live_revision) REFERENCES policy_revisions (app_id, number) DEFERRABLE INITIALLY DEFERRED
) STRICT;

-- Every accepted policy write makes a new immutable revision; rollback makes a new one equal to an old one.
CREATE TABLE policy_revisions (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    document TEXT NOT NULL CHECK (json_valid(document)),
    etag TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    author TEXT NOT NULL,
    message TEXT,
    PRIMARY KEY (app_id, number)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER policy_revisions_immutable_update BEFORE UPDATE ON policy_revisions
BEGIN
    SELECT RAISE(ABORT, 'policy revisions are immutable');
END;

-- Revisions disappear only with their app (the cascade runs after the app row is gone).
CREATE TRIGGER policy_revisions_immutable_delete BEFORE DELETE ON policy_revisions
WHEN EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id)
BEGIN
    SELECT RAISE(ABORT, 'policy revisions are immutable');
END;

-- Who changed what and when. No foreign key to apps: the trail outlives a deleted app.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    occurred_at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    app_id TEXT,
    action TEXT NOT NULL,
    revision INTEGER,
    detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail))
) STRICT;

CREATE INDEX audit_log_by_app ON audit_log (app_id, id);
CREATE INDEX audit_log_by_time ON audit_log (occurred_at);

CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Admin bearer tokens. Only a hash of the secret is stored.
CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 128),
    scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
    hash BLOB NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    last_used_at INTEGER
) STRICT;

-- Client events. (app_id, install_id, client_event_id) is the dedupe key: a retried batch inserts nothing new.
CREATE TABLE events (
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
    detail TEXT CHECK (detail IS NULL OR json_valid(detail)),
    UNIQUE (app_id, install_id, client_event_id)
) STRICT;

-- Experiment results: per experiment and variant, the funnel counts distinct installs per event type.
CREATE INDEX events_by_experiment ON events (app_id, experiment, variant, type, install_id)
    WHERE experiment IS NOT NULL;
-- Per-feature funnels and time windows.
CREATE INDEX events_by_feature_time ON events (app_id, feature, occurred_at);
