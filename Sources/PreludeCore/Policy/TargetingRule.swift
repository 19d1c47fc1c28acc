/// A named rule that overrides parts of a feature for matching clients.
///
/// Rules apply in document order, each matching rule layered over the previous result, so a later rule
/// overrides an earlier one field by field.
public struct TargetingRule: Sendable, Hashable {
    /// A name unique within the feature, reported in the resolved policy.
    public var name: String
    /// Which clients it applies to.
    public var when: TargetingCondition
    /// What it changes.
    public var set: FeatureOverride

    /// A rule with the given parts.
    public init(name: String, when: TargetingCondition = TargetingCondition(), set: FeatureOverride = FeatureOverride())
    {
        self.name = name
        self.when = when
        self.set = set
    }
}
