import Foundation
import PreludeCore
import PreludeStorage
import PreludeStoreTestSupport
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService
@testable import PreludeStore

@Suite struct EventsTests {
    let fixture = PublicFixture()

    static func event(
        _ id: String, install: String = "install-1", type: String = "primeShown", feature: String = "camera",
        extra: String = "", occurredAt: String = #""2026-11-22T12:30:00Z""#
    ) -> String {
        #"{"id":"\#(id)","installId":"\#(install)","type":"\#(type)","feature":"\#(feature)","occurredAt":\#(occurredAt)\#(extra)}"#
    }

    static func batch(_ events: [String]) -> String { #"{"events":[\#(events.joined(separator: ","))]}"# }

    private func eventCount(_ service: PreludeService) throws -> Int64 {
        try service.database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) } ?? -1
    }

    @Test func storesABatchAndARetryCountsNothingNew() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let body = Self.batch([
            Self.event("e1"),
            Self.event("e2", type: "primeAccepted", extra: #","experiment":"camera-prime-copy","variant":"control""#),
            Self.event("e3", type: "systemGranted", occurredAt: "1763814600250"),
            Self.event("e1", install: "install-2"),  // same client id, another install: a different event
        ])
        let first = try client.post("/v1/apps/demo/events", json: body)
        #expect(first.status == 202)
        #expect(try first.json()["accepted"] as? Int == 4)
        #expect(try first.json()["duplicates"] as? Int == 0)

        let retry = try client.post("/v1/apps/demo/events", json: body)
        #expect(retry.status == 202)
        #expect(try retry.json()["accepted"] as? Int == 0)
        #expect(try retry.json()["duplicates"] as? Int == 4)
        #expect(try eventCount(service) == 4)

        // The same event twice in one batch is stored once.
        let twice = try client.post("/v1/apps/demo/events", json: Self.batch([Self.event("e9"), Self.event("e9")]))
        #expect(try twice.json()["accepted"] as? Int == 1)
        #expect(try twice.json()["duplicates"] as? Int == 1)
        #expect(try eventCount(service) == 5)

        let row = try service.database.read { db in
            try db.queryOne(
                "SELECT type, feature, experiment, variant, occurred_at FROM events WHERE client_event_id = 'e3'")
        }
        #expect(try row?.get("occurred_at", as: Int64.self) == 1_763_814_600_250)
        #expect(try row?.get("type", as: String.self) == "systemGranted")
        let e2 = try service.database.read { db in
            try db.queryOne("SELECT experiment, variant, occurred_at FROM events WHERE client_event_id = 'e2'")
        }
        #expect(try e2?.get("variant", as: String.self) == "control")
        #expect(try e2?.get("occurred_at", as: Int64.self) == 1_795_350_600_000)
    }

    @Test(arguments: [
        // (body, status, pointers)
        ("not json", 400, [""]),
        ("[]", 400, [""]),
        (#"{"events": {}}"#, 400, ["/events"]),
        (#"{"batch": []}"#, 400, ["/batch", "/events"]),
        (#"{"events": []}"#, 422, ["/events"]),
        (
            EventsTests.batch([EventsTests.event("ok"), EventsTests.event("bad", type: "primeExploded")]), 422,
            ["/events/1/type"]
        ),
        (
            EventsTests.batch([EventsTests.event("ok"), EventsTests.event("bad", feature: "xray")]), 422,
            ["/events/1/feature"]
        ),
        (EventsTests.batch([EventsTests.event("x", occurredAt: #""yesterday""#)]), 422, ["/events/0/occurredAt"]),
        (
            EventsTests.batch([EventsTests.event("x", occurredAt: #""2026-02-30T00:00:00Z""#)]), 422,
            ["/events/0/occurredAt"]
        ),
        (EventsTests.batch([EventsTests.event("x", occurredAt: "12")]), 422, ["/events/0/occurredAt"]),
        (EventsTests.batch([EventsTests.event("x", occurredAt: "true")]), 422, ["/events/0/occurredAt"]),
        (EventsTests.batch([EventsTests.event("x", extra: #","variant":"control""#)]), 422, ["/events/0/experiment"]),
        (EventsTests.batch([EventsTests.event("x", extra: #","colour":"red""#)]), 422, ["/events/0/colour"]),
        (EventsTests.batch([EventsTests.event("x", install: "")]), 422, ["/events/0/installId"]),
        (
            EventsTests.batch([#"{"type":"primeShown"}"#, "3"]), 422,
            ["/events/0/feature", "/events/0/id", "/events/0/installId", "/events/0/occurredAt", "/events/1"]
        ),
    ])
    func badBatchesStoreNothingAndNameEveryProblem(body: String, status: Int, pointers: [String]) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let response = try client.post("/v1/apps/demo/events", json: body)
        #expect(response.status == status)
        #expect(response["Content-Type"] == "application/problem+json")
        #expect(try response.problemPointers().sorted() == pointers.sorted())
        #expect(try eventCount(service) == 0)
    }

    @Test func tooManyEventsAndWrongContentTypeAndUnknownAppAreRefused() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let tooMany = Self.batch((0...EventBatch.maxEvents).map { Self.event("e\($0)") })
        #expect(try client.post("/v1/apps/demo/events", json: tooMany).status == 422)
        let text = try client.send(
            "POST", "/v1/apps/demo/events", headers: [("Content-Type", "text/plain")],
            body: Array(Self.batch([Self.event("a")]).utf8))
        #expect(text.status == 415)
        // The admin API's rule too (RFC 8259 §8.1): JSON declared in another charset is refused, not misread.
        let latin1 = try client.send(
            "POST", "/v1/apps/demo/events", headers: [("Content-Type", "application/json; charset=latin1")],
            body: Array(Self.batch([Self.event("a")]).utf8))
        #expect(latin1.status == 415)
        let unknown = try client.post("/v1/apps/ghost/events", json: Self.batch([Self.event("a")]))
        #expect(unknown.status == 404)
        #expect(unknown["Content-Type"] == "application/problem+json")
        let huge = try client.post(
            "/v1/apps/demo/events",
            json: "{\"events\":[\"" + String(repeating: "x", count: EventBatch.maxBodySize) + "\"]}")
        #expect(huge.status == 413)
        #expect(try eventCount(service) == 0)
    }

    final class Recorder: EventIngestionObserver, @unchecked Sendable {
        let seen = Mutex<[StoredEvent]>([])
        let failOn: String?
        init(failOn: String? = nil) { self.failOn = failOn }
        func didInsert(_ event: StoredEvent, connection: Connection) throws {
            // Proves the observer runs inside the storing transaction: its own row is visible to it.
            let visible = try connection.scalar(
                "SELECT count(*) FROM events WHERE id = ?", [.integer(event.rowID)], as: Int64.self)
            guard visible == 1 else { throw StorageError(extendedCode: 1, message: "row not visible") }
            if event.clientEventID == failOn { throw StorageError(extendedCode: 1, message: "observer refused") }
            seen.withLock { $0.append(event) }
        }
    }

    @Test func observersSeeEachNewEventInsideTheTransactionAndCanVetoTheBatch() throws {
        let recorder = Recorder(failOn: "poison")
        var configuration = fixture.configuration()
        configuration.logLevel = .error
        let service = try PreludeService.start(
            configuration: configuration, logger: Logger(level: .error), eventObservers: [recorder])
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let body = Self.batch([
            Self.event("a", extra: #","experiment":"camera-prime-copy","variant":"short-copy""#), Self.event("b"),
        ])
        #expect(try client.post("/v1/apps/demo/events", json: body).status == 202)
        #expect(try client.post("/v1/apps/demo/events", json: body).status == 202)  // duplicates: not observed
        let seen = recorder.seen.withLock { $0 }
        #expect(seen.map(\.clientEventID) == ["a", "b"])
        #expect(seen[0].appID == "demo")
        #expect(seen[0].type == .primeShown)
        #expect(seen[0].feature == .camera)
        #expect(seen[0].variant == "short-copy")
        #expect(seen[0].occurredAt == 1_795_350_600_000)

        let vetoed = try client.post("/v1/apps/demo/events", json: Self.batch([Self.event("c"), Self.event("poison")]))
        #expect(vetoed.status == 500)
        let stats = service.eventIngestor.statistics
        #expect(stats.accepted == 2)
        #expect(stats.duplicates == 2)
        #expect(stats.failedBatches == 1)
        #expect(try eventCount(service) == 2)  // neither c nor poison
    }

    @Test(arguments: [
        ("2026-11-22T12:30:00Z", Int64(1_795_350_600_000)),
        ("2026-11-22t12:30:00.5z", 1_795_350_600_500),
        ("2026-11-22T13:30:00.123456+01:00", 1_795_350_600_123),
        ("2026-11-22 07:00:00-05:30", 1_795_350_600_000),
        ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
    ])
    func parsesRFC3339(text: String, milliseconds: Int64) {
        #expect(EventTimestamp.parseRFC3339(text) == milliseconds)
    }

    @Test(arguments: [
        "2026-11-22", "2026-11-22T12:30:00", "2026-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2026-11-22T24:00:00Z",
        "2026-11-22T12:30:00.Z", "2026-11-22T12:30:00+0100", "2026-11-22T12:30:00Zjunk", "26-11-22T12:30:00Z",
    ])
    func rejectsMalformedRFC3339(text: String) {
        #expect(EventTimestamp.parseRFC3339(text) == nil)
    }
}
