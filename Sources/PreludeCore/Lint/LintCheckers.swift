/// The compiled word lists of lint runs, one ``TextChecker`` per locale, and the findings of the texts they checked:
/// what ``CopyLinter`` spends most of a run on, kept so that the next run (the next admin write) reuses them.
///
/// Not `Sendable` (`Regex` is not): one lint run at a time uses a value; a caller that shares one across threads
/// hands it over under a lock (the service's `LintCheckerPool`).
package struct LintCheckers {
    private var byLocale: [String: TextChecker] = [:]
    /// The same checkers by language (nil: a language without lists of its own).
    private var byLanguage: [LintLanguage?: TextChecker] = [:]
    /// The findings of texts already checked (pointers set to the root), by everything that decides them: a write
    /// changes a few texts of a policy, and the others are found here instead of being checked again.
    private var checkedTexts: [CheckedText: [LintFinding]] = [:]
    /// The most texts remembered; past it the memory starts over (a policy at the size limit has more texts than
    /// this, and its lint run then works as without the memory).
    package static let checkedTextCapacity = 4096

    /// What decides a text's findings: the checker's language (`en-AU` is checked as `en`), the text, where it is
    /// shown and the severities of its feature.
    package struct CheckedText: Hashable {
        let language: LintLanguage?
        let key: CopyKey
        let text: String
        let primingSeverity: LintSeverity?
        let softSeverity: LintSeverity
        /// An app-level consent's screen, whose labels follow the AC rules instead of the priming ones.
        var consent = false
    }

    /// No list compiled yet.
    package init() {}

    /// The checker of `locale`, built on first use; locales of one language share it (a ``TextChecker`` is made of
    /// its language's lists alone, compiled on first use, so `en-AU` reuses what `en` compiled).
    package mutating func checker(for locale: LocaleTag) -> TextChecker {
        let key = locale.description
        if let checker = byLocale[key] { return checker }
        let language = LintLanguage(localeTag: key)
        let checker = byLanguage[language] ?? TextChecker(localeTag: key)
        byLocale[key] = checker
        byLanguage[language] = checker
        return checker
    }

    /// How many locales have a checker.
    package var count: Int { byLocale.count }

    /// The findings remembered for `text`, their pointers set to `pointer` (made only when there are findings);
    /// nil when it was not checked.
    package func findings(of text: CheckedText, at pointer: @autoclosure () -> JSONPointer) -> [LintFinding]? {
        guard let found = checkedTexts[text] else { return nil }
        guard !found.isEmpty else { return [] }
        let pointer = pointer()
        return found.map { finding in
            var finding = finding
            finding.pointer = pointer
            return finding
        }
    }

    /// Remembers `findings` (any pointer) for `text`.
    package mutating func remember(_ findings: [LintFinding], of text: CheckedText) {
        if checkedTexts.count >= Self.checkedTextCapacity { checkedTexts.removeAll(keepingCapacity: true) }
        checkedTexts[text] = findings.map { finding in
            var finding = finding
            finding.pointer = .root
            return finding
        }
    }

    /// How many texts' findings are remembered.
    package var checkedTextCount: Int { checkedTexts.count }
}
