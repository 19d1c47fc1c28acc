import Foundation
import PreludeCore
import PreludeHTTP
import PreludeStore
import Testing

@testable import PreludeService

/// `GET /v1/apps/{app}/policy/document` and `GET /v1/apps/{app}/policy`, over a real socket and (where the test is
/// not about concurrency) in process as well (``TestTransport``): both must answer alike.
@Suite struct PublicPolicyTests {
    let fixture = PublicFixture()

    @Test(arguments: TestTransport.Kind.allCases)
    func documentIsTheCanonicalLivePolicyWithCachingHeaders(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        let snapshot = try #require(service.policyStore.snapshot(app: "demo"))

        let response = try client.get("/v1/apps/demo/policy/document")
        #expect(response.status == 200)
        #expect(response.body == PublicFixture.demoDocument.jsonValue.serializedBytes())
        #expect(response["Content-Type"] == "application/json")
        #expect(response["ETag"] == snapshot.etag.headerValue)
        #expect(response["Vary"] == "Accept-Encoding")
        #expect(response["Cache-Control"] == "public, max-age=60, stale-while-revalidate=300, stale-if-error=86400")
        #expect(response["Content-Encoding"] == nil)
        // A client library decodes it back into the same document.
        #expect(PolicyValidator.validate(bytes: response.body).document == PublicFixture.demoDocument)

        let notModified = try client.get(
            "/v1/apps/demo/policy/document", headers: [("If-None-Match", snapshot.etag.headerValue)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified["ETag"] == snapshot.etag.headerValue)
        #expect(notModified["Cache-Control"] == response["Cache-Control"])
        #expect(notModified["Vary"] == "Accept-Encoding")

        let head = try client.send("HEAD", "/v1/apps/demo/policy/document")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head["Content-Length"] == "\(response.body.count)")
    }

