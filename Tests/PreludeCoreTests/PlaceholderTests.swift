import PreludeCore
import Testing

@Suite struct PlaceholderTests {
    @Test(arguments: [
        ("{appName} would like to use your camera.", ["appName"]),
        ("{appName} needs {feature}; {appName} again.", ["appName", "feature"]),
        ("No placeholders.", []),
        ("", []),
        ("{{appName}} is escaped.", []),
        ("{{{appName}}}", ["appName"]),
        ("{ appName } and {app name} and {1st} and {}", []),
        ("{_private} {a1}", ["_private", "a1"]),
        ("Unclosed {appName", []),
        ("「{appName}」がカメラへのアクセスを求めています。", ["appName"]),
        ("{appName}{feature}", ["appName", "feature"]),
    ])
    func findsNames(template: String, expected: [String]) {
        #expect(Placeholder.names(in: template) == expected)
    }

    static let values = ["appName": "Prelude Demo", "feature": "camera", "empty": ""]

    @Test(arguments: [
        ("{appName} would like to use your {feature}.", "Prelude Demo would like to use your camera."),
        ("{unknown} stays.", "{unknown} stays."),
        ("{{appName}} is literal.", "{appName} is literal."),
        ("{{{appName}}}", "{Prelude Demo}"),
        ("a }} b {{ c", "a } b { c"),
        ("lone { and } stay", "lone { and } stay"),
        ("{ appName }", "{ appName }"),
        ("Unclosed {appName", "Unclosed {appName"),
        ("[{empty}]", "[]"),
        ("「{appName}」がカメラを使います。", "「Prelude Demo」がカメラを使います。"),
        ("{appName}{feature}", "Prelude Democamera"),
        ("", ""),
    ])
    func fillsKnownNamesAndLeavesTheRest(template: String, expected: String) {
        #expect(Placeholder.fill(template, values: Self.values) == expected)
    }

    @Test func valuesAreInsertedVerbatim() {
        #expect(Placeholder.fill("{a}", values: ["a": "{b}", "b": "no"]) == "{b}")
    }

    @Test(arguments: [
        ("{appName} ok", false),
        ("{{literal}} ok", false),
        ("Unclosed {appName", true),
        ("{app name}", true),
        ("stray } brace", true),
        ("", false),
    ])
    func detectsUnpairedBraces(template: String, expected: Bool) {
        #expect(Placeholder.hasUnpairedBraces(template) == expected)
    }

    /// One scan gives what the two questions give, for templates with and without braces.
    @Test(arguments: [
        "", "plain text", "{appName} ok", "{{literal}} ok", "Unclosed {appName", "{app name}", "stray } brace",
        "{a}{b}{a} {{x}} }}", "{appName", "}{", "{1} {_x} {x1}", "Hi {appName}, {appName}!",
    ])
    func inspectsInOneScanWhatNamesAndUnpairedBracesFind(template: String) {
        let inspected = Placeholder.inspect(template)
        #expect(inspected.names == Placeholder.names(in: template))
        #expect(inspected.hasUnpairedBraces == Placeholder.hasUnpairedBraces(template))
    }
}
