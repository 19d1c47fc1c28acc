-- 0008_replica_token_scope: a token scope for read replicas (docs/security.md, "Token scopes").
--
-- A replica follows the change feed (a read) and forwards its outbox of client events to the primary, a route that
-- skips the ingestion budgets and the live-experiment check because the replica applied both. Until now any `read`
-- token could do that; `replica` (read + forward events, never a policy, token or setting) now must. The scope
-- CHECK of 0001 is part of the table, so the table is rebuilt with the same rows and ids. Nothing references
-- tokens.
CREATE TABLE tokens_rebuilt (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 128),
    scope TEXT NOT NULL CHECK (scope IN ('read', 'replica', 'write')),
    hash BLOB NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    last_used_at INTEGER
) STRICT;

INSERT INTO tokens_rebuilt (id, name, scope, hash, created_at, revoked_at, last_used_at)
    SELECT id, name, scope, hash, created_at, revoked_at, last_used_at FROM tokens;

DROP TABLE tokens;

ALTER TABLE tokens_rebuilt RENAME TO tokens;