    @Test(arguments: TestTransport.Kind.allCases)
    func documentGzipRoundTripsWithItsOwnTagAndQValuesDecide(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        let identity = try client.get("/v1/apps/demo/policy/document")
        let gzip = try client.get("/v1/apps/demo/policy/document", headers: [("Accept-Encoding", "gzip, br")])
        #expect(gzip.status == 200)
        #expect(gzip["Content-Encoding"] == "gzip")
        #expect(gzip.body.count < identity.body.count / 3)
        #expect(try Gzip.decompress(gzip.body, maxSize: 1 << 24) == identity.body)
        let gzipTag = try #require(gzip["ETag"])
        #expect(gzipTag != identity["ETag"])
        #expect(
            try client.get(
                "/v1/apps/demo/policy/document", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", gzipTag)]
            ).status == 304)
        // q-values: gzip refused, or identity preferred → identity.
        for header in ["gzip;q=0", "identity;q=1, gzip;q=0.5", "br"] {
            let response = try client.get("/v1/apps/demo/policy/document", headers: [("Accept-Encoding", header)])
            #expect(response["Content-Encoding"] == nil, "\(header)")
            #expect(response.body == identity.body)
        }
    }

    @Test(arguments: TestTransport.Kind.allCases)
    func resolvedPolicyForOneClient(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        let response = try client.get(
            "/v1/apps/demo/policy?platform=ios&os=18.1&appVersion=2.3.0&locale=fr-CA&installId=install-42")
        #expect(response.status == 200)
        #expect(response["Cache-Control"] == "private, max-age=60, stale-while-revalidate=300, stale-if-error=86400")
        #expect(response["Vary"] == "Accept-Encoding, Accept-Language")
        #expect(response["Content-Language"] == "fr")
        let json = try response.json()
        #expect(json["revision"] as? Int == 1)
        #expect(json["locale"] as? String == "fr")
        let features = try #require(json["features"] as? [String: Any])
        let camera = try #require(features["camera"] as? [String: Any])
        let prime = try #require((camera["copy"] as? [String: Any])?["prime"] as? [String: Any])
        #expect(prime["title"] as? String == "Prendre des photos dans Prelude Demo")
        #expect(prime["continueLabel"] as? String == "Continuer")
        // The variant is the one the bucketing gives this install, and the response says which.
        let expected = PolicyResolver.assign(
            PublicFixture.demoDocument.experiments[0], context: ClientContext(installId: "install-42"))
        #expect((camera["variant"] as? [String: Any])?["variant"] as? String == expected?.name)
        let contacts = try #require(features["contacts"] as? [String: Any])
        #expect(contacts["strategy"] as? String == "button")
        #expect(contacts["button"] as? String == "contactAccessButton")
        // Exactly what the core resolves.
        let context = ClientContext(
            platform: .ios, osVersion: SemanticVersion("18.1"), appVersion: SemanticVersion("2.3.0"), locale: "fr-CA",
            installId: "install-42")
        #expect(
            response.body
                == ResolvedPolicyResponse.body(1, PolicyResolver.resolve(PublicFixture.demoDocument, context: context)))
    }

    @Test(arguments: TestTransport.Kind.allCases)
    func resolvedPolicyETagGzipAnd304(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        let target = "/v1/apps/demo/policy?platform=ios&os=17.4&installId=abc"
        let identity = try client.get(target)
        let gzip = try client.get(target, headers: [("Accept-Encoding", "gzip")])
        #expect(gzip["Content-Encoding"] == "gzip")
        #expect(try Gzip.decompress(gzip.body, maxSize: 1 << 24) == identity.body)
        let tag = try #require(identity["ETag"])
        let revalidated = try client.get(target, headers: [("If-None-Match", tag)])
        #expect(revalidated.status == 304)
        #expect(revalidated["Vary"] == "Accept-Encoding, Accept-Language")
        #expect(revalidated["Cache-Control"]?.hasPrefix("private") == true)
        // Another install with the same variant shares the prepared bytes; the cache holds one entry per key.
        let snapshot = try #require(service.policyStore.snapshot(app: "demo"))
        #expect(snapshot.resolvedResponseCount == 1)
    }

    @Test(arguments: TestTransport.Kind.allCases)
    func acceptLanguageFallbackAndExplicitLocaleWins(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        func locale(_ target: String, _ acceptLanguage: String?) throws -> String? {
            let response = try client.get(target, headers: acceptLanguage.map { [("Accept-Language", $0)] } ?? [])
            #expect(response.status == 200)
            return try response.json()["locale"] as? String
        }
        let base = "/v1/apps/demo/policy?platform=ios&os=17.4"
        #expect(try locale(base, "fr-CA,fr;q=0.9,en;q=0.8") == "fr")
        #expect(try locale(base, "de-DE, ja;q=0.5") == "ja")  // no German copy: the next language
        #expect(try locale(base, "zh-TW") == "zh-Hant")  // zh-TW implies Hant
        #expect(try locale(base, "zh-CN") == "zh-Hans")
        #expect(try locale(base, "de, pt;q=0.4") == "en")  // nothing matches: the default locale
        #expect(try locale(base, nil) == "en")
        #expect(try locale(base + "&locale=ja-JP", "fr-FR") == "ja")  // the parameter wins over the header
        let traditional = try client.get(base + "&locale=zh-Hant-HK")
        let copy = try traditional.json()["features"] as? [String: Any]
        let title = ((copy?["camera"] as? [String: Any])?["copy"] as? [String: Any])?["prime"] as? [String: Any]
        #expect((title?["title"] as? String)?.isEmpty == false)
        #expect(traditional["Content-Language"] == "zh-Hant")
    }

    @Test(arguments: [
        ("platform=android", ["/query/platform"]),
        ("os=seventeen", ["/query/os"]),
        ("appVersion=2..3", ["/query/appVersion"]),
        ("locale=123", ["/query/locale"]),
        ("installId=", ["/query/installId"]),
        ("installId=" + String(repeating: "x", count: 129), ["/query/installId"]),
        ("os=17&os=18", ["/query/os"]),
        ("colour=blue", ["/query/colour"]),
        ("platform=pc&os=x&locale=%20", ["/query/locale", "/query/os", "/query/platform"]),
    ])
    func malformedParametersAre400NamingThem(query: String, pointers: [String]) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        for transport in TestTransport.Kind.allCases {
            let client = PublicClient(transport, server: service.server, port: service.port)
            let response = try client.get("/v1/apps/demo/policy?" + query)
            #expect(response.status == 400, "\(transport)")
            #expect(response["Content-Type"] == "application/problem+json")
            #expect(try response.problemPointers().sorted() == pointers, "\(transport)")
            #expect(try response.json()["type"] as? String == RequestProblem.invalidRequestType)
        }
    }

    @Test(arguments: TestTransport.Kind.allCases)
    func unknownAppIs404Problem(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        for target in ["/v1/apps/ghost/policy", "/v1/apps/ghost/policy/document", "/v1/apps/ghost/policy?os=bad"] {
            let response = try client.get(target)
            #expect(response.status == 404, "\(target)")
            #expect(response["Content-Type"] == "application/problem+json")
            #expect(try response.json()["type"] as? String == PolicyStoreProblem.unknownApp)
        }
        let decide = try client.post("/v1/apps/ghost/decide", json: #"{"features":[]}"#)
        #expect(decide.status == 404)
    }

    @Test(arguments: TestTransport.Kind.allCases)
    func aCommittedRevisionIsServedToTheNextRequestWithANewETag(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        let target = "/v1/apps/demo/policy?platform=ios&os=17.4&locale=en"
        let before = try client.get(target)
        let documentBefore = try client.get("/v1/apps/demo/policy/document")
        let live = try #require(service.policyStore.snapshot(app: "demo"))
        #expect(live.resolvedResponseCount == 1)

        try service.policyStore.commit(
            app: "demo", document: PublicFixture.demoDocument(cameraTitle: "Scan with {appName}"), author: "test",
            action: "policy.replace", message: nil, precondition: RevisionPrecondition(ifMatch: live.etag.headerValue),
            auditDetail: .null)

        let after = try client.get(target)
        #expect(after.status == 200)
        #expect(after["ETag"] != before["ETag"])
        #expect(try after.json()["revision"] as? Int == 2)
        let camera = (try after.json()["features"] as? [String: Any])?["camera"] as? [String: Any]
        let prime = (camera?["copy"] as? [String: Any])?["prime"] as? [String: Any]
        #expect(prime?["title"] as? String == "Scan with Prelude Demo")
        // The old tag no longer matches: the client gets the new bytes, not a 304.
        #expect(try client.get(target, headers: [("If-None-Match", before["ETag"]!)]).status == 200)

        let documentAfter = try client.get("/v1/apps/demo/policy/document")
        #expect(documentAfter["ETag"] != documentBefore["ETag"])
        #expect(documentAfter["ETag"] == service.policyStore.snapshot(app: "demo")?.etag.headerValue)
        #expect(
            try client.get("/v1/apps/demo/policy/document", headers: [("If-None-Match", documentBefore["ETag"]!)])
                .status
                == 200)
    }

    @Test func concurrentReadersDuringCommitsSeeWholeRevisionsOnly() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        // Every revision's title carries its number, so a reader can check the body against the revision it claims.
        let finished = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { finished.signal() }
            for n in 2...6 {
                let live = service.policyStore.snapshot(app: "demo")!
                _ = try? service.policyStore.commit(
                    app: "demo", document: PublicFixture.demoDocument(cameraTitle: "Revision \(n)"), author: "t",
                    action: "x", message: nil, precondition: RevisionPrecondition(ifMatch: live.etag.headerValue),
                    auditDetail: .null)
            }
        }
        writer.start()
        for _ in 0..<40 {
            let response = try client.get("/v1/apps/demo/policy?locale=en")
            let json = try response.json()
            let revision = try #require(json["revision"] as? Int)
            let camera = (json["features"] as? [String: Any])?["camera"] as? [String: Any]
            let title = ((camera?["copy"] as? [String: Any])?["prime"] as? [String: Any])?["title"] as? String
            if revision > 1 { #expect(title == "Revision \(revision)") }
        }
        finished.wait()
        #expect(try client.get("/v1/apps/demo/policy?locale=en").json()["revision"] as? Int == 6)
    }
}
