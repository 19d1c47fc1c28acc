import PreludeCore

/// The writing direction of a locale: right to left for the languages written in Arabic or Hebrew script (and a
/// few others), left to right otherwise.
package enum TextDirection: String, Sendable {
    case ltr
    case rtl

    /// Languages written right to left (ISO 639-1/-3): Arabic, Hebrew, Persian, Urdu, Yiddish, Pashto, Sindhi,
    /// Uyghur, Central Kurdish, Dhivehi.
    package static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "ckb", "dv",
    ]

    /// The direction of `locale`; a script subtag decides when it names one (`az-Arab`, `ku-Latn`).
    package init(_ locale: LocaleTag) {
        if let script = locale.script {
            self = ["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg"].contains(script) ? .rtl : .ltr
        } else {
            self = Self.rightToLeftLanguages.contains(locale.language) ? .rtl : .ltr
        }
    }
}
