/// Lints Info.plist purpose strings (usage descriptions), so an app's CI can check the strings compiled into it.
///
/// Rules PS-1 to PS-11 of docs/lint.md; pointers are `/<key>` for one locale and
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
            if key == PurposeStringKey.trackingMarkdown {
                // The full-page sheet's longer text: its Markdown subset (PS-11), then the words it shows, checked
                // like any purpose string but for the length (it is meant to be longer than the alert's).
                for violation in MarkdownSubset.violations(in: text) {
                    findings.append(
                        LintFinding(
                            rule: .ps11, pointer: pointer,
                            message: "\(key) uses \(violation.construct) (\"\(violation.line)\"); the full-page "
                                + "sheet renders only bold, italic, bullet lists and paragraphs."))
                }
                let plain = MarkdownSubset.plainText(text)
                findings += checker.checkSentence(plain, pointer: pointer).filter { $0.ruleId != LintRule.ps10.id }
                findings += checker.checkPurpose(plain, pointer: pointer)
                continue
            }
            findings += checker.checkSentence(text, pointer: pointer)
            findings += checker.checkPurpose(text, pointer: pointer)
        }
        return findings
    }
}
