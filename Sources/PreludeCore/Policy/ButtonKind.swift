/// The system button a feature offers for `Strategy.button`.
public enum ButtonKind: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// CoreLocationUI `LocationButton` (iOS 15): one-time location in-line.
    case locationButton
    /// ContactsUI `ContactAccessButton` (iOS 18): adds one contact to the limited set in-line.
    case contactAccessButton

    /// The JSON name.
    public var description: String { rawValue }
}
