import Testing

@testable import PreludeCore

@Suite struct JSONValueTests {
    @Test(
        arguments: [
            ("null", JSONValue.null),
            ("true", .bool(true)),
            (" false ", .bool(false)),
            ("0", .integer(0)),
            ("-0", .integer(0)),
            ("42", .integer(42)),
            ("-17", .integer(-17)),
            ("9223372036854775807", .integer(Int.max)),
            ("9223372036854775808", .double(9223372036854775808.0)),
            ("1.5", .double(1.5)),
            ("1e3", .double(1000)),
            ("-2.5E-3", .double(-0.0025)),
            ("\"\"", .string("")),
            ("\"a\\\"b\\\\c\\/d\"", .string("a\"b\\c/d")),
            ("\"\\b\\f\\n\\r\\t\"", .string("\u{08}\u{0C}\n\r\t")),
            ("\"\\u00e9\\u4E2D\"", .string("é中")),
            ("\"\\ud834\\udd1e\"", .string("𝄞")),
            ("\"héllo 日本\"", .string("héllo 日本")),
            ("[]", .array([])),
            ("[1, [2, {}]]", .array([.integer(1), .array([.integer(2), .object(JSONObject())])])),
            ("{\"a\": 1, \"b\": [true, null]}", ["a": 1, "b": [true, nil]]),
            ("\u{FEFF}{}", .object(JSONObject())),
        ] as [(String, JSONValue)])
    func parsesValidText(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test(
        arguments: [
            ("", JSONParseError.Reason.emptyInput, 0),
            ("   ", .emptyInput, 3),
            ("[1,]", .unexpectedCharacter, 3),
            ("{\"a\":1,}", .unexpectedCharacter, 7),
            ("{'a':1}", .unexpectedCharacter, 1),
            ("[1 2]", .unexpectedCharacter, 3),
            ("01", .invalidNumber, 0),
            ("-", .invalidNumber, 0),
            ("1.", .invalidNumber, 0),
            ("1e", .invalidNumber, 0),
            (".5", .unexpectedCharacter, 0),
            ("1e999", .numberOutOfRange, 0),
            ("NaN", .unexpectedCharacter, 0),
            ("tru", .invalidLiteral, 0),
            ("nul", .invalidLiteral, 0),
            ("\"abc", .unexpectedEndOfInput, 0),
            ("\"a\u{01}\"", .unescapedControlCharacter, 2),
            ("\"a\nb\"", .unescapedControlCharacter, 2),
            ("\"\\x\"", .invalidEscape, 1),
            ("\"\\u12G4\"", .invalidUnicodeEscape, 1),
            ("\"\\ud834\"", .loneSurrogate, 1),
            ("\"\\udd1e\"", .loneSurrogate, 1),
            ("\"\\ud834\\u0041\"", .loneSurrogate, 1),
            ("{\"a\":1,\"a\":2}", .duplicateKey, 7),
            ("[1] x", .trailingCharacters, 4),
            ("{\"a\" 1}", .unexpectedCharacter, 5),
            ("[", .unexpectedEndOfInput, 1),
            ("{\"a\":", .unexpectedEndOfInput, 5),
            ("/* c */ 1", .unexpectedCharacter, 0),
        ] as [(String, JSONParseError.Reason, Int)])
    func rejectsInvalidText(text: String, reason: JSONParseError.Reason, offset: Int) {
        #expect {
            try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.reason == reason && error.offset == offset
        }
    }

    @Test func rejectsInvalidUTF8WithItsOffset() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0x22]
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
        do {
            _ = try JSONValue(parsing: bytes)
        } catch {
            #expect(error.reason == .invalidUTF8)
            #expect(error.offset == 2)
        }
    }

    @Test func reportsLineAndColumn() {
        do {
            _ = try JSONValue(parsing: "{\n  \"a\": 1,\n  \"b\": tru\n}")
            Issue.record("expected a parse error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
            #expect(error.description.contains("line 3, column 8"))
        }
    }

    @Test func refusesNestingBeyondTheLimit() throws {
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        _ = try JSONValue(parsing: ok)
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect { try JSONValue(parsing: deep) } throws: { ($0 as? JSONParseError)?.reason == .tooDeeplyNested }
        let hostile = String(repeating: "[", count: 100_000)
        #expect { try JSONValue(parsing: hostile) } throws: { ($0 as? JSONParseError)?.reason == .tooDeeplyNested }
    }

    @Test(
        arguments: [
            (JSONValue.string("a\"b\\c\n\u{01}/é"), "\"a\\\"b\\\\c\\n\\u0001/é\""),
            (.integer(-3), "-3"),
            (.double(1.5), "1.5"),
            (.double(.infinity), "null"),
            (["z": 1, "a": [true, nil, "x"]], "{\"z\":1,\"a\":[true,null,\"x\"]}"),
            (.array([]), "[]"),
            (.object(JSONObject()), "{}"),
        ] as [(JSONValue, String)])
    func serializesCompactly(value: JSONValue, expected: String) {
        #expect(value.serialized() == expected)
    }

    @Test func serializesPrettyInInsertionOrder() {
        let value: JSONValue = ["b": 1, "a": ["x": [1, 2], "e": [:] as JSONValue]]
        #expect(
            value.serialized(.pretty) == """
                {
                  "b": 1,
                  "a": {
                    "x": [
                      1,
                      2
                    ],
                    "e": {}
                  }
                }

                """)
    }

    @Test(arguments: [
        "{\"b\":[1,2.5,-0.001,1e+20],\"a\":\"\\u0000 ☃ 𝄞\",\"n\":null,\"t\":true,\"o\":{}}",
        "[[[[\"deep\"]]],{\"k\":{\"k\":{}}}]",
    ])
    func roundTripsThroughSerialization(text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(try JSONValue(parsing: value.serialized()) == value)
        #expect(try JSONValue(parsing: value.serialized(.pretty)) == value)
        #expect(try JSONValue(parsing: value.serialized()).serialized() == value.serialized())
    }

    @Test func keepsMemberOrder() throws {
        let value = try JSONValue(parsing: "{\"z\":1,\"m\":2,\"a\":3}")
        #expect(value.objectValue?.keys == ["z", "m", "a"])
        #expect(value.serialized() == "{\"z\":1,\"m\":2,\"a\":3}")
    }

    @Test func numberHelperKeepsIntegersIntegral() {
        #expect(JSONValue.number(72) == .integer(72))
        #expect(JSONValue.number(1.5) == .double(1.5))
        #expect(JSONValue.integer(3).doubleValue == 3)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.double(3.2).intValue == nil)
    }

    /// The word-at-a-time escape check must find a character that needs escaping at every position and length.
    @Test func escapesEverySpecialCharacterWhereverItStands() throws {
        func reference(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case "\u{08}": result += "\\b"
                case "\u{0C}": result += "\\f"
                case let control where control.value < 0x20:
                    let hex = String(control.value, radix: 16)
                    result += "\\u00" + (hex.count == 1 ? "0" + hex : hex)
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        let specials: [Character] = ["\"", "\\", "\u{0}", "\u{1F}", "\n", "\u{7F}", "é", " ", "!", "#", "[", "]", "~"]
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var characters = Array(repeating: Character("a"), count: length)
                    if length > 0 { characters[position] = special }
                    let text = String(characters)
                    #expect(JSONValue.string(text).serialized() == reference(text), "\(Array(text.utf8))")
                    #expect(try JSONValue(parsing: JSONValue.string(text).serialized()) == .string(text))
                }
            }
        }
    }
}
