import PreludeCore

/// Apple's authorization raw values, framework by framework, mapped to the engine's ``AuthorizationStatus``.
///
/// Platform-free on purpose: the Apple-only adapters (``AppleStatusReader``) read `status.rawValue` and hand it
/// here, so every value is tested on Linux. The numbers are those of Apple's SDK headers; Apple's Swift pages
/// list the cases without their numbers, so each mapping cites Apple's page for the cases and the .NET for iOS
/// binding table (generated from the same headers) for the numbers. See docs/client.md, "Apple status mapping".
///
/// A value this table does not know (a case added by a later iOS) maps to ``unknownFallback``: never a crash,
/// never a use of a resource the app cannot vouch for.
public enum AppleStatusMapping {
    /// What an unknown raw value maps to: `denied`. The app then neither uses nor requests the resource, and
    /// the denied page (or the Settings nudge) explains and leads to Settings, where the person sees the real
    /// state. `notDetermined` would fire a system request for a status the app does not understand, and
    /// `restricted` would claim a device-management block that may not exist.
    public static let unknownFallback: AuthorizationStatus = .denied

    /// `AVAuthorizationStatus` (camera, microphone): 0 notDetermined, 1 restricted, 2 denied, 3 authorized.
    ///
    /// Cases: https://developer.apple.com/documentation/avfoundation/avauthorizationstatus
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/avfoundation.avauthorizationstatus
    public static func captureDevice(_ raw: Int) -> AuthorizationStatus {
        standard(raw) ?? unknownFallback
    }

    /// `PHAuthorizationStatus` (photos, read-write level): 0 notDetermined, 1 restricted, 2 denied, 3 authorized,
    /// 4 limited (iOS 14).
    ///
    /// Cases: https://developer.apple.com/documentation/photos/phauthorizationstatus
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/photos.phauthorizationstatus
    public static func photos(_ raw: Int) -> AuthorizationStatus {
        raw == 4 ? .limited : standard(raw) ?? unknownFallback
    }

    /// `CNAuthorizationStatus` (contacts): 0 notDetermined, 1 restricted, 2 denied, 3 authorized, 4 limited
    /// (iOS 18).
    ///
    /// Cases: https://developer.apple.com/documentation/contacts/cnauthorizationstatus
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/contacts.cnauthorizationstatus
    public static func contacts(_ raw: Int) -> AuthorizationStatus {
        raw == 4 ? .limited : standard(raw) ?? unknownFallback
    }

