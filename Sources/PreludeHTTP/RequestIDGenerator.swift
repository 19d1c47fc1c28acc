/// Request ids for `X-Request-ID`: validates a client's value and generates new ones.
///
/// Each event loop owns one generator (no sharing, no atomics): 16 lowercase hex digits of a random 64-bit base
/// plus a counter. Bases are drawn per loop and per process, so ids are unique within a process (two loops would
/// need 2^64 / N requests to overlap) and unpredictable across restarts.
struct RequestIDGenerator {
    private let base: UInt64
    private var counter: UInt64 = 0

    /// A generator with a fresh random base.
    init() {
        var generator = SystemRandomNumberGenerator()
        base = generator.next()
    }

    /// The next id.
    mutating func next() -> String {
        counter &+= 1
        let value = base &+ counter
        return String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                let nibble = Int((value >> UInt64((15 - index) * 4)) & 0xF)
                buffer[index] = digits.utf8Start[nibble]
            }
            return 16
        }
    }

    /// Whether a client-sent id is acceptable: 1–128 visible ASCII characters (`!` to `~`), so it can be logged
    /// and echoed without escaping or response splitting.
    static func isAcceptable(_ id: String) -> Bool {
        let utf8 = id.utf8
        return !utf8.isEmpty && utf8.count <= 128 && utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }
}
