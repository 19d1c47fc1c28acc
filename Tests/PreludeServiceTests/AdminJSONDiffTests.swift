import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// The structural diff shown by validate, revision diffs and audit records.
@Suite struct AdminJSONDiffTests {
    @Test func reportsAddRemoveReplaceWithPointers() throws {
        let old = try JSONValue(parsing: #"{"a": 1, "b": {"c": "x", "d": [1, 2, 3]}, "e/f": true}"#)
        let new = try JSONValue(parsing: #"{"a": 1.0, "b": {"c": "y", "d": [1, 5]}, "g": null}"#)
        let changes = JSONDiff.changes(from: old, to: new).map { "\($0.op.rawValue) \($0.pointer)" }
        #expect(changes == ["replace /b/c", "replace /b/d/1", "remove /b/d/2", "remove /e~1f", "add /g"])
    }

    @Test func equalDocumentsHaveNoChangesAndKindChangesReplace() throws {
        let document = try JSONValue(parsing: #"{"x": [{"y": 1}]}"#)
        #expect(JSONDiff.changes(from: document, to: document).isEmpty)
        let changes = JSONDiff.changes(from: ["x": 1], to: ["x": ["y": 1]])
        #expect(changes == [JSONDiff.Change(op: .replace, pointer: "/x", from: 1, to: ["y": 1])])
        #expect(changes[0].jsonValue.serialized() == #"{"op":"replace","pointer":"/x","from":1,"to":{"y":1}}"#)
    }

    @Test func summaryTruncatesLongLists() {
        let changes = (0..<5).map {
            JSONDiff.Change(op: .add, pointer: JSONPointer.root.appending("k\($0)"), from: nil, to: 1)
        }
        let summary = JSONDiff.summary(changes, limit: 2)
        #expect(summary["changeCount"] == 5)
        #expect(summary["changes"]?.arrayValue?.count == 2)
        #expect(summary["truncated"] == true)
    }

    @Test func prettyIsAskedByQueryOrAcceptParameter() {
        func request(_ query: [(name: String, value: String)], accept: String? = nil) -> PreludeHTTP.HTTPRequest {
            var headers = PreludeHTTP.HTTPHeaders()
            if let accept { headers.add("Accept", accept) }
            return PreludeHTTP.HTTPRequest(method: .get, path: "/", query: query, headers: headers)
        }
        #expect(AdminResponse.wantsPretty(request([("pretty", "")])))
        #expect(!AdminResponse.wantsPretty(request([("pretty", "false")])))
        #expect(AdminResponse.wantsPretty(request([], accept: "application/json; indent")))
        #expect(AdminResponse.wantsPretty(request([], accept: "text/html, application/json;indent=2")))
        #expect(!AdminResponse.wantsPretty(request([], accept: "application/json")))
    }
}
