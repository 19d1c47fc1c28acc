-- 0017_change_request_patch: what a change request changes, kept with it (issue 35, docs/change-management.md
-- "Rebase: a three-way merge").
--
-- `changes` is the request's patch against its base revision: the pointer-level changes of the proposed document
-- ([{op, pointer, from?, to?}], arrays as whole values; `JSONMerge.patch`), written when the request is opened,
-- edited or re-based. A re-base re-applies it to the live revision as a three-way merge, so a production change
-- that landed in between survives and only a member both sides changed is a conflict. NULL: a request stored by an
-- earlier build, whose patch is derived when it is needed from its base revision and its document (what it changed
-- when it was opened, for a request that was never re-based by that earlier build).
ALTER TABLE change_requests ADD COLUMN changes TEXT CHECK (changes IS NULL OR json_valid(changes));
