-- 0016_change_request_kinds: a change request proposes a policy document, an environment's settings, or a guarded
-- rollout's plan (issue 35, docs/change-management.md "What a change request can carry").
--
-- Every existing request proposed a policy document, so it keeps that kind. For a `settings` request `document`
-- holds the settings it sets ({"requiredApprovals": 0}); for a `rollout` request, the rollout's id and plan as the
-- reviewers read it ({"rollout": 3, "feature": …, "set": …, "plan": …}). Only a `policy` request is based on a
-- revision and can go stale.
ALTER TABLE change_requests ADD COLUMN kind TEXT NOT NULL DEFAULT 'policy'
    CHECK (kind IN ('policy', 'settings', 'rollout'));
