/// A client platform a targeting rule can match.
public enum Platform: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case ios
    case ipados
    case macos
    case tvos
    case watchos
    case visionos

    /// Whether OS versions on this platform follow iOS numbering, which the catalogue's versions use.
    public var usesIOSVersions: Bool { self == .ios || self == .ipados }

    /// The JSON name.
    public var description: String { rawValue }
}
