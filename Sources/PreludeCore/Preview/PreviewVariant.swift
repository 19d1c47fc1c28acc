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
    /// For a rule with a condition or an experiment with an audience, which clients it chooses: `segment engaged` or
    /// `when {…}` (shown in the label).
    public var chosenBy: String?
    /// When the screens may be shown, for a layer under an `ask` rule: `ask after notePinned ≥ 1` (shown in the
    /// label).
    public var asks: String?

    /// A variant of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    /// A variant of `kind` chosen by `chosenBy`, its screens shown when `asks` says.
    public init(_ kind: Kind, chosenBy: String?, asks: String? = nil) {
        self.kind = kind
        self.chosenBy = chosenBy
        self.asks = asks
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

    /// When `ask` lets the feature be asked for, for people: `ask at first use`, `ask after notePinned ≥ 1`,
    /// `ask in segment engaged` or `ask when {…}`.
    public static func describe(_ ask: AskRule) -> String {
        switch ask {
        case .anytime: return "ask at first use"
        case .after(let moment, let atLeast): return "ask after \(moment) ≥ \(atLeast)"
        case .condition(let condition):
            let chosen = describe(condition)
            return chosen.hasPrefix("when ") ? "ask " + chosen : "ask in " + chosen
        }
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

    /// A label for people: `base`, `rule NAME`, `KEY: VARIANT`, then what chose the layer and when it asks:
    /// `rule paying · segment engaged · ask after notePinned ≥ 1`. Plain text: escape it for HTML.
    public var label: String {
        let name =
            switch kind {
            case .base: "base"
            case .rule(_, let name): "rule \(name)"
            case .experiment(_, let key, _, let name): "\(key): \(name)"
            }
        return [name, chosenBy, asks].compactMap { $0 }.joined(separator: " · ")
    }
}
