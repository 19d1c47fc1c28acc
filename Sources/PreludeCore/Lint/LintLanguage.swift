/// The languages whose words the linter knows, chosen from a copy block's BCP 47 tag.
///
/// Every text is also checked against the English lists (an English "Allow" in French copy is just as wrong);
/// a language the linter does not know gets the English lists and the language-neutral checks only.
public enum LintLanguage: String, CaseIterable, Hashable, Sendable {
    case english = "en"
    case french = "fr"
    case german = "de"
    case spanish = "es"
    case portuguese = "pt"
    case italian = "it"
    case korean = "ko"
    case russian = "ru"
    case dutch = "nl"
    case turkish = "tr"
    case japanese = "ja"
    case simplifiedChinese = "zh-Hans"
    case traditionalChinese = "zh-Hant"

    /// The language for a BCP 47 tag, or nil when the linter has no word lists for it.
    ///
    /// For Chinese the script decides, and a region implies it where it must (TW, HK, MO → Hant);
    /// a bare `zh` is read as simplified.
    public init?(localeTag: String) {
        let subtags = localeTag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = subtags.first else { return nil }
        switch language {
        case "en": self = .english
        case "fr": self = .french
        case "de": self = .german
        case "es": self = .spanish
        case "pt": self = .portuguese
        case "it": self = .italian
        case "ko": self = .korean
        case "ru": self = .russian
        case "nl": self = .dutch
        case "tr": self = .turkish
        case "ja": self = .japanese
        case "zh":
            let rest = Set(subtags.dropFirst())
            if rest.contains("hant") || !rest.isDisjoint(with: ["tw", "hk", "mo"]) && !rest.contains("hans") {
                self = .traditionalChinese
            } else {
                self = .simplifiedChinese
            }
        default: return nil
        }
    }

    /// Whether the language writes without spaces between words (no word boundaries, full-width stops).
    public var isCJK: Bool {
        switch self {
        case .japanese, .simplifiedChinese, .traditionalChinese: true
        default: false
        }
    }

    /// Whether phrases are found inside longer words: CJK scripts have no spaces, and Korean attaches particles and
    /// endings to the word (허용 in 허용하기), so whole-word matching would miss them.
    public var matchesInsideWords: Bool { isCJK || self == .korean }

    /// The characters that end a sentence in this language (PS-1).
    public var fullStops: Set<Character> { isCJK ? ["。", "．"] : ["."] }

    /// The full stop to suggest in messages.
    public var preferredFullStop: String { isCJK ? "。" : "." }

    /// The maximum length before PS-10 warns (CJK scripts and Hangul carry more per character).
    public var briefLength: Int { isCJK || self == .korean ? 90 : 180 }
}
