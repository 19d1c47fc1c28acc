import PreludeCore
import Testing

@testable import PreludeService

/// The live policy's JSON that dry runs and writes diff against is built once per revision, is the document's
/// canonical JSON, and the memo stays small whatever the number of revisions.
@Suite struct LiveJSONMemoTests {
    static func snapshot(revision: Int, document: PolicyDocument = PublicFixture.demoDocument) -> ServedPolicy {
        ServedPolicy(
            appID: "demo", revision: revision, document: document,
            prepared: ServedPolicy.PreparedDocument(document), createdAt: 0, author: "t", message: nil,
            resolvedCacheCapacity: 64)
    }

    @Test func givesEachRevisionsCanonicalJSON() {
        let memo = LiveJSONMemo(capacity: 2)
        var renamed = PublicFixture.demoDocument
        renamed.app.name = "Renamed"
        let first = Self.snapshot(revision: 1)
        let second = Self.snapshot(revision: 2, document: renamed)
        for _ in 0..<2 {
            #expect(memo.json(of: first).serialized() == first.document.jsonValue.serialized())
            #expect(memo.json(of: second).serialized() == renamed.jsonValue.serialized())
        }
        #expect(memo.count == 2)
        // A revision equal to a remembered one is still another revision: found by identity, not by number.
        let again = Self.snapshot(revision: 1, document: renamed)
        #expect(memo.json(of: again).serialized() == renamed.jsonValue.serialized())
        #expect(memo.count == 2, "the oldest entry made room")
        #expect(memo.json(of: first).serialized() == first.document.jsonValue.serialized())
    }
}
