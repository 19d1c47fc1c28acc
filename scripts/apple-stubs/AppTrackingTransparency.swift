// Stub of Apple's AppTrackingTransparency for scripts/check-apple-sources.sh: only the symbols
// Sources/PreludeClient uses, each declaration transcribed from the Apple documentation page above it.
// Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager
open class ATTrackingManager: NSObject {
    // https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/authorizationstatus
    // (`enum AuthorizationStatus: UInt`)
    public enum AuthorizationStatus: UInt, Sendable {
        case notDetermined = 0
        case restricted = 1
        case denied = 2
        case authorized = 3
    }

    // https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/trackingauthorizationstatus
    open class var trackingAuthorizationStatus: ATTrackingManager.AuthorizationStatus { fatalError("stub") }

    // https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/requesttrackingauthorization(completionhandler:)
    // (the async form Swift imports: `class func requestTrackingAuthorization() async -> AuthorizationStatus`)
    open class func requestTrackingAuthorization(
        completionHandler completion: @escaping @Sendable (ATTrackingManager.AuthorizationStatus) -> Void
    ) { fatalError("stub") }
    open class func requestTrackingAuthorization() async -> ATTrackingManager.AuthorizationStatus {
        fatalError("stub")
    }

    // https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/requesttrackingauthorization(usingexpandedinterface:additionalinformationaction:completionhandler:)
    // (iOS 27.2; the async form: `class func requestTrackingAuthorization(usingExpandedInterface
    //  preferExpandedInterface: Bool, additionalInformationAction: (() -> Void)?) async ->
    //  ATTrackingManager.AuthorizationStatus`)
    open class func requestTrackingAuthorization(
        usingExpandedInterface preferExpandedInterface: Bool, additionalInformationAction: (() -> Void)?
    ) async -> ATTrackingManager.AuthorizationStatus { fatalError("stub") }
}
