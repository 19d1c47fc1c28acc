import PreludeCore

/// A request refused before it reached the OS: the Info.plist lacks a purpose string the request needs
/// (requesting anyway would terminate the app).
public struct MissingUsageDescription: Error, Hashable, Sendable, CustomStringConvertible {
    /// The feature whose request was refused.
    public var feature: Feature
    /// The absent or blank Info.plist keys, in ``UsageDescriptionCheck/requiredKeys(for:osVersion:)`` order.
    public var keys: [String]

    /// A refusal naming `keys`.
    public init(feature: Feature, keys: [String]) {
        self.feature = feature
        self.keys = keys
    }

    /// What to fix, for logs and assertions.
    public var description: String {
        "Not requesting \(feature): Info.plist has no \(keys.joined(separator: ", ")); requesting without it "
            + "would terminate the app. Add the purpose string(s) to the app target's Info.plist."
    }
}
