// Stub of Apple's AVFoundation for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses,
// each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/avfoundation/avmediatype
public struct AVMediaType: Hashable, Equatable, RawRepresentable, Sendable {
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
    public let rawValue: String
    // https://developer.apple.com/documentation/avfoundation/avmediatype/video
    public static let video = AVMediaType("vide")
    // https://developer.apple.com/documentation/avfoundation/avmediatype/audio
    public static let audio = AVMediaType("soun")
}

// https://developer.apple.com/documentation/avfoundation/avauthorizationstatus (`enum AVAuthorizationStatus: Int`)
public enum AVAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
}

// https://developer.apple.com/documentation/avfoundation/avcapturedevice
open class AVCaptureDevice: NSObject {
    // https://developer.apple.com/documentation/avfoundation/avcapturedevice/authorizationstatus(for:)
    open class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus { fatalError("stub") }

    // https://developer.apple.com/documentation/avfoundation/avcapturedevice/requestaccess(for:completionhandler:)
    // (the page's completion-handler form, and the async form Swift imports from it)
    open class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        fatalError("stub")
    }
    open class func requestAccess(for mediaType: AVMediaType) async -> Bool { fatalError("stub") }

    // https://developer.apple.com/documentation/avfoundation/avcapturedevice/default(for:)
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { fatalError("stub") }
}
