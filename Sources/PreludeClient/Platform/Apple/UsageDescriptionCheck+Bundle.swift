// Apple platforms only (UIKit or AppKit present): not part of a Linux build, where no app bundle carries purpose
// strings. scripts/check-apple-sources.sh type-checks it on Linux; it has never run on a device.
#if canImport(UIKit) || canImport(AppKit)
    import Foundation

    extension UsageDescriptionCheck {
        /// A check over the main bundle's Info.plist, read once (the strings are copied, so the check is Sendable).
        public static var mainBundle: UsageDescriptionCheck {
            let strings = (Bundle.main.infoDictionary ?? [:]).compactMapValues { $0 as? String }
            return UsageDescriptionCheck(strings: strings)
        }
    }
#endif
