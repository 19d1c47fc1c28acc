-- 0019_rollout_audience: a rollout's audience (issue 38, docs/rollouts.md "Audience").
--
-- `audience`: the condition (JSON, the language of targeting rules, `$inSegment` included) an install must match
-- to enter the rollout; NULL for every install. A rollout stored by an earlier build reads as NULL and behaves as
-- before.
ALTER TABLE rollouts ADD COLUMN audience TEXT CHECK (audience IS NULL OR json_valid(audience));
