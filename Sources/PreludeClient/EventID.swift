/// Event ids as the SDK generates them: UUIDv7 (RFC 9562 §5.7), lowercase, e.g.
/// `0193a5c2-7f1e-7abc-9def-0123456789ab`.
///
/// The first 48 bits are the event's creation time in Unix milliseconds, so ids sort by time. The server's dedupe
/// index orders UUIDv7 ids by time (docs/storage.md, "Dedupe index"): the events of many installs that arrive
/// together then land on a few index pages, which is what keeps a relay mixing many devices' events cheap to
/// store. The 74 other bits are random, so two ids of one install never collide in practice.
enum EventID {
    /// A UUIDv7 for an event created at `milliseconds` since the Unix epoch (clamped to the 48 bits it has).
    static func make(milliseconds: Int64, using generator: inout some RandomNumberGenerator) -> String {
        let time = UInt64(clamping: max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        let random = generator.next() as UInt64
        let more = generator.next() as UInt64
        // 48 bits time | 4 bits version (7) | 12 bits random
        let high = time << 16 | 0x7000 | (random & 0x0FFF)
        // 2 bits variant (10) | 62 bits random
        let low = 0x8000_0000_0000_0000 | (more & 0x3FFF_FFFF_FFFF_FFFF)
        let hex = Self.hex(high, digits: 16) + Self.hex(low, digits: 16)
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16]) + "-"
            + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }

    /// A UUIDv7 for an event created at `milliseconds`, from the system's random number generator.
    static func make(milliseconds: Int64) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(milliseconds: milliseconds, using: &generator)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: digits - text.count) + text
    }
}
