-- 0012_webhooks: signed webhooks and their durable outbox (docs/webhooks.md).
--
-- A webhook is an app's receiver: its URL, the signing secret (kept as given: signing needs it, unlike a token's
-- hash), the event types it wants (a JSON array of WebhookEventType raw values), the environments whose changes it
-- wants (a JSON array of names; NULL: every environment, those created later too) and whether it is enabled. Deleting
-- the app deletes its webhooks, and deleting a webhook deletes its deliveries.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    event_types TEXT NOT NULL,
    environments TEXT CHECK (environments IS NULL OR json_valid(environments)),
    description TEXT,
    enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_reason TEXT,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX webhooks_by_app ON webhooks (app_id, created_at);

-- The outbox: one row per (event, webhook), written in the same transaction as the change it reports (a publish,
-- a rollback, ...), so a change that was acknowledged has its deliveries on disk. `id` is the Standard Webhooks
-- `webhook-id`, the same on every attempt. `state` is pending until a 2xx (delivered) or until the attempts of a run
-- are spent (failed); `next_attempt_at` (unix ms) is when a pending delivery is due, and is moved forward by a
-- dispatcher that claims it (a lease, so a dispatcher killed mid-send leaves it due again). `run_started_attempts`
-- is `attempts` when the current run began (a manual redelivery starts a new run with a fresh attempt budget).
CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    app_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    event_type TEXT NOT NULL,
    occurred_at INTEGER NOT NULL,
    data TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    run_started_attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_attempt_at INTEGER,
    last_status INTEGER,
    last_error TEXT,
    delivered_at INTEGER,
    created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id);

-- Every attempt of a delivery: when, how long, the receiver's status or the transport error.
CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_id, number)
) STRICT, WITHOUT ROWID;
