import Testing

@testable import PreludeCore

@Suite struct SafeRegexTests {
    @Test(arguments: [
        ("-12-25$", "1980-12-25", true), ("-12-25$", "1980-12-25x", false), ("(Mobile|Tablet)", "Android Mobile", true),
        ("^ping", "pingpong", true), ("^ping", "a pingpong", false), ("a{2,3}b", "caab", true),
        ("a{2,3}b", "cab", false),
        ("^a{3}$", "aaa", true), ("^a{3}$", "aaaa", false), ("^[a-c]+$", "abcab", true), ("^[^a-c]+$", "xyz", true),
        ("^[^a-c]+$", "xaz", false), ("\\d{4}-\\d{2}", "on 2026-11 now", true),
        ("^\\w+@\\w+\\.com$", "a_1@b.com", true),
        ("\\bcat\\b", "a cat sat", true), ("\\bcat\\b", "concatenate", false), ("^a.c$", "a\nc", false),
        ("^a.c$", "abc", true), ("colou?r", "color", true), ("^(?:ab)*$", "ababab", true), ("^(?:ab)*$", "aba", false),
        ("^$", "", true), ("x*", "anything", true), ("^\\u00e9t\\x65$", "été", false), ("^\\u00e9t\\x65$", "éte", true),
        ("[\\d_]", "_", true), ("a{,2}", "a{,2}", true), ("^\\/path\\.$", "/path.", true), ("^(a|b)+?c$", "abac", true),
        ("^[a-]$", "-", true), ("^\\s+$", " \t\u{3000}", true), ("^\\S$", " ", false),
    ])
    func matchesAsJavaScriptTests(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try SafeRegex(pattern).matches(text) == expected)
    }

    @Test func caseInsensitiveFoldsLettersAndClasses() throws {
        #expect(try SafeRegex("(mobile|tablet)", caseInsensitive: true).matches("Android MOBILE"))
        #expect(try SafeRegex("^[a-c]+$", caseInsensitive: true).matches("ABC"))
        #expect(try !SafeRegex("(mobile|tablet)").matches("Android MOBILE"))
    }

    @Test(arguments: [
        "(a)\\1", "(?=a)", "(?!a)", "(?<=a)b", "(?<name>a)", "a**", "*a", "+", "a{3,2}", "a{1001}", "[b-a]", "(a", "a)",
        "[abc", "\\", "\\q", "\\1", "^*", "\\x4", "\\012",
    ])
    func refusesWhatIsOutsideTheSubset(_ pattern: String) {
        #expect(throws: SafeRegex.SyntaxError.self) { try SafeRegex(pattern) }
    }

    @Test func refusesPatternsThatExpandTooFar() {
        #expect(throws: SafeRegex.SyntaxError.self) { try SafeRegex("(a{1000}){1000}") }
        #expect(throws: SafeRegex.SyntaxError.self) { try SafeRegex(String(repeating: "a", count: 1025)) }
    }

    @Test func classicBacktrackingBombsRunInLinearSteps() throws {
        // (a+)+$ and (a|a)*b backtrack exponentially in a backtracking engine on "aaaa…!"; here each input scalar
        // visits each program step at most once, so 20 000 characters answer at once.
        let input = String(repeating: "a", count: 20_000) + "!"
        #expect(try !SafeRegex("^(a+)+$").matches(input))
        #expect(try !SafeRegex("(a|a)*b").matches(input))
        #expect(try !SafeRegex("^(a|aa)*c$").matches(input))
    }
}
