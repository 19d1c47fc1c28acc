import Foundation
import PreludeClient
import PreludeCore
import Synchronization
import Testing

/// Answers the real server does not give on demand (503 with Retry-After, a document that does not validate),
/// from a scripted transport.
@Suite struct ClientFetchFailureTests {
    /// Returns the scripted responses in order, and records each request.
    final class ScriptedTransport: PreludeTransport {
        private let script: Mutex<[TransportResponse]>
        private let sent = Mutex(0)

        init(_ responses: [TransportResponse]) { script = Mutex(responses) }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            sent.withLock { $0 += 1 }
            return script.withLock { $0.removeFirst() }
        }

        var requestCount: Int { sent.withLock { $0 } }
    }

    let fixture = ClientFixture()

    private func client(_ transport: ScriptedTransport) throws -> PreludeClient {
        var configuration = PreludeClientConfiguration(
            server: URL(string: "http://prelude.invalid")!, app: "demo",
            storageDirectory: URL(fileURLWithPath: fixture.path("scripted")),
            bootstrapPolicy: Data(ClientFixture.demoPolicyText.utf8))
        configuration.context = ClientContext(platform: .ios, osVersion: SemanticVersion("17.4"), installId: "i-1")
        configuration.transport = transport
        configuration.clock = fixture.clock
        configuration.jitter = TestJitter()
        configuration.fetchBackoff = Backoff(base: 2, maximum: 3600)
        configuration.foregroundSignal = fixture.foreground
        return try PreludeClient(configuration: configuration)
    }

    @Test func retryAfterIsAFloorUnderTheBackoff() async throws {
        let transport = ScriptedTransport([
            TransportResponse(status: 503, headers: ["Retry-After": "120"]),
            TransportResponse(status: 429),
            TransportResponse(status: 429),
        ])
        let client = try client(transport)
        #expect(await client.refresh() == .httpError(status: 503))
        fixture.clock.advance(119)
        #expect(await client.refresh() == .skipped)
        #expect(transport.requestCount == 1)
        fixture.clock.advance(1)
        #expect(await client.refresh() == .httpError(status: 429))
        // Second failure, no Retry-After: 2 × 2^1 s with jitter in [0.5, 1): between 2 and 4 s.
        let next = try #require(await client.diagnostics().nextFetchNotBefore)
        let wait = next.seconds(since: fixture.clock.now())
        #expect(wait >= 2 && wait < 4)
        fixture.clock.advance(4)
        #expect(await client.refresh() == .httpError(status: 429))
        #expect(transport.requestCount == 3)
    }

    @Test func aDocumentThatDoesNotValidateIsRejectedAndTheLastGoodOneKept() async throws {
        let renamed = ClientFixture.demoPolicyText.replacingOccurrences(
            of: "\"id\": \"demo\"", with: "\"id\": \"other\"")
        #expect(renamed != ClientFixture.demoPolicyText)
        let transport = ScriptedTransport([
            TransportResponse(status: 200, headers: ["ETag": "\"r7-x\""], body: Data(#"{"schemaVersion": 99}"#.utf8)),
            TransportResponse(status: 200, headers: ["ETag": "\"r8-x\""], body: Data(renamed.utf8)),
        ])
        let client = try client(transport)
        guard case .rejected = await client.refresh() else {
            Issue.record("an invalid document must be rejected")
            return
        }
        fixture.clock.advance(3600)
        guard case .rejected(let reason) = await client.refresh() else {
            Issue.record("another app's document must be rejected")
            return
        }
        #expect(reason.contains("other"))
        let diagnostics = await client.diagnostics()
        #expect(diagnostics.source == .bootstrap)
        #expect(diagnostics.revision == 0)
        #expect(try await client.decide(feature: .camera, status: .notDetermined).action == .prime)
    }

    @Test func unknownExperimentMembersFromANewerServerAreSkipped() async throws {
        // What a later server may add to an experiment or a variant (docs/policy.md, "What clients receive"):
        // this client keeps the document instead of keeping its last good one forever, as 0.1.0 clients did.
        var json = try JSONValue(parsing: Array(ClientFixture.demoPolicyText.utf8))
        var experiments = try #require(json["experiments"]?.arrayValue)
        var experiment = try #require(experiments.first?.objectValue)
        experiment["analysisWindowDays"] = .integer(14)
        var variants = try #require(experiment["variants"]?.arrayValue)
        var variant = try #require(variants.first?.objectValue)
        variant["description"] = .string("shorter copy")
        variants[0] = .object(variant)
        experiment["variants"] = .array(variants)
        experiments[0] = .object(experiment)
        json = json.mergePatch(["experiments": .array(experiments)])
        let body = json.serializedBytes()
        #expect(!PolicyValidator.validate(bytes: body).isValid, "the server refuses what it does not know")
        let transport = ScriptedTransport([
            TransportResponse(status: 200, headers: ["ETag": "\"r9-x\""], body: Data(body))
        ])
        let client = try client(transport)
        #expect(await client.refresh() == .updated(revision: 9))
        let diagnostics = await client.diagnostics()
        #expect(diagnostics.source == .network)
        #expect(diagnostics.revision == 9)
    }
}
