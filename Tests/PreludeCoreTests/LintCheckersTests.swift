import Testing

@testable import PreludeCore

/// Word lists compiled by one lint run serve the next (what the server does across writes) without changing any
/// finding.
@Suite struct LintCheckersTests {
    @Test func reusedCheckersFindWhatFreshOnesFind() throws {
        let demo = try PolicyFixtures.demo()
        // A second document in the same locales whose texts trip other lists (grant words, incentives, Settings).
        var edited = demo
        var camera = try #require(edited.features[.camera])
        camera.settings.copy[LocaleTag("en")!, default: CopySet()][.prime, .continueLabel] = "Allow"
        camera.settings.copy[LocaleTag("en")!, default: CopySet()][.prime, .message] =
            "Allow access to get a free reward"
        edited.features[.camera] = camera
        let fresh = (CopyLinter.lint(demo), CopyLinter.lint(edited))
        #expect(fresh.0 != fresh.1)

        var checkers = LintCheckers()
        #expect(CopyLinter.lint(demo, reusing: &checkers) == fresh.0)
        let compiled = checkers.count
        #expect(compiled == PreviewCatalogue.locales(of: demo).count)
        #expect(CopyLinter.lint(edited, reusing: &checkers) == fresh.1)
        #expect(CopyLinter.lint(demo, reusing: &checkers) == fresh.0)
        #expect(checkers.count == compiled, "the same locales reuse their checkers")
    }

    /// Locales of one language share a checker (its lists are its language's alone): every check of the shared one
    /// finds what a checker built for that very locale finds, for texts that trip the lists of several languages.
    @Test func localesOfOneLanguageShareACheckerThatFindsWhatTheirOwnFinds() throws {
        let tags = [
            "en", "en-AU", "en-GB", "fr", "fr-CA", "de-AT", "de", "zh-TW", "zh-HK", "zh-Hant", "zh", "zh-Hans-CN",
            "pt-BR", "pt", "ko-KR", "ja", "sv", "pl", "tr-TR", "ru",
        ]
        let texts =
            try PolicyFixtures.demo().orderedFeatures.flatMap { policy in
                policy.settings.copy.values.flatMap { $0.texts.values }
            } + [
                "Allow", "Don't Allow", "Not now", "Get a free reward", "Open Settings to turn it on", "Autoriser",
                "Erlauben Sie den Zugriff", "允许", "허용하기", "Tap Allow on the next screen", "Your data was used.",
                "Einstellungen öffnen", "設定を開く", "Ayarlar'ı açın", "Lütfen İzin Verin",
            ]
        var shared = LintCheckers()
        var checked = 0
        for tag in tags {
            let checker = shared.checker(for: LocaleTag(tag)!)
            let own = TextChecker(localeTag: LocaleTag(tag)!.description)
            #expect(checker.language == own.language)
            for text in texts {
                for severity in [LintSeverity.error, .warning] {
                    #expect(
                        checker.checkContinueLabel(text, pointer: .root, severity: severity)
                            == own.checkContinueLabel(text, pointer: .root, severity: severity))
                    #expect(
                        checker.checkSecondLabel(text, pointer: .root, severity: severity)
                            == own.checkSecondLabel(text, pointer: .root, severity: severity))
                    #expect(
                        checker.checkPrimingText(text, pointer: .root, severity: severity, incentiveSeverity: severity)
                            == own.checkPrimingText(
                                text, pointer: .root, severity: severity, incentiveSeverity: severity))
                }
                #expect(checker.checkSentence(text, pointer: .root) == own.checkSentence(text, pointer: .root))
                #expect(checker.checkPurpose(text, pointer: .root) == own.checkPurpose(text, pointer: .root))
                #expect(checker.pointsToSettings(text) == own.pointsToSettings(text))
                checked += 1
            }
        }
        #expect(checked == tags.count * texts.count)
        #expect(shared.count == tags.count)
    }

    /// A text checked once is not checked again, but its findings are those a fresh run gives at its new place: the
    /// pointer is the new one, and the same words under tracking (where the priming rules are errors, TR-1) keep
    /// their own severity.
    @Test func rememberedTextsKeepTheirPlaceAndSeverity() throws {
        let en = LocaleTag("en")!
        var document = try PolicyFixtures.demo()
        var camera = try #require(document.features[.camera])
        camera.settings.copy[en, default: CopySet()][.prime, .title] = "Get a free reward"
        document.features[.camera] = camera
        var checkers = LintCheckers()
        let first = CopyLinter.lint(document, reusing: &checkers)
        #expect(first == CopyLinter.lint(document))
        #expect(checkers.checkedTextCount > 0)

        // The same incentive (PA-6, a warning) on tracking's priming screen: another pointer, and an error there.
        var tracking = try #require(document.features[.tracking])
        tracking.settings.copy[en, default: CopySet()][.prime, .title] = "Get a free reward"
        document.features[.tracking] = tracking
        let reused = CopyLinter.lint(document, reusing: &checkers)
        let fresh = CopyLinter.lint(document)
        #expect(reused == fresh)
        let incentives = fresh.filter { $0.ruleId == "PA-6" && $0.pointer.description.hasSuffix("/prime/title") }
        #expect(Set(incentives.map(\.pointer.description)).count == 2)
        #expect(Set(incentives.map(\.severity)) == [.warning, .error])
    }

    /// The memory of checked texts is bounded: past its capacity it starts over, and findings stay the same.
    @Test func rememberedTextsAreBounded() throws {
        let document = try PolicyFixtures.demo()
        var checkers = LintCheckers()
        let finding = LintFinding(rule: .ps1, pointer: .root, message: "m")
        for index in 0..<(LintCheckers.checkedTextCapacity + 10) {
            checkers.remember(
                [finding],
                of: LintCheckers.CheckedText(
                    language: .english, key: CopyKey(.prime, .title), text: "text \(index)", primingSeverity: nil,
                    softSeverity: .warning))
        }
        #expect(checkers.checkedTextCount <= LintCheckers.checkedTextCapacity)
        #expect(CopyLinter.lint(document, reusing: &checkers) == CopyLinter.lint(document))
    }
}
