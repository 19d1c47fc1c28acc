import Foundation
import Testing

@testable import PreludeCore

@Suite struct PolicyDocsTests {
    /// The "Complete example" of docs/policy.md (its last JSON block) validates clean.
    @Test func documentedExampleValidates() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/policy.md")
        let markdown = try String(contentsOf: url, encoding: .utf8)
        let blocks = markdown.components(separatedBy: "```json\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let example = try #require(blocks.last)
        let validation = PolicyValidator.validate(text: example)
        #expect(validation.problems.map(\.description) == [])
        #expect(validation.document?.features.count == 2)
    }
}
