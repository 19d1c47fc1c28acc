/// Which layers a previewed screen shows: the feature as written, one targeting rule over it, or one experiment
/// variant over it.
///
/// Rules and variants are previewed one at a time over the feature (never combined), so each column of the
/// preview answers "what does this rule, or this arm, change?".
public struct PreviewVariant: Sendable, Hashable {
    /// What the variant layers over the feature.
    public enum Kind: Sendable, Hashable {
        /// Defaults and the feature's own settings; no rule, no experiment.
        case base
        /// The targeting rule at `index` of the feature's `targeting`.
        case rule(index: Int, name: String)
        /// Variant `variantIndex` of the experiment at `experimentIndex` of the document's `experiments`.
        case experiment(experimentIndex: Int, key: String, variantIndex: Int, name: String)
    }

    /// What the variant layers over the feature.
    public var kind: Kind

    /// A variant of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    /// The feature as written.
    public static let base = PreviewVariant(.base)

    /// A stable identifier: `base`, `rule:NAME` or `experiment:KEY:VARIANT`.
    public var id: String {
        switch kind {
        case .base: "base"
        case .rule(_, let name): "rule:\(name)"
        case .experiment(_, let key, _, let name): "experiment:\(key):\(name)"
        }
    }

    /// A label for people: `base`, `rule NAME`, `KEY: VARIANT`.
    public var label: String {
        switch kind {
        case .base: "base"
        case .rule(_, let name): "rule \(name)"
        case .experiment(_, let key, _, let name): "\(key): \(name)"
        }
    }
}
