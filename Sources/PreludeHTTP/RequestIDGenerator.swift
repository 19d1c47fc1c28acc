/// Request ids for `X-Request-ID`: validates a client's value and generates new ones.
///
/// Each event loop owns one generator (no sharing, no atomics): 16 lowercase hex digits of a random 64-bit base
/// plus a counter. Bases are drawn per loop and per process, so ids are unique within a process (two loops would
/// need 2^64 / N requests to overlap) and unpredictable across restarts.
package struct RequestIDGenerator {
    private let base: UInt64
    private var counter: UInt64 = 0

    /// A generator with a fresh random base.
    package init() {
        var generator = SystemRandomNumberGenerator()
        base = generator.next()
    }

    /// The next id, as its number (``RequestIdentifier/generated(_:)`` writes its digits).
    package mutating func next() -> UInt64 {
        counter &+= 1
        return base &+ counter
    }

    /// The id's text: 16 lowercase hex digits.
    static func text(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            writeDigits(value, to: buffer.baseAddress!)
            return 16
        }
    }

    /// Appends the id's 16 digits to `out`.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            writeDigits(value, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(buffer))
        }
    }

    private static func writeDigits(_ value: UInt64, to start: UnsafeMutablePointer<UInt8>) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            let nibble = Int((value >> UInt64((15 - index) * 4)) & 0xF)
            start[index] = digits.utf8Start[nibble]
        }
    }

    /// Whether a client-sent id is acceptable: 1–128 visible ASCII characters (`!` to `~`), so it can be logged
    /// and echoed without escaping or response splitting.
    package static func isAcceptable(_ id: String) -> Bool {
        let utf8 = id.utf8
        return !utf8.isEmpty && utf8.count <= 128 && utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }
}
