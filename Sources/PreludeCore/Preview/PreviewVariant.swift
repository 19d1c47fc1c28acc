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
    /// For a rule with a condition, which clients it chooses: `segment engaged` or `when {…}` (shown in the label).
    public var chosenBy: String?

    /// A variant of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    /// A variant of `kind` chosen by `chosenBy`.
    public init(_ kind: Kind, chosenBy: String?) {
        self.kind = kind
        self.chosenBy = chosenBy
    }

    /// How `condition` chooses clients, for people: the segments it names, else its JSON (cut at 80 characters).
    public static func describe(_ condition: Condition) -> String {
        if !condition.segmentsNamed.isEmpty {
            let names = condition.segmentsNamed.sorted().joined(separator: ", ")
            return (condition.segmentsNamed.count == 1 ? "segment " : "segments ") + names
        }
        let text = condition.source.serialized()
        return "when " + (text.count > 80 ? String(text.prefix(79)) + "…" : text)
    }

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
        case .rule(_, let name): "rule \(name)" + (chosenBy.map { " · \($0)" } ?? "")
        case .experiment(_, let key, _, let name): "\(key): \(name)"
        }
    }
}
