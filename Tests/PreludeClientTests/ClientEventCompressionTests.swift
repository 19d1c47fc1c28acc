import Foundation
import PreludeClient
import PreludeCore
import Synchronization
import Testing

@testable import PreludeService

/// Event batches go to the real server gzip-compressed from 1 KiB up, and are stored exactly once; a server that
/// refuses gzip (415) gets the batch again uncompressed, and no gzip after that.
@Suite struct ClientEventCompressionTests {
    let fixture = ClientFixture()

    /// Plays a server without gzip for events: any request with a content coding gets 415, the rest goes through.
    final class GzipRefusingTransport: PreludeTransport {
        let inner: RecordingTransport
        private let refusals = Mutex(0)
        init(_ inner: RecordingTransport) { self.inner = inner }
        var refused: Int { refusals.withLock { $0 } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard request.headers["Content-Encoding"] == nil else {
                refusals.withLock { $0 += 1 }
                return TransportResponse(
                    status: 415, headers: ["Content-Type": "application/problem+json", "Accept-Encoding": "identity"],
                    body: Data(#"{"status":415}"#.utf8))
            }
            return try await inner.send(request)
        }
    }

    private func makeClient(port: Int, transport: any PreludeTransport, compress: Bool = true) throws -> PreludeClient {
        var configuration = fixture.configuration(
            port: port,
            context: ClientContext(
                platform: .ios, osVersion: SemanticVersion("17.4"), appVersion: SemanticVersion("2.3.0"),
                locale: "en", installId: "install-1"))
        configuration.transport = transport
        configuration.eventBatchSize = 50
        configuration.compressEvents = compress
        return try PreludeClient(configuration: configuration)
    }

    private func recordEvents(_ count: Int, on client: PreludeClient) async throws -> Set<String> {
        var ids: Set<String> = []
        for _ in 0..<count {
            let decision = try await client.decide(feature: .camera, status: .restricted)
            if let event = try await client.record(.shown, for: decision) { ids.insert(event.id) }
        }
        return ids
    }

    @Test func largeBatchesAreSentAsGzipAndStoredOnce() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try makeClient(port: service.port, transport: fixture.transport)
        let small = try await recordEvents(1, on: client)
        #expect(await client.flush().accepted == 1)
        let ids = try await recordEvents(120, on: client)
        let result = await client.flush()
        #expect(result.accepted == 120)
        #expect(result.remaining == 0)
        let posts = fixture.transport.requests.filter { $0.0.method == "POST" }
        // One small batch (under 1 KiB: plain), then 50 + 50 + 20 events, each gzip and answered 202.
        #expect(posts.map { $0.0.headers["Content-Encoding"] } == [nil, "gzip", "gzip", "gzip"])
        #expect(posts.map(\.1) == [202, 202, 202, 202])
        #expect(posts.dropFirst().allSatisfy { $0.0.body.prefix(2) == Data([0x1F, 0x8B]) })
        let stored = try ClientFixture.storedEvents(service)
        #expect(stored.count == 121)
        #expect(stored.ids == ids.union(small))
    }

    @Test func aServerThatRefusesGzipGetsTheBatchPlainAndNoGzipAfterwards() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let transport = GzipRefusingTransport(fixture.transport)
        let client = try makeClient(port: service.port, transport: transport)
        let ids = try await recordEvents(120, on: client)
        let result = await client.flush()
        #expect(result.failure == nil)
        #expect(result.accepted == 120)
        #expect(result.rejected == 0)
        #expect(transport.refused == 1)
        let stored = try ClientFixture.storedEvents(service)
        #expect(stored.count == 120)
        #expect(stored.ids == ids)
        #expect(await client.diagnostics().droppedEvents == 0)
    }

    @Test func compressionCanBeTurnedOff() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try makeClient(port: service.port, transport: fixture.transport, compress: false)
        _ = try await recordEvents(60, on: client)
        #expect(await client.flush().accepted == 60)
        #expect(fixture.transport.requests.allSatisfy { $0.0.headers["Content-Encoding"] == nil })
    }
}
