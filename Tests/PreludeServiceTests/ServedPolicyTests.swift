import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// The served policy is the read path's one door: the admin API's canonical JSON, the policy fetch and decide's
/// resolved policy all come from it, each built once per revision.
@Suite struct ServedPolicyTests {
    static func snapshot(revision: Int, document: PolicyDocument = PublicFixture.demoDocument) -> ServedPolicy {
        ServedPolicy(
            appID: "demo", revision: revision, document: document,
            prepared: ServedPolicy.PreparedDocument(document), createdAt: 0, author: "t", message: nil,
            resolvedCacheCapacity: 64)
    }

    @Test func givesEachRevisionsCanonicalJSON() throws {
        var renamed = PublicFixture.demoDocument
        renamed.app.name = "Renamed"
        let first = Self.snapshot(revision: 1)
        let second = Self.snapshot(revision: 2, document: renamed)
        for _ in 0..<2 {
            #expect(first.canonicalJSON.serialized() == PublicFixture.demoDocument.jsonValue.serialized())
            #expect(second.canonicalJSON.serialized() == renamed.jsonValue.serialized())
        }
        // The canonical JSON is the stored canonical bytes, parsed.
        #expect(try JSONValue(parsing: first.canonicalBytes) == first.canonicalJSON)
    }

    /// A policy fetch and decide share one resolution per key: the response served for a query is the one for its
    /// context, and the resolved policy's locale is the one the response is served in.
    @Test func aFetchAndDecideShareOneResolution() throws {
        let snapshot = Self.snapshot(revision: 1)
        let request = PolicyQueryTests.parsed("platform=ios&os=17.4&locale=fr-CA&installId=abc")
        let served = try snapshot.response(for: request)
        let context = ClientContext(
            platform: .ios, osVersion: SemanticVersion("17.4"), locale: "fr-CA", installId: "abc")
        #expect(snapshot.response(for: context).response === served.response)
        #expect(snapshot.resolved(for: context).locale == served.locale)
        #expect(snapshot.resolvedResponseCount == 1)
        #expect(snapshot.plainQueryCount == 1)
    }

    /// A query that is not plain is answered (or refused) by the same door, and not remembered as plain.
    @Test func aDecodedQueryIsAnsweredAndNotRemembered() throws {
        let snapshot = Self.snapshot(revision: 1)
        let served = try snapshot.response(for: PolicyQueryTests.parsed("platform=IOS&locale=fr%2DCA"))
        #expect(served.locale.description == "fr")
        #expect(snapshot.plainQueryCount == 0)
        #expect(throws: ProblemDetails.self) { try snapshot.response(for: PolicyQueryTests.parsed("os=x")) }
    }
}
