import Foundation
import Testing

@testable import PreludeCore

/// GrowthBook's own `evalCondition` cases (Tests/GrowthBookConformance/evalCondition.json, MIT, source and licence
/// beside it) pass through ``Condition``: compiled as the policy compiles them, evaluated over the case's attributes.
@Suite struct GrowthBookConditionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let condition: JSONValue
        let attributes: JSONValue
        let expected: Bool
        var testDescription: String { name }
    }

    static func cases() throws -> [Case] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GrowthBookConformance/evalCondition.json")
        let json = try JSONValue(parsing: Array(try Data(contentsOf: url)))
        return (json["evalCondition"]?.arrayValue ?? []).compactMap { entry in
            guard let name = entry[0]?.stringValue, let condition = entry[1], let attributes = entry[2],
                let expected = entry[3]?.boolValue
            else { return nil }
            return Case(name: name, condition: condition, attributes: attributes, expected: expected)
        }
    }

    @Test func theFileHoldsEveryCaseUsed() throws {
        #expect(try Self.cases().count == 240)
    }

    @Test(arguments: try cases())
    func evaluatesAsGrowthBook(_ testCase: Case) {
        let (condition, _) = Condition.compile(testCase.condition)
        #expect(condition.matches(testCase.attributes) == testCase.expected)
        // The client's path: attributes as a flat dictionary.
        if case .object(let object) = testCase.attributes {
            let flat = Dictionary(object.members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            #expect(condition.matches(flat) == testCase.expected)
        }
    }
}
