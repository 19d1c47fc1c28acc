/// How a feature asks while its status is `notDetermined`.
public enum Strategy: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Show our priming screen first; its action leads to the system alert.
    case prime
    /// Fire the system alert directly.
    case direct
    /// Use the system's in-line button (LocationButton for location, ContactAccessButton for contacts).
    /// On an OS too old for the button, resolution falls back to `prime`.
    case button
    /// Ask less: present the feature's permissionless path (``PermissionlessPath``: PhotosPicker, the contact
    /// picker, EventKitUI's event editor, AccessorySetupKit) and never ask. On an OS without the path, the engine
    /// primes instead, as for `button`.
    case permissionless

    /// The JSON name.
    public var description: String { rawValue }
}
