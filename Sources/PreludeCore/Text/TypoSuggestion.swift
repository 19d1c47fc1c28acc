/// The closest known name to a mistyped one: how every "did you mean …?" of the service picks its candidate.
public enum TypoSuggestion {
    /// The closest of `candidates` to `text` when it is at most two edits away (a typo) and closer than
    /// rewriting `text` entirely, else nil.
    public static func closest(to text: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(Array(text), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < text.count else { return nil }
        return best.0
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
