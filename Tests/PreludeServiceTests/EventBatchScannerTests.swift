import PreludeCore
import PreludeHTTP
import PreludeTestSupport
import Testing

@testable import PreludeService

/// The fast path of event decoding must never disagree with the full decoder: whatever it accepts, the full
/// decoder accepts with the same events; and it must actually take the common batches.
@Suite struct EventBatchScannerTests {
    static let now: Int64 = 1_795_350_600_000

    /// What the full decoder makes of `body`: the events, or the problem's status and pointers.
    enum Verdict: Equatable {
        case accepted([EventBatch.Event])
        case refused(status: Int, pointers: [String])
    }

    static func full(_ body: [UInt8]) -> Verdict {
        do {
            return .accepted(try EventBatch.decodeInFull(body, now: now).events)
        } catch {
            return .refused(status: error.status.code, pointers: error.errors.map(\.pointer))
        }
    }

    /// A random batch in the shapes clients send: members in any order, optional whitespace, `null` or absent
    /// experiment, RFC 3339 or integer times, sometimes a value the scanner must leave to the full decoder.
    static func randomBatch(_ random: inout SplitMix64) -> String {
        func pick<T>(_ options: [T]) -> T { options[random.below(options.count)] }
        func space() -> String { random.chance(0.2) ? pick([" ", "\n", "\t", "\r\n  "]) : "" }
        let count = 1 + random.below(random.chance(0.1) ? 600 : 20)
        var events: [String] = []
        for n in 0..<count {
            // Mostly valid values; now and then one the full decoder refuses or the scanner must not take.
            let time =
                random.chance(0.97)
                ? pick(["\"2026-11-22T12:30:00Z\"", "\"2026-11-22T13:30:00.250+01:00\"", "1795350000000"])
                : pick(["0", "\"2026-02-30T00:00:00Z\"", "1.7e12", "\"2099-01-01T00:00:00Z\"", "01795350000000"])
            var members: [String] = [
                #""id":"e-\#(n)-\#(random.below(1000))""#,
                #""installId":"\#(pick(["8C1F0A2E", "install-7", "a:b/c", "x"]))""#,
                #""type":"\#(random.chance(0.98) ? pick(AnalyticsEvent.allCases.map(\.rawValue)) : "primeshown")""#,
                #""feature":"\#(random.chance(0.98) ? pick(Feature.allCases.map(\.rawValue)) : "camera2")""#,
                #""occurredAt":\#(time)"#,
            ]
            switch random.below(40) {
            case 0..<10: members.append(#""experiment":"camera-prime-copy","variant":"control""#)
            case 10..<15: members.append(#""experiment":null,"variant":null"#)
            case 15: members.append(#""experiment":"camera-prime-copy""#)
            default: break
            }
            // A task name: legal on taskStarted / taskCompleted only (the full decoder names the others).
            switch random.below(20) {
            case 0: members.append(#""task":"attach-photo""#)
            case 1: members.append(#""task":null"#)
            default: break
            }
            if random.chance(0.005) { members.append(#""extra":1"#) }
            if random.chance(0.005) { members.append(#""id":"again""#) }
            if random.chance(0.005) { members[0] = #""id":"caf\u00e9""# }
            if random.chance(0.005) { members[0] = #""id":"with space""# }
            if random.chance(0.005) { members[1] = #""installId":null"# }
            if random.chance(0.005) { members.remove(at: random.below(members.count)) }
            for i in members.indices.reversed() where i > 0 {
                members.swapAt(i, random.below(i + 1))
            }
            events.append(
                "{" + space()
                    + members.map { $0.replacingFirst(":", with: space() + ":" + space()) }
                    .joined(separator: space() + "," + space()) + space() + "}")
        }
        return space() + "{" + space() + #""events""# + space() + ":" + space() + "[" + space()
            + events.joined(separator: "," + space()) + space() + "]" + space() + "}" + space()
    }

    @Test func agreesWithTheFullDecoderOnRandomBatches() {
        var random = SplitMix64(state: 0x5EED)
        var taken = 0
        for _ in 0..<600 {
            let body = Array(Self.randomBatch(&random).utf8)
            if let events = EventBatchScanner.scan(body, now: Self.now) {
                taken += 1
                #expect(Self.full(body) == .accepted(events), "\(String(decoding: body, as: UTF8.self))")
            }
        }
        // The fast path must take the batches it exists for, not fall back on everything.
        #expect(taken > 60)
    }

    /// `task` names the task of taskStarted / taskCompleted: kept by both decoders; on any other event the full
    /// decoder refuses it at its pointer (and the scanner leaves it to the full decoder).
    @Test func taskNamesBelongToTaskEvents() throws {
        let good = Array(
            #"{"events":[{"id":"a","installId":"b","type":"taskStarted","feature":"photos","task":"attach-photo","occurredAt":1795350000000}]}"#
                .utf8)
        let scanned = try #require(EventBatchScanner.scan(good, now: Self.now))
        #expect(scanned.map(\.task) == ["attach-photo"])
        #expect(Self.full(good) == .accepted(scanned))
        let bad = Array(
            #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"photos","task":"attach-photo","occurredAt":1795350000000}]}"#
                .utf8)
        #expect(EventBatchScanner.scan(bad, now: Self.now) == nil)
        #expect(Self.full(bad) == .refused(status: 422, pointers: ["/events/0/task"]))
    }

    @Test func agreesWithTheFullDecoderOnMutatedBatches() {
        var random = SplitMix64(state: 0xB17E)
        let alphabet = Array(#"{}[],:" \-0123456789.eEnulltrfa\u"#.utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF]
        for _ in 0..<3000 {
            var body = Array(
                #"{"events":[{"id":"e1","installId":"i1","type":"primeShown","feature":"camera","occurredAt":1795350000000},{"id":"e2","installId":"i1","type":"systemDenied","feature":"photos","experiment":"x","variant":"y","occurredAt":"2026-11-22T12:30:00Z"}]}"#
                    .utf8)
            for _ in 0..<(1 + random.below(3)) {
                let at = random.below(body.count)
                switch random.below(3) {
                case 0: body[at] = alphabet[random.below(alphabet.count)]
                case 1: body.insert(alphabet[random.below(alphabet.count)], at: at)
                default: body.remove(at: at)
                }
            }
            if let events = EventBatchScanner.scan(body, now: Self.now) {
                #expect(Self.full(body) == .accepted(events), "\(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    @Test(arguments: [
        #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000}]}"#,
        " {\n \"events\" : [ {\"occurredAt\" : \"2026-11-22T12:30:00Z\" , \"feature\":\"photos\",\"type\":\"systemGranted\",\"installId\":\"b\",\"id\":\"a\",\"experiment\":\"k\",\"variant\":\"v\"} ] }\r\n",
        #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","experiment":null,"variant":null,"occurredAt":1795350000000}]}"#,
    ])
    func takesPlainValidBatches(body: String) throws {
        let events = try #require(EventBatchScanner.scan(Array(body.utf8), now: Self.now))
        #expect(Self.full(Array(body.utf8)) == .accepted(events))
    }

    @Test(arguments: [
        "\u{FEFF}"
            + #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000}]}"#,
        #"{"events":[{"id":"\u0061","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000}]}"#,
        #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000.0}]}"#,
        #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":-1}]}"#,
        #"{"events":[{"id":"a","id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000}]}"#,
        #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000}],"x":1}"#,
        #"{"events":[]}"#,
        #"{"events":[{"id":"a","installId":"b","type":"primeShown","feature":"camera","occurredAt":1795350000000}]} x"#,
    ])
    func leavesAnythingUnusualToTheFullDecoder(body: String) {
        #expect(EventBatchScanner.scan(Array(body.utf8), now: Self.now) == nil)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
