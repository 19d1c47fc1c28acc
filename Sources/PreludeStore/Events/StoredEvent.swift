import PreludeCore

/// A client event as stored in the `events` table.
package struct StoredEvent: Sendable, Hashable {
    /// The row id (`events.id`), increasing with insertion.
    package var rowID: Int64
    /// The app.
    package var appID: String
    /// The environment the client asked (`events.environment`).
    package var environment: String
    /// The install that sent it.
    package var installID: String
    /// The client-generated id, unique per install (the dedupe key with the app and install).
    package var clientEventID: String
    /// What happened.
    package var type: AnalyticsEvent
    /// The feature it concerns.
    package var feature: Feature
    /// The experiment key, when the install was enrolled.
    package var experiment: String?
    /// The variant name, with `experiment`.
    package var variant: String?
    /// When it happened on the device, milliseconds since the Unix epoch.
    package var occurredAt: Int64
    /// When the service received it, milliseconds since the Unix epoch.
    package var receivedAt: Int64
    /// The task's name, for `taskStarted` / `taskCompleted` only.
    package var task: String?
    /// The device segment its batch was sent with (`events.os_major`, `events.locale`; empty when not sent).
    package var segment: EventSegment

    /// An event with the given parts.
    package init(
        rowID: Int64, appID: String, environment: String = EnvironmentName.production, installID: String,
        clientEventID: String, type: AnalyticsEvent, feature: Feature,
        experiment: String?, variant: String?, occurredAt: Int64, receivedAt: Int64, task: String? = nil,
        segment: EventSegment = EventSegment()
    ) {
        self.task = task
        self.segment = segment
        self.rowID = rowID
        self.appID = appID
        self.environment = environment
        self.installID = installID
        self.clientEventID = clientEventID
        self.type = type
        self.feature = feature
        self.experiment = experiment
        self.variant = variant
        self.occurredAt = occurredAt
        self.receivedAt = receivedAt
    }
}
