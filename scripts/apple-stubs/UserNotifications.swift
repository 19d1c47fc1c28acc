// Stub of Apple's UserNotifications for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient
// uses, each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/usernotifications/unauthorizationstatus (`enum UNAuthorizationStatus: Int`)
public enum UNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    case provisional = 3
    case ephemeral = 4
}

// https://developer.apple.com/documentation/usernotifications/unauthorizationoptions
public struct UNAuthorizationOptions: OptionSet, Sendable {
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public let rawValue: UInt
    // https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/badge
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    // https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/sound
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    // https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/alert
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
}

// https://developer.apple.com/documentation/usernotifications/unnotificationsettings
open class UNNotificationSettings: NSObject {
    // https://developer.apple.com/documentation/usernotifications/unnotificationsettings/authorizationstatus
    open var authorizationStatus: UNAuthorizationStatus { fatalError("stub") }
}

// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter
open class UNUserNotificationCenter: NSObject {
    // https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/current()
    open class func current() -> UNUserNotificationCenter { fatalError("stub") }

    // https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/requestauthorization(options:completionhandler:)
    // (the page gives both forms; the async one is `requestAuthorization(options:) async throws -> Bool`)
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool { fatalError("stub") }

    // https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/getnotificationsettings(completionhandler:)
    // (the page's async form: `func notificationSettings() async -> UNNotificationSettings`)
    open func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        fatalError("stub")
    }
    open func notificationSettings() async -> UNNotificationSettings { fatalError("stub") }
}
