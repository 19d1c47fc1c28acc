-- 0010_task_events_and_daily_counts: task success per arm (issue 27, "ask less") and the daily series the results
-- page draws (issue 26). Both written only by ExperimentAggregator, inside the event-ingestion transaction.

-- FunnelSteps gains bit 8 (taskStarted) and bit 9 (taskCompleted): the steps column's CHECK allowed 1–255, and
-- SQLite cannot change a CHECK in place, so the table is rebuilt with 1–1023 (same rows, same key).
CREATE TABLE experiment_install_steps_0009 (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    install_id TEXT NOT NULL,
    steps INTEGER NOT NULL CHECK (steps BETWEEN 1 AND 1023),
    first_seen_at INTEGER NOT NULL, -- received_at of the install's first event in this arm, unix ms
    PRIMARY KEY (app_id, experiment_key, feature, variant, install_id)
) STRICT, WITHOUT ROWID;
INSERT INTO experiment_install_steps_0009
    (app_id, experiment_key, feature, variant, install_id, steps, first_seen_at)
SELECT app_id, experiment_key, feature, variant, install_id, steps, first_seen_at FROM experiment_install_steps;
DROP TABLE experiment_install_steps;
ALTER TABLE experiment_install_steps_0009 RENAME TO experiment_install_steps;

-- Installs that started a task, and installs that started and completed one (FunnelCounts.taskStarted,
-- taskCompleted; docs/results.md, "Task success").
ALTER TABLE experiment_funnel_counts ADD COLUMN task_started INTEGER NOT NULL DEFAULT 0 CHECK (task_started >= 0);
ALTER TABLE experiment_funnel_counts ADD COLUMN task_completed INTEGER NOT NULL DEFAULT 0
    CHECK (task_completed >= 0);

-- The counters' increments per arm and UTC day of arrival (received_at / 86,400,000): the running sum over days is
-- the arm's funnel at the end of each day, which the results page draws (exposures over time, the difference's
-- confidence sequence over time). Like experiment_funnel_counts, a row changes only when an install reaches a new
-- step. Events before this migration have no daily rows (the series starts at the upgrade).
CREATE TABLE experiment_daily_counts (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
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
    PRIMARY KEY (app_id, experiment_key, feature, variant, day)
) STRICT, WITHOUT ROWID;

-- Newly stored events per arm and UTC day of arrival, whether or not they moved a counter (a step logged twice
-- under new ids is a new event): the "events per day" health check of the results page.
CREATE TABLE experiment_daily_events (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    variant TEXT NOT NULL,
    day INTEGER NOT NULL, -- days since 1970-01-01 UTC
    events INTEGER NOT NULL CHECK (events >= 0),
    PRIMARY KEY (app_id, experiment_key, feature, variant, day)
) STRICT, WITHOUT ROWID;

-- The optional task name of taskStarted / taskCompleted events (docs/api.md, "Events"); null for every other event.
-- The replica's outbox keeps it too, so a forwarded event reaches the primary whole.
ALTER TABLE events ADD COLUMN task TEXT;
ALTER TABLE replica_outbox ADD COLUMN task TEXT;
