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
}
