// Stub of Apple's UIKit for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses,
// each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
// UIKit re-exports Foundation, as the real module does.
@_exported import Foundation

// https://developer.apple.com/documentation/uikit/uiapplication (`@MainActor class UIApplication: UIResponder`)
@MainActor open class UIApplication {
    // https://developer.apple.com/documentation/uikit/uiapplication/shared
    open class var shared: UIApplication { fatalError("stub") }

    // https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    public static let didBecomeActiveNotification = NSNotification.Name("UIApplicationDidBecomeActiveNotification")

    // https://developer.apple.com/documentation/uikit/uiapplication/opensettingsurlstring
    public static let openSettingsURLString: String = "app-settings:"

    // https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public init(rawValue: String) { self.rawValue = rawValue }
        public let rawValue: String
    }

    // https://developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:)
    // (the page's completion-handler form, and the async form Swift imports from it)
    open func open(
        _ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) { fatalError("stub") }
    open func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:]) async -> Bool {
        fatalError("stub")
    }
}

// https://developer.apple.com/documentation/uikit/uiuserinterfaceidiom (`enum UIUserInterfaceIdiom: Int`)
public enum UIUserInterfaceIdiom: Int, Sendable {
    case unspecified = -1
    case phone = 0
    case pad = 1
    case tv = 2
    case carPlay = 3
    case mac = 5
    case vision = 6
}

// https://developer.apple.com/documentation/uikit/uidevice (`@MainActor class UIDevice`)
@MainActor open class UIDevice {
    // https://developer.apple.com/documentation/uikit/uidevice/current
    open class var current: UIDevice { fatalError("stub") }

    // https://developer.apple.com/documentation/uikit/uidevice/systemversion
    open var systemVersion: String { fatalError("stub") }

    // https://developer.apple.com/documentation/uikit/uidevice/userinterfaceidiom
    open var userInterfaceIdiom: UIUserInterfaceIdiom { fatalError("stub") }
}
