// Stub of Apple's UIKit for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses (and, in
// the last section, those the Swift examples in docs/ use: scripts/check-doc-swift.sh), each declaration
// transcribed from the Apple documentation page above it. Type-checked, never run.
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

// MARK: - Used by the Swift examples in docs/ only (scripts/check-doc-swift.sh), not by Sources/PreludeClient

// https://developer.apple.com/documentation/uikit/uiapplication/connectedscenes
// (`var connectedScenes: Set<UIScene> { get }`)
extension UIApplication {
    public var connectedScenes: Set<UIScene> { fatalError("stub") }
}

// https://developer.apple.com/documentation/uikit/uiscene (`@MainActor class UIScene : UIResponder`; UIResponder
// is an NSObject subclass, which gives the Hashable that `Set<UIScene>` needs)
@MainActor open class UIScene: NSObject {}

// https://developer.apple.com/documentation/uikit/uiwindowscene (`@MainActor class UIWindowScene : UIScene`)
@MainActor open class UIWindowScene: UIScene {
    // https://developer.apple.com/documentation/uikit/uiwindowscene/keywindow (iOS 15: `var keyWindow: UIWindow? { get }`)
    open var keyWindow: UIWindow? { fatalError("stub") }
}

// https://developer.apple.com/documentation/uikit/uicolor (`class UIColor`)
open class UIColor: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/uikit/uicolor/clear (`class var clear: UIColor { get }`)
    open class var clear: UIColor { fatalError("stub") }
}

// https://developer.apple.com/documentation/uikit/uiview (`@MainActor class UIView : UIResponder`)
@MainActor open class UIView: NSObject {
    // https://developer.apple.com/documentation/uikit/uiview/backgroundcolor (`var backgroundColor: UIColor? { get set }`)
    open var backgroundColor: UIColor?
}

// https://developer.apple.com/documentation/uikit/uiwindow (`@MainActor class UIWindow : UIView`)
@MainActor open class UIWindow: UIView {
    // https://developer.apple.com/documentation/uikit/uiwindow/rootviewcontroller
    // (`var rootViewController: UIViewController? { get set }`)
    open var rootViewController: UIViewController?
}

// https://developer.apple.com/documentation/uikit/uimodalpresentationstyle (`enum UIModalPresentationStyle: Int`)
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0
    case pageSheet = 1
    case formSheet = 2
    case currentContext = 3
    case custom = 4
    case overFullScreen = 5
    case overCurrentContext = 6
    case popover = 7
    case none = -1
    case automatic = -2
}

// https://developer.apple.com/documentation/uikit/uiviewcontroller (`@MainActor class UIViewController : UIResponder`)
@MainActor open class UIViewController: NSObject {
    // https://developer.apple.com/documentation/uikit/uiviewcontroller/view (`var view: UIView! { get set }`)
    open var view: UIView!

    // https://developer.apple.com/documentation/uikit/uiviewcontroller/navigationcontroller
    // (`var navigationController: UINavigationController? { get }`)
    open var navigationController: UINavigationController? { fatalError("stub") }

    // https://developer.apple.com/documentation/uikit/uiviewcontroller/presentedviewcontroller
    // (`var presentedViewController: UIViewController? { get }`)
    open var presentedViewController: UIViewController? { fatalError("stub") }

    // https://developer.apple.com/documentation/uikit/uiviewcontroller/modalpresentationstyle
    // (`var modalPresentationStyle: UIModalPresentationStyle { get set }`)
    open var modalPresentationStyle: UIModalPresentationStyle = .automatic

    // https://developer.apple.com/documentation/uikit/uiviewcontroller/present(_:animated:completion:)
    // (`func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil)`)
    open func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil
    ) { fatalError("stub") }

    // https://developer.apple.com/documentation/uikit/uiviewcontroller/dismiss(animated:completion:)
    // (`func dismiss(animated flag: Bool, completion: (() -> Void)? = nil)`)
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) { fatalError("stub") }
}

// https://developer.apple.com/documentation/uikit/uinavigationcontroller
// (`@MainActor class UINavigationController : UIViewController`)
@MainActor open class UINavigationController: UIViewController {
    // https://developer.apple.com/documentation/uikit/uinavigationcontroller/popviewcontroller(animated:)
    // (`func popViewController(animated: Bool) -> UIViewController?`; not discardable: an unused result warns)
    open func popViewController(animated: Bool) -> UIViewController? { fatalError("stub") }
}

// https://developer.apple.com/documentation/uikit/uialertcontroller (`@MainActor class UIAlertController : UIViewController`)
@MainActor open class UIAlertController: UIViewController {
    // https://developer.apple.com/documentation/uikit/uialertcontroller/style (`enum Style: Int`)
    public enum Style: Int, Sendable {
        case actionSheet = 0
        case alert = 1
    }

    // https://developer.apple.com/documentation/uikit/uialertcontroller/init(title:message:preferredstyle:)
    // (`convenience init(title: String?, message: String?, preferredStyle: UIAlertController.Style)`)
    public convenience init(title: String?, message: String?, preferredStyle: UIAlertController.Style) {
        self.init()
    }

    // https://developer.apple.com/documentation/uikit/uialertcontroller/addaction(_:) (`func addAction(_ action: UIAlertAction)`)
    open func addAction(_ action: UIAlertAction) { fatalError("stub") }
}

// https://developer.apple.com/documentation/uikit/uialertaction (`@MainActor class UIAlertAction`)
@MainActor open class UIAlertAction: NSObject {
    // https://developer.apple.com/documentation/uikit/uialertaction/style-swift.enum (`enum Style: Int`)
    public enum Style: Int, Sendable {
        case `default` = 0
        case cancel = 1
        case destructive = 2
    }

    // https://developer.apple.com/documentation/uikit/uialertaction/init(title:style:handler:)
    // (`convenience init(title: String?, style: UIAlertAction.Style, handler: ((UIAlertAction) -> Void)? = nil)`)
    public convenience init(title: String?, style: UIAlertAction.Style, handler: ((UIAlertAction) -> Void)? = nil) {
        self.init()
    }
}
