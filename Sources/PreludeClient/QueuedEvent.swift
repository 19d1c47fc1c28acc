import PreludeCore

/// One analytics event waiting to be sent, as the events endpoint takes it (docs/api.md).
public struct QueuedEvent: Sendable, Hashable, Codable {
    /// Client-generated id, unique per install: the server stores `(app, installId, id)` once, so a batch resent
    /// after a lost answer or a crash counts nothing twice.
    public var id: String
    /// The install.
    public var installId: String
    /// The event type (`primeShown`, ...).
    public var type: AnalyticsEvent
    /// The feature.
    public var feature: Feature
    /// The experiment, when the decision carried a variant.
    public var experiment: String?
    /// The variant, with `experiment`.
    public var variant: String?
    /// When it happened, milliseconds since the epoch.
    public var occurredAt: Int64
    /// The task's name, for `taskStarted` / `taskCompleted` only (absent from the JSON when nil, so every other
    /// event is queued and sent exactly as before).
    public var task: String?

    /// An event.
    public init(
        id: String, installId: String, type: AnalyticsEvent, feature: Feature, experiment: String? = nil,
        variant: String? = nil, occurredAt: Int64, task: String? = nil
    ) {
        self.task = task
        self.id = id
        self.installId = installId
        self.type = type
        self.feature = feature
        self.experiment = experiment
        self.variant = variant
        self.occurredAt = occurredAt
    }
}
