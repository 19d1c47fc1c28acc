/// One feature's entry in the document: its own settings and its targeting rules.
public struct FeaturePolicy: Sendable, Hashable {
    /// The feature.
    public var feature: Feature
    /// The settings written directly on the feature (over `defaults`).
    public var settings: FeatureOverride
    /// Targeting rules, applied in order over `settings`.
    public var targeting: [TargetingRule]
    /// When and why the feature asks (`access`); not overridden by targeting or variants.
    public var access: FeatureAccess
    /// The Info.plist purpose strings the team intends to ship for this feature, per locale (key → text): linted
    /// like the copy (PS rules, the Markdown subset of `NSUserTrackingMarkdownUsageDescription`) and drawn by the
    /// preview. Only the server reads them: the client document leaves them out.
    public var purposeStrings: [LocaleTag: [String: String]] = [:]

    /// A feature entry with the given parts.
    public init(
        feature: Feature, settings: FeatureOverride = FeatureOverride(), targeting: [TargetingRule] = [],
        access: FeatureAccess = FeatureAccess()
    ) {
        self.feature = feature
        self.settings = settings
        self.targeting = targeting
        self.access = access
    }
}
