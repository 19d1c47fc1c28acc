import Foundation
import PreludeCore
import Testing

@testable import PreludeService

/// The apply's reuse of a proposal's checks: exact (keyed by the whole canonical text), and a miss checks again.
@Suite struct CheckedProposalsTests {
    static let demo = try! String(
        contentsOfFile: ServiceFixture.repositoryRoot + "/config/demo-policy.json", encoding: .utf8)

    @Test func aMissValidatesAndLintsAndAHitReturnsTheSameChecks() throws {
        let canonical = try #require(PolicyValidator.validate(text: Self.demo).document).jsonValue.serialized()
        let cache = CheckedProposals(capacity: 2)
        #expect(cache.entry(canonical: canonical) == nil)
        guard case .success(let first) = cache.check(canonical: canonical) else {
            Issue.record("the demo policy does not validate")
            return
        }
        #expect(first.findings == CopyLinter.lint(first.document))
        #expect(cache.entry(canonical: canonical)?.document == first.document)
    }

    @Test func onlyTheSameTextHits() throws {
        let document = try #require(PolicyValidator.validate(text: Self.demo).document)
        let canonical = document.jsonValue.serialized()
        let cache = CheckedProposals(capacity: 2)
        cache.remember(canonical: canonical, document: document, findings: [])
        // One byte more (a different document) is checked on its own: here it does not even validate.
        let other = canonical.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":2"#)
        #expect(other != canonical)
        #expect(cache.entry(canonical: other) == nil)
        guard case .failure(let failure) = cache.check(canonical: other) else {
            Issue.record("schemaVersion 2 validated")
            return
        }
        #expect(failure.problems.contains { $0.pointer.description == "/schemaVersion" })
        #expect(cache.entry(canonical: canonical)?.findings == [])
    }
}
