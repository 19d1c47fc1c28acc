// Stub of Apple's Contacts for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses,
// each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/contacts/cnentitytype (`enum CNEntityType: Int`)
public enum CNEntityType: Int, Sendable {
    case contacts = 0
}

// https://developer.apple.com/documentation/contacts/cnauthorizationstatus (`enum CNAuthorizationStatus: Int`)
public enum CNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}

// https://developer.apple.com/documentation/contacts/cncontactstore
open class CNContactStore: NSObject {
    public override init() {}

    // https://developer.apple.com/documentation/contacts/cncontactstore/authorizationstatus(for:)
    open class func authorizationStatus(for entityType: CNEntityType) -> CNAuthorizationStatus { fatalError("stub") }

    // https://developer.apple.com/documentation/contacts/cncontactstore/requestaccess(for:completionhandler:)
    // (the page gives both: the completion-handler form and `func requestAccess(for:) async throws -> Bool`)
    open func requestAccess(
        for entityType: CNEntityType, completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { fatalError("stub") }
    open func requestAccess(for entityType: CNEntityType) async throws -> Bool { fatalError("stub") }
}
