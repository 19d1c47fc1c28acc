// Stub of Apple's EventKit for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses,
// each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/eventkit/ekentitytype (`enum EKEntityType: UInt`)
public enum EKEntityType: UInt, Sendable {
    case event = 0
    case reminder = 1
}

// https://developer.apple.com/documentation/eventkit/ekauthorizationstatus (`enum EKAuthorizationStatus: Int`)
public enum EKAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case fullAccess = 3
    case writeOnly = 4
    // https://developer.apple.com/documentation/eventkit/ekauthorizationstatus/authorized (deprecated, iOS 17)
    @available(iOS, introduced: 6.0, deprecated: 17.0)
    @available(macOS, introduced: 10.9, deprecated: 14.0)
    public static var authorized: EKAuthorizationStatus { .fullAccess }
}

// https://developer.apple.com/documentation/eventkit/ekeventstore
open class EKEventStore: NSObject {
    public override init() {}

    // https://developer.apple.com/documentation/eventkit/ekeventstore/authorizationstatus(for:)
    open class func authorizationStatus(for entityType: EKEntityType) -> EKAuthorizationStatus { fatalError("stub") }

    // https://developer.apple.com/documentation/eventkit/ekeventstore/requestfullaccesstoevents(completion:)
    // (async form: `func requestFullAccessToEvents() async throws -> Bool`)
    @available(iOS 17.0, macOS 14.0, *)
    open func requestFullAccessToEvents() async throws -> Bool { fatalError("stub") }

    // https://developer.apple.com/documentation/eventkit/ekeventstore/requestfullaccesstoreminders(completion:)
    // (async form: `func requestFullAccessToReminders() async throws -> Bool`)
    @available(iOS 17.0, macOS 14.0, *)
    open func requestFullAccessToReminders() async throws -> Bool { fatalError("stub") }

    // https://developer.apple.com/documentation/eventkit/ekeventstore/requestaccess(to:completion:)
    // (deprecated in iOS 17; async form: `func requestAccess(to:) async throws -> Bool`)
    @available(iOS, introduced: 6.0, deprecated: 17.0)
    @available(macOS, introduced: 10.9, deprecated: 14.0)
    open func requestAccess(to entityType: EKEntityType) async throws -> Bool { fatalError("stub") }
}
