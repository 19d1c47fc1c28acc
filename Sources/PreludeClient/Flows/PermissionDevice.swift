import PreludeCore

/// The device side of a permission flow: the live OS status, the hardware, the system alert and Settings.
///
/// On iOS, ``AppleDevice`` reads Apple's frameworks; on Linux, in tests and in the reference client,
/// ``ScriptedDevice`` plays a script. The flow itself (``PermissionFlow``) is the same code on both.
public protocol PermissionDevice: Sendable {
    /// The OS's current authorization status for `feature`.
    func status(of feature: Feature) async -> AuthorizationStatus
    /// Whether the device has the hardware or source (a camera, a photo library).
    func isAvailable(_ feature: Feature) async -> Bool
    /// Fires the system alert for `feature` and returns the status once the person answered.
    func requestAccess(_ feature: Feature) async -> AuthorizationStatus
    /// Opens the app's page in Settings after `delayMs` milliseconds.
    func openSettings(afterMilliseconds delayMs: Int) async
    /// Location's `CLServiceSession.Diagnostic.insufficientlyInUse` (iOS 18); see the default below.
    func insufficientlyInUse(_ feature: Feature) async -> Bool
}

extension PermissionDevice {
    /// Location's `CLServiceSession.Diagnostic.insufficientlyInUse` (iOS 18): whether the system would refuse to
    /// prompt now because the app is not in use enough. False by default (and for every other feature).
    public func insufficientlyInUse(_ feature: Feature) async -> Bool { false }
}
