import PreludeTestSupport
import Testing

@testable import PreludeService

/// The byte-keyed table behind the plain-query memory, the served snapshots and the request metrics: it must find
/// exactly what a `Dictionary` finds, through growth and clearing, for keys of every length.
@Suite struct ByteKeyTableTests {
    static func find(_ table: ByteKeyTable<Int>, _ key: [UInt8]) -> Int? {
        key.withUnsafeBufferPointer { table.position(of: $0) }.map { table[position: $0] }
    }

    @Test func findsWhatADictionaryFinds() {
        var random = SplitMix64(state: 0x7AB1E)
        var table = ByteKeyTable<Int>(capacity: 2)
        var reference: [[UInt8]: Int] = [:]
        // Short alphabets make keys that share prefixes and differ in one byte; lengths cross the 8- and 16-byte
        // words the hash and the comparison read.
        for step in 0..<4000 {
            let length = random.below(40)
            let key = (0..<length).map { _ in UInt8(truncatingIfNeeded: 0x61 + random.below(3)) }
            if step % 1500 == 1499 {
                table.removeAll()
                reference.removeAll()
                #expect(table.count == 0)
            }
            if let known = reference[key] {
                #expect(Self.find(table, key) == known, "\(key)")
            } else {
                #expect(Self.find(table, key) == nil, "\(key)")
                let position = table.insert(key: key, value: step)
                reference[key] = step
                #expect(table[position: position] == step)
            }
            #expect(table.count == reference.count)
        }
        for (key, value) in reference { #expect(Self.find(table, key) == value) }
    }

    @Test func stringKeysAreTheirUTF8() {
        var table = ByteKeyTable(["demo": 1, "démo": 2, "": 3])
        #expect(table.count == 3)
        #expect(table["demo"] == 1)
        #expect(table["démo"] == 2)
        #expect(table[""] == 3)
        #expect(table["Demo"] == nil)
        #expect(table["demo "] == nil)
        table[position: table.position(of: "demo")!] = 9
        #expect(table["demo"] == 9)
    }

    /// Keys equal in their first 16 bytes and in length, or differing only in the zero bytes a short tail is padded
    /// with, must still be told apart.
    @Test func tellsApartKeysThatDifferOnlyLate() {
        var table = ByteKeyTable<Int>()
        let base = Array("platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=".utf8)
        table.insert(key: base + [0x41], value: 1)
        table.insert(key: base + [0x42], value: 2)
        table.insert(key: [0x61], value: 3)
        table.insert(key: [0x61, 0x00], value: 4)
        table.insert(key: [], value: 5)
        #expect(Self.find(table, base + [0x41]) == 1)
        #expect(Self.find(table, base + [0x42]) == 2)
        #expect(Self.find(table, base + [0x43]) == nil)
        #expect(Self.find(table, [0x61]) == 3)
        #expect(Self.find(table, [0x61, 0x00]) == 4)
        #expect(Self.find(table, [0x61, 0x00, 0x00]) == nil)
        #expect(Self.find(table, []) == 5)
    }

    /// The comparison behind a full-hash match (collisions are too rare to reach it through lookups): any byte
    /// that differs, at every position of every length across the words it reads, makes keys unequal.
    @Test func equalityReadsEveryByte() {
        for length in 0..<40 {
            let key = (0..<length).map { UInt8(truncatingIfNeeded: 0x30 + $0) }
            let same = key.withUnsafeBufferPointer { a in
                key.map { $0 }.withUnsafeBufferPointer { b in ByteKeyTable<Int>.equal(a, b) }
            }
            #expect(same, "length \(length)")
            for position in 0..<length {
                var other = key
                other[position] ^= 0x01
                let equal = key.withUnsafeBufferPointer { a in
                    other.withUnsafeBufferPointer { b in ByteKeyTable<Int>.equal(a, b) }
                }
                #expect(!equal, "length \(length), byte \(position)")
            }
            let longer = key + [0]
            #expect(
                !key.withUnsafeBufferPointer { a in longer.withUnsafeBufferPointer { ByteKeyTable<Int>.equal(a, $0) } })
        }
    }
}
