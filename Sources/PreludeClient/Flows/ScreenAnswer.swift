import PreludeCore

/// What ``PermissionFlow/answer(for:origin:osVersion:)`` returns: always a decision, with where it came from (as
/// Statsig's evaluation details say whether a value came from the network, the cache or the bootstrap).
public struct ScreenAnswer: Sendable, Hashable {
    /// Where the decision came from.
    public enum Source: String, Sendable, Hashable {
        /// The policy fetched from the server, now or at an earlier launch (cached on disk).
        case cached
        /// The policy bundled with the app (no fetch has succeeded yet).
        case bootstrap
        /// No policy could decide (none yet, the feature is not in it, or a state it cannot decide on): the
        /// built-in answer, which leaves the app to the OS's own flow (``ScreenAnswer/builtIn(_:status:available:)``).
        case builtInFallback
    }

    /// What to show; `decision.reason` says why.
    public var decision: Decision
    /// Where it came from.
    public var source: Source
    /// Why the fallback was used (the client's error), nil otherwise.
    public var fallbackReason: String?

    /// An answer.
    public init(decision: Decision, source: Source, fallbackReason: String? = nil) {
        self.decision = decision
        self.source = source
        self.fallbackReason = fallbackReason
    }

    /// The built-in answer when no policy decides: no priming screen and no copy of Prelude's (the app's own
    /// words, if any), the system's own flow instead — `unsupported` without the hardware, the system alert while
    /// undetermined, `proceed` with any grant, the denied page (leading to Settings) when denied, the restricted
    /// notice when restricted, the Location Services explanation when they are off device-wide. The events are the engine's plan for the action.
    public static func builtIn(_ feature: Feature, status: AuthorizationStatus, available: Bool) -> Decision {
        guard available else { return Decision(feature: feature, action: .unsupported, reason: .hardwareUnavailable) }
        switch status {
        case .notDetermined: return Decision(feature: feature, action: .systemPrompt, reason: .directStrategy)
        case .authorized: return Decision(feature: feature, action: .proceed, reason: .authorized)
        case .limited, .provisional, .ephemeral, .whenInUse, .reducedAccuracy, .writeOnly:
            return Decision(feature: feature, action: .proceed, reason: .partialProceed)
        case .denied: return Decision(feature: feature, action: .deniedScreen, reason: .settingsNudgeNotDue)
        case .restricted: return Decision(feature: feature, action: .restrictedNotice, reason: .restricted)
        // Location Services off for the device: its own explanation, never the app's Settings page.
        case .deniedGlobally:
            return Decision(feature: feature, action: .locationServicesOff, reason: .locationServicesOff)
        }
    }
}
