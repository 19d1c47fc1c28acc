// Stub of Apple's AlarmKit (iOS 26) for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses,
// each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/alarmkit/alarmmanager (`class AlarmManager`)
public final class AlarmManager: Sendable {
    // https://developer.apple.com/documentation/alarmkit/alarmmanager/authorizationstate-swift.enum
    // (cases notDetermined, denied, authorized)
    public enum AuthorizationState: Sendable {
        case notDetermined
        case denied
        case authorized
    }

    // https://developer.apple.com/documentation/alarmkit/alarmmanager/shared
    public static let shared = AlarmManager()

    // https://developer.apple.com/documentation/alarmkit/alarmmanager/authorizationstate-swift.property
    // (`var authorizationState: AlarmManager.AuthorizationState { get }`)
    public var authorizationState: AuthorizationState { fatalError("stub") }

    // https://developer.apple.com/documentation/alarmkit/alarmmanager/requestauthorization()
    // (`func requestAuthorization() async throws -> AlarmManager.AuthorizationState`)
    public func requestAuthorization() async throws -> AuthorizationState { fatalError("stub") }
}
