import Testing

@testable import PreludeCore

@Suite struct JSONMergePatchTests {
    // RFC 7396 Appendix A.
    @Test(arguments: [
        ("{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"),
        ("{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}"),
        ("{\"a\":\"b\"}", "{\"a\":null}", "{}"),
        ("{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}"),
        ("{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"),
        ("{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}"),
        ("{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{\"a\":{\"b\":\"d\"}}"),
        ("{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}", "{\"a\":[1]}"),
        ("[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]"),
        ("{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]"),
        ("{\"a\":\"foo\"}", "null", "null"),
        ("{\"a\":\"foo\"}", "\"bar\"", "\"bar\""),
        ("{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}"),
        ("[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}"),
        ("{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}"),
    ])
    func appliesAppendixVectors(target: String, patch: String, expected: String) throws {
        let result = try JSONValue(parsing: target).mergePatch(try JSONValue(parsing: patch))
        #expect(result == (try JSONValue(parsing: expected)))
    }

    @Test func keepsExistingOrderAndAppendsNewMembers() throws {
        var target = try JSONValue(parsing: "{\"z\":1,\"a\":2}")
        target.applyMergePatch(try JSONValue(parsing: "{\"a\":3,\"m\":4}"))
        #expect(target.serialized() == "{\"z\":1,\"a\":3,\"m\":4}")
    }
}
