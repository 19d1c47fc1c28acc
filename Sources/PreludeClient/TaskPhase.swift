import PreludeCore

/// The start or the end of a task the app marks with ``PreludeClient/recordTask(_:task:for:)`` or
/// ``PermissionFlow/taskStarted(_:task:)`` / ``PermissionFlow/taskCompleted(_:task:)``.
public enum TaskPhase: String, Sendable, Hashable, CaseIterable {
    /// The person began the task (tapped "Attach photo"): `taskStarted`.
    case started
    /// The app got what the task needed (the photo is attached): `taskCompleted`.
    case completed

    /// The event this phase sends.
    var event: AnalyticsEvent {
        switch self {
        case .started: .taskStarted
        case .completed: .taskCompleted
        }
    }
}
