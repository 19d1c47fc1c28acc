-- 0004_drop_events_by_feature_time: 0001 indexed events by (app_id, feature, occurred_at) for per-feature funnels
-- computed from raw events. Nothing queries events that way: experiment funnels are aggregated as events arrive
-- (0002), retention pruning walks ids (EventPruner), and dedupe uses the UNIQUE (app_id, install_id,
-- client_event_id) index. Every insert still paid for a third b-tree, and because occurred_at is the device's
-- clock, a batch landed at scattered places of it (more dirty pages written to the WAL at every commit).
-- Dropping it took about a fifth of SQLite's instructions per stored event (docs/results.md, "Ingestion cost").
-- An operator who wants ad hoc per-feature queries over raw events can create such an index on a copy.
DROP INDEX events_by_feature_time;
