-- 0018_rollout_actions_and_templates on PostgreSQL: the same columns and table as migrations/0018 (issue 40).
ALTER TABLE rollouts ADD COLUMN held_by TEXT NOT NULL DEFAULT '[]' CHECK (prelude_json_valid(held_by));
ALTER TABLE rollouts ADD COLUMN handled TEXT NOT NULL DEFAULT '[]' CHECK (prelude_json_valid(handled));
ALTER TABLE rollouts ADD COLUMN excluded_segments TEXT NOT NULL DEFAULT '[]'
    CHECK (prelude_json_valid(excluded_segments));

CREATE TABLE rollout_templates (
    app_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    plan TEXT NOT NULL CHECK (prelude_json_valid(plan)),
    updated_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (app_id, environment, name),
    FOREIGN KEY (app_id, environment) REFERENCES environments (app_id, name) ON DELETE CASCADE
);
