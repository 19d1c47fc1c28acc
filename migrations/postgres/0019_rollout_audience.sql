-- 0019_rollout_audience on PostgreSQL: the same column as migrations/0019 (issue 38).
ALTER TABLE rollouts ADD COLUMN audience TEXT CHECK (audience IS NULL OR prelude_json_valid(audience));
