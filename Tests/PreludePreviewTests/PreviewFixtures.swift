import Foundation
import PreludeCore

@testable import PreludePreview

/// Policies for the renderer tests: the demo policy and the fixtures beside this file.
enum PreviewFixtures {
    private static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A document read from `url`; fails the test when it does not validate.
    static func document(at url: URL) throws -> PolicyDocument {
        let validation = PolicyValidator.validate(bytes: Array(try Data(contentsOf: url)))
        guard let document = validation.document else {
            throw FixtureError(problems: validation.problems.map(\.description))
        }
        return document
    }

    /// config/demo-policy.json.
    static func demo() throws -> PolicyDocument {
        try document(
            at: here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "config/demo-policy.json"))
    }

    /// Fixtures/NAME.
    static func fixture(_ name: String) throws -> PolicyDocument {
        try document(at: here.appendingPathComponent("Fixtures").appendingPathComponent(name))
    }

    /// An input with a fixed, fake hash.
    static func input(_ document: PolicyDocument, origin: String = "test", revision: Int? = nil) -> PreviewInput {
        PreviewInput(document: document, origin: origin, revision: revision, sha256: String(repeating: "ab", count: 32))
    }

    struct FixtureError: Error {
        let problems: [String]
    }
}
