/// An authorization state a client reports for one feature, normalised across Apple's frameworks.
///
/// `authorized` covers full access (`authorized`, `fullAccess`, `authorizedAlways` for location-always,
/// `authorizedWhenInUse` with full accuracy for location-when-in-use). The partial grants are `limited`,
/// `provisional`, `ephemeral`, `whenInUse` (for location-always), `reducedAccuracy` and `writeOnly`.
/// `deniedGlobally` is location's own refusal: Location Services are off for the whole device
/// (`CLServiceSession.Diagnostic.authorizationDeniedGlobally`, iOS 18; `CLLocationManager.locationServicesEnabled()`
/// false before), which the app's Settings page cannot fix.
public enum AuthorizationStatus: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case notDetermined
    case authorized
    case denied
    case restricted
    case limited
    case provisional
    case ephemeral
    case whenInUse
    case reducedAccuracy
    case writeOnly
    /// Location Services are off device-wide: not a refusal of this app, and not fixable on its Settings page.
    case deniedGlobally

    /// Whether this is a partial grant, which the policy's `partial` map decides about.
    public var isPartial: Bool {
        switch self {
        case .limited, .provisional, .ephemeral, .whenInUse, .reducedAccuracy, .writeOnly: true
        case .notDetermined, .authorized, .denied, .restricted, .deniedGlobally: false
        }
    }

    /// The JSON name.
    public var description: String { rawValue }
}
