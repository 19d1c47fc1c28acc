import PreludeCore

/// The fast path of ``EventBatch/decode(_:now:)``: one pass over the bytes of a plain, valid batch, building the
/// events directly instead of a `JSONValue` tree (which cost about two thirds of the server's CPU per event).
///
/// It accepts only what the full decoder would accept with the same result, and gives up (returns nil) at the
/// first thing it does not handle: any problem, escape sequence, non-ASCII byte, byte order mark, `null` other
/// than for `experiment`/`variant`/`task`, number that is not a plain integer of at most 18 digits, unknown or repeated
/// member. The caller then runs the full decoder, which names every problem. A differential test feeds both
/// decoders generated and mutated batches.
enum EventBatchScanner {
    /// The events of `body` when it is a plain valid batch, else nil.
    static func scan(_ body: [UInt8], now: Int64) -> [EventBatch.Event]? {
        body.withUnsafeBufferPointer { bytes in
            var scanner = Cursor(bytes: bytes)
            return scanner.batch(now: now)
        }
    }

    /// Members of an event, as bits of a mask (each may appear once).
    private enum Member: UInt8 {
        case id = 1
        case installId = 2
        case type = 4
        case feature = 8
        case experiment = 16
        case variant = 32
        case occurredAt = 64
        case task = 128

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 2 where equal(name, "id"): self = .id
            case 4 where equal(name, "type"): self = .type
            case 4 where equal(name, "task"): self = .task
            case 7 where equal(name, "feature"): self = .feature
            case 7 where equal(name, "variant"): self = .variant
            case 9 where equal(name, "installId"): self = .installId
            case 10 where equal(name, "experiment"): self = .experiment
            case 10 where equal(name, "occurredAt"): self = .occurredAt
            default: return nil
            }
        }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for offset in 0..<bytes.count where bytes[offset] != expected[offset] { return false }
        return true
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func batch(now: Int64) -> [EventBatch.Event]? {
            guard take(UInt8(ascii: "{")), let name = string(), equal(name, "events"), take(UInt8(ascii: ":")),
                take(UInt8(ascii: "["))
            else { return nil }
            var events: [EventBatch.Event] = []
            events.reserveCapacity(128)
            repeat {
                guard events.count < EventBatch.maxEvents, let event = event(now: now) else { return nil }
                events.append(event)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")), take(UInt8(ascii: "}")) else { return nil }
            skipWhitespace()
            return index == bytes.count ? events : nil
        }

        private mutating func event(now: Int64) -> EventBatch.Event? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var seen: UInt8 = 0
            var id: String?
            var installID: String?
            var type: AnalyticsEvent?
            var feature: Feature?
            var experiment: String?
            var variant: String?
            var occurredAt: Int64?
            var task: String?
            repeat {
                guard let name = string(), let member = Member(name), seen & member.rawValue == 0,
                    take(UInt8(ascii: ":"))
                else { return nil }
                seen |= member.rawValue
                switch member {
                case .id:
                    guard let text = visibleName() else { return nil }
                    id = text
                case .installId:
                    guard let text = visibleName() else { return nil }
                    installID = text
                case .experiment:
                    if takeNull() { continue }
                    guard let text = visibleName() else { return nil }
                    experiment = text
                case .variant:
                    if takeNull() { continue }
                    guard let text = visibleName() else { return nil }
                    variant = text
                case .task:
                    if takeNull() { continue }
                    guard let text = visibleName() else { return nil }
                    task = text
                case .type:
                    guard let text = string(), let parsed = AnalyticsEvent(rawValue: Self.text(text)) else {
                        return nil
                    }
                    type = parsed
                case .feature:
                    guard let text = string(), let parsed = Feature(rawValue: Self.text(text)) else { return nil }
                    feature = parsed
                case .occurredAt:
                    guard let time = timestamp(), time >= EventBatch.earliest, time <= now + EventBatch.maxFutureSkew
                    else { return nil }
                    occurredAt = time
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), let id, let installID, let type, let feature, let occurredAt,
                (experiment == nil) == (variant == nil), task == nil || type.isTaskEvent
            else { return nil }
            return EventBatch.Event(
                id: id, installID: installID, type: type, feature: feature, experiment: experiment, variant: variant,
                occurredAt: occurredAt, task: task)
        }

        /// A string of 1–`maxNameLength` visible ASCII characters (what the full decoder requires of names).
        private mutating func visibleName() -> String? {
            guard let raw = string(), !raw.isEmpty, raw.count <= EventBatch.maxNameLength,
                !raw.contains(UInt8(ascii: " "))
            else { return nil }
            return Self.text(raw)
        }

        /// RFC 3339 text or integer milliseconds.
        private mutating func timestamp() -> Int64? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                guard let raw = string() else { return nil }
                return EventTimestamp.parseRFC3339(bytes: raw)
            }
            // -?(0|[1-9][0-9]*) without fraction or exponent; only positive times can be in range anyway.
            let start = index
            var value: Int64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                // Checked before accumulating: 18 digits always fit in Int64, a 19th may not (2^63 has 19), and
                // the full decoder names the problem. Counting after the multiplication trapped on 19 digits.
                guard index - start < 18 else { return nil }
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - start
            guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
                return nil
            }
            return value
        }

        /// The bytes of a string without escapes, control or non-ASCII bytes (after whitespace); nil otherwise.
        private mutating func string() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return UnsafeBufferPointer(rebasing: bytes[start..<index])
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        private mutating func takeNull() -> Bool {
            skipWhitespace()
            guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
            else { return false }
            index += 4
            return true
        }

        /// Skips whitespace, then consumes `byte` if it is next.
        private mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// RFC 8259 §2: space, horizontal tab, line feed, carriage return.
        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            String(decoding: bytes, as: UTF8.self)
        }
    }
}
