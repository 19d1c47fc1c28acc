-- 0003_drop_events_by_experiment: the partial index of 0001 served experiment funnels computed from raw events.
-- Since 0002 the funnels are aggregated as events arrive (ExperimentAggregator) and nothing reads events by
-- experiment any more, but every tagged insert still paid for the index: ten or more insertion points per
-- transaction (one per variant × type), each a dirty page written to the WAL at every commit. Dropping it took
-- tagged ingestion from about 23 to 16 µs of server CPU per event (docs/results.md, "Ingestion cost").
DROP INDEX events_by_experiment;
