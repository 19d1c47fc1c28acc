import PreludeStorage

extension ExperimentAggregator: EventIngestionObserver {
    /// Accounts for one newly stored event inside the ingestion transaction (see
    /// ``record(appID:environment:installID:type:feature:experiment:variant:receivedAt:segment:on:)``).
    package func didInsert(_ event: StoredEvent, connection: Connection) throws {
        try record(
            appID: event.appID, environment: event.environment, installID: event.installID, type: event.type.rawValue,
            feature: event.feature.rawValue,
            experiment: event.experiment, variant: event.variant, receivedAt: event.receivedAt,
            segment: event.segment, on: connection)
    }

    /// Accounts for a stored batch's new events at once, inside the ingestion transaction (see
    /// ``record(batch:on:)``): a few statements per arm instead of three per event.
    package func didInsert(batch events: [StoredEvent], connection: Connection) throws {
        try record(batch: events, on: connection)
    }
}