    /// `CLAuthorizationStatus` with `CLAccuracyAuthorization` (iOS 14), for `locationWhenInUse` or
    /// `locationAlways`.
    ///
    /// Status: 0 notDetermined, 1 restricted, 2 denied, 3 authorizedAlways, 4 authorizedWhenInUse.
    /// Accuracy: 0 fullAccuracy, 1 reducedAccuracy; nil before iOS 14 (full accuracy, the only kind then).
    /// When-in-use is full access for `locationWhenInUse` and the partial `whenInUse` for `locationAlways`
    /// (upgrading to Always comes first); reduced accuracy makes any grant `reducedAccuracy` except that one.
    /// An unknown accuracy value counts as reduced (a partial grant: proceed or offer the upgrade, never
    /// assume precision). `feature` other than the two location features is a programmer error.
    ///
    /// Cases: https://developer.apple.com/documentation/corelocation/clauthorizationstatus and
    /// https://developer.apple.com/documentation/corelocation/claccuracyauthorization
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/corelocation.clauthorizationstatus (accuracy:
    /// the cases in Apple's declared order, fullAccuracy first, as Point-Free's `AccuracyAuthorization` wrapper
    /// spells out: https://pointfreeco.github.io/composable-core-location/AccuracyAuthorization)
    public static func location(_ raw: Int, accuracy: Int?, feature: Feature) -> AuthorizationStatus {
        precondition(feature == .locationWhenInUse || feature == .locationAlways, "\(feature) is not location")
        let granted: AuthorizationStatus
        switch raw {
        case 0: return .notDetermined
        case 1: return .restricted
        case 2: return .denied
        case 3: granted = .authorized
        case 4: granted = feature == .locationAlways ? .whenInUse : .authorized
        default: return unknownFallback
        }
        if granted == .whenInUse { return .whenInUse }
        switch accuracy {
        case nil, 0: return granted
        default: return .reducedAccuracy
        }
    }

    /// `UNAuthorizationStatus` (notifications): 0 notDetermined, 1 denied, 2 authorized, 3 provisional (iOS 12),
    /// 4 ephemeral (iOS 14, App Clips). No restricted case, and denied is 1, not 2.
    ///
    /// Cases: https://developer.apple.com/documentation/usernotifications/unauthorizationstatus
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/usernotifications.unauthorizationstatus
    public static func notifications(_ raw: Int) -> AuthorizationStatus {
        switch raw {
        case 0: .notDetermined
        case 1: .denied
        case 2: .authorized
        case 3: .provisional
        case 4: .ephemeral
        default: unknownFallback
        }
    }

    /// `ATTrackingManager.AuthorizationStatus` (tracking): 0 notDetermined, 1 restricted, 2 denied, 3 authorized.
    ///
    /// Cases: https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/authorizationstatus
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/apptrackingtransparency.attrackingmanagerauthorizationstatus
    public static func tracking(_ raw: Int) -> AuthorizationStatus {
        standard(raw) ?? unknownFallback
    }

    /// `EKAuthorizationStatus` (calendars, reminders): 0 notDetermined, 1 restricted, 2 denied, 3 fullAccess
    /// (iOS 17; the same value was `authorized` before, deprecated since), 4 writeOnly (iOS 17).
    ///
    /// Reminders have no write-only level (only `requestFullAccessToReminders`), so 4 for `reminders` is
    /// unknown and maps to ``unknownFallback``. `feature` other than calendars or reminders is a programmer error.
    ///
    /// Cases: https://developer.apple.com/documentation/eventkit/ekauthorizationstatus
    /// Numbers: https://learn.microsoft.com/en-us/dotnet/api/eventkit.ekauthorizationstatus
    public static func eventKit(_ raw: Int, feature: Feature) -> AuthorizationStatus {
        precondition(feature == .calendars || feature == .reminders, "\(feature) is not an EventKit feature")
        if raw == 4 { return feature == .calendars ? .writeOnly : unknownFallback }
        return standard(raw) ?? unknownFallback
    }

    /// Location Services switched off for the whole device turn any location status into `deniedGlobally`:
    /// CoreLocation then reports `denied` for every app ("disabled globally in Settings"), and only the device's
    /// Location Services switch can fix it. `servicesEnabled` is `CLLocationManager.locationServicesEnabled()`, or
    /// on iOS 18 the negation of `CLServiceSession.Diagnostic.authorizationDeniedGlobally`.
    ///
    /// https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic
    /// https://developer.apple.com/documentation/corelocation/clauthorizationstatus/denied
    public static func location(_ raw: Int, accuracy: Int?, feature: Feature, servicesEnabled: Bool)
        -> AuthorizationStatus
    {
        servicesEnabled ? location(raw, accuracy: accuracy, feature: feature) : .deniedGlobally
    }

    /// `AlarmManager.AuthorizationState` (alarms, iOS 26): notDetermined, denied, authorized.
    ///
    /// A Swift enum with no raw value, so the adapter hands over the case's name (`String(describing:)`); a
    /// name this table does not know maps to ``unknownFallback``.
    ///
    /// Cases: https://developer.apple.com/documentation/alarmkit/alarmmanager/authorizationstate-swift.enum
    public static func alarmKit(caseName: String) -> AuthorizationStatus {
        switch caseName {
        case "notDetermined": .notDetermined
        case "denied": .denied
        case "authorized": .authorized
        default: unknownFallback
        }
    }

    /// The four values most frameworks share: 0 notDetermined, 1 restricted, 2 denied, 3 authorized.
    private static func standard(_ raw: Int) -> AuthorizationStatus? {
        switch raw {
        case 0: .notDetermined
        case 1: .restricted
        case 2: .denied
        case 3: .authorized
        default: nil
        }
    }
}
