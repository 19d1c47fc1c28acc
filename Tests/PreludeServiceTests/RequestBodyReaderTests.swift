import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// The one reader of JSON request bodies: typed getters, pointers, unknown members, wrong types, and the problem a
/// body with problems becomes.
@Suite struct RequestBodyReaderTests {
    private static func reader(_ text: String, at pointer: String = "") throws -> RequestBodyReader {
        let value = try JSONValue(parsing: Array(text.utf8))
        return RequestBodyReader(try #require(value.objectValue), at: pointer)
    }

    @Test func typedGettersReturnValuesOfTheirTypeWithoutProblems() throws {
        var reader = try Self.reader(
            #"{"name": "a", "on": true, "count": 3, "list": [1, 2], "object": {"x": 1}}"#)
        #expect(reader.read("name", as: .string) == "a")
        #expect(reader.read("on", as: .bool) == true)
        #expect(reader.read("count", as: .integer) == 3)
        #expect(reader.read("list", as: .array) == [.integer(1), .integer(2)])
        #expect(reader.read("object", as: .object)?["x"] == .integer(1))
        #expect(reader.read("absent", as: .string) == nil)
        #expect(reader.problems.isEmpty)
    }

    @Test func aWrongTypeIsATypeMismatchAtTheMembersPointer() throws {
        var reader = try Self.reader(#"{"name": 7, "on": "yes", "list": {}}"#, at: "/events/3")
        #expect(reader.read("name", as: .string) == nil)
        #expect(reader.read("on", as: .bool, mismatch: "'on' is true or false") == nil)
        #expect(reader.read("list", as: .array) == nil)
        #expect(
            reader.problems == [
                FieldProblem(
                    pointer: "/events/3/name", code: "type.mismatch", detail: "expected a string, found number"),
                FieldProblem(pointer: "/events/3/on", code: "type.mismatch", detail: "'on' is true or false"),
                FieldProblem(
                    pointer: "/events/3/list", code: "type.mismatch", detail: "expected an array, found object"),
            ])
    }

    @Test func aRequiredMemberMissingIsReportedAndNullCountsAsAbsentOnlyWhenAsked() throws {
        var reader = try Self.reader(#"{"a": null, "b": null}"#)
        #expect(reader.read("a", as: .string, missing: "a is required", nullIsAbsent: true) == nil)
        #expect(reader.read("b", as: .string, missing: "b is required") == nil)
        #expect(reader.read("c", as: .string, missing: "c is required") == nil)
        #expect(
            reader.problems == [
                FieldProblem(pointer: "/a", code: "member.missing", detail: "a is required"),
                FieldProblem(pointer: "/b", code: "type.mismatch", detail: "expected a string, found null"),
                FieldProblem(pointer: "/c", code: "member.missing", detail: "c is required"),
            ])
    }

    @Test func unknownMembersAreReportedInTheBodysOrderWithEscapedPointers() throws {
        var reader = try Self.reader(#"{"z": 1, "name": "a", "a/b": 2, "m~n": 3}"#)
        reader.reportUnknown(allowed: ["name"]) { "unknown member '\($0)'" }
        #expect(reader.unknownMembers(allowed: ["name"]) == ["z", "a/b", "m~n"])
        #expect(
            reader.problems.map(\.pointer) == ["/z", "/a~1b", "/m~0n"]
                && reader.problems.allSatisfy { $0.code == "member.unknown" })
        #expect(reader.problems.first?.detail == "unknown member 'z'")
    }

    @Test func arrayItemsHaveTheirIndexInThePointer() throws {
        var reader = try Self.reader(#"{"events": ["x"]}"#, at: "/w")
        reader.report("events", index: 0, "value.invalid", "not an event type")
        #expect(
            reader.problems == [
                FieldProblem(pointer: "/w/events/0", code: "value.invalid", detail: "not an event type")
            ])
    }

    @Test func aBodyThatIsNotAnObjectIsA422AtTheRoot() {
        #expect(throws: ProblemDetails.self) { try RequestBodyReader(body: .array([]), expected: "an object") }
        do {
            _ = try RequestBodyReader(body: .string("x"), expected: "the body must be an object")
        } catch {
            #expect(error.status == .unprocessableContent)
            #expect(
                error.errors == [FieldProblem(pointer: "", code: "type.mismatch", detail: "the body must be an object")]
            )
        }
    }

    @Test func finishThrowsEveryProblemAtOnceAndNothingWhenThereIsNone() throws {
        var reader = try Self.reader(#"{"a": 1, "b": 2}"#)
        try reader.finish { RequestBodyReader.unprocessable($0) }
        _ = reader.read("a", as: .string)
        _ = reader.read("b", as: .string)
        do {
            try reader.finish { RequestBodyReader.unprocessable($0, consequence: "no token was created") }
            Issue.record("finish did not throw")
        } catch {
            #expect(error.status == .unprocessableContent)
            #expect(error.detail == "2 problems; no token was created")
            #expect(error.errors.map(\.pointer) == ["/a", "/b"])
        }
    }
}
