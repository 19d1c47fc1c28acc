import PreludeCore

/// Whether the app's Info.plist has the purpose strings (`NS…UsageDescription`) a permission request needs.
///
/// Requesting access without the matching key terminates the app (the system logs "This app has crashed
/// because it attempted to access privacy-sensitive data without a usage description"), so the flow checks
/// before every request and refuses to request, with the missing keys named, instead. The table and the logic
/// are platform-free; only reading `Bundle.main.infoDictionary` is Apple-only (``BundleUsageDescriptions``).
public struct UsageDescriptionCheck: Sendable {
    /// Reads one Info.plist value by key; nil when absent.
    public let lookup: @Sendable (String) -> String?

    /// A check over `lookup` (tests pass a dictionary; the app passes the main bundle's Info.plist).
    public init(lookup: @escaping @Sendable (String) -> String?) {
        self.lookup = lookup
    }

    /// A check over a fixed dictionary of Info.plist strings.
    public init(strings: [String: String]) {
        self.init { strings[$0] }
    }

    /// The keys `feature`'s request needs on `osVersion` (nil: the newest OS), every one of them required.
    ///
    /// Sources: Apple's "Requesting access to protected resources" and each framework's request method:
    /// AVCaptureDevice.requestAccess (NSCameraUsageDescription / NSMicrophoneUsageDescription),
    /// PHPhotoLibrary.requestAuthorization(for: .readWrite) (NSPhotoLibraryUsageDescription),
    /// CNContactStore.requestAccess (NSContactsUsageDescription), CLLocationManager
    /// requestWhenInUseAuthorization / requestAlwaysAuthorization (NSLocationWhenInUseUsageDescription, and
    /// NSLocationAlwaysAndWhenInUseUsageDescription for Always since iOS 11), ATTrackingManager
    /// (NSUserTrackingUsageDescription), EKEventStore.requestFullAccessToEvents / requestWriteOnlyAccessToEvents
    /// / requestFullAccessToReminders on iOS 17 (NSCalendarsFullAccessUsageDescription,
    /// NSRemindersFullAccessUsageDescription; NSCalendarsUsageDescription / NSRemindersUsageDescription before),
    /// CBManager (NSBluetoothAlwaysUsageDescription), CMMotionActivityManager (NSMotionUsageDescription),
    /// SFSpeechRecognizer (NSSpeechRecognitionUsageDescription), HealthKit (NSHealthShareUsageDescription; the
    /// update key only when writing, so not required here), local network (NSLocalNetworkUsageDescription),
    /// AlarmManager.requestAuthorization (NSAlarmKitUsageDescription, iOS 26: without it AlarmKit schedules nothing,
    /// https://developer.apple.com/documentation/bundleresources/information-property-list/nsalarmkitusagedescription).
    /// Notifications need no purpose string.
    public static func requiredKeys(for feature: Feature, osVersion: SemanticVersion? = nil) -> [String] {
        let eventKit17 = osVersion.map { $0 >= SemanticVersion(major: 17, minor: 0) } ?? true
        switch feature {
        case .camera: return ["NSCameraUsageDescription"]
        case .microphone: return ["NSMicrophoneUsageDescription"]
        case .photos: return ["NSPhotoLibraryUsageDescription"]
        case .contacts: return ["NSContactsUsageDescription"]
        case .locationWhenInUse: return ["NSLocationWhenInUseUsageDescription"]
        case .locationAlways:
            return ["NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription"]
        case .notifications: return []
        case .tracking: return ["NSUserTrackingUsageDescription"]
        case .bluetooth: return ["NSBluetoothAlwaysUsageDescription"]
        case .calendars: return [eventKit17 ? "NSCalendarsFullAccessUsageDescription" : "NSCalendarsUsageDescription"]
        case .reminders: return [eventKit17 ? "NSRemindersFullAccessUsageDescription" : "NSRemindersUsageDescription"]
        case .motion: return ["NSMotionUsageDescription"]
        case .speech: return ["NSSpeechRecognitionUsageDescription"]
        case .health: return ["NSHealthShareUsageDescription"]
        case .localNetwork: return ["NSLocalNetworkUsageDescription"]
        case .alarms: return ["NSAlarmKitUsageDescription"]
        // An app-level consent has no OS request, so no purpose string.
        case .aiDataSharing: return []
        }
    }

    /// The optional keys `feature`'s request reads on `osVersion` (nil: the newest OS) beside the required ones:
    /// tracking's Markdown purpose string on iOS 27.2, shown in the full-page sheet, which falls back to
    /// `NSUserTrackingUsageDescription` without it
    /// (https://developer.apple.com/documentation/bundleresources/information-property-list/nsusertrackingmarkdownusagedescription).
    public static func optionalKeys(for feature: Feature, osVersion: SemanticVersion? = nil) -> [String] {
        guard feature == .tracking else { return [] }
        let expanded = osVersion.map { $0 >= SemanticVersion(major: 27, minor: 2) } ?? true
        return expanded ? [PurposeStringKey.trackingMarkdown] : []
    }

    /// What App Review would object to in the app's purpose strings for `feature` — a generic "This app needs
    /// access" (5.1.1: say what the access is for, with an example), a string that is not a sentence, the Markdown
    /// string's constructs outside its subset (PS-11) — checked as `locale` text (the development language). The
    /// flow checks it before the system prompt in debug builds (``PermissionFlow/purposeStringFindings(_:)``).
    public func reviewFindings(for feature: Feature, osVersion: SemanticVersion? = nil, locale: String = "en")
        -> [LintFinding]
    {
        var strings: [String: String] = [:]
        for key in Self.requiredKeys(for: feature, osVersion: osVersion)
            + Self.optionalKeys(for: feature, osVersion: osVersion)
        {
            if let value = lookup(key), !value.allSatisfy(\.isWhitespace) { strings[key] = value }
        }
        return strings.isEmpty ? [] : PurposeStringLinter.lint(strings: strings, locale: locale)
    }

    /// The keys `feature`'s request needs that are absent or blank, in table order; empty when it may request.
    public func missingKeys(for feature: Feature, osVersion: SemanticVersion? = nil) -> [String] {
        Self.requiredKeys(for: feature, osVersion: osVersion).filter { key in
            guard let value = lookup(key) else { return true }
            return value.allSatisfy(\.isWhitespace)
        }
    }

    /// The Info.plist key that stops iOS from asking about the limited photo selection by itself (iOS 14).
    ///
    /// https://developer.apple.com/documentation/photos/phauthorizationstatus/limited
    public static let preventAutomaticLimitedAccessAlertKey = "PHPhotoLibraryPreventAutomaticLimitedAccessAlert"

    /// Whether the Info.plist sets ``preventAutomaticLimitedAccessAlertKey`` to true (`true`, `YES` or `1`, as the
    /// bundle's value reads as text); the flow reports it with every photos decision, so the policy re-asks about
    /// a limited library only where the OS does not.
    public var preventsAutomaticLimitedAccessAlert: Bool {
        guard let value = lookup(Self.preventAutomaticLimitedAccessAlertKey) else { return false }
        return ["true", "yes", "1"].contains(value.lowercased())
    }

    /// Whether `feature` may be requested: every required key present and not blank.
    public func canRequest(_ feature: Feature, osVersion: SemanticVersion? = nil) -> Bool {
        missingKeys(for: feature, osVersion: osVersion).isEmpty
    }
}
