import Testing

@testable import PreludeCore

/// The literal prefilter of ``PhraseMatcher`` may only skip texts the expression would not match (issue 24: lint
/// fast enough for every admin write).
@Suite struct PhraseMatcherTests {
    static let lists: [(String, @Sendable (LintLanguage) -> [String])] = [
        ("grantWords", CopyLexicon.grantWords), ("dismissWords", CopyLexicon.dismissWords),
        ("systemAlertEchoes", CopyLexicon.systemAlertEchoes), ("allowCues", CopyLexicon.allowCues),
        ("incentives", CopyLexicon.incentives), ("gating", CopyLexicon.gating), ("passive", CopyLexicon.passive),
        ("bareImperatives", CopyLexicon.bareImperatives), ("vague", CopyLexicon.vague),
        ("restatements", CopyLexicon.restatements), ("purposeClause", CopyLexicon.purposeClause),
        ("marketing", CopyLexicon.marketing), ("toSettings", CopyLexicon.toSettings),
    ]

    /// Texts that hit and miss: each list's plain fragments as written, in capitals, decomposed and inside a
    /// sentence, plus texts with Turkish dotted capitals, combining marks and jamo.
    static func texts(_ language: LintLanguage) -> [String] {
        var texts = [
            "We use the camera to scan receipts.", "İZİN VER", "Izin ver", "e\u{301}", "Ahora no, gracias.",
            "\u{1112}\u{1161}\u{11AB}", "SCHLIESSEN", "Tap “Allow” below 👇", "OK!", "No, thanks",
            "Autorisé\u{301}e", "ｏｋ", "",
        ]
        for (_, list) in lists {
            for fragment in list(language) + list(.english) {
                let plain = fragment.filter { !"\\()[]?*+{}|^$.".contains($0) }
                texts += [
                    plain, plain.uppercased(), "Please \(plain) now.", "x\(plain)y",
                    String(String.UnicodeScalarView(plain.decomposedForTest)),
                ]
            }
        }
        return texts
    }

    @Test(arguments: LintLanguage.allCases)
    func prefilterNeverHidesAMatch(_ language: LintLanguage) {
        let texts = Self.texts(language)
        for (name, list) in Self.lists {
            let matcher = PhraseMatcher(list(language), wholeWords: !language.matchesInsideWords)
            for text in texts {
                #expect(
                    matcher.firstMatch(in: text) == matcher.expressionMatch(in: text),
                    "\(language) \(name): \(text.debugDescription)")
            }
        }
    }

    /// Every list compiles (the expression is compiled lazily, so a broken pattern would otherwise only trap when
    /// a text first reaches it).
    @Test(arguments: LintLanguage.allCases)
    func everyListCompiles(_ language: LintLanguage) {
        for (_, list) in Self.lists {
            PhraseMatcher(list(language), wholeWords: !language.matchesInsideWords).compile()
        }
    }

    @Test func requiredLiteralsLeaveOutWhatMayBeAbsent() {
        let literals = PhraseMatcher.requiredLiterals([#"brindes?"#, #"(maybe )?later"#, #"no,? thanks"#, "ok(ay)?"])
        #expect(literals?.map { String(decoding: $0, as: UTF8.self) } == ["brinde", "later", " thanks", "ok"])
        #expect(PhraseMatcher.requiredLiterals([#"\d+ ?% off"#]).map { $0.count } == 1)
        let group = PhraseMatcher.requiredLiterals([#"^(please )?(allow|turn on) \w+"#])
        #expect(group?.map { String(decoding: $0, as: UTF8.self) } == ["allow", "turn on"])
        #expect(PhraseMatcher.requiredLiterals(["(a|b)?"]) == nil)
        #expect(PhraseMatcher.requiredLiterals(["a|(b)?"]) == nil)
        #expect(PhraseMatcher.requiredLiterals(["(?=a)"]) == nil)
    }

    /// A matcher whose literals are nowhere in the text does not run (or compile) its expression.
    @Test func aTextWithoutAnyLiteralIsSkipped() {
        let matcher = PhraseMatcher(["allow", "grant"], wholeWords: true)
        #expect(!matcher.mayMatch("We use the camera to scan receipts."))
        #expect(matcher.mayMatch("ALLOWANCE"))
        #expect(matcher.firstMatch(in: "ALLOWANCE") == nil)
        #expect(matcher.firstMatch(in: "Please GRANT access") == "GRANT")
    }
}

extension String {
    /// A canonically equivalent spelling with the common Latin accents as combining marks (é → e + U+0301).
    fileprivate var decomposedForTest: [Unicode.Scalar] {
        let table: [Character: (Unicode.Scalar, Unicode.Scalar)] = [
            "é": ("e", "\u{301}"), "è": ("e", "\u{300}"), "á": ("a", "\u{301}"), "í": ("i", "\u{301}"),
            "ó": ("o", "\u{301}"), "ú": ("u", "\u{301}"), "ã": ("a", "\u{303}"), "ç": ("c", "\u{327}"),
            "ü": ("u", "\u{308}"), "ö": ("o", "\u{308}"), "ä": ("a", "\u{308}"), "ş": ("s", "\u{327}"),
            "ğ": ("g", "\u{306}"), "ñ": ("n", "\u{303}"),
        ]
        var scalars: [Unicode.Scalar] = []
        for character in self {
            if let (base, mark) = table[character] {
                scalars += [base, mark]
            } else {
                scalars += character.unicodeScalars
            }
        }
        return scalars
    }
}
