import Testing

@testable import PreludeCore

/// Lint for the iOS 27 catalogue: app-level consents (AC-1, AC-2) instead of the priming label rules, PA-2's
/// "Allow and continue" regressions (App Review, July 2026, 5.1.1(iv)), TR-2's one allowed cadence (never prime),
/// and the policy's intended purpose strings with the Markdown tracking string's subset (PS-11).
@Suite struct ConsentAndPurposeStringLintTests {
    /// The minimal document with a tracking feature whose priming texts are complete, then `patch`.
    static func document(_ patch: String) throws -> JSONValue {
        try PolicyFixtures.minimal(
            patchedWith: #"{"features": {"tracking": {"copy": {"en": {"prime": {"title": "Ads that fit", "#
                + #""message": "{appName} shows ads. You decide on the next screen."}}}}}}"#
        ).mergePatch(try JSONValue(parsing: patch))
    }

    static func lint(_ patch: String) throws -> [LintFinding] {
        let validation = PolicyValidator.validate(try document(patch))
        let document = try #require(validation.document, "\(validation.problems)")
        return CopyLinter.lint(document)
    }

    static let consentCopy = """
        "copy": {"en": {"prime": {"title": "Smart summaries",
          "message": "{appName} sends your note titles to Example AI, which writes their summaries and keeps nothing.",
          "continueLabel": "%@", "cancelLabel": "Don’t Allow"},
          "denied": {"title": "Summaries are off", "message": "{appName} sends nothing to Example AI."}}}
        """

    static func consent(style: String, continueLabel: String) -> String {
        #"{"features": {"aiDataSharing": {"style": "\#(style)", "#
            + consentCopy.replacingOccurrences(of: "%@", with: continueLabel) + "}}}"
    }

    @Test func aConsentNeedsAVisibleDeclineAndANamedAction() throws {
        let good = try Self.lint(Self.consent(style: "twoButton", continueLabel: "Allow sharing"))
        #expect(good.filter { $0.pointer.description.hasPrefix("/features/aiDataSharing") }.isEmpty, "\(good)")
        let single = try Self.lint(Self.consent(style: "single", continueLabel: "Allow sharing"))
        #expect(single.contains { $0.ruleId == "AC-1" && $0.severity == .error })
        let neutral = try Self.lint(Self.consent(style: "twoButton", continueLabel: "Continue"))
        #expect(neutral.contains { $0.ruleId == "AC-2" && $0.pointer.description.hasSuffix("prime/continueLabel") })
    }

    @Test func aConsentCannotBeAskedDirectly() throws {
        let json = try PolicyFixtures.minimal(
            patchedWith: #"{"features": {"aiDataSharing": {"strategy": "direct"}}}"#)
        let problems = PolicyValidator.validate(json).problems
        #expect(problems.contains { $0.pointer.description == "/features/aiDataSharing/strategy" })
    }

    /// The July 2026 rejection of a primer's "Allow and continue" under 5.1.1(iv), in every language the lint
    /// speaks: PA-2 refuses each on a priming screen (an error on tracking, TR-1).
    @Test(
        arguments: [
            ("en", "Allow and continue"), ("fr", "Autoriser et continuer"), ("ja", "許可して続ける"),
            ("zh-Hans", "允许并继续"), ("zh-Hant", "允許並繼續"),
        ])
    func allowAndContinueIsRefusedOnPrimers(locale: String, label: String) throws {
        let findings = try Self.lint(
            #"{"features": {"tracking": {"copy": {"\#(locale)": {"prime": {"continueLabel": "\#(label)"}}}}}}"#)
        let pointer = "/features/tracking/copy/\(locale)/prime/continueLabel"
        #expect(findings.contains { $0.ruleId == "PA-2" && $0.severity == .error && $0.pointer.description == pointer })
    }

    @Test func trackingMayBeNeverPrimedButNotRecadenced() throws {
        let never = try Self.lint(
            #"{"features": {"tracking": {"targeting": [{"name": "minors", "when": {"ageRange": "<18"}, "#
                + #""set": {"cadence": {"prime": {"maxShows": 0}}}}]}}}"#)
        #expect(!never.contains { $0.ruleId == "TR-2" })
        let again = try Self.lint(
            #"{"features": {"tracking": {"targeting": [{"name": "minors", "when": {"ageRange": "<18"}, "#
                + #""set": {"cadence": {"prime": {"maxShows": 2}}}}]}}}"#)
        #expect(again.contains { $0.ruleId == "TR-2" })
    }

    @Test func theMarkdownSubsetIsBoldItalicBulletsAndParagraphs() {
        let fine = "We show **ads** that fit *you*.\n\n- Your activity in other apps\n- Your activity on websites"
        #expect(MarkdownSubset.violations(in: fine).isEmpty)
        #expect(
            MarkdownSubset.plainText(fine)
                == "We show ads that fit you. Your activity in other apps Your activity on websites")
        let cases: [(String, String)] = [
            ("# Ads", "a heading"), ("See [the policy](https://example.com).", "a link"),
            ("Use `IDFA`.", "code"), ("1. First", "a numbered list (only bullet lists are supported)"),
            ("<u>Ads</u>", "underline (not supported)"), ("> Quote", "a block quote"),
        ]
        for (text, construct) in cases {
            #expect(MarkdownSubset.violations(in: text).map(\.construct) == [construct], "\(text)")
        }
    }

    @Test func thePolicysIntendedPurposeStringsAreLintedWhereTheyAreWritten() throws {
        let patch = #"""
            {"features": {"tracking": {"purposeStrings": {"en": {
              "NSUserTrackingUsageDescription": "We use your activity in other apps to show you more relevant ads.",
              "NSUserTrackingMarkdownUsageDescription": "## Ads\nWith your permission, we use **your activity** in other companies’ apps to show you more relevant ads, for example ads for sports gear after you read about running."
            }}}}}
            """#
        let findings = try Self.lint(patch)
        let pointer = "/features/tracking/purposeStrings/en/NSUserTrackingMarkdownUsageDescription"
        #expect(
            findings.filter { $0.pointer.description.hasPrefix("/features/tracking/purposeStrings") }.map(\.ruleId) == [
                "PS-11"
            ])
        #expect(findings.contains { $0.pointer.description == pointer })
        // Server-only: the client document leaves them out; the stored form keeps them.
        let document = try #require(PolicyValidator.validate(try Self.document(patch)).document)
        #expect(document.hasServerOnlyMembers)
        #expect(document.jsonValue["features"]?["tracking"]?["purposeStrings"] != nil)
        #expect(document.clientJSONValue["features"]?["tracking"]?["purposeStrings"] == nil)
        #expect(PolicyValidator.validate(document.clientJSONValue).problems.isEmpty)
    }

    @Test func anUnknownPurposeStringKeyIsRefused() throws {
        let json = try PolicyFixtures.minimal(
            patchedWith: #"{"features": {"tracking": {"purposeStrings": {"en": {"NSTrackingUsage": "Ads."}}}}}"#)
        let problems = PolicyValidator.validate(json).problems
        #expect(problems.map(\.pointer.description).contains("/features/tracking/purposeStrings/en/NSTrackingUsage"))
    }
}
