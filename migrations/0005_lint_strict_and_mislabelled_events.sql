-- 0005_lint_strict_and_mislabelled_events: two additions of issue 17.

-- Strict lint per app (docs/admin.md, "Lint at write time"): when 1, an admin write whose resulting policy has a
-- lint error is refused with 422 and nothing is written. Off by default: lint findings are only reported.
ALTER TABLE apps ADD COLUMN lint_strict INTEGER NOT NULL DEFAULT 0 CHECK (lint_strict IN (0, 1));

-- Events whose variant disagrees with the install's deterministic assignment (docs/results.md, "Mislabelled
-- events"): counted here by ExperimentAggregator inside the ingestion transaction and kept out of the arms.
-- One row per (experiment, feature, reported variant, expected variant); expected_variant is '' when the install
-- is outside the experiment's coverage.
CREATE TABLE experiment_mislabelled_events (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    reported_variant TEXT NOT NULL,
    expected_variant TEXT NOT NULL,
    events INTEGER NOT NULL CHECK (events >= 0),
    last_event_at INTEGER NOT NULL, -- received_at of the last such event, unix ms
    PRIMARY KEY (app_id, experiment_key, feature, reported_variant, expected_variant)
) STRICT, WITHOUT ROWID;
