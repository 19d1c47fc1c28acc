// Compiled only on Apple platforms; never run on Linux (where no app bundle carries purpose strings).
#if canImport(Darwin)
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
