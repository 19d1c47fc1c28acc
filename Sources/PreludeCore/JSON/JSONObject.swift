/// A JSON object whose members keep the order in which they were inserted.
///
/// Serialization writes members in that order, so a document read and written back keeps its layout,
/// and canonical renderings are deterministic.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The member names in insertion order.
    public private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object with `members` in the given order; a repeated key keeps its first position and last value.
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The member named `key`; assigning nil removes it, assigning a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// Whether a member named `key` exists.
    public func contains(_ key: String) -> Bool { storage[key] != nil }

    /// The members in insertion order.
    public var members: [(key: String, value: JSONValue)] {
        keys.map { ($0, storage[$0]!) }
    }

    /// Iterates the members in insertion order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        members.makeIterator()
    }

    // Order matters for serialization but not for equality: two objects with the same members are equal.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.storage == rhs.storage }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}
