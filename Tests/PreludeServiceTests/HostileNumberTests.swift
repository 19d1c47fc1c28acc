import Foundation
import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// Numbers too big for 64 bits, sent by anyone who can reach the events endpoint, get the ordinary 422 naming
/// the pointer and never stop the process (issue 13: a 19-digit `occurredAt` trapped in the fast-path scanner).
@Suite struct HostileNumberTests {
    static let now = EventBatchScannerTests.now

    /// 2^63 and up (19 and 20 digits), the largest 18- and 19-digit values, and their negatives.
    static let hugeTimes = [
        "9223372036854775807", "9223372036854775808", "9999999999999999999", "18446744073709551615",
        "18446744073709551616", "99999999999999999999", "999999999999999999", "-9223372036854775808",
        "-9223372036854775809", "-99999999999999999999", "100000000000000000000000000000",
    ]

    static func batch(occurredAt time: String) -> String {
        #"{"events":[{"id":"e-1","installId":"i-1","type":"primeShown","feature":"camera","occurredAt":\#(time)}]}"#
    }

    @Test(arguments: hugeTimes) func scannerLeavesHugeTimesToTheFullDecoder(time: String) {
        #expect(EventBatchScanner.scan(Array(Self.batch(occurredAt: time).utf8), now: Self.now) == nil)
    }

    @Test(arguments: hugeTimes) func hugeTimeIsRefusedNamingItsPointer(time: String) {
        do {
            _ = try EventBatch.decode(Array(Self.batch(occurredAt: time).utf8), now: Self.now)
            Issue.record("\(time) was accepted")
        } catch {
            #expect(error.status.code == 422)
            #expect(error.errors.map(\.pointer) == ["/events/0/occurredAt"])
        }
    }

    /// The scanner still takes every in-range integer time it took before: 13 digits, and the 18-digit limit.
    @Test func scannerStillTakesPlainIntegerTimes() {
        let events = EventBatchScanner.scan(Array(Self.batch(occurredAt: "1795350000000").utf8), now: Self.now)
        #expect(events?.first?.occurredAt == 1_795_350_000_000)
    }

    /// Every input the `events` fuzz target kept (Fuzz/regressions/events/, docs/fuzzing.md): the scanner either
    /// defers or gives the full decoder's events, and `decode` gives the full decoder's verdict.
    @Test func eventsFuzzRegressionsDecodeLikeTheFullDecoder() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/regressions/events").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(!names.isEmpty)
        for name in names {
            let body = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let full = EventBatchScannerTests.full(body)
            if let events = EventBatchScanner.scan(body, now: EventBatchScannerTests.now) {
                #expect(full == .accepted(events), "\(name)")
            }
            let routed: EventBatchScannerTests.Verdict
            do {
                routed = .accepted(try EventBatch.decode(body, now: EventBatchScannerTests.now).events)
            } catch {
                routed = .refused(status: error.status.code, pointers: error.errors.map(\.pointer))
            }
            #expect(routed == full, "\(name)")
        }
    }

    /// A fraction of any length is read to the millisecond (`scale` reaches 0, nothing accumulates past 999).
    @Test func longFractionsAreCutToTheMillisecond() {
        let text = "2026-11-22T12:30:00." + String(repeating: "9", count: 400) + "Z"
        #expect(EventTimestamp.parseRFC3339(text) == 1_795_350_600_999)
    }

    /// Client counts and times at the edges of 64 bits and of `Double`: the 2^63 − 1 count exhausts the screen,
    /// the largest finite time gives a finite `eligibleAt`, and a count too big for `Int` is the 422 naming it.
    @Test func decideTakesHugeCountsAndTimesWithoutTrapping() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: PublicFixture.demoPolicyPath)))
        let document = try #require(PolicyValidator.validate(bytes: bytes).document)
        func decide(shownCount: String, lastShown: String) throws(ProblemDetails) -> [JSONValue] {
            let body = #"""
                {"features":[{"feature":"camera","status":"denied","history":{"settings":
                {"shownCount":\#(shownCount),"lastShown":\#(lastShown),"lastOutcome":"dismissed"}}}]}
                """#
            let request = try DecideRequest.decode(Array(body.utf8), acceptLanguage: nil)
            let policy = PolicyResolver.resolve(document, context: request.context)
            return request.states.compactMap { state in
                guard
                    let decision = try? DecisionEngine.decide(
                        in: policy, state: state, now: Instant(secondsSinceEpoch: 1_795_350_600))
                else { return nil }
                var output: [UInt8] = []
                decision.writeJSON(to: &output)
                return try? JSONValue(parsing: output)
            }
        }
        let exhausted = try decide(shownCount: "9223372036854775807", lastShown: "1795350000")
        #expect(exhausted.count == 1)
        #expect(exhausted.first?.objectValue?["eligibleAt"] == nil)
        let farFuture = try decide(shownCount: "1", lastShown: "1.7976931348623157e308")
        #expect(farFuture.first?.objectValue?["eligibleAt"]?.doubleValue == 1.7976931348623157e308)
        for count in ["9223372036854775808", "99999999999999999999", "1e300", "-1"] {
            #expect {
                _ = try decide(shownCount: count, lastShown: "1795350000")
            } throws: { error in
                (error as? ProblemDetails)?.errors.map(\.pointer) == ["/features/0/history/settings/shownCount"]
            }
        }
        #expect {
            _ = try decide(shownCount: "1", lastShown: "1e400")
        } throws: { error in
            (error as? ProblemDetails)?.status.code == 400
        }
    }

    /// The real binary, one request at a time: every huge time gets its 422, and the process answers afterwards.
    @Test func hugeTimesDoNotStopTheServer() throws {
        let fixture = ServiceFixture()
        fixture.write("policy.json", AdminServer.policyText)
        let server = try ServerProcess.start(
            database: fixture.path("hostile.sqlite"), policy: fixture.path("policy.json"))
        defer { server.killHard() }
        for time in Self.hugeTimes {
            let response = try TestTransport.live(port: server.port).exchange(
                AdminRequest.bytes("POST", "/v1/apps/demo/events", token: nil, body: Self.batch(occurredAt: time)))
            #expect(response.status == 422, "occurredAt \(time)")
            #expect(response.body.contains("/events/0/occurredAt"), "occurredAt \(time)")
        }
        #expect(server.process.isRunning)
        #expect(try TestTransport.live(port: server.port).get("/healthz").status == 200)
    }
}
