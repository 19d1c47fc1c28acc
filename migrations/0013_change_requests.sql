-- 0013_change_requests: change requests and scheduled publishes (issue 25, docs/change-management.md).
--
-- A change request proposes a new policy document for one environment of an app, based on the revision that was
-- live when it was proposed. It is reviewed, approved, optionally scheduled, and applied as exactly one revision
-- through the same publish path as every other write. The row is the durable schedule: the primary's scheduler
-- applies an `approved` request whose `scheduled_at` has passed, and the apply moves it to `applied` in the same
-- transaction as the revision, so a restart neither loses nor repeats a scheduled publish.
CREATE TABLE change_requests (
    id INTEGER PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    environment TEXT NOT NULL DEFAULT 'production' CHECK (length(environment) BETWEEN 1 AND 64),
    state TEXT NOT NULL CHECK (state IN ('draft', 'review', 'approved', 'applied', 'rejected', 'cancelled', 'stale')),
    -- Bumped by every change of the row: the request's ETag, and the guard of every transition.
    version INTEGER NOT NULL CHECK (version >= 1),
    -- The live revision the proposal was based on; NULL when the environment had none.
    base_revision INTEGER,
    -- The proposed policy document, canonical JSON.
    document TEXT NOT NULL CHECK (json_valid(document)),
    -- The JSON Merge Patch it was made from, when it was (re-applied to the new base by a re-base).
    patch TEXT CHECK (patch IS NULL OR json_valid(patch)),
    author TEXT NOT NULL,
    author_token_id INTEGER,
    message TEXT,
    -- The lint findings of the proposed document: [{ruleId, severity, pointer, message}].
    findings TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(findings)),
    -- The approvals that count for this version of the proposal: [{approver, tokenId, at, comment}].
    approvals TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(approvals)),
    scheduled_at INTEGER,
    applied_revision INTEGER,
    -- Who rejected or cancelled it, and why.
    closed_by TEXT,
    reason TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CHECK (state = 'applied' OR applied_revision IS NULL),
    CHECK (state = 'approved' OR scheduled_at IS NULL),
    -- A request belongs to one environment of its app (0011_environments) and goes with it.
    FOREIGN KEY (app_id, environment) REFERENCES environments (app_id, name) ON DELETE CASCADE
) STRICT;

CREATE INDEX change_requests_by_environment ON change_requests (app_id, environment, id);

-- The scheduler's query: approved requests with an instant, earliest first.
CREATE INDEX change_requests_scheduled ON change_requests (scheduled_at) WHERE scheduled_at IS NOT NULL;
