-- 0009_rollouts: guarded rollouts (docs/rollouts.md).
--
-- One row per rollout: the change it ramps (one feature's variant `set`), its plan (steps, alpha, minimum effect)
-- and its state (status, step, since when, the new arm's exposures at the step's start), so a restarted primary
-- resumes where it was. The served assignment is not here: it is the rollout's experiment in the app's policy
-- revisions, which replicas mirror. `environment` is 'production' until environments exist for an app.
-- At most one rollout per app and environment is live (draft, running, paused or awaiting approval).
CREATE TABLE rollouts (
    id INTEGER PRIMARY KEY,
    app_id TEXT NOT NULL,
    environment TEXT NOT NULL DEFAULT 'production',
    experiment_key TEXT NOT NULL,
    feature TEXT NOT NULL,
    change TEXT NOT NULL,
    plan TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('draft', 'running', 'paused', 'awaitingApproval', 'completed', 'rolledBack', 'aborted')),
    step INTEGER NOT NULL DEFAULT 0,
    step_started_at INTEGER,
    step_start_exposed INTEGER NOT NULL DEFAULT 0,
    tripped_by TEXT NOT NULL DEFAULT '[]',
    base_revision INTEGER,
    last_reading TEXT,
    last_evaluated_at INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX rollouts_one_live ON rollouts (app_id, environment)
    WHERE status IN ('draft', 'running', 'paused', 'awaitingApproval');
