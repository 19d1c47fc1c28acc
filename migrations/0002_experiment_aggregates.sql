-- 0002_experiment_aggregates: experiment funnels kept up to date as events arrive (docs/results.md, "Service").
-- Results read one counters row per variant, whatever the event volume, and survive the pruning of raw events.
-- Both tables are written only by ExperimentAggregator, inside the event-ingestion transaction.

-- Which funnel steps each install has reached in one arm: FunnelSteps.rawValue (bit 0 exposed, 1 primeShown,
-- 2 primeContinued, 3 primeDismissed, 4 systemGranted, 5 systemDenied, 6 settingsOpened, 7 returnedGranted).
-- Grows with installs, not events. WITHOUT ROWID: the primary key is the only access path, so the row lives in
-- the key's b-tree instead of a second rowid table.
CREATE TABLE experiment_install_steps (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    install_id TEXT NOT NULL,
    steps INTEGER NOT NULL CHECK (steps BETWEEN 1 AND 255),
    first_seen_at INTEGER NOT NULL, -- received_at of the install's first event in this arm, unix ms
    PRIMARY KEY (app_id, experiment_key, feature, variant, install_id)
) STRICT, WITHOUT ROWID;

-- The unique-install counters ExperimentAnalysis.analyze reads (FunnelCounts): one row per arm.
CREATE TABLE experiment_funnel_counts (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
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
    first_event_at INTEGER NOT NULL, -- received_at of the arm's first counted event, unix ms
    last_event_at INTEGER NOT NULL, -- received_at of the arm's last event that changed a counter, unix ms
    PRIMARY KEY (app_id, experiment_key, feature, variant)
) STRICT, WITHOUT ROWID;
