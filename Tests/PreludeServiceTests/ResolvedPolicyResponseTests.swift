import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// The cached 200s of a resolved-policy entry must be exactly what negotiating each request gives, and the same
/// response value each time (so the engine's head cache, keyed by header storage, hits).
@Suite struct ResolvedPolicyResponseTests {
    static let snapshot = LiveSnapshot(
        appID: "demo", revision: 1, document: PublicFixture.demoDocument,
        prepared: LiveSnapshot.PreparedDocument(PublicFixture.demoDocument), createdAt: 0, author: "t", message: nil,
        resolvedCacheCapacity: 8)
    static let cacheControl = "private, max-age=60"

    static func request(_ headers: HTTPHeaders) -> HTTPRequest {
        HTTPRequest(method: .get, path: "/v1/apps/demo/policy", headers: headers)
    }

    static func fields(_ response: HTTPResponse) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    @Test(arguments: [
        HTTPHeaders(), ["Accept-Encoding": "gzip"], ["Accept-Encoding": "gzip;q=0, identity"],
        ["Accept-Encoding": "br, gzip;q=0.5"], ["Accept-Language": "de"],
    ])
    func cachedResponseEqualsNegotiated(_ headers: HTTPHeaders) {
        let context = ClientContext(platform: .ios, locale: "fr", installId: "X")
        let (entry, key) = ResolvedPolicyResponse.prepared(
            Self.snapshot, context: context, cacheControl: Self.cacheControl)
        let request = Self.request(headers)
        let cached = entry.response(to: request, cacheControl: Self.cacheControl)
        let negotiated = ResolvedPolicyResponse.response(
            request, entry.prepared, locale: key.locale, cacheControl: Self.cacheControl)
        #expect(cached.status == negotiated.status)
        #expect(Self.fields(cached) == Self.fields(negotiated))
        #expect(cached.body == negotiated.body)
        let again = entry.response(to: request, cacheControl: Self.cacheControl)
        #expect(again.headers.storageIdentity == cached.headers.storageIdentity)
    }

    @Test func ifNoneMatchIsNegotiatedAgain() {
        let context = ClientContext(platform: .ios, locale: "fr", installId: "X")
        let (entry, _) = ResolvedPolicyResponse.prepared(
            Self.snapshot, context: context, cacheControl: Self.cacheControl)
        let tag = entry.prepared.gzipETag.headerValue
        let response = entry.response(
            to: Self.request(["Accept-Encoding": "gzip", "If-None-Match": tag]), cacheControl: Self.cacheControl)
        #expect(response.status == .notModified)
        #expect(response.headers["ETag"] == tag)
        #expect(response.headers["Cache-Control"] == Self.cacheControl)
        let other = entry.response(
            to: Self.request(["Accept-Encoding": "gzip", "If-None-Match": "\"other\""]), cacheControl: Self.cacheControl
        )
        #expect(other.status == .ok)
        #expect(other.headers["Content-Encoding"] == "gzip")
    }
}
