import PreludeCore

/// One valid client event, not yet stored: what ``EventIngestor`` writes as a row of `events` (or of
/// `replica_outbox`). The HTTP adapter decodes and validates request bodies into these (`EventBatch`).
package struct IncomingEvent: Sendable, Hashable {
    /// The client-generated event id.
    package var id: String
    /// The install id.
    package var installID: String
    /// What happened.
    package var type: AnalyticsEvent
    /// The feature.
    package var feature: Feature
    /// The experiment key, if enrolled.
    package var experiment: String?
    /// The variant, with `experiment`.
    package var variant: String?
    /// Device time, milliseconds since the Unix epoch.
    package var occurredAt: Int64
    /// The task's name, for `taskStarted` / `taskCompleted` only.
    package var task: String?
    /// The device segment its batch was sent with (OS major version, locale; empty when not sent).
    package var segment: EventSegment

    /// An event with every field given.
    package init(
        id: String, installID: String, type: AnalyticsEvent, feature: Feature, experiment: String? = nil,
        variant: String? = nil, occurredAt: Int64, task: String? = nil, segment: EventSegment = EventSegment()
    ) {
        self.task = task
        self.segment = segment
        self.id = id
        self.installID = installID
        self.type = type
        self.feature = feature
        self.experiment = experiment
        self.variant = variant
        self.occurredAt = occurredAt
    }
}
