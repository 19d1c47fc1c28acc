/// The compiled word lists of lint runs, one ``TextChecker`` per locale: what ``CopyLinter`` spends most of a run
/// building, kept so that the next run (the next admin write) reuses them.
///
/// Not `Sendable` (`Regex` is not): one lint run at a time uses a value; a caller that shares one across threads
/// hands it over under a lock (the service's `LintCheckerPool`).
package struct LintCheckers {
    private var byLocale: [String: TextChecker] = [:]

    /// No list compiled yet.
    package init() {}

    /// The checker of `locale`, built on first use.
    package mutating func checker(for locale: LocaleTag) -> TextChecker {
        let key = locale.description
        if let checker = byLocale[key] { return checker }
        let checker = TextChecker(localeTag: key)
        byLocale[key] = checker
        return checker
    }

    /// How many locales have a checker.
    package var count: Int { byLocale.count }
}
