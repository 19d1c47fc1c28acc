// Stub of Apple's Photos for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses (and
// `shared()`, which the Swift examples in docs/ use: scripts/check-doc-swift.sh), each declaration transcribed from
// the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/photos/phaccesslevel (`enum PHAccessLevel: Int`)
public enum PHAccessLevel: Int, Sendable {
    case addOnly = 1
    case readWrite = 2
}

// https://developer.apple.com/documentation/photos/phauthorizationstatus (`enum PHAuthorizationStatus: Int`)
public enum PHAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}

// https://developer.apple.com/documentation/photos/phphotolibrary
open class PHPhotoLibrary: NSObject {
    // https://developer.apple.com/documentation/photos/phphotolibrary/shared() (`class func shared() -> PHPhotoLibrary`;
    // used by the Swift examples in docs/ only, scripts/check-doc-swift.sh)
    open class func shared() -> PHPhotoLibrary { fatalError("stub") }

    // https://developer.apple.com/documentation/photos/phphotolibrary/authorizationstatus(for:)
    open class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus { fatalError("stub") }

    // https://developer.apple.com/documentation/photos/phphotolibrary/requestauthorization(for:handler:)
    // (the page's handler form, and the async form Swift imports from it)
    open class func requestAuthorization(
        for accessLevel: PHAccessLevel, handler: @escaping @Sendable (PHAuthorizationStatus) -> Void
    ) { fatalError("stub") }
    open class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        fatalError("stub")
    }
}
