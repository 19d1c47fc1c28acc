-- 0020_revision_document_storage: how a revision's document is stored (issue 36).
--
-- Nothing changes on SQLite, which stores each row's text as written. On PostgreSQL (migrations/postgres/0020) a
-- revision's document, about 60 KB for the demo, is kept out of line uncompressed: compressing it with pglz was the
-- largest part of an admin write's time there (BENCHMARKS.md, "Issue 36"). This file keeps the two engines' schema
-- versions equal.
SELECT 1;
