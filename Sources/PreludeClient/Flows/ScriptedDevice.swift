import PreludeCore
import Synchronization

/// A ``PermissionDevice`` whose statuses and answers are set by hand: for tests, SwiftUI previews, and the Linux
/// reference client (`prelude-client-demo`). Nothing here touches an OS API.
public final class ScriptedDevice: PermissionDevice {
    private struct Script {
        var statuses: [Feature: AuthorizationStatus] = [:]
        var unavailable: Set<Feature> = []
        var answers: [Feature: AuthorizationStatus] = [:]
        var requests: [Feature] = []
        var settingsOpenings: [Int] = []
        var notInUse: Set<Feature> = []
    }

    private let script = Mutex(Script())

    /// A device where every feature is available and `notDetermined`.
    public init() {}

    /// Sets the status the OS reports for `feature` (as if changed in Settings, or by the system alert).
    public func setStatus(_ status: AuthorizationStatus, for feature: Feature) {
        script.withLock { $0.statuses[feature] = status }
    }

    /// Sets whether `feature`'s hardware or source exists.
    public func setAvailable(_ available: Bool, for feature: Feature) {
        script.withLock {
            if available { $0.unavailable.remove(feature) } else { $0.unavailable.insert(feature) }
        }
    }

    /// Sets location's `insufficientlyInUse` diagnostic for `feature`.
    public func setInsufficientlyInUse(_ value: Bool, for feature: Feature) {
        script.withLock {
            if value { $0.notInUse.insert(feature) } else { $0.notInUse.remove(feature) }
        }
    }

    public func insufficientlyInUse(_ feature: Feature) async -> Bool {
        script.withLock { $0.notInUse.contains(feature) }
    }

    /// Sets how the person answers `feature`'s next system alert (the status afterwards).
    public func answerNextRequest(_ feature: Feature, with status: AuthorizationStatus) {
        script.withLock { $0.answers[feature] = status }
    }

    /// The features whose system alert was fired, in order.
    public var requests: [Feature] { script.withLock { $0.requests } }

    /// The delays Settings was opened with, in order.
    public var settingsOpenings: [Int] { script.withLock { $0.settingsOpenings } }

    public func status(of feature: Feature) async -> AuthorizationStatus {
        script.withLock { $0.statuses[feature] ?? .notDetermined }
    }

    public func isAvailable(_ feature: Feature) async -> Bool {
        script.withLock { !$0.unavailable.contains(feature) }
    }

    public func requestAccess(_ feature: Feature) async -> AuthorizationStatus {
        script.withLock { script in
            script.requests.append(feature)
            // The system alert shows only while notDetermined, or to upgrade a partial grant; otherwise it returns
            // the status as it is.
            let current = script.statuses[feature] ?? .notDetermined
            guard current == .notDetermined || current.isPartial,
                let answer = script.answers.removeValue(forKey: feature)
            else {
                return current
            }
            script.statuses[feature] = answer
            return answer
        }
    }

    public func openSettings(afterMilliseconds delayMs: Int) async {
        script.withLock { $0.settingsOpenings.append(delayMs) }
    }
}
