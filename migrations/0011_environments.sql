-- 0011_environments: environments and scoped tokens (issue 25, docs/change-management.md).
--
-- Every app has environments (`production`, created here for every existing app, plus whatever ops add, e.g.
-- `staging`), each with its own live revision, settings, audit trail, events and experiment results. Nothing that is
-- served changes: each app's live revision becomes its `production` environment's live revision, untouched.
--
-- Revision numbers stay unique per app across its environments (the primary key of policy_revisions is unchanged):
-- "revision 7" names one document whatever the environment, in the audit log, a promotion or a change request
-- (docs/decisions.md, "Environments"). Each revision row says which environment's chain it belongs to.

CREATE TABLE environments (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
    -- NULL until the environment's first revision.
    live_revision INTEGER,
    -- How many approvals a change needs (0: publishes directly); whether its author may approve it; whether lint
    -- errors refuse it (was apps.lint_strict, 0005). Enforced by the change-request and publish paths.
    required_approvals INTEGER NOT NULL DEFAULT 0 CHECK (required_approvals BETWEEN 0 AND 5),
    allow_self_approval INTEGER NOT NULL DEFAULT 0 CHECK (allow_self_approval IN (0, 1)),
    lint_strict INTEGER NOT NULL DEFAULT 0 CHECK (lint_strict IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (app_id, name),
    FOREIGN KEY (app_id, live_revision) REFERENCES policy_revisions (app_id, number) DEFERRABLE INITIALLY DEFERRED
) STRICT, WITHOUT ROWID;

ALTER TABLE policy_revisions ADD COLUMN environment TEXT NOT NULL DEFAULT 'production';

CREATE INDEX policy_revisions_by_environment ON policy_revisions (app_id, environment, number);

-- An environment serves only a revision of its own chain.
CREATE TRIGGER environments_live_in_chain BEFORE UPDATE OF live_revision ON environments
WHEN NEW.live_revision IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM policy_revisions WHERE app_id = NEW.app_id AND number = NEW.live_revision
        AND environment = NEW.name)
BEGIN
    SELECT RAISE(ABORT, 'an environment serves only revisions of its own chain');
END;

INSERT INTO environments (app_id, name, live_revision, lint_strict, created_at, updated_at)
    SELECT id, 'production', live_revision, lint_strict, created_at, updated_at FROM apps;

-- apps.live_revision and apps.lint_strict are retired (environments holds both, per environment). SQLite cannot drop
-- a column that is part of a foreign key, so both stay, NULL and 0 from here on; a write of anything else is refused
-- so that a statement still aiming at them fails loudly instead of changing nothing that is served.
UPDATE apps SET live_revision = NULL, lint_strict = 0;
CREATE TRIGGER apps_retired_columns_insert BEFORE INSERT ON apps
WHEN NEW.live_revision IS NOT NULL OR NEW.lint_strict != 0
BEGIN
    SELECT RAISE(ABORT, 'apps.live_revision and apps.lint_strict are retired: environments holds them (0011)');
END;
CREATE TRIGGER apps_retired_columns_update BEFORE UPDATE OF live_revision, lint_strict ON apps
WHEN NEW.live_revision IS NOT NULL OR NEW.lint_strict != 0
BEGIN
    SELECT RAISE(ABORT, 'apps.live_revision and apps.lint_strict are retired: environments holds them (0011)');
END;

-- The audit trail names the environment of each app record (NULL for token and whole-app records). Existing app
-- records were all production's. The table is append-only; the trigger is lifted for this one backfill.
ALTER TABLE audit_log ADD COLUMN environment TEXT;
DROP TRIGGER audit_log_append_only_update;
UPDATE audit_log SET environment = 'production' WHERE app_id IS NOT NULL AND action NOT IN ('app.delete');
CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Client events and a replica's outbox say which environment the client asked (staging traffic never counts in
-- production's results). The dedupe key stays per app: an install's event id is unique whatever it talks to.
ALTER TABLE events ADD COLUMN environment TEXT NOT NULL DEFAULT 'production';
ALTER TABLE replica_outbox ADD COLUMN environment TEXT NOT NULL DEFAULT 'production';

