// Apple platforms only (UIKit or AppKit present): not part of a Linux build, where no app bundle carries purpose
// strings. scripts/check-apple-sources.sh type-checks it on Linux; it has never run on a device.
#if canImport(UIKit) || canImport(AppKit)
    import Foundation

    extension UsageDescriptionCheck {
        /// A check over the main bundle's Info.plist, read once (the strings are copied, so the check is Sendable).
        public static var mainBundle: UsageDescriptionCheck {
            var strings = (Bundle.main.infoDictionary ?? [:]).compactMapValues { $0 as? String }
            // The one Boolean key the flow reads, as text.
            let key = UsageDescriptionCheck.preventAutomaticLimitedAccessAlertKey
            if let flag = Bundle.main.object(forInfoDictionaryKey: key) as? Bool {
                strings[key] = flag ? "true" : "false"
            }
            return UsageDescriptionCheck(strings: strings)
        }
    }
#endif
