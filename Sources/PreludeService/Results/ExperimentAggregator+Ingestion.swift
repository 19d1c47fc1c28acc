import PreludeStorage

extension ExperimentAggregator: EventIngestionObserver {
    /// Accounts for a newly stored event inside the ingestion transaction (see
    /// ``record(appID:installID:type:feature:experiment:variant:receivedAt:on:)``).
    package func didInsert(_ event: StoredEvent, connection: Connection) throws {
        try record(
            appID: event.appID, installID: event.installID, type: event.type.rawValue, feature: event.feature.rawValue,
            experiment: event.experiment, variant: event.variant, receivedAt: event.receivedAt, on: connection)
    }
}
