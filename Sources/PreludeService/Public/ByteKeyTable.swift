/// A hash table keyed by byte strings that is looked up with the bytes in place: a request's app id, query or
/// route pattern finds its value without a `String` or an array being made, hashed by `Hasher` (SipHash, about
/// 300 instructions for a short key, callgrind) or freed.
///
/// Open addressing with linear probing over a power-of-two bucket array kept at most half full; no removal but
/// ``removeAll()``. Keys are hashed by a keyed multiply-fold over 16-byte words (the wyhash construction) with a
/// secret drawn once per process, so which keys collide cannot be chosen from outside; each probe compares the
/// full hash before the bytes.
package struct ByteKeyTable<Value> {
    private var keys: [[UInt8]] = []
    private var hashes: [UInt64] = []
    /// The values, in insertion order (a position is an index here).
    private var values: [Value] = []
    /// Per bucket, the position of its key plus one; 0 is an empty bucket.
    private var buckets: [Int32]

    /// An empty table with room for `capacity` keys before it grows.
    package init(capacity: Int = 8) {
        var size = 4
        while size < 2 * capacity { size *= 2 }
        buckets = Array(repeating: 0, count: size)
        keys.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// A table of a dictionary's keys, as UTF-8, and values.
    package init(_ dictionary: [String: Value]) {
        self.init(capacity: dictionary.count)
        for (key, value) in dictionary { insert(key: Array(key.utf8), value: value) }
    }

    /// The number of keys.
    package var count: Int { values.count }

    /// The position of `key`'s value, or nil.
    package func position(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(key)
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        return buckets.withUnsafeBufferPointer { buckets in
            hashes.withUnsafeBufferPointer { hashes in
                while buckets[bucket] != 0 {
                    let position = Int(buckets[bucket]) - 1
                    if hashes[position] == hash, keys[position].withUnsafeBufferPointer({ Self.equal($0, key) }) {
                        return position
                    }
                    bucket = (bucket + 1) & mask
                }
                return nil
            }
        }
    }

    /// The position of the UTF-8 bytes of `key`, or nil.
    package func position(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { position(of: $0) }
    }

    /// The value of the UTF-8 bytes of `key`, or nil.
    package subscript(key: String) -> Value? {
        position(of: key).map { values[$0] }
    }

    /// The value at a position (from ``position(of:)-(UnsafeBufferPointer<UInt8>)`` or ``insert(key:value:)``).
    package subscript(position position: Int) -> Value {
        get { values[position] }
        set { values[position] = newValue }
    }

    /// Adds a key that is not in the table; returns its position.
    @discardableResult
    package mutating func insert(key: [UInt8], value: Value) -> Int {
        if 2 * (values.count + 1) > buckets.count { grow() }
        let hash = key.withUnsafeBufferPointer { Self.hash($0) }
        keys.append(key)
        hashes.append(hash)
        values.append(value)
        place(position: values.count - 1, hash: hash)
        return values.count - 1
    }

    /// Empties the table, keeping its room.
    package mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        for index in buckets.indices { buckets[index] = 0 }
    }

    private mutating func place(position: Int, hash: UInt64) {
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(position + 1)
    }

    private mutating func grow() {
        buckets = Array(repeating: 0, count: buckets.count * 2)
        for position in hashes.indices { place(position: position, hash: hashes[position]) }
    }

    /// Byte equality, eight bytes at a time (only reached when the full hashes are equal).
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var index = 0
        let raw = (UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
        while index + 8 <= a.count {
            if raw.0.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                != raw.1.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                return false
            }
            index += 8
        }
        while index < a.count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }

    /// The keyed hash of a key's bytes.
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let secret = ByteKeySecret.words
        let raw = UnsafeRawBufferPointer(key)
        var state = secret.0 ^ UInt64(truncatingIfNeeded: raw.count)
        var offset = 0
        while offset + 16 <= raw.count {
            let low = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let high = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            state = fold(low ^ secret.1, high ^ state)
            offset += 16
        }
        var low: UInt64 = 0
        var high: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            let byte = UInt64(raw[offset])
            if shift < 64 { low |= byte << shift } else { high |= byte << (shift - 64) }
            shift += 8
            offset += 1
        }
        state = fold(low ^ secret.1, high ^ state)
        return fold(state ^ secret.2, UInt64(truncatingIfNeeded: raw.count) ^ secret.1)
    }

    /// The 128-bit product of two words, its halves xor-ed.
    @inline(__always) private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}

extension ByteKeyTable: Sendable where Value: Sendable {}

/// The per-process secret of ``ByteKeyTable``'s hash (odd words, as the fold wants).
private enum ByteKeySecret {
    static let words: (UInt64, UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next() | 1, generator.next() | 1, generator.next() | 1)
    }()
}
