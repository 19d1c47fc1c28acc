/// Finds the phrases of a ``CopyLexicon`` list in a text.
///
/// Built per lint run: `Regex` is not `Sendable`, and compiling a few dozen small patterns is cheap
/// next to reading a policy document.
package struct PhraseMatcher {
    private let regex: Regex<AnyRegexOutput>?

    /// Compiles `fragments`; Latin-script fragments only match whole words, CJK fragments match anywhere.
    package init(_ fragments: [String], wholeWords: Bool) {
        guard !fragments.isEmpty else {
            regex = nil
            return
        }
        let alternation = fragments.joined(separator: "|")
        // Letters or digits on either side mean we are inside a longer word ("allowance", "freedom").
        let source =
            wholeWords
            ? "(?i)(?:^|[^\\p{L}\\p{N}])(" + alternation + ")(?=$|[^\\p{L}\\p{N}])"
            : "(?i)(" + alternation + ")"
        do {
            regex = try Regex(source)
        } catch {
            preconditionFailure("invalid lexicon pattern \(source): \(error)")
        }
    }

    /// The first matching phrase in `text` as written there, or nil.
    package func firstMatch(in text: String) -> String? {
        guard let regex, let match = text.firstMatch(of: regex) else { return nil }
        if match.count > 1, let captured = match[1].substring { return String(captured) }
        return String(match.0)
    }

    /// Whether any phrase occurs in `text`.
    package func matches(_ text: String) -> Bool { firstMatch(in: text) != nil }
}
