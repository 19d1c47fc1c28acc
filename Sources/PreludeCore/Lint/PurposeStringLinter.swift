/// Lints Info.plist purpose strings (usage descriptions), so an app's CI can check the strings compiled into it.
///
/// Rules PS-1 to PS-10 of docs/lint.md; pointers are `/<key>` for one locale and
/// `/<locale>/<key>` for several.
public enum PurposeStringLinter {
    /// Lints the purpose strings of one locale (`["NSCameraUsageDescription": "We use the camera to scan receipts."]`).
    public static func lint(strings: [String: String], locale: String) -> [LintFinding] {
        lint(strings: strings, locale: locale, pointerPrefix: .root)
    }

    /// Lints the purpose strings of several locales (`["en": [...], "fr": [...]]`), and PS-8:
    /// a key present in one locale must be present in every other.
    public static func lint(stringsByLocale: [String: [String: String]]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let allKeys = Set(stringsByLocale.values.flatMap(\.keys))
        for locale in stringsByLocale.keys.sorted() {
            let strings = stringsByLocale[locale] ?? [:]
            let prefix = JSONPointer.root.appending(locale)
            findings += lint(strings: strings, locale: locale, pointerPrefix: prefix)
            for key in allKeys.subtracting(strings.keys).sorted() where PurposeStringKey.known.contains(key) {
                findings.append(
                    LintFinding(
                        rule: .ps8, pointer: prefix.appending(key),
                        message: "\(key) is missing for \(locale); every supported language needs each purpose string.")
                )
            }
        }
        return findings
    }

    private static func lint(strings: [String: String], locale: String, pointerPrefix: JSONPointer) -> [LintFinding] {
        let checker = TextChecker(localeTag: locale)
        var findings: [LintFinding] = []
        for key in strings.keys.sorted() {
            let text = strings[key] ?? ""
            let pointer = pointerPrefix.appending(key)
            if !PurposeStringKey.known.contains(key) {
                findings.append(
                    LintFinding(
                        rule: .ps8, pointer: pointer,
                        message: "\(key) is not a known purpose-string key; check its spelling against Apple's list."))
            }
            if TextChecker.trim(text).isEmpty {
                findings.append(
                    LintFinding(
                        rule: .ps1, pointer: pointer,
                        message: "The purpose string for \(key) is empty; iOS shows it in the system alert."))
                continue
            }
            findings += checker.checkSentence(text, pointer: pointer)
            findings += checker.checkPurpose(text, pointer: pointer)
        }
        return findings
    }
}
