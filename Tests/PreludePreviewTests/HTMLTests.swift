import PreludeCore
import Testing

@testable import PreludePreview

@Suite struct HTMLTests {
    private func finding(_ message: String) -> LintFinding {
        LintFinding(ruleId: "PA-2", severity: .error, pointer: .root, message: message)
    }

    @Test func highlightsEveryOccurrenceIgnoringCaseAndEscapes() {
        #expect(
            HTML.highlight("Allow <b> and allow", words: ["allow"])
                == "<mark>Allow</mark> &lt;b&gt; and <mark>allow</mark>")
        #expect(HTML.highlight("nothing", words: []) == "nothing")
    }

    @Test func findsTheOffendingWordsAFindingQuotes() {
        let label = finding(#"The priming action "Allow access" suggests granting on our screen ("Allow"); label it."#)
        #expect(HTML.offendingWords(in: "Allow access", findings: [label]) == ["Allow"])
        let stop = finding(#"The text ends with "s"; end it with ".""#)
        #expect(HTML.offendingWords(in: "No full stops", findings: [stop]).isEmpty)
        #expect(HTML.offendingWords(in: "Something else", findings: [label]).isEmpty)
    }
}
