import Testing

@testable import PreludeClient

/// The SDK's event ids are UUIDv7: the server's dedupe index recognises that shape and orders them by time.
struct EventIDTests {
    /// A deterministic generator, so the random bits are known.
    struct Counter: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
    }

    @Test func isACanonicalUUIDv7CarryingTheTime() {
        var generator = Counter(state: 1)
        let id = EventID.make(milliseconds: 0x0193_A5C2_7F1E, using: &generator)
        let characters = Array(id)
        #expect(characters.count == 36)
        #expect(id.hasPrefix("0193a5c2-7f1e-7"))
        #expect([8, 13, 18, 23].allSatisfy { characters[$0] == "-" })
        // Variant 10xx: the first digit of the fourth group is 8, 9, a or b.
        #expect("89ab".contains(characters[19]))
        #expect(id.allSatisfy { $0 == "-" || $0.isHexDigit && !$0.isUppercase })
    }

    /// What the server's index expression (migrations/0007) tests: 36 characters, '7' at 15, '-' at 9 and 24.
    @Test func matchesTheServersTimeOrderedShape() {
        let id = EventID.make(milliseconds: 1_764_000_000_000)
        let characters = Array(id)
        #expect(characters.count == 36 && characters[14] == "7" && characters[8] == "-" && characters[23] == "-")
    }

    @Test func laterEventsSortAfterEarlierOnes() {
        var generator = Counter(state: 7)
        let ids = (0..<50).map { EventID.make(milliseconds: 1_764_000_000_000 + Int64($0) * 3, using: &generator) }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }
}
