import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// A resolved-policy entry is one prepared response per resolution: the fields the endpoint always sent, in
/// the same order, for both codings and the 304, and the same prepared value for every request.
@Suite struct ResolvedPolicyResponseTests {
    static let cacheControl = PolicyCacheControl(maxAge: 60, staleWhileRevalidate: 1, staleIfError: 2)
    static let snapshot = makeSnapshot()

    /// A snapshot of the demo policy with its own resolved-response cache (the tests of this suite run in
    /// parallel; one that checks the cache's identity takes a snapshot no other test fills).
    static func makeSnapshot() -> ServedPolicy {
        ServedPolicy(
            appID: "demo", revision: 1, document: PublicFixture.demoDocument,
            prepared: ServedPolicy.PreparedDocument(PublicFixture.demoDocument), createdAt: 0, author: "t",
            message: nil, resolvedCacheCapacity: 8, cacheControl: cacheControl)
    }

    static func request(_ headers: HTTPHeaders) -> HTTPRequest {
        HTTPRequest(method: .get, path: "/v1/apps/demo/policy", headers: headers)
    }

    static func fields(_ response: HTTPResponse) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    @Test func entryServesTheEndpointsFieldsForEachCoding() {
        let snapshot = Self.makeSnapshot()
        let context = ClientContext(platform: .ios, locale: "fr", installId: "X")
        let entry = snapshot.response(for: context)
        #expect(entry.locale.description == "fr")
        let resolved = Self.cacheControl.resolved
        let identity = entry.response.response(to: Self.request(["Accept-Encoding": "gzip;q=0, identity"]))
        #expect(
            Self.fields(identity) == [
                "Cache-Control: \(resolved)", "Content-Language: fr", "ETag: \(entry.prepared.identityETag)",
                "Content-Type: application/json", "Vary: Accept-Encoding, Accept-Language",
            ])
        #expect(identity.body == entry.prepared.identity)
        let gzip = entry.response.response(to: Self.request(["Accept-Encoding": "br, gzip;q=0.5"]))
        #expect(
            Self.fields(gzip) == [
                "Cache-Control: \(resolved)", "Content-Language: fr", "ETag: \(entry.prepared.gzipETag)",
                "Content-Type: application/json", "Content-Encoding: gzip", "Vary: Accept-Encoding, Accept-Language",
            ])
        #expect(gzip.body == entry.prepared.gzip)
        // Served again from the snapshot's cache: the same prepared response.
        #expect(snapshot.response(for: context).response === entry.response)
    }

    @Test func ifNoneMatchGivesTheCodingsNotModified() {
        let context = ClientContext(platform: .ios, locale: "fr", installId: "X")
        let entry = Self.snapshot.response(for: context)
        let tag = entry.prepared.gzipETag.headerValue
        let response = entry.response.response(to: Self.request(["Accept-Encoding": "gzip", "If-None-Match": tag]))
        #expect(response.status == .notModified)
        #expect(
            Self.fields(response) == [
                "Cache-Control: \(Self.cacheControl.resolved)", "Content-Language: fr", "ETag: \(tag)",
                "Vary: Accept-Encoding, Accept-Language",
            ])
        let other = entry.response.response(
            to: Self.request(["Accept-Encoding": "gzip", "If-None-Match": "\"other\""]))
        #expect(other.status == .ok)
        #expect(other.headers["Content-Encoding"] == "gzip")
    }
}
