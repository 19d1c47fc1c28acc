import Testing

@testable import PreludeCore

@Suite struct JSONObjectTests {
    /// Names `m0`, `m1`, ... so a test can build objects on both sides of the index threshold.
    private static func names(_ count: Int) -> [String] { (0..<count).map { "m\($0)" } }

    @Test(arguments: [0, 1, 5, JSONObject.indexThreshold, JSONObject.indexThreshold + 1, 100])
    func keepsInsertionOrderAndFindsEveryMember(count: Int) {
        var object = JSONObject()
        for (offset, name) in Self.names(count).reversed().enumerated() { object[name] = .integer(offset) }
        #expect(object.count == count)
        #expect(object.isEmpty == (count == 0))
        #expect(object.keys == Self.names(count).reversed())
        #expect(object.members.map(\.key) == object.keys)
        #expect(Array(object).map(\.key) == object.keys)
        for (offset, name) in Self.names(count).reversed().enumerated() {
            #expect(object[name] == .integer(offset))
            #expect(object.contains(name))
        }
        #expect(object["absent"] == nil)
        #expect(!object.contains("absent"))
    }

    @Test(arguments: [3, JSONObject.indexThreshold + 1, 40])
    func replacingKeepsThePosition(count: Int) {
        var object = JSONObject()
        for name in Self.names(count) { object[name] = .null }
        object["m1"] = .string("new")
        #expect(object.keys == Self.names(count))
        #expect(object["m1"] == .string("new"))
        #expect(object.count == count)
    }

    @Test(arguments: [3, JSONObject.indexThreshold + 1, JSONObject.indexThreshold + 2, 40])
    func removingShiftsLaterMembersAndKeepsLookupsRight(count: Int) {
        var object = JSONObject()
        for (offset, name) in Self.names(count).enumerated() { object[name] = .integer(offset) }
        object["m1"] = nil
        object["absent"] = nil
        var expected = Self.names(count)
        expected.remove(at: 1)
        #expect(object.keys == expected)
        #expect(object["m1"] == nil)
        #expect(!object.contains("m1"))
        // Every later member moved one place; lookups (linear or through the index) must still find them.
        for name in expected { #expect(object[name] == .integer(Int(name.dropFirst())!)) }
        // A removed name added again goes to the end.
        object["m1"] = .bool(true)
        #expect(object.keys.last == "m1")
        #expect(object["m1"] == .bool(true))
        #expect(object[expected.last!] == .integer(count - 1))
    }

    @Test func shrinkingBelowTheThresholdAndGrowingAgainKeepsLookups() {
        var object = JSONObject()
        let count = JSONObject.indexThreshold + 3
        for (offset, name) in Self.names(count).enumerated() { object[name] = .integer(offset) }
        for name in Self.names(count).prefix(10) { object[name] = nil }
        #expect(object.count == count - 10)
        for name in Self.names(count).dropFirst(10) { #expect(object[name] == .integer(Int(name.dropFirst())!)) }
        for offset in 0..<20 { object["n\(offset)"] = .integer(-offset) }
        for offset in 0..<20 { #expect(object["n\(offset)"] == .integer(-offset)) }
        #expect(object.keys == Array(Self.names(count).dropFirst(10)) + (0..<20).map { "n\($0)" })
    }

    @Test(arguments: [2, 30])
    func repeatedKeyInPairsKeepsFirstPositionAndLastValue(extra: Int) {
        var pairs: [(String, JSONValue)] = [("a", 1), ("b", 2)]
        for offset in 0..<extra { pairs.append(("x\(offset)", .integer(offset))) }
        pairs.append(("a", 3))
        let object = JSONObject(pairs)
        #expect(object.keys == ["a", "b"] + (0..<extra).map { "x\($0)" })
        #expect(object["a"] == 3)
        #expect(object.count == extra + 2)
    }

    @Test(arguments: [4, 25])
    func equalityAndHashIgnoreOrder(count: Int) {
        let pairs = Self.names(count).enumerated().map { ($1, JSONValue.integer($0)) }
        let forward = JSONObject(pairs)
        let backward = JSONObject(pairs.reversed())
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(Set([JSONValue.object(forward), .object(backward)]).count == 1)

        var changed = backward
        changed["m0"] = .integer(-1)
        #expect(forward != changed)
        var renamed = forward
        renamed["m0"] = nil
        renamed["other"] = .integer(0)
        #expect(forward != renamed)
        var longer = forward
        longer["extra"] = .null
        #expect(forward != longer)
        #expect(longer != forward)
    }

    @Test func parserKeepsOrderAndRejectsDuplicatesInBigObjects() throws {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }
        let value = try JSONValue(parsing: "{" + members.joined(separator: ",") + "}")
        let object = try #require(value.objectValue)
        #expect(object.keys == (0..<40).map { "k\($0)" })
        #expect(object["k39"] == .integer(39))
        #expect(value.serialized() == "{" + members.joined(separator: ",") + "}")

        for duplicate in [3, 30] {
            let text = "{" + (members + ["\"k\(duplicate)\":0"]).joined(separator: ",") + "}"
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
            do {
                _ = try JSONValue(parsing: text)
            } catch {
                #expect(error.reason == .duplicateKey)
            }
        }
    }
}
