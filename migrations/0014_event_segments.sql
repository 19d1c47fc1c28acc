-- 0014_event_segments: breakdowns of experiment results per OS major version and per locale (issue 26,
-- docs/results.md "Breakdowns"). Clients send both with each events batch (the Prelude-OS-Major and Prelude-Locale
-- request headers, docs/api.md); events without them, and every event stored before this migration, count as
-- "unknown".

-- The raw events and a replica's outbox keep the segment (null: not sent), so a forwarded event reaches the primary
-- whole.
ALTER TABLE events ADD COLUMN os_major INTEGER CHECK (os_major IS NULL OR os_major BETWEEN 1 AND 99);
ALTER TABLE events ADD COLUMN locale TEXT CHECK (locale IS NULL OR length(locale) BETWEEN 2 AND 7);
ALTER TABLE replica_outbox ADD COLUMN os_major INTEGER CHECK (os_major IS NULL OR os_major BETWEEN 1 AND 99);
ALTER TABLE replica_outbox ADD COLUMN locale TEXT CHECK (locale IS NULL OR length(locale) BETWEEN 2 AND 7);

-- An install counts in the segment of its first event in the arm, for good (a later OS update does not move its
-- funnel to another segment); installs first seen before this migration stay "unknown" (null).
ALTER TABLE experiment_install_steps ADD COLUMN os_major INTEGER;
ALTER TABLE experiment_install_steps ADD COLUMN locale TEXT;

-- Each arm's funnel per segment value, written only by ExperimentAggregator inside the event-ingestion transaction,
-- like experiment_funnel_counts: for each dimension the rows of an arm add up to its funnel. `value` is the OS major
-- version or locale, 'unknown' (not sent), or 'other': one experiment keeps at most 64 distinct values per
-- dimension (EventSegment.maximumStoredValues), later new ones count as 'other', so clients cannot grow the table
-- without bound.
CREATE TABLE experiment_segment_counts (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    dimension TEXT NOT NULL CHECK (dimension IN ('osMajor', 'locale')),
    value TEXT NOT NULL,
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
    PRIMARY KEY (app_id, environment, experiment_key, feature, dimension, value, variant)
) STRICT, WITHOUT ROWID;

-- What was counted before this migration is "unknown" in both dimensions.
INSERT INTO experiment_segment_counts
    SELECT app_id, environment, experiment_key, feature, variant, d.dimension, 'unknown', exposed, prime_shown,
        prime_continued, prime_dismissed, system_granted, system_denied, settings_opened, returned_granted, granted,
        task_started, task_completed
    FROM experiment_funnel_counts, (SELECT 'osMajor' AS dimension UNION ALL SELECT 'locale') AS d;
