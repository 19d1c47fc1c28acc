import PreludeHTTP
import PreludeStorage
import Testing

@testable import PreludeService

/// Event batches sent with `Content-Encoding: gzip` (what PreludeClient sends for large batches), over the real
/// server: stored like plain ones; bombs, broken members and other codings refused with nothing stored.
@Suite struct EventBodyCodingTests {
    let fixture = PublicFixture()

    private func eventCount(_ service: PreludeService) throws -> Int64 {
        try service.database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) } ?? -1
    }

    private func post(_ client: PublicClient, body: [UInt8], coding: String) throws -> PublicClient.Response {
        try client.send(
            "POST", "/v1/apps/demo/events",
            headers: [("Content-Type", "application/json"), ("Content-Encoding", coding)], body: body)
    }

    @Test func aGzipBatchIsStoredLikeAPlainOneAndItsRetryIsADuplicate() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let events = (0..<200).map { EventsTests.event("g\($0)", install: "install-\($0 % 7)") }
        let body = Gzip.compress(Array(EventsTests.batch(events).utf8))
        let first = try post(client, body: body, coding: "gzip")
        #expect(first.status == 202, "\(first.text)")
        #expect(try first.json()["accepted"] as? Int == 200)
        let again = try post(client, body: body, coding: " GZIP ")
        #expect(try again.json()["duplicates"] as? Int == 200)
        #expect(try eventCount(service) == 200)
        let identity = try post(
            client, body: Array(EventsTests.batch([EventsTests.event("plain")]).utf8), coding: "identity")
        #expect(identity.status == 202)
        #expect(try eventCount(service) == 201)
    }

    /// 4 MiB of JSON whitespace compresses to a few KiB: decoded only up to the batch limit, then 413.
    @Test func aGzipBombIsRefusedWithoutDecodingItAll() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let padded =
            Array(#"{"events":["#.utf8) + [UInt8](repeating: 0x20, count: 4 << 20)
            + Array(EventsTests.event("bomb").utf8) + Array("]}".utf8)
        let bomb = Gzip.compress(padded)
        #expect(bomb.count < EventBatch.maxBodySize)
        let response = try post(client, body: bomb, coding: "gzip")
        #expect(response.status == 413)
        #expect(response["Content-Type"] == "application/problem+json")
        #expect(response.text.contains("\(EventBatch.maxBodySize)"))
        #expect(try eventCount(service) == 0)
    }

    @Test(arguments: [
        ("truncated", 400), ("trailing", 400), ("not-gzip", 400), ("br", 415), ("gzip, gzip", 415), ("deflate", 415),
    ])
    func brokenOrUnknownCodingsChangeNothing(kind: String, status: Int) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let gzip = Gzip.compress(Array(EventsTests.batch([EventsTests.event("x")]).utf8))
        let (body, coding): ([UInt8], String) =
            switch kind {
            case "truncated": (Array(gzip.dropLast(6)), "gzip")
            case "trailing": (gzip + Array("junk".utf8), "gzip")
            case "not-gzip": (Array(EventsTests.batch([EventsTests.event("x")]).utf8), "gzip")
            default: (gzip, kind)
            }
        let response = try post(client, body: body, coding: coding)
        #expect(response.status == status, "\(response.text)")
        #expect(response["Content-Type"] == "application/problem+json")
        if status == 415 { #expect(response["Accept-Encoding"] == "gzip") }
        #expect(try eventCount(service) == 0)
    }
}
