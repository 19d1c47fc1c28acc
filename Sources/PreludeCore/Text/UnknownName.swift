/// A name given by a user that names nothing that exists (an app, an environment), with the closest existing name
/// when it looks like a typo: how a token grant naming `demoo` or `stagng` is refused with "did you mean …?".
public struct UnknownName: Sendable, Equatable {
    /// The name as given.
    public var name: String
    /// Its position in the list it was given in.
    public var index: Int
    /// The closest existing name (``TypoSuggestion``), if one is close enough.
    public var suggestion: String?

    /// A name, its position and the suggestion.
    public init(name: String, index: Int, suggestion: String?) {
        self.name = name
        self.index = index
        self.suggestion = suggestion
    }

    /// Every name of `names` that is not in `known`, in order, each with the closest of `known`.
    public static func find(_ names: [String], among known: [String]) -> [UnknownName] {
        let existing = Set(known)
        let sortedKnown = known.sorted()
        return names.enumerated().compactMap { index, name in
            existing.contains(name)
                ? nil
                : UnknownName(
                    name: name, index: index, suggestion: TypoSuggestion.closest(to: name, among: sortedKnown))
        }
    }

    /// `no app is named 'demoo' (did you mean 'demo'?)`, with `kind` the noun (`app`, `environment`); without a
    /// close name, the existing ones are listed (at most ten).
    public func description(kind: String, known: [String]) -> String {
        let hint: String
        if let suggestion {
            hint = " (did you mean '\(suggestion)'?)"
        } else if known.isEmpty {
            hint = " (there is none yet)"
        } else {
            let listed = known.sorted().prefix(10).map { "'\($0)'" }.joined(separator: ", ")
            hint = " (existing: \(listed)\(known.count > 10 ? ", …" : ""))"
        }
        return "no \(kind) is named '\(name)'\(hint)"
    }
}
