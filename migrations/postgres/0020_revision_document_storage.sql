-- 0020_revision_document_storage on PostgreSQL: a revision's document is TOASTed out of line without compression
-- (STORAGE EXTERNAL). pglz compression of the ~60 KB demo document cost about 0.7 ms of every admin write
-- (BENCHMARKS.md, "Issue 36"); revisions are written once and read whole at start-up, so the disk they save is not
-- worth the write time. Rows written before keep their compressed form and read as before.
ALTER TABLE policy_revisions ALTER COLUMN document SET STORAGE EXTERNAL;