-- Experiment aggregates per environment: the environment joins each table's primary key, so the tables are rebuilt
-- (same rows, all production's). They are children of apps only: nothing references them.
CREATE TABLE experiment_install_steps_rebuilt (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    install_id TEXT NOT NULL,
    steps INTEGER NOT NULL CHECK (steps BETWEEN 1 AND 1023),
    first_seen_at INTEGER NOT NULL,
    PRIMARY KEY (app_id, environment, experiment_key, feature, variant, install_id)
) STRICT, WITHOUT ROWID;
INSERT INTO experiment_install_steps_rebuilt
    SELECT app_id, 'production', experiment_key, feature, variant, install_id, steps, first_seen_at
    FROM experiment_install_steps;
DROP TABLE experiment_install_steps;
ALTER TABLE experiment_install_steps_rebuilt RENAME TO experiment_install_steps;

CREATE TABLE experiment_funnel_counts_rebuilt (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    exposed INTEGER NOT NULL DEFAULT 0 CHECK (exposed >= 0),
    prime_shown INTEGER NOT NULL DEFAULT 0 CHECK (prime_shown >= 0),
    prime_continued INTEGER NOT NULL DEFAULT 0 CHECK (prime_continued >= 0),
    prime_dismissed INTEGER NOT NULL DEFAULT 0 CHECK (prime_dismissed >= 0),
    system_granted INTEGER NOT NULL DEFAULT 0 CHECK (system_granted >= 0),
    system_denied INTEGER NOT NULL DEFAULT 0 CHECK (system_denied >= 0),
    settings_opened INTEGER NOT NULL DEFAULT 0 CHECK (settings_opened >= 0),
    returned_granted INTEGER NOT NULL DEFAULT 0 CHECK (returned_granted >= 0),
    granted INTEGER NOT NULL DEFAULT 0 CHECK (granted >= 0),
    first_event_at INTEGER NOT NULL,
    last_event_at INTEGER NOT NULL,
    task_started INTEGER NOT NULL DEFAULT 0 CHECK (task_started >= 0),
    task_completed INTEGER NOT NULL DEFAULT 0 CHECK (task_completed >= 0),
    PRIMARY KEY (app_id, environment, experiment_key, feature, variant)
) STRICT, WITHOUT ROWID;
INSERT INTO experiment_funnel_counts_rebuilt
    SELECT app_id, 'production', experiment_key, feature, variant, exposed, prime_shown, prime_continued,
        prime_dismissed, system_granted, system_denied, settings_opened, returned_granted, granted, first_event_at,
        last_event_at, task_started, task_completed
    FROM experiment_funnel_counts;
DROP TABLE experiment_funnel_counts;
ALTER TABLE experiment_funnel_counts_rebuilt RENAME TO experiment_funnel_counts;

CREATE TABLE experiment_mislabelled_events_rebuilt (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    reported_variant TEXT NOT NULL,
    expected_variant TEXT NOT NULL,
    events INTEGER NOT NULL CHECK (events >= 0),
    last_event_at INTEGER NOT NULL,
    PRIMARY KEY (app_id, environment, experiment_key, feature, reported_variant, expected_variant)
) STRICT, WITHOUT ROWID;
INSERT INTO experiment_mislabelled_events_rebuilt
    SELECT app_id, 'production', experiment_key, feature, reported_variant, expected_variant, events, last_event_at
    FROM experiment_mislabelled_events;
DROP TABLE experiment_mislabelled_events;
ALTER TABLE experiment_mislabelled_events_rebuilt RENAME TO experiment_mislabelled_events;

CREATE TABLE experiment_daily_counts_rebuilt (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    day INTEGER NOT NULL, -- days since 1970-01-01 UTC
    exposed INTEGER NOT NULL DEFAULT 0 CHECK (exposed >= 0),
    prime_shown INTEGER NOT NULL DEFAULT 0 CHECK (prime_shown >= 0),
    prime_continued INTEGER NOT NULL DEFAULT 0 CHECK (prime_continued >= 0),
    prime_dismissed INTEGER NOT NULL DEFAULT 0 CHECK (prime_dismissed >= 0),
    system_granted INTEGER NOT NULL DEFAULT 0 CHECK (system_granted >= 0),
    system_denied INTEGER NOT NULL DEFAULT 0 CHECK (system_denied >= 0),
    settings_opened INTEGER NOT NULL DEFAULT 0 CHECK (settings_opened >= 0),
    returned_granted INTEGER NOT NULL DEFAULT 0 CHECK (returned_granted >= 0),
    granted INTEGER NOT NULL DEFAULT 0 CHECK (granted >= 0),
    task_started INTEGER NOT NULL DEFAULT 0 CHECK (task_started >= 0),
    task_completed INTEGER NOT NULL DEFAULT 0 CHECK (task_completed >= 0),
    PRIMARY KEY (app_id, environment, experiment_key, feature, variant, day)
) STRICT, WITHOUT ROWID;
INSERT INTO experiment_daily_counts_rebuilt
    SELECT app_id, 'production', experiment_key, feature, variant, day, exposed, prime_shown, prime_continued,
        prime_dismissed, system_granted, system_denied, settings_opened, returned_granted, granted, task_started,
        task_completed
    FROM experiment_daily_counts;
DROP TABLE experiment_daily_counts;
ALTER TABLE experiment_daily_counts_rebuilt RENAME TO experiment_daily_counts;

CREATE TABLE experiment_daily_events_rebuilt (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    day INTEGER NOT NULL, -- days since 1970-01-01 UTC
    events INTEGER NOT NULL CHECK (events >= 0),
    PRIMARY KEY (app_id, environment, experiment_key, feature, variant, day)
) STRICT, WITHOUT ROWID;
INSERT INTO experiment_daily_events_rebuilt
    SELECT app_id, 'production', experiment_key, feature, variant, day, events FROM experiment_daily_events;
DROP TABLE experiment_daily_events;
ALTER TABLE experiment_daily_events_rebuilt RENAME TO experiment_daily_events;

-- Scoped tokens: which apps and environments a token may touch (NULL: all, what every existing token keeps
-- meaning), and two capabilities beside its scope: approving change requests, and applying without approval.
ALTER TABLE tokens ADD COLUMN apps TEXT CHECK (apps IS NULL OR json_valid(apps));
ALTER TABLE tokens ADD COLUMN environments TEXT CHECK (environments IS NULL OR json_valid(environments));
ALTER TABLE tokens ADD COLUMN approve INTEGER NOT NULL DEFAULT 0 CHECK (approve IN (0, 1));
ALTER TABLE tokens ADD COLUMN bypass INTEGER NOT NULL DEFAULT 0 CHECK (bypass IN (0, 1));
