-- 0018_rollout_actions_and_templates: what the guard did short of a rollback, and rollout templates per
-- environment (issue 40, docs/rollouts.md "Actions per finding", "Per-segment guarding", "Templates").
--
-- `held_by`: the findings that held (paused) the rollout, emptied by resume. `handled`: the kinds of finding already
-- held or warned about (they do not hold or warn again). `excluded_segments`: the segments carved out
-- (["locale:de"]). A rollout stored by an earlier build reads as none of them.
ALTER TABLE rollouts ADD COLUMN held_by TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(held_by));
ALTER TABLE rollouts ADD COLUMN handled TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(handled));
ALTER TABLE rollouts ADD COLUMN excluded_segments TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(excluded_segments));

-- One environment's rollout templates: a named partial plan (steps, alpha, minimum effect, harm budget, segments,
-- actions, …) a rollout names instead of spelling it out. The template named 'floor' is the environment's floor:
-- a plan weaker than it is refused there.
CREATE TABLE rollout_templates (
    app_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    plan TEXT NOT NULL CHECK (json_valid(plan)),
    updated_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (app_id, environment, name),
    FOREIGN KEY (app_id, environment) REFERENCES environments (app_id, name) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
