import Testing

@testable import PreludeCore

@Suite struct JSONPointerTests {
    @Test(
        arguments: [
            ([], ""),
            (["foo"], "/foo"),
            (["a/b"], "/a~1b"),
            (["m~n"], "/m~0n"),
            (["~1"], "/~01"),
            (["", "x"], "//x"),
            (["features", "camera", "copy", "zh-Hant"], "/features/camera/copy/zh-Hant"),
        ] as [([String], String)])
    func escapesAndParsesTokens(tokens: [String], text: String) throws {
        #expect(JSONPointer(tokens: tokens).description == text)
        #expect(try #require(JSONPointer(text)).tokens == tokens)
    }

    @Test(arguments: ["foo", "/a~2", "/a~"])
    func rejectsMalformedPointers(text: String) {
        #expect(JSONPointer(text) == nil)
    }

    // RFC 6901 §5 examples.
    @Test(
        arguments: [
            ("", JSONValue?.some(nil)),
            ("/foo", ["bar", "baz"]),
            ("/foo/0", "bar"),
            ("/", 0),
            ("/a~1b", 1),
            ("/c%d", 2),
            ("/e^f", 3),
            ("/g|h", 4),
            ("/i\\j", 5),
            ("/k\"l", 6),
            ("/ ", 7),
            ("/m~0n", 8),
            ("/foo/01", nil),
            ("/foo/2", nil),
            ("/nope", nil),
        ] as [(String, JSONValue?)])
    func resolvesRFCExamples(text: String, expected: JSONValue?) throws {
        let document: JSONValue = [
            "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7,
            "m~n": 8,
        ]
        let pointer = try #require(JSONPointer(text))
        if text.isEmpty {
            #expect(document[pointer] == document)
        } else {
            #expect(document[pointer] == expected)
        }
    }

    @Test func buildsByAppending() {
        let pointer = JSONPointer.root.appending("experiments").appending(0).appending("variants")
        #expect(pointer.description == "/experiments/0/variants")
        #expect(pointer.parent?.description == "/experiments/0")
    }
}
