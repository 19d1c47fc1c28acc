/// The text-level checks shared by ``CopyLinter`` and ``PurposeStringLinter``, for one language.
///
/// Each text is checked against the English word lists and those of its own language,
/// because English labels slip into localised copy more often than anything else.
package struct TextChecker {
    /// The language whose lists apply besides English; nil for a language the linter does not know.
    package let language: LintLanguage?
    private let grant: [PhraseMatcher]
    private let dismiss: [PhraseMatcher]
    private let echoes: [PhraseMatcher]
    private let cues: [PhraseMatcher]
    private let incentives: [PhraseMatcher]
    private let gating: [PhraseMatcher]
    private let passive: [PhraseMatcher]
    private let imperatives: [PhraseMatcher]
    private let vague: [PhraseMatcher]
    private let restatements: [PhraseMatcher]
    private let purpose: [PhraseMatcher]
    private let marketing: [PhraseMatcher]
    private let settings: [PhraseMatcher]

    /// Compiles the lists for the language of `localeTag`.
    package init(localeTag: String) {
        let language = LintLanguage(localeTag: localeTag)
        self.language = language
        func build(_ list: (LintLanguage) -> [String]) -> [PhraseMatcher] {
            var matchers = [PhraseMatcher(list(.english), wholeWords: true)]
            if let language, language != .english {
                matchers.append(PhraseMatcher(list(language), wholeWords: !language.matchesInsideWords))
            }
            return matchers
        }
        grant = build(CopyLexicon.grantWords)
        dismiss = build(CopyLexicon.dismissWords)
        echoes = build(CopyLexicon.systemAlertEchoes)
        cues = build(CopyLexicon.allowCues)
        incentives = build(CopyLexicon.incentives)
        gating = build(CopyLexicon.gating)
        // Grammar checks only make sense in the text's own language.
        func own(_ list: (LintLanguage) -> [String]) -> [PhraseMatcher] {
            let language = language ?? .english
            return [PhraseMatcher(list(language), wholeWords: !language.matchesInsideWords)]
        }
        passive = own(CopyLexicon.passive)
        imperatives = own(CopyLexicon.bareImperatives)
        vague = build(CopyLexicon.vague)
        restatements = own(CopyLexicon.restatements)
        purpose = own(CopyLexicon.purposeClause)
        marketing = own(CopyLexicon.marketing)
        settings = build(CopyLexicon.toSettings)
    }

    /// The first phrase of `matchers` found in `text`; `prepared` is the prefilter's form of `text` or of the text
    /// it was trimmed from (computed once per check, not per list).
    private static func first(_ matchers: [PhraseMatcher], in text: String, prepared: PhraseMatcher.Prepared)
        -> String?
    {
        for matcher in matchers {
            if let found = matcher.firstMatch(in: text, prepared: prepared) { return found }
        }
        return nil
    }

    private var fullStops: Set<Character> { language?.fullStops ?? ["."] }
    private var fullStopName: String { language?.preferredFullStop ?? "." }

    // MARK: Priming labels (PA-2, PA-3)

    /// PA-2 and PA-3 for the label of the priming screen's single action.
    package func checkContinueLabel(_ label: String, pointer: JSONPointer, severity: LintSeverity?) -> [LintFinding] {
        let trimmed = Self.trim(label)
        let prepared = PhraseMatcher.Prepared(label)
        if let word = Self.first(dismiss, in: trimmed, prepared: prepared) {
            return [
                LintFinding(
                    rule: .pa3, severity: severity, pointer: pointer,
                    message: "The priming action \"\(trimmed)\" leaves without the system alert (\"\(word)\"); "
                        + "its only action must lead to the system alert.")
            ]
        }
        if let word = Self.first(grant, in: trimmed, prepared: prepared) {
            return [
                LintFinding(
                    rule: .pa2, severity: severity, pointer: pointer,
                    message: "The priming action \"\(trimmed)\" suggests granting on our screen (\"\(word)\"); "
                        + "label it like \(suggestedLabels).")
            ]
        }
        let allowed = CopyLexicon.continueLabels(.english) + (language.map(CopyLexicon.continueLabels) ?? [])
        if !allowed.contains(where: { $0.lowercased() == trimmed.lowercased() }) {
            return [
                LintFinding(
                    rule: .pa2, severity: severity.map { min($0, .warning) } ?? .warning, pointer: pointer,
                    message: "The priming action \"\(trimmed)\" is not a known Continue/Next label; "
                        + "prefer \(suggestedLabels).")
            ]
        }
        return []
    }

    private var suggestedLabels: String {
        let labels = language.map(CopyLexicon.continueLabels) ?? CopyLexicon.continueLabels(.english)
        return labels.map { "\"\($0)\"" }.joined(separator: " or ")
    }

    /// PA-3 for the second label of the legacy two-button style.
    package func checkSecondLabel(_ label: String, pointer: JSONPointer, severity: LintSeverity?) -> [LintFinding] {
        [
            LintFinding(
                rule: .pa3, severity: severity, pointer: pointer,
                message: "The second action \"\(Self.trim(label))\" lets people leave without the system alert; "
                    + "use the single-action style.")
        ]
    }

    // MARK: Priming texts (PA-4 to PA-7)

    /// PA-4, PA-5, PA-6 and PA-7 for any text of a priming screen (title, message, labels).
    /// `severity` overrides the rules' own (errors for tracking, TR-1).
    package func checkPrimingText(
        _ text: String, pointer: JSONPointer, severity: LintSeverity?, incentiveSeverity: LintSeverity
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        let prepared = PhraseMatcher.Prepared(text)
        if let phrase = Self.first(echoes, in: text, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .pa4, severity: severity, pointer: pointer,
                    message: "\"\(phrase)\" echoes the system alert; the priming screen must not look like the request."
                ))
        }
        if let phrase = Self.first(cues, in: text, prepared: prepared)
            ?? text.first(where: CopyLexicon.pointingGlyphs.contains).map({ String($0) })
        {
            findings.append(
                LintFinding(
                    rule: .pa5, severity: severity, pointer: pointer,
                    message: "\"\(phrase)\" points people at the system alert's Allow button; remove the cue."))
        }
        if let phrase = Self.first(incentives, in: text, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .pa6, severity: incentiveSeverity, pointer: pointer,
                    message: "\"\(phrase)\" offers an incentive for granting access; App Review rejects incentives."))
        }
        if let phrase = Self.first(gating, in: text, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .pa7, severity: incentiveSeverity, pointer: pointer,
                    message:
                        "\"\(phrase)\" makes the app conditional on consent; explain the benefit and offer an alternative."
                ))
        }
        return findings
    }

    // MARK: Sentences (PS-1, PS-2, PS-9, PS-10)

    /// PS-1, PS-2, PS-9 and PS-10 for a message that must be a brief, complete sentence.
    package func checkSentence(_ text: String, pointer: JSONPointer) -> [LintFinding] {
        var findings: [LintFinding] = []
        let trimmed = Self.trim(text)
        let prepared = PhraseMatcher.Prepared(text)
        if trimmed.isEmpty {
            return [LintFinding(rule: .ps1, pointer: pointer, message: "The text is empty; write a complete sentence.")]
        }
        if trimmed.hasSuffix("...") || trimmed.hasSuffix("…") || trimmed.hasSuffix("……") {
            findings.append(
                LintFinding(
                    rule: .ps1, pointer: pointer,
                    message: "The text trails off with an ellipsis; end it with \"\(fullStopName)\"."))
        } else if let last = Self.lastSignificantCharacter(trimmed), !fullStops.contains(last) {
            findings.append(
                LintFinding(
                    rule: .ps1, pointer: pointer,
                    message: "The text ends with \"\(last)\"; a complete sentence ends with \"\(fullStopName)\"."))
        }
        if language?.isCJK != true, let first = trimmed.first(where: { $0.isLetter }), first.isLowercase,
            trimmed.first != "{"
        {
            findings.append(
                LintFinding(
                    rule: .ps2, pointer: pointer,
                    message: "The text starts with a lowercase letter; use sentence case."))
        } else if language?.isCJK != true, language != .german, Self.looksTitleCased(trimmed) {
            // German capitalises every noun, so title case cannot be told from ordinary prose.
            findings.append(
                LintFinding(
                    rule: .ps2, pointer: pointer,
                    message: "The text capitalises several words like a title; use sentence case."))
        }
        if Self.mayHavePlainTextMarks(trimmed),
            trimmed.contains("!") || trimmed.contains("！") || trimmed.contains("•")
                || trimmed.split(separator: "\n").count > 1
        {
            findings.append(
                LintFinding(
                    rule: .ps9, pointer: pointer,
                    message: "The text has exclamations, bullets or several lines; keep it a plain sentence."))
        } else if let word = Self.first(marketing, in: trimmed, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .ps9, pointer: pointer,
                    message: "\"\(word)\" is promotional; say what the access is for instead."))
        }
        let limit = language?.briefLength ?? 180
        if trimmed.count > limit {
            findings.append(
                LintFinding(
                    rule: .ps10, pointer: pointer,
                    message: "The text has \(trimmed.count) characters; keep it under \(limit)."))
        }
        return findings
    }

    // MARK: Purpose (PS-3 to PS-7)

    /// PS-3 to PS-7 for a text that explains why access is needed (a purpose string or a priming message).
    package func checkPurpose(_ text: String, pointer: JSONPointer) -> [LintFinding] {
        var findings: [LintFinding] = []
        let trimmed = Self.trim(text)
        let prepared = PhraseMatcher.Prepared(text)
        if let phrase = Self.first(passive, in: trimmed, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .ps3, pointer: pointer,
                    message: "\"\(phrase)\" is passive; say who does what (\"We use…\", \"The app uses…\")."))
        }
        if let phrase = Self.first(imperatives, in: trimmed, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .ps4, pointer: pointer,
                    message:
                        "The text opens with a bare imperative (\"\(phrase)\"); explain what access makes possible."))
        }
        if let phrase = Self.first(restatements, in: trimmed, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .ps6, pointer: pointer,
                    message: "\"\(phrase)\" only names the resource; say what the app does with it."))
        } else if let phrase = Self.first(vague, in: trimmed, prepared: prepared) {
            findings.append(
                LintFinding(
                    rule: .ps5, pointer: pointer,
                    message: "\"\(phrase)\" is vague; name the feature and give an example of use."))
        } else if !trimmed.isEmpty, language?.isCJK != true, Self.first(purpose, in: trimmed, prepared: prepared) == nil
        {
            // Only where a purpose clause has a reliable marker: CJK sentences state purpose through
            // particles and verb chains that a word list cannot tell apart from anything else.
            findings.append(
                LintFinding(
                    rule: .ps7, pointer: pointer,
                    message: "The text gives no purpose; name the feature or outcome (\"to scan receipts\")."))
        }
        return findings
    }

    /// DN-2: the phrase sending people to the Settings app, if any.
    package func pointsToSettings(_ text: String) -> String? {
        Self.first(settings, in: text, prepared: PhraseMatcher.Prepared(text))
    }

    // MARK: Helpers

    package static func trim(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// False when `text` has none of the scalars of "!", "！", "•" and a line break: then none of those characters
    /// can be in it (a character that is one of them holds its scalar), so the character-by-character check is
    /// skipped. It compares characters (and costs a string comparison each), which made it a tenth of a lint run.
    private static func mayHavePlainTextMarks(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "!" || $0 == "！" || $0 == "•" || $0 == "\n" }
    }

    // Closing quotes and brackets may follow the full stop: « …. » and 「…。」 are complete sentences.
    private static let closers: Set<Character> = ["\"", "'", "”", "’", "»", ")", "）", "」", "』", "】", "›"]

    private static func lastSignificantCharacter(_ text: String) -> Character? {
        text.last(where: { !closers.contains($0) && !$0.isWhitespace })
    }

    // Title case: at least three capitalised words after the first, and most of them. Proper nouns such as
    // "Lock Screen" or "Notification Centre" in a long sentence stay a minority.
    private static func looksTitleCased(_ text: String) -> Bool {
        let (capitalised, total) = titleCasedWordCount(text)
        return capitalised >= 3 && capitalised * 2 > total
    }

    // Counts capitalised words after the first (ignoring placeholders, all-caps acronyms and words that start
    // a new sentence), and all words considered.
    private static func titleCasedWordCount(_ text: String) -> (capitalised: Int, total: Int) {
        var count = 0
        var total = 0
        var previousEndsSentence = true
        for word in text.split(whereSeparator: { $0 == " " }) {
            defer { previousEndsSentence = word.last.map { [".", "!", "?", ":"].contains($0) } ?? false }
            if previousEndsSentence || word.hasPrefix("{") { continue }
            // The word's letters: the first, how many, whether all are capitals (without building a string).
            var first: Character?
            var letters = 0
            var allUppercase = true
            for character in word {
                let isLetter: Bool
                let isUppercase: Bool
                if let ascii = character.asciiValue {
                    isUppercase = (65...90).contains(ascii)
                    isLetter = isUppercase || (97...122).contains(ascii)
                } else {
                    isLetter = character.isLetter
                    isUppercase = isLetter && character.isUppercase
                }
                guard isLetter else { continue }
                if first == nil { first = character }
                letters += 1
                if !isUppercase { allUppercase = false }
            }
            guard let first, letters > 1 else { continue }
            total += 1
            if first.isUppercase && !allUppercase { count += 1 }
        }
        return (count, total)
    }
}
