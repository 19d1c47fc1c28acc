/// A JSON object whose members keep the order in which they were inserted.
///
/// Serialization writes members in that order, so a document read and written back keeps its layout,
/// and canonical renderings are deterministic.
///
/// The members live in one array. Most objects (request bodies, decisions, policy sections) have a handful of
/// members, where a linear scan beats hashing every key; an object with more than `indexThreshold` members also
/// keeps a name → position index so lookups stay O(1) for big ones (a policy's copy tables, merged reports).
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The members in insertion order; names are unique.
    private var storage: [(key: String, value: JSONValue)] = []
    /// Position of each member in `storage`; present only while the object has more than `indexThreshold` members.
    private var index: [String: Int]?

    /// Above this many members lookups go through the index instead of a linear scan.
    static let indexThreshold = 16

    /// An empty object.
    public init() {}

    /// An object with `members` in the given order; a repeated key keeps its first position and last value.
    public init(_ members: [(String, JSONValue)]) {
        storage.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { storage.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { storage.isEmpty }

    /// The member names in insertion order.
    public var keys: [String] { storage.map(\.key) }

    /// The members in insertion order.
    public var members: [(key: String, value: JSONValue)] { storage }

    /// Reserves room for `capacity` members, so building an object of known size allocates once.
    public mutating func reserveCapacity(_ capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// The member named `key`; assigning nil removes it, assigning a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return storage[position].value
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    storage[position].value = newValue
                } else {
                    append(key, newValue)
                }
            } else if let position = position(of: key) {
                storage.remove(at: position)
                rebuildIndex()
            }
        }
    }

    /// Whether a member named `key` exists.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Appends a member the caller knows is not present yet (the parser checks duplicates itself, and
    /// encoders write distinct literal names), skipping the lookup the subscript makes.
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        assert(position(of: key) == nil, "appendNew with an existing member name")
        append(key, value)
    }

    /// Iterates the members in insertion order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        storage.makeIterator()
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in storage.indices where storage[position].key == key { return position }
        return nil
    }

    private mutating func append(_ key: String, _ value: JSONValue) {
        storage.append((key, value))
        if index != nil {
            index![key] = storage.count - 1
        } else if storage.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    // After a removal positions shift, so the index is rebuilt (or dropped when the object became small).
    private mutating func rebuildIndex() {
        guard storage.count > Self.indexThreshold else {
            index = nil
            return
        }
        var rebuilt: [String: Int] = [:]
        rebuilt.reserveCapacity(storage.count)
        for (position, member) in storage.enumerated() { rebuilt[member.key] = position }
        index = rebuilt
    }

    // Order matters for serialization but not for equality: two objects with the same members are equal.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for (position, member) in lhs.storage.enumerated() {
            // Same order (the common case) compares in one pass; otherwise look the name up.
            let other = rhs.storage[position]
            if other.key == member.key {
                guard other.value == member.value else { return false }
            } else {
                guard let value = rhs[member.key], value == member.value else { return false }
            }
        }
        return true
    }

    // Order-insensitive like ==: each member is hashed on its own and the results are summed (names are unique,
    // so no two members can cancel out), as Dictionary does.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in storage {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(storage.count)
        hasher.combine(sum)
    }
}
